#!/bin/bash
# device_info.sh: what the CUDA backend and the recorder say of the device and of each kernel's launch, on the GPU:
# the copy engines each writes to TARGET_INFO_GPU.asyncEngines (run: cudaDeviceProp.asyncEngineCount; record:
# CUPTI's numMemcpyEngines) and the registers and shared memory written per kernel (CUPTI's, so known: never the
# 0 written for a launch the trace does not know). Usage (on the GPU machine): tests/gpu/device_info.sh BUILD_DIR.
# Writes $OUT/device_info.txt and the two traces, $OUT/run.sqlite and $OUT/record.sqlite.
set -u
build=${1:-build-h200}
bin=$build/streamscope
out=${OUT:-/tmp/device-info-out}
mkdir -p "$out"

export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
report="$out/device_info.txt"
show() { # show LABEL SQLITE: the device row and the first kernels' launch attributes
	python3 - "$1" "$2" <<'PY' >>"$report" 2>&1
import sqlite3, sys
label, path = sys.argv[1], sys.argv[2]
db = sqlite3.connect(path)
for row in db.execute("SELECT id, name, asyncEngines FROM TARGET_INFO_GPU"):
    print("%s: device %s %r asyncEngines=%s" % (label, row[0], row[1], row[2]))
n = db.execute("SELECT count(*), sum(registersPerThread = 0) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()
print("%s: kernels=%s with registersPerThread 0: %s" % (label, n[0], n[1]))
for row in db.execute("SELECT gridX, blockX, registersPerThread, staticSharedMemory, dynamicSharedMemory "
                      "FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 2"):
    print("%s: grid %s block %s registers %s static %s dynamic %s" % ((label,) + row))
PY
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$report"
"$bin" run --backend cuda --preset kernel-transfer --streams 4 --export "$out/run.sqlite" >>"$report" 2>&1
show run "$out/run.sqlite"
"$bin" analyze "$out/run.sqlite" >>"$report" 2>&1
"$bin" record -o "$out/record.sqlite" -- "$build/tests/gpu/reference/ref_vector_add" >>"$report" 2>&1
show record "$out/record.sqlite"
cat "$report"
