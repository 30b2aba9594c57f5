#!/bin/bash
# reference.sh: issue 18's comparison on the GPU, in one call of the GPU machine. First each source document's own
# program (tests/gpu/reference) runs once on its own with its defaults: kernel-transfer's whole 1..128 sweep and
# decrypt at the document's 32 streams, each depth-first (the document's) and breadth-first, vector-add in both
# orders, managed-threads; then `streamscope bench`, the
# full matrix (not --quick), whose last part runs each preset alternately with its reference and holds the preset's
# untraced makespan to the program's own time. It builds nothing: BUILD_DIR is a CUDA build (the H200 build of
# HACKING.md), the programs in BUILD_DIR/tests/gpu/reference.
#
# Usage (on the GPU machine, from the repository root): [STEPS="refs bench"] [BENCH_ARGS="--reference P,..."]
#   tests/gpu/reference.sh BUILD_DIR
# (BENCH_ARGS: more arguments of bench, e.g. --reference managed-threads for that comparison alone)
# Results: $OUT/reference/ (kernel-transfer.txt, decrypt.txt, vector-add.txt, managed-threads.txt: each program's
# output; bench.txt and summary.json) and $OUT/log.txt: the GPU, the commit, each part's command, exit status and
# elapsed seconds. Seven files, one folder down: within what the device tool brings back.
#
# Time, an estimate for the H200 machine (16 host cores), to be replaced by the elapsed times log.txt prints: the
# programs alone about 40 s, most of it ref_decrypt encrypting 2^26 entries x 1024 rounds on the host (twice, once an
# order); bench's earlier checks about a minute, then kernel-transfer 2 orders x 8 points x 5 rounds x (program about
# 1 s + preset run about 1.5 s) about 200 s, decrypt 2 orders x 8 points x 2 rounds x (program about 2.5 s, reading
# the encrypted data bench keeps for it + preset run about 11 s, most of it the preset's own host encryption) about
# 440 s, vector-add 2 points x 5 rounds x about 2.5 s about 25 s, managed-threads 8 points x 5 rounds about 100 s.
# The whole bench no longer fits one call of the device's 10 minutes: split it with BENCH_ARGS, e.g. STEPS=bench
# BENCH_ARGS="--reference decrypt" in one call and BENCH_ARGS="--reference kernel-transfer,vector-add" in another.
# bench's limit is what is left of LIMIT seconds (default 520: under the device's 10 minutes a call, and under the
# 540 s step tests/gpu/documents.sh gives this script) when it starts, so that log.txt, the text and summary.json
# come back.
set -u
build=${1:-build-h200}
bin=$build/streamscope
refs=$build/tests/gpu/reference
out=${OUT:-/tmp/reference-out}
work=$out/reference # in $OUT from the start: a run stopped at its limit still brings back what it wrote
limit=${LIMIT:-520}
start=$(date +%s)
mkdir -p "$work"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
export SS_REFERENCE_DIR=$refs
log() { echo "== $(date +%T) +$(($(date +%s) - start)) s: $*" | tee -a "$out/log.txt"; }
step() { # step NAME SECONDS CMD...: run with a time limit, stdout and stderr appended to NAME.txt; status, time
	local name=$1 secs=$2 t0
	shift 2
	t0=$(date +%s)
	log "$name: $*"
	timeout "$secs" "$@" >>"$work/$name.txt" 2>&1
	local rc=$?
	log "$name: exit $rc after $(($(date +%s) - t0)) s"
	tail -n 14 "$work/$name.txt" >>"$out/log.txt"
}
only=${STEPS:-refs bench}
has() { [[ " $only " == *" $1 "* ]]; }
{
	nvidia-smi
	nproc
	git -C "$(dirname "$0")/../.." log --oneline -1 2>/dev/null
} >>"$out/log.txt" 2>&1
for p in ref_kernel_transfer ref_decrypt ref_vector_add ref_managed_threads; do
	[ -x "$refs/$p" ] || log "missing: $refs/$p (build the CUDA build with the toolkit: tests/gpu/reference)"
done
if has refs; then
	step kernel-transfer 60 "$refs/ref_kernel_transfer"
	step kernel-transfer 60 "$refs/ref_kernel_transfer" --order breadth
	step decrypt 120 "$refs/ref_decrypt"
	step decrypt 120 "$refs/ref_decrypt" --order breadth
	step vector-add 60 "$refs/ref_vector_add" best
	step vector-add 60 "$refs/ref_vector_add" weaker
	step managed-threads 120 "$refs/ref_managed_threads"
fi
if has bench; then
	left=$((limit - ($(date +%s) - start)))
	if [ "$left" -lt 60 ]; then
		log "bench: skipped, $left s left of $limit"
	else
		traces=$(mktemp -d) # bench -o keeps a trace per run: not brought back, only its summary.json
		# shellcheck disable=SC2086 # BENCH_ARGS is a list of words
		step bench "$left" "$bin" bench --backend cuda -o "$traces" ${BENCH_ARGS:-}
		cp "$traces/summary.json" "$work/summary.json" 2>/dev/null || log "bench wrote no summary.json"
		rm -rf "$traces"
		rm -f "${TMPDIR:-/tmp}"/streamscope-ref-decrypt-*.bin* # decrypt's data, left behind if bench was stopped
	fi
fi
log "done"
ls -la "$work" >>"$out/log.txt"
