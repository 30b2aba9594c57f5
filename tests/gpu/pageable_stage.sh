#!/bin/bash
# pageable_stage.sh: on the GPU machine, calibrate (its pageable D2H copies measure pageable.d2h.stage_bytes among
# the rest) and untraced validate runs of the pageable preset, whose overlap column checks the staged D2H.
# Usage: [VALIDATE_RUNS=2] tests/gpu/pageable_stage.sh BUILD
# Results in $OUT: h200.profile, calibrate.txt, validate-pN.csv/.txt, log.txt.
set -u
build=${1:-build-h200}
out=${OUT:-/tmp/pageable-stage-out}
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
log() { echo "== $(date +%T) $*" | tee -a "$out/log.txt"; }
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; git log --oneline -1; } \
	>>"$out/log.txt" 2>&1
log "calibrate"
timeout "${CALIBRATE_LIMIT:-240}" "$build/streamscope" calibrate -o "$out/h200.profile" >"$out/calibrate.txt" 2>&1
log "exit $?"
grep '^pageable' "$out/h200.profile" >>"$out/log.txt" 2>&1
for r in $(seq 1 "${VALIDATE_RUNS:-2}"); do
	log "validate pageable run $r"
	timeout "${VALIDATE_LIMIT:-120}" "$build/streamscope" validate --preset pageable --csv "$out/validate-p$r.csv" \
		>"$out/validate-p$r.txt" 2>&1
	log "exit $?"
	tail -n 6 "$out/validate-p$r.txt" >>"$out/log.txt"
done
