#!/bin/bash
# many_queues.sh: what many hardware queues cost on the GPU, side by side and alternating (model_gaps.sh saw hyperq
# breadth-first 28% slower on 32 queues than on 8, default-stream's 32 streams 20% over the model on 32): hyperq in
# both orders on 1, 2, 4, 8, 16, 24 and 32 queues, and kernel-transfer and default-stream on 32 streams on 8, 16 and
# 32 queues, ROUNDS rounds (default 5) of fresh processes in turn, each the untraced cudaEvent makespan of
# --repeat 5 --warmup 1. Usage (on the GPU machine): tests/gpu/many_queues.sh BUILD_DIR [ROUNDS]; results in
# $OUT/many-queues.tsv (round, preset, order, streams, queues, untraced_ns, makespan_ns, exit) and $OUT/many-queues.err
# (SS_QUEUES_BACKEND=model: a dry run, untraced_ns None, makespan_ns modelled).
set -u
bin=${1:-build-h200}/streamscope
rounds=${2:-5}
dest=${OUT:-/tmp/many-queues-out}
mkdir -p "$dest"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
tsv=$dest/many-queues.tsv
echo -e "round\tpreset\torder\tstreams\tqueues\tuntraced_ns\tmakespan_ns\texit" >"$tsv"
: >"$dest/many-queues.err"
start=$(date +%s)
backend=${SS_QUEUES_BACKEND:-cuda} # model: a dry run without a GPU

# one ROUND PRESET ORDER STREAMS QUEUES: one process, one row.
one() {
	local ns rc
	ns=$(timeout 30 "$bin" run --backend "$backend" --preset "$2" --order "$3" --streams "$4" --connections "$5" \
		--repeat 5 --warmup 1 --json 2>>"$dest/many-queues.err" |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print("%s\t%s" % (d["untraced_ns"], d["makespan_ns"]))' 2>>"$dest/many-queues.err")
	rc=$?
	echo -e "$1\t$2\t$3\t$4\t$5\t${ns:-none	none}\t$rc" >>"$tsv"
}

for r in $(seq 1 "$rounds"); do
	[ $(($(date +%s) - start)) -ge 400 ] && break
	for q in 1 2 4 8 16 24 32; do
		one "$r" hyperq breadth 32 "$q"
		one "$r" hyperq depth 32 "$q"
	done
	for q in 8 16 32; do
		one "$r" kernel-transfer depth 32 "$q"
		one "$r" default-stream depth 32 "$q"
	done
done
nvidia-smi >"$dest/nvidia-smi.txt" 2>&1
echo "done in $(($(date +%s) - start)) s" >>"$dest/many-queues.err"
