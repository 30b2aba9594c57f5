#!/bin/bash
# Is the cost of 8 hardware queues over one, for many streams depth-first, on the host or on the GPU? kernel-transfer
# on 64 streams with 256 KiB, 1 MiB and 4 MiB copies (2^22, 2^24, 2^26 elements), 1 and 8 queues, 3 rounds of fresh
# processes: when the copies are long enough for the GPU to be the bottleneck, a host-side cost disappears from the
# untraced makespan and a per-copy GPU-side one stays. Usage (on the GPU machine): queue_penalty.sh BUILD_DIR;
# results in $OUT/queue-penalty.tar.gz.
set -u
bin=${1:-build-h200}/streamscope
top=${OUT:-/tmp/queue-penalty-out}
out=$top/queue-penalty
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
for round in 1 2 3; do
	for el in 4M 16M 64M; do
		for q in 1 8; do
			name="kt64-$el-${q}q-$round"
			timeout 60 "$bin" run --backend cuda --preset kernel-transfer --streams 64 --elements "$el" \
				--connections "$q" --repeat 5 --json >"$out/$name.json" 2>"$out/$name.err"
			echo "$name: exit $?"
		done
	done
done | tee "$out/status.txt"
tar -C "$top" -czf "$top/queue-penalty.tar.gz" queue-penalty && rm -rf "$out"
