#!/bin/bash
# timer_threads.sh: where should a run's start events go when several host threads issue? With one thread per
# stream, kernel-transfer's CUPTI span came out 0.9-1.1% longer than its cudaEvent makespan: the earliest start event
# ran late. Each configuration under three placements (diagnostic SS_TIMER): shared (every thread's start event on
# one idle timer stream, after its first call: the placement until 2026-11-30), thread (one idle timer stream per
# thread: the default since, so SS_TIMER=thread is the default's run), before (the start event before the thread's
# first call); several processes each, CUPTI vs events over the traced repeats.
# Usage: tests/gpu/timer_threads.sh BUILD_DIR [REPEATS]; writes $OUT/timer-threads.txt.
set -u
bin=$1/streamscope
rep=${2:-15}
out=${OUT:-/tmp}/timer-threads.txt
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
: >"$out"
for cfg in "kernel-transfer --threads 8" "kernel-transfer --threads 8" "kernel-transfer --threads 8" \
	"sync-order --threads 8" "pageable --threads 8" "hyperq --threads 32" "kernel-transfer --threads 32 --streams 32" \
	"kernel-transfer"; do
	for mode in shared thread before; do
		# shellcheck disable=SC2086
		line=$(SS_TIMER=$mode timeout 60 "$bin" run --backend cuda --preset $cfg --repeat "$rep" 2>&1 |
			grep -E "traced /|CUPTI vs events|^records" | tr -s ' ' | paste -sd' ')
		echo "$cfg timer $mode: $line" | tee -a "$out"
	done
done
