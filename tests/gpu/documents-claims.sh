#!/bin/bash
# documents-claims.sh: the second device call of issue 18: the documents' claims on the GPU (streamscope claims, text and
# JSON), the validate rows the first call did not reach (vector-add, managed-threads, pageable at 128 streams), the
# document 001 sweep as JSON and a run's claims. Usage (on the GPU machine, build-h200 carried): tests/gpu/documents-claims.sh;
# results under $OUT/documents3.
set -u
b=build-h200/streamscope
o=$OUT/documents3; mkdir -p $o
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
t() { local n=$1 s=$2; shift 2; local t0=$(date +%s); timeout $s "$@" > $o/$n.txt 2>&1; echo "== $n exit $? in $(( $(date +%s) - t0 )) s" | tee -a $o/log.txt; tail -3 $o/$n.txt; }
t claims-json 200 $b claims --backend cuda --json
t claims 200 $b claims --backend cuda
t validate-2 200 $b validate --preset vector-add,managed-threads --csv $o/validate-2.csv
t validate-3 120 $b validate --preset pageable --streams 128 --csv $o/validate-3.csv
t sweep-json 120 $b sweep --backend cuda --preset kernel-transfer --streams 1,2,4,8,16,20,32,64,128 --json
t run-json-claims 60 $b run --backend cuda --preset vector-add --order weaker --json
