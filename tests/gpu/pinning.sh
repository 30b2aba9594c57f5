#!/bin/bash
# Does the process-to-process spread of host-bound runs come from where the process runs? The same experiments
# in 8 fresh processes each, left to the scheduler and pinned to one CPU (taskset), every repeat's makespans kept.
# Usage (on the GPU machine): tests/gpu/pinning.sh BUILD_DIR; results under $OUT/pinning.
set -u
bin=${1:-build-h200}/streamscope
out=${OUT:-/tmp/pinning-out}/pinning
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
{ nproc; lscpu; taskset -p $$; } >"$out/cpus.txt" 2>&1
for mode in free pin2 pin9; do
	case $mode in
	free) pre=() ;;
	pin2) pre=(taskset -c 2) ;;
	pin9) pre=(taskset -c 9) ;;
	esac
	for i in 1 2 3 4 5 6 7 8; do
		for x in "kt8:--preset kernel-transfer" "hq32b8q:--preset hyperq --order breadth --connections 8" \
			"kt64d8q:--preset kernel-transfer --streams 64 --order depth --connections 8"; do
			name=${x%%:*}
			# shellcheck disable=SC2086
			"${pre[@]}" timeout 60 "$bin" run --backend cuda --repeat 5 ${x#*:} >"$out/$mode-$name-$i.txt" 2>&1
			echo "$mode $name $i: $(grep -E 'traced / untraced' "$out/$mode-$name-$i.txt")"
		done
	done
done | tee "$out/summary.txt"
