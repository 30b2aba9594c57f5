#!/bin/bash
# Does where CUPTI keeps the GPU's timestamps change the observer effect? kernel-transfer and default-stream at their
# default 8 streams, 41 ABBA repeats, in 3 processes each, with CUPTI's default (device memory, 3.2 MB buffers),
# with page-locked host memory (SS_CUPTI_RECORDS=pinned) and with 32 MiB device buffers (device=33554432).
# Usage (on the GPU machine): observer_records.sh BUILD_DIR; results under $OUT/observer-records.
set -u
bin=${1:-build-h200}/streamscope
out=${OUT:-/tmp/observer-records-out}/observer-records
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
for i in 1 2 3; do
	for mode in default pinned device=33554432; do
		for p in kernel-transfer default-stream; do
			name="$p-${mode%%=*}-$i"
			if [ "$mode" = default ]; then env=(); else env=(SS_CUPTI_RECORDS="$mode"); fi
			env "${env[@]}" SS_VERBOSE=1 timeout 120 "$bin" run --backend cuda --preset "$p" --repeat 41 \
				>"$out/$name.txt" 2>&1
			echo "$name: exit $? $(grep -E 'traced / untraced' "$out/$name.txt")"
		done
	done
done | tee "$out/summary.txt"
