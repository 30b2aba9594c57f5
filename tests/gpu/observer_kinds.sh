#!/bin/bash
# Which side of tracing the observer effect comes from: kernel-transfer and default-stream at 8 streams with 41 ABBA
# repeats, tracing every kind, only the GPU kinds (SS_CUPTI_ONLY=gpu: kernels, copies, memsets) and only the host
# kinds (SS_CUPTI_ONLY=host: API calls, synchronisation, CUPTI overhead). Usage: observer_kinds.sh BUILD_DIR;
# results in $OUT/observer-kinds.tar.gz (PRESET-SIDE.txt: every repeat's traced and untraced makespan).
set -u
bin=${1:-build-h200}/streamscope
out=${OUT:-/tmp/observer-kinds-out}
work=$(mktemp -d)/observer-kinds
mkdir -p "$work" "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
for p in kernel-transfer default-stream; do
	for side in all gpu host; do
		if [ "$side" = all ]; then
			SS_VERBOSE=1 timeout 120 "$bin" run --backend cuda --preset "$p" --repeat 41 >"$work/$p-$side.txt" 2>&1
		else
			SS_CUPTI_ONLY=$side SS_VERBOSE=1 timeout 120 "$bin" run --backend cuda --preset "$p" --repeat 41 \
				>"$work/$p-$side.txt" 2>&1
		fi
		echo "$p $side: exit $?" >>"$work/status.txt"
	done
done
tar -C "$(dirname "$work")" -czf "$out/observer-kinds.tar.gz" observer-kinds
