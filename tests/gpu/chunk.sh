#!/bin/bash
# chunk.sh: every example step program (examples/*.ini with a [chunk] section) on the GPU: `streamscope run FILE
# --backend cuda` in each order it has (depth, breadth, and interleave where the file gives one), with one host
# thread per stream once, each run verified (the CUDA backend compares every host and device array with the steps
# replayed on the host: a mismatch fails the run); the model's makespan beside each for comparison; one traced run
# of each file exported as SQLite and Chrome JSON, with its op list, every record the op list must produce captured
# (H2D, KER, D2H, MEMSET got = want). A line per run in $OUT/chunk.txt (PASS or
# FAIL, the makespans), each run's output in $OUT/chunk-NAME-ORDER.txt. Exit 1 when any run failed.
# Usage: tests/gpu/chunk.sh [BUILD_DIR]   (default: build)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$root/build}/streamscope
out=${OUT:-/tmp}
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
fail=0
: >"$out/chunk.txt"
nvidia-smi -L >>"$out/chunk.txt" 2>&1

# makespan prints the makespan line of a run's text output ("makespan (...)  1.234 ms").
makespan() {
	grep -E '^makespan' "$1" | head -1 | tr -s ' ' | cut -d' ' -f3-4
}

# records_match says whether each "KIND got/want" of a run's records line has got = want.
records_match() {
	grep -E '^records' "$1" | grep -oE '(H2D|KER|D2H|MEMSET) [0-9]+/[0-9]+' |
		awk '{ split($2, v, "/"); if (v[1] != v[2]) bad = 1 } END { exit bad }'
}

# one NAME FILE ORDER [OPTION...]: a verified CUDA run and its model twin.
one() {
	local name=$1 file=$2 order=$3 tag
	shift 3
	tag=$name-$order${1:+-threads}
	if timeout 300 "$bin" run "$file" --backend cuda --order "$order" "$@" >"$out/chunk-$tag.txt" 2>&1 &&
		grep -q '^results verified *yes' "$out/chunk-$tag.txt"; then
		res=PASS
	else
		res=FAIL
		fail=1
	fi
	timeout 120 "$bin" run "$file" --backend model --order "$order" "$@" >"$out/chunk-$tag-model.txt" 2>&1
	echo "$res $tag cuda $(makespan "$out/chunk-$tag.txt") model $(makespan "$out/chunk-$tag-model.txt")" |
		tee -a "$out/chunk.txt"
	[ $res = PASS ] || tail -3 "$out/chunk-$tag.txt" | tee -a "$out/chunk.txt"
}

for file in "$root"/examples/*.ini; do
	grep -q '^\[chunk\]' "$file" || continue
	name=$(basename "$file" .ini)
	orders="depth breadth"
	grep -q '^interleave' "$file" && orders="$orders interleave"
	for order in $orders; do
		one "$name" "$file" "$order"
	done
	streams=$(sed -n 's/^streams *= *\([0-9]*\).*/\1/p' "$file" | head -1)
	one "$name" "$file" depth --threads "${streams:-8}"
	# a traced run with its exports, and the op list it issued
	"$bin" ops --experiment "$file" >"$out/chunk-$name-ops.txt" 2>&1
	if SS_VERBOSE=1 timeout 300 "$bin" run "$file" --backend cuda --repeat 1 \
		--export "$out/chunk-$name.sqlite" --export "$out/chunk-$name.json" >"$out/chunk-$name-traced.txt" 2>&1 &&
		[ -s "$out/chunk-$name.sqlite" ] && [ -s "$out/chunk-$name.json" ] &&
		# every H2D, KER, D2H and MEMSET record the op list must produce, captured
		grep -qE '^records' "$out/chunk-$name-traced.txt" && records_match "$out/chunk-$name-traced.txt"; then
		echo "PASS $name traced export $(grep -E '^records' "$out/chunk-$name-traced.txt" | tr -s ' ')" |
			tee -a "$out/chunk.txt"
	else
		echo "FAIL $name traced export" | tee -a "$out/chunk.txt"
		tail -3 "$out/chunk-$name-traced.txt" | tee -a "$out/chunk.txt"
		fail=1
	fi
done
exit $fail
