#!/bin/bash
# advise_gaps.sh: issue 20's measurements in one device call (each script's steps have budgets of their own, which
# together can outrun a call's 10 minutes: one script a call is the safe way): tests/gpu/model_gaps.sh (the model's
# worst configurations as traces, chunk_shape.sh, analyze --verify of kernel-transfer on 20 streams), then
# tests/gpu/advise.sh (every preset's advise --verify against a measured sweep). The device tool brings back at most
# 8 files, so everything is packed into $OUT/advise-gaps.tar.gz; advise's check.txt, chunk_shape's points.tsv and
# the runs' log stay beside it. Usage (on the GPU machine): tests/gpu/advise_gaps.sh BUILD_DIR
# Then here: tar xzf advise-gaps.tar.gz; python3 tests/gpu/advise_check.py advise; python3 tests/gpu/gaps_report.py
# model-gaps (and chunk-shape), beside the model's dry run (SS_GAPS_BACKEND=model OUT=DIR tests/gpu/model_gaps.sh).
set -u
build=${1:-build-h200}
dest=${OUT:-/tmp/advise-gaps-out}
work=$(mktemp -d)
here=$(dirname "$0")
mkdir -p "$dest"
OUT=$work/gaps bash "$here/model_gaps.sh" "$build" >"$work/gaps.log" 2>&1
OUT=$work/advise bash "$here/advise.sh" "$build" >"$work/advise.log" 2>&1
for t in "$work"/gaps/*.tar.gz "$work"/advise/advise.tar.gz; do
	[ -f "$t" ] && tar xzf "$t" -C "$work"
done
tar czf "$dest/advise-gaps.tar.gz" -C "$work" $(cd "$work" && ls -d model-gaps chunk-shape advise gaps.log advise.log 2>/dev/null)
cp "$work/advise/check.txt" "$dest/check.txt" 2>/dev/null
cp "$work/gaps/points.tsv" "$dest/points.tsv" 2>/dev/null
cat "$work/gaps/gaps-runs.txt" "$work/advise/timing.txt" >"$dest/runs.txt" 2>/dev/null
