#!/bin/bash
# cupti_detach.sh: the CUDA backend with CUPTI detached between traced runs (cupti_capture_detach), on the GPU.
# First every preset once (and kernel-transfer with the per-thread default stream): each run verified, its
# captured copies and kernels as many as its op list expects, its traced and untraced makespans and the tracing
# overhead, with detaching (the default) and with SS_CUPTI_DETACH=0 (CUPTI attached throughout, as before), the
# two alternating preset by preset. Then bench's kernel-transfer reference comparison (both orders) with detaching,
# then without, and again with: the preset's untraced makespan against document 001's program.
#
# Usage (on the GPU machine, from the repository root): tests/gpu/cupti_detach.sh BUILD
# Results: $OUT/cupti-detach/runs.txt (a line a run), bench-detach-1.txt, bench-attached.txt, bench-detach-2.txt
# (bench's output) and log.txt. Time on the H200 machine: the runs about 60 s, each bench about 75 s.
set -u
build=${1:-build-h200}
bin=$build/streamscope
out=${OUT:-/tmp/cupti-detach-out}/cupti-detach
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
export SS_REFERENCE_DIR=$build/tests/gpu/reference
start=$(date +%s)
{
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
	git -C "$(dirname "$0")/../.." log --oneline -1 2>/dev/null
} >"$out/log.txt" 2>&1
summary='import json,sys
d=json.load(sys.stdin)
c,x=d["counts"],d["expected"]
ok=all(c.get(k,0)==v for k,v in x.items())
print("verified=%s records_as_expected=%s traced_ns=%s untraced_ns=%s overhead=%s counts=%s expected=%s" % (d["verified"], ok, d["traced_ns"], d["untraced_ns"], d["tracing_overhead"], json.dumps(c,separators=(",",":")), json.dumps(x,separators=(",",":"))))'
run() { # run LABEL DETACH ARGS...: one streamscope run, one line in runs.txt
	local label=$1 detach=$2
	shift 2
	printf '%s detach=%s ' "$label" "$detach" >>"$out/runs.txt"
	if ! SS_CUPTI_DETACH=$detach "$bin" run --backend cuda "$@" --json 2>>"$out/log.txt" |
		python3 -c "$summary" >>"$out/runs.txt" 2>>"$out/log.txt"; then
		echo "failed" >>"$out/runs.txt"
	fi
}
for p in kernel-transfer vector-add hyperq default-stream sync-order managed pageable managed-threads; do
	run "$p" 1 --preset "$p"
	run "$p" 0 --preset "$p"
done
run kernel-transfer-per-thread 1 --preset kernel-transfer --default-stream per-thread
run kernel-transfer-per-thread 0 --preset kernel-transfer --default-stream per-thread
run managed-prefetch-events 1 --preset managed --prefetch-events=on
echo "runs done after $(($(date +%s) - start)) s" >>"$out/log.txt"
SS_CUPTI_DETACH=1 "$bin" bench --backend cuda --reference kernel-transfer >"$out/bench-detach-1.txt" 2>&1
SS_CUPTI_DETACH=0 "$bin" bench --backend cuda --reference kernel-transfer >"$out/bench-attached.txt" 2>&1
SS_CUPTI_DETACH=1 "$bin" bench --backend cuda --reference kernel-transfer >"$out/bench-detach-2.txt" 2>&1
echo "done after $(($(date +%s) - start)) s" >>"$out/log.txt"
