#!/bin/sh
# h200_smoke.sh: every preset, option coverage and the kernel-transfer sweep through gpu_smoke, on a GPU machine.
# Usage: tests/gpu/h200_smoke.sh BUILD_DIR OUT_DIR   (writes OUT_DIR/smoke.log and OUT_DIR/timelines.tar.gz)
B=${1:-build-h200}/tests/gpu/gpu_smoke
O=${2:-out}
mkdir -p "$O/tl"
LOG="$O/smoke.log"
: >"$LOG"
n=0
run() {
	n=$((n + 1))
	name=$1
	shift
	echo "=== $name: $*" >>"$LOG"
	start=$(date +%s.%N)
	timeout 120 "$B" "$@" --dump "$O/tl/$name.tsv" >>"$LOG" 2>&1
	rc=$?
	end=$(date +%s.%N)
	echo "exit $rc wall $(awk "BEGIN{print $end - $start}")" >>"$LOG"
}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,pcie.link.gen.current,pcie.link.width.current \
	--format=csv >>"$LOG" 2>&1
for p in kernel-transfer decrypt hyperq default-stream sync-order managed pageable; do
	run "preset-$p" --preset "$p"
done
for o in depth breadth; do
	for s in 1 2 4 8 16 32 64 128; do
		run "sweep-$o-$s" --preset kernel-transfer --order "$o" --streams "$s"
	done
done
run hyperq-breadth-q1 --preset hyperq --order breadth
run hyperq-spin-breadth-q1 --preset hyperq --spin-breadth
run hyperq-spin-breadth-q32 --preset hyperq --spin-breadth --connections 32
run hyperq-depth-q32 --preset hyperq --connections 32
run hyperq-breadth-q32 --preset hyperq --order breadth --connections 32
run threads-8 --preset kernel-transfer --threads 8
run threads-32-breadth --preset kernel-transfer --threads 32 --streams 32 --order breadth
run nonblocking-legacy-op --preset default-stream --nonblocking
run default-stream-breadth --preset default-stream --order breadth
run nonblocking --preset kernel-transfer --nonblocking
run managed-prefetch-breadth --preset managed --order breadth
run per-thread-op --preset kernel-transfer --default-stream per-thread
run event-timer --preset kernel-transfer --default-stream event-timer
run sync-events --preset kernel-transfer --sync events
run sync-device --preset kernel-transfer --sync device
run managed-attach --preset kernel-transfer --host-mem managed-attach
run chunks-tail --preset kernel-transfer --streams 3 --chunks 7 --elements 1000003
run large-copy --preset kernel-transfer --streams 1 --elements 268435456 --work 1 --repeat 1 --warmup 1
run work-scan-1 --preset kernel-transfer --streams 1 --work 1
run work-scan-800 --preset kernel-transfer --streams 1 --work 800
(cd "$O" && tar czf timelines.tar.gz tl && rm -rf tl)
echo "runs $n failed $(grep -c '^result FAIL' "$LOG") ok $(grep -c '^result ok' "$LOG")" >>"$LOG"
