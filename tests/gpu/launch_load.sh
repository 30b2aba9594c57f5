#!/bin/bash
# Does a launch cost more while earlier kernels still run? hyperq on 32 streams and 8 hardware queues, both orders,
# with short kernels (work 1000: ~2 us, done before the next launch) and the preset's long ones (work 50000: ~113
# us, up to 64 in flight), alternating in 3 rounds of fresh processes; traced timelines kept (their
# cudaLaunchKernel records). Usage (on the GPU machine): launch_load.sh BUILD_DIR; results under $OUT/launch-load.
set -u
bin=${1:-build-h200}/streamscope
out=${OUT:-/tmp/launch-load-out}/launch-load
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
for i in 1 2 3; do
	for order in depth breadth; do
		for work in 1000 50000; do
			name="hq32-$order-w$work-$i"
			timeout 60 "$bin" run --backend cuda --preset hyperq --connections 8 --order "$order" --work "$work" \
				--repeat 3 --export "$out/$name.sqlite" >"$out/$name.txt" 2>&1
			echo "$name: exit $?"
		done
	done
done | tee "$out/status.txt"
