#!/bin/bash
# brackets.sh: what timing the prefetches with events (--prefetch-events, src/cuda/bracket.c) costs the traced
# run of the managed preset: traced vs untraced makespan with --prefetch-events and without, in configurations
# where it might matter. Usage: tests/gpu/brackets.sh BUILD_DIR [REPEATS]; writes $OUT/brackets.txt.
set -u
bin=$1/streamscope
rep=${2:-9}
out=${OUT:-/tmp}/brackets.txt
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
: >"$out"
for cfg in "--streams 8" "--streams 8 --connections 1" "--streams 32" "--streams 32 --order breadth" \
	"--streams 8 --connections 1 --order breadth"; do
	for mode in --prefetch-events ""; do
		# shellcheck disable=SC2086
		line=$(timeout 60 "$bin" run --backend cuda --preset managed $cfg $mode --repeat "$rep" 2>&1 |
			grep -E "traced /|CUPTI vs events" | tr -s ' ' | paste -sd' ')
		echo "managed $cfg ${mode:-(no prefetch events)}: $line" | tee -a "$out"
	done
done
