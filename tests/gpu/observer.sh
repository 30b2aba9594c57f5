#!/bin/bash
# The observer effect's distribution on a GPU: each preset at its default stream count with many ABBA repeats,
# every repeat's traced and untraced makespan kept (SS_VERBOSE=1 progress lines). Usage: observer.sh BUILD_DIR
# [REPEATS]; results under $OUT/observer/ (PRESET.txt: progress and summary, PRESET.json: the run's JSON).
set -u
bin=${1:-build-h200}/streamscope
n=${2:-41}
out=${OUT:-/tmp/observer-out}/observer
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
for p in kernel-transfer sync-order default-stream pageable managed; do
	SS_VERBOSE=1 timeout 120 "$bin" run --backend cuda --preset "$p" --repeat "$n" --json >"$out/$p.json" 2>"$out/$p.txt"
	echo "$p: exit $?" >>"$out/status.txt"
done
