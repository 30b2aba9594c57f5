#!/bin/sh
# campaign.sh: long fuzz campaigns. Builds every libFuzzer target tests/fuzz/CMakeLists.txt defines (clang, ASan +
# UBSan; the targets are found from the build's target list, so a new fuzz_*.c there needs no edit here), runs each
# in turn from its committed corpus tests/fuzz/corpus/<name> (fuzz_<name>) and what earlier campaigns found
# ($build/fuzz-corpus/<name>) for a time or a number of executions, then merges what it found into the committed
# corpus, minimised (libFuzzer -merge=1 into an empty folder: the smallest set with all the edges covered; the
# hand-named seeds, anything not named by its SHA-1 as libFuzzer names inputs, are always kept). Prints per target: executions, exec/s, coverage (cov and ft from
# libFuzzer's final stats), corpus files and size before and after, crashes. A crash, leak, timeout or out-of-memory
# fails the script; its input is kept as $build/fuzz-artifacts/fuzz_<name>-crash-<sha1> (or leak-, timeout-,
# oom-): fix the bug and commit the input to the corpus under a name that says what it found.
#
#   tests/fuzz/campaign.sh [-t SECONDS | -n RUNS] [--no-merge] [NAME...]
#     -t SECONDS   time per target (SS_FUZZ_SECONDS; default 600)
#     -n RUNS      executions per target instead (SS_FUZZ_RUNS)
#     --no-merge   leave the committed corpus as it is (new inputs go to a scratch folder and are dropped): CI
#     NAME...      only these targets (import_chrome or fuzz_import_chrome); default all
#   SS_FUZZ_BUILD (default build-fuzz) build folder, SS_FUZZ_JOBS (default nproc) build jobs, SS_FUZZ_ASAN=0
#   targets with UBSan only (several times faster; give it an SS_FUZZ_BUILD of its own), SS_FUZZ_FLAGS more
#   libFuzzer options (-max_len=N, -dict=FILE, ...).
# libFuzzer's output goes to $build/fuzz-logs/. Each target's result is also appended to $build/fuzz-campaign.tsv,
# which gives the executions summed over campaigns ("total"). Run one campaign at a time: two would merge into the
# same corpus at once.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${SS_FUZZ_BUILD:-$root/build-fuzz}
secs=${SS_FUZZ_SECONDS:-}
runs=${SS_FUZZ_RUNS:-}
merge=1
only=

# usage prints the usage lines of the comment above and exits with $1 (to stderr unless it is 0).
usage() {
	if [ "$1" -eq 0 ]; then
		sed -n '/^#   tests\/fuzz\/campaign.sh/,/^#   libFuzzer options/s/^# //p' "$0"
	else
		sed -n '/^#   tests\/fuzz\/campaign.sh/,/^#   libFuzzer options/s/^# //p' "$0" >&2
	fi
	exit "$1"
}

while [ $# -gt 0 ]; do
	case $1 in
	-t) [ $# -ge 2 ] || usage 2; secs=$2; runs=; shift 2 ;;
	-n) [ $# -ge 2 ] || usage 2; runs=$2; secs=; shift 2 ;;
	--no-merge) merge=0; shift ;;
	-h | --help) usage 0 ;;
	-*) echo "campaign.sh: unknown option '$1'" >&2; usage 2 ;;
	*) only="$only fuzz_${1#fuzz_}"; shift ;;
	esac
done
if [ -z "$secs" ] && [ -z "$runs" ]; then
	secs=600
fi
case ${secs:-0}${runs:-0} in
*[!0-9]*) echo "campaign.sh: -t and -n take a whole number" >&2; exit 2 ;;
esac

asan=ON
[ "${SS_FUZZ_ASAN:-1}" = 0 ] && asan=OFF
CC=clang cmake -S "$root" -B "$build" -DSS_FUZZ=ON -DSS_SANITIZE=$asan -DSS_FUZZ_ASAN=$asan -DSS_CUDA=OFF \
	-DSS_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# the fuzz targets are the build's targets named fuzz_*
targets=$(cmake --build "$build" --target help | grep -o 'fuzz_[A-Za-z0-9_]*' | sort -u)
if [ -n "$only" ]; then
	for t in $only; do
		# shellcheck disable=SC2086 # one name a line
		if ! printf '%s\n' $targets | grep -qx "$t"; then
			echo "campaign.sh: no fuzz target $t (have: $(printf "%s " $targets))" >&2
			exit 2
		fi
	done
	targets=$only
fi
if [ -z "$targets" ]; then
	echo "campaign.sh: no fuzz_* targets in $build" >&2
	exit 2
fi
# shellcheck disable=SC2046,SC2086 # a --target option for each
cmake --build "$build" -j"${SS_FUZZ_JOBS:-$(nproc)}" $(printf -- '--target %s ' $targets) >/dev/null

arts=$build/fuzz-artifacts
logs=$build/fuzz-logs
tsv=$build/fuzz-campaign.tsv
mkdir -p "$arts" "$logs"
[ -f "$tsv" ] || printf 'date\ttarget\texecutions\tseconds\texec_per_s\tcov\tft\tfiles_before\tkb_before\tfiles_after\tkb_after\tcrashes\tasan\n' >"$tsv"

# corpus_files and corpus_kb describe a corpus folder.
corpus_files() {
	find "$1" -type f | wc -l | tr -d ' '
}
corpus_kb() {
	du -sk --apparent-size "$1" | cut -f1
}

# merge_into merges the inputs of the folders after $3 into the empty folder $3 with fuzzer $1 and the options $2:
# the smallest set with all their features. Nonzero when the merge failed.
merge_into() {
	bin=$1 flags=$2 out=$3
	shift 3
	# shellcheck disable=SC2086 # flags: options, split
	if ! "$bin" -merge=1 $flags -timeout=10 -rss_limit_mb=4096 "$out" "$@" >"$out.log" 2>&1; then
		tail -5 "$out.log" >&2
		rm -f "$out.log"
		return 1
	fi
	rm -f "$out.log"
}

# refill empties folder $1 and moves the files of folder $2 into it, removing $2.
refill() {
	find "$1" -type f -delete
	find "$2" -type f -exec mv {} "$1/" \;
	rm -rf "$2"
}

# minimise keeps the committed corpus $2 and the campaign's own corpus $3 of fuzzer $1 minimised: $3 becomes the
# smallest set with all the features of both (coverage with hit counts: what the next campaign starts from), $2 the
# smallest with all their edges (-use_counters=0: a few hundred small files, not thousands), plus its hand-named
# seeds, always kept. Nonzero when a merge failed (the folders are then left as they were).
minimise() {
	bin=$1 corpus=$2 work=$3
	full=$(mktemp -d)
	edges=$(mktemp -d)
	if ! merge_into "$bin" "" "$full" "$work" "$corpus" ||
		! merge_into "$bin" -use_counters=0 "$edges" "$full" "$corpus"; then
		rm -rf "$full" "$edges"
		return 1
	fi
	refill "$work" "$full"
	for f in "$corpus"/*; do
		[ -f "$f" ] || continue
		name=${f##*/}
		if printf '%s\n' "$name" | grep -Eqx '[0-9a-f]{40}'; then
			rm -f "$f" # a unit of an earlier campaign: back below if still needed
		else
			rm -f "$edges/$(sha1sum "$f" | cut -c1-40)" # a named seed, kept under its name
		fi
	done
	find "$edges" -type f -exec mv {} "$corpus/" \;
	rm -rf "$edges"
}

status=0
for target in $targets; do
	name=${target#fuzz_}
	bin=$build/tests/fuzz/$target
	corpus=$root/tests/fuzz/corpus/$name
	mkdir -p "$corpus"
	if [ "$merge" -eq 1 ]; then
		work=$build/fuzz-corpus/$name # kept from campaign to campaign
		mkdir -p "$work"
	else
		work=$(mktemp -d)
	fi
	log=$logs/$target-$(date +%Y%m%d-%H%M%S)-$$.log
	files0=$(corpus_files "$corpus")
	kb0=$(corpus_kb "$corpus")
	mark=$(mktemp)
	if [ -n "$secs" ]; then
		limit="-max_total_time=$secs"
		echo "$target: ${secs}s from $files0 inputs ($kb0 KB)"
	else
		limit="-runs=$runs"
		echo "$target: $runs executions from $files0 inputs ($kb0 KB)"
	fi
	start=$(date +%s)
	rc=0
	# shellcheck disable=SC2086 # SS_FUZZ_FLAGS: options, split
	"$bin" "$limit" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$arts/$target-" \
		${SS_FUZZ_FLAGS:-} "$work" "$corpus" >"$log" 2>&1 || rc=$?
	took=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	cov=$(grep -ao 'cov: [0-9]* ft: [0-9]*' "$log" | tail -1)
	found=$(find "$arts" -name "$target-*" -type f -newer "$mark")
	crashes=$(printf '%s' "$found" | grep -c . || true)
	rm -f "$mark"
	if [ "$rc" -ne 0 ] && [ "$crashes" -eq 0 ]; then
		crashes=1 # died without an artifact: the log says why
	fi
	if [ "$merge" -eq 0 ]; then
		rm -rf "$work"
	elif ! minimise "$bin" "$corpus" "$work"; then
		echo "$target: merge into $corpus FAILED" >&2
		status=1
	fi
	files1=$(corpus_files "$corpus")
	kb1=$(corpus_kb "$corpus")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "${execs:-0}" \
		"$took" "${rate:-0}" "$(echo "$cov" | awk '{print $2}')" "$(echo "$cov" | awk '{print $4}')" "$files0" \
		"$kb0" "$files1" "$kb1" "$crashes" "$asan" >>"$tsv"
	total=$(awk -F'\t' -v t="$target" '$2 == t { s += $3 } END { printf "%d", s }' "$tsv")
	echo "$target: ${execs:-?} executions in ${took}s (${rate:-?} exec/s), ${cov:-no coverage line}," \
		"corpus $files0 inputs ($kb0 KB) -> $files1 ($kb1 KB), crashes $crashes; total $total executions"
	if [ "$crashes" -ne 0 ]; then
		echo "$target: FAILED, log $log, input(s): ${found:-none saved}" >&2
		status=1
	fi
done
exit $status
