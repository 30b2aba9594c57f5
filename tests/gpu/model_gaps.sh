#!/bin/bash
# model_gaps.sh: the H200 timelines of the configurations the model is furthest from (test_replay_advise_model and
# test_validate name them; docs/results.md, "Chunks off a 128-byte line"), in one device call: each a CSV trace of
# one run and a `run --json` summary (untraced cudaEvent makespans, 5 repeats), so that the cause shows per
# operation:
#   weaker   vector-add --order weaker on 8 queues at 16, 32, 64, 128 streams (model +20% at 32-128: kernels
#            behind a blocked queue head start later in the model than on the H200)
#   pageable pageable breadth-first on 8 queues at 4, 32, 128 streams, and depth-first at 4 (model +16..+36%)
#   managed  managed depth-first on 8 queues at 8, 32 streams (model -16% at 32)
#   hyperq   hyperq breadth-first on 8 and 32 queues (model +17..+25% in one run, -16% in another)
#   legacy   default-stream on 32 queues at 32 streams, depth-first (model -15%)
# then tests/gpu/chunk_shape.sh (document 001's workload by chunk count and alignment) and analyze --verify of
# kernel-transfer at 20 streams (the chunks off a line). Usage (on the GPU machine): tests/gpu/model_gaps.sh
# BUILD_DIR; results in $OUT/model-gaps.tar.gz and $OUT/chunk-shape.tar.gz, with points.tsv and runs.txt.
set -u
build=${1:-build-h200}
bin=$build/streamscope
dest=${OUT:-/tmp/model-gaps-out}
out=$(mktemp -d)/model-gaps
mkdir -p "$out" "$dest"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
backend=${SS_GAPS_BACKEND:-cuda} # model: a dry run without a GPU
start=$(date +%s)
nvidia-smi >"$out/nvidia-smi.txt" 2>&1
git -C "$(dirname "$0")/../.." rev-parse HEAD >"$out/commit.txt" 2>/dev/null

# case NAME ARGS...: the summary and the trace of one configuration (skipped once 150 s have gone).
case_() {
	local name=$1
	shift
	if [ $(($(date +%s) - start)) -ge 150 ]; then
		echo "$name" >>"$out/skipped.txt"
		return
	fi
	timeout 60 "$bin" run --backend "$backend" "$@" --repeat 5 --warmup 1 --json >"$out/$name.json" \
		2>"$out/$name.err"
	echo "$name exit $? $*" >>"$out/runs.txt"
	timeout 60 "$bin" run --backend "$backend" "$@" --repeat 1 --warmup 1 --export "$out/$name.csv" \
		>"$out/$name.txt" 2>&1
}

for s in 16 32 64 128; do case_ "weaker-$s" --preset vector-add --order weaker --streams "$s" --connections 8; done
for s in 4 32 128; do case_ "pageable-breadth-$s" --preset pageable --order breadth --streams "$s"; done
case_ pageable-depth-4 --preset pageable --order depth --streams 4
for s in 8 32; do case_ "managed-$s" --preset managed --streams "$s"; done
for q in 8 32; do case_ "hyperq-breadth-${q}q" --preset hyperq --order breadth --connections "$q"; done
case_ legacy-32-32q --preset default-stream --streams 32 --connections 32
echo "cases done in $(($(date +%s) - start)) s" >>"$out/runs.txt"
if [ "$backend" = cuda ]; then
	timeout 120 "$bin" analyze --backend cuda --preset kernel-transfer --streams 20 --verify --json \
		>"$out/analyze-kt20.json" 2>"$out/analyze-kt20.err"
	echo "analyze-kt20 exit $?" >>"$out/runs.txt"
fi
tar czf "$dest/model-gaps.tar.gz" -C "$(dirname "$out")" model-gaps
OUT=$dest SS_SHAPE_BACKEND=$backend bash "$(dirname "$0")/chunk_shape.sh" "$build"
cp "$out/runs.txt" "$dest/gaps-runs.txt"
echo "all done in $(($(date +%s) - start)) s" >>"$dest/gaps-runs.txt"
