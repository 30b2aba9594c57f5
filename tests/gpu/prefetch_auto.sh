#!/bin/bash
# prefetch_auto.sh: is --prefetch-events=auto's rule right? Auto times the prefetches with cudaEvents only where
# every stream has a hardware queue of its own (streams <= --connections), on the claim that there the events cost
# the traced run nothing measurable. For configurations on both sides of the rule, the managed preset with the
# events on and off: traced vs untraced makespan and CUPTI vs cudaEvent.
# Usage: tests/gpu/prefetch_auto.sh BUILD_DIR [REPEATS]; writes $OUT/prefetch-auto.txt.
set -u
bin=$1/streamscope
rep=${2:-9}
out=${OUT:-/tmp}/prefetch-auto.txt
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
: >"$out"
for cfg in "--streams 1" "--streams 4" "--streams 8" "--streams 8 --order breadth" \
	"--streams 16 --connections 16" "--streams 32 --connections 32" \
	"--streams 32 --connections 32 --order breadth" "--streams 16" "--streams 8 --connections 4"; do
	for mode in on off; do
		# shellcheck disable=SC2086
		line=$(timeout 60 "$bin" run --backend cuda --preset managed $cfg --prefetch-events=$mode --repeat "$rep" \
			2>&1 | grep -E "traced /|CUPTI vs events|^records" | tr -s ' ' | paste -sd' ')
		echo "managed $cfg events $mode: $line" | tee -a "$out"
	done
done
