#!/bin/bash
# Where the time goes when the same many-stream experiment runs on 8 hardware queues instead of 1 (the validation
# matrix: 64-stream depth-first rows 10-20% slower on 8 queues in every measurement; hyperq breadth-first rows
# bound by the host's launches). Traced timelines of each, plus every repeat's traced and untraced makespans.
# Usage (on the GPU machine): tests/gpu/queues.sh BUILD_DIR; results under $OUT/queues.
set -u
bin=${1:-build-h200}/streamscope
out=${OUT:-/tmp/queues-out}/queues
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
run() { # NAME ARGS...
	local name=$1; shift
	SS_VERBOSE=1 timeout 120 "$bin" run --backend cuda --repeat 9 "$@" --export "$out/$name.sqlite" >"$out/$name.txt" 2>&1
	echo "$name: exit $?"
}
for q in 1 8; do
	run "kt-64-depth-${q}q" --preset kernel-transfer --streams 64 --order depth --connections $q
	run "so-64-depth-${q}q" --preset sync-order --streams 64 --order depth --connections $q
	run "hq-32-breadth-${q}q" --preset hyperq --streams 32 --order breadth --connections $q
	run "hq-128-breadth-${q}q" --preset hyperq --streams 128 --order breadth --connections $q
done
