#!/bin/bash
# brackets.sh: what timing the prefetches with events (--prefetch-events, src/cupti/bracket.c) costs the traced
# run of the managed preset: traced vs untraced makespan with SS_PREFETCH_EVENTS=1 and without, in configurations
# where it might matter. Usage: tests/gpu/brackets.sh BUILD_DIR [REPEATS]; writes $OUT/brackets.txt.
set -u
bin=$1/streamscope
rep=${2:-9}
out=${OUT:-/tmp}/brackets.txt
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
: >"$out"
for cfg in "--streams 8" "--streams 8 --connections 1" "--streams 32" "--streams 32 --order breadth" \
	"--streams 8 --connections 1 --order breadth"; do
	for mode in 1 0; do
		# shellcheck disable=SC2086
		line=$(SS_PREFETCH_EVENTS=$mode timeout 60 "$bin" run --backend cuda --preset managed $cfg --repeat "$rep" 2>&1 |
			grep -E "traced /|CUPTI vs events" | tr -s ' ' | paste -sd' ')
		echo "managed $cfg SS_PREFETCH_EVENTS=$mode: $line" | tee -a "$out"
	done
done
