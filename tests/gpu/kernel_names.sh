#!/bin/bash
# kernel_names.sh: the kernels' names as the CUDA backend and the recorder write them, on the GPU: CUPTI gives C++
# kernels their mangled names; the trace should carry Nsight Systems' two, shortName ("ss_add", as the model names
# it) and demangledName ("void ss_add<400>(float const*, ...)"), and stats should show the demangled one. Runs
# kernel-transfer (the template ss_add<400>), the same with --work 100 (the other ss_add), decrypt, and records
# document 003's and 001's programs (vectorAdd, add). Usage (on the GPU machine): tests/gpu/kernel_names.sh BUILD_DIR.
# Writes $OUT/names/names.txt and each trace.
set -u
build=${1:-build-h200}
bin=$build/streamscope
out=${OUT:-/tmp/names-out}/names
mkdir -p "$out"

export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
report="$out/names.txt"
show() { # show LABEL SQLITE: every kernel's distinct names
	python3 - "$1" "$2" <<'PY' >>"$report" 2>&1
import sqlite3, sys
label, path = sys.argv[1], sys.argv[2]
db = sqlite3.connect(path)
q = ("SELECT count(*), s.value, d.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName "
     "JOIN StringIds d ON d.id = k.demangledName GROUP BY s.value, d.value")
for row in db.execute(q):
    print("%s: %d kernels shortName=%r demangledName=%r" % ((label,) + row))
PY
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$report"
echo "commit $(cat "$build/COMMIT" 2>/dev/null)" >>"$report"
step() { # step LABEL ARGS...: run one streamscope command into the report, then its trace's names
	local label=$1
	shift
	echo "== $label: streamscope $*" >>"$report"
	"$bin" "$@" >>"$report" 2>&1
	echo "exit $?" >>"$report"
	show "$label" "$out/$label.sqlite"
	"$bin" stats "$out/$label.sqlite" 2>&1 | sed -n '/GPU kernels/,/^$/p' >>"$report"
}
step kt run --backend cuda --preset kernel-transfer --streams 4 --export "$out/kt.sqlite"
step kt-work100 run --backend cuda --preset kernel-transfer --streams 4 --work 100 --export "$out/kt-work100.sqlite"
step decrypt run --backend cuda --preset decrypt --streams 4 --elements 4M --export "$out/decrypt.sqlite"
step rec-va record -o "$out/rec-va.sqlite" -- "$build/tests/gpu/reference/ref_vector_add"
step rec-kt record -o "$out/rec-kt.sqlite" -- "$build/tests/gpu/reference/ref_kernel_transfer" 4
cat "$report"
