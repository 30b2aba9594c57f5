#!/bin/bash
# session_verify.sh: in one device call, the CUDA side of 2026-12-07's changes (document 001's cudaEventQuery in
# kernel-transfer's op list, the stream-0 timer's laps between the streams' work): both runs --json, the documents'
# claims --json, ops of each; on an H100, bench of kernel-transfer against document 001's program (3 rounds a
# point); on an H200, first the whole documents' matrix with one calibration (tests/gpu/documents.sh).
# Usage (on the GPU machine, from the repository root, build-h200-slim carried): bash tests/gpu/session_verify.sh
# Results: $OUT/verify.tar.gz (folder v: each command's output, log.txt with exit status and seconds).
b=build-h200-slim; export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
v=$OUT/v; mkdir -p $v; n=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "card: $n $(cat $b/COMMIT)" | tee $v/card.txt
nvidia-smi > $v/nvidia-smi.txt 2>&1
t() { local name=$1 secs=$2; shift 2; local t0=$(date +%s); timeout $secs "$@" > $v/$name 2> $v/$name.err; echo "$name rc=$? $(( $(date +%s) - t0 )) s" | tee -a $v/log.txt; }
$b/streamscope ops --preset kernel-transfer --streams 2 > $v/ops-kt.txt 2>&1
$b/streamscope ops --preset kernel-transfer --streams 2 --default-stream event-timer > $v/ops-kt-timer.txt 2>&1
case "$n" in *H200*)
	STEPS="calibrate validate" VALIDATE_RUNS=1 VALIDATE_LIMIT=400 VALIDATE_PRESETS=kernel-transfer,decrypt,default-stream,sync-order,managed,pageable,vector-add,managed-threads timeout 430 bash tests/gpu/documents.sh $b > $OUT/documents-stdout.txt 2>&1;;
esac
t run-kt.json 60 $b/streamscope run --backend cuda --preset kernel-transfer --json
t run-kt-timer.json 60 $b/streamscope run --backend cuda --preset kernel-transfer --default-stream event-timer --json
t claims.json 90 $b/streamscope claims --backend cuda --json
case "$n" in *H200*) ;; *)
	rm -rf /tmp/bk; t bench-kt.txt 220 env SS_REFERENCE_DIR=$b/tests/gpu/reference $b/streamscope bench --backend cuda -o /tmp/bk --reference kernel-transfer --rounds 3
	cp /tmp/bk/summary.json $v/summary-kt.json 2>/dev/null;;
esac
tar -C $OUT -czf $OUT/verify.tar.gz v && rm -rf $v
ls -la $OUT
