#!/bin/bash
# Does validate's host probe (calibrate_host, before the matrix) see the call costs that the matrix's rows then show
# in the same process, and does the probe after the matrix agree? Three validate processes of hyperq and sync-order
# with the probe's kernels as shipped (the preset's, ~0.1 ms) alternate with three using the probe's first kernels
# (SS_PROBE_WORK=1000, ~2 us). Then: does the address-space layout set a process's host speed? hyperq 32 streams
# breadth-first on 8 queues in 6 processes with ASLR and 6 without (setarch -R), alternating, traced timelines kept.
# Usage (on the GPU machine): host_probe.sh BUILD_DIR; results in $OUT/host-probe.tar.gz.
set -u
bin=${1:-build-h200}/streamscope
top=${OUT:-/tmp/host-probe-out}
out=$top/host-probe
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
{
	date -u
	cat /proc/loadavg
	for i in 1 2 3; do
		timeout 170 "$bin" validate --preset hyperq,sync-order --csv "$out/new-$i.csv" >"$out/new-$i.txt" 2>&1
		echo "new-$i: exit $? $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
		SS_PROBE_WORK=1000 timeout 170 "$bin" validate --preset hyperq,sync-order --csv "$out/old-$i.csv" \
			>"$out/old-$i.txt" 2>&1
		echo "old-$i: exit $? $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
	done
	for i in 1 2 3 4 5 6; do
		for m in aslr norand; do
			pre=()
			[ "$m" = norand ] && pre=(setarch "$(uname -m)" -R)
			"${pre[@]}" timeout 60 "$bin" run --backend cuda --preset hyperq --order breadth --connections 8 \
				--repeat 9 --json --export "$out/layout-$m-$i.sqlite" >"$out/layout-$m-$i.json" \
				2>"$out/layout-$m-$i.err"
			echo "layout-$m-$i: exit $?"
		done
	done
	date -u
} 2>&1 | tee "$out/status.txt"
tar -C "$top" -czf "$top/host-probe.tar.gz" host-probe && rm -rf "$out"
