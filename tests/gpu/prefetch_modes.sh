#!/bin/bash
# prefetch_modes.sh: what the prefetch events cost the traced run, with the event before each prefetch left out
# where its stream is idle at the call (the default) against an event before every prefetch (SS_BRACKETS=always,
# how it was until 2026-11-30) and no events at all (--prefetch-events=off). The managed preset on configurations
# where auto turns the events on, each mode in 3 processes of REPEATS ABBA repeats, the modes interleaved.
# Usage: [MODES="idle always off"] tests/gpu/prefetch_modes.sh BUILD_DIR [REPEATS]; writes
# $OUT/prefetch-modes.txt and, for the preset's defaults in both orders and 32 streams on 32 queues, a verbose run
# with its trace ($OUT/managed-{8-depth,8-breadth,32-32q}-idle.{txt,sqlite}).
set -u
bin=$1/streamscope
rep=${2:-41}
out=${OUT:-/tmp}
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
: >"$out/prefetch-modes.txt"
for o in depth breadth; do
	SS_VERBOSE=1 timeout 60 "$bin" run --backend cuda --preset managed --order $o \
		--export "$out/managed-8-$o-idle.sqlite" >"$out/managed-8-$o-idle.txt" 2>&1
done
SS_VERBOSE=1 timeout 60 "$bin" run --backend cuda --preset managed --streams 32 --connections 32 \
	--export "$out/managed-32-32q-idle.sqlite" >"$out/managed-32-32q-idle.txt" 2>&1
for cfg in "--streams 8" "--streams 8 --order breadth" "--streams 32 --connections 32"; do
	for k in 1 2 3; do
		for mode in ${MODES:-idle always off}; do
			env=()
			pe=on
			[ $mode = always ] && env=(SS_BRACKETS=always)
			[ $mode = off ] && pe=off
			# shellcheck disable=SC2086
			line=$(env "${env[@]}" timeout 60 "$bin" run --backend cuda --preset managed $cfg \
				--prefetch-events=$pe --repeat "$rep" 2>&1 |
				grep -E "traced /|overhead per repeat|CUPTI vs events over" | tr -s ' ' | paste -sd' ')
			echo "managed $cfg mode $mode process $k: $line" | tee -a "$out/prefetch-modes.txt"
		done
	done
done
