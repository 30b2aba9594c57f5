#!/bin/bash
# this session's device call: bench's managed-threads comparison with the preset's new cudaFree op, then
# document 004's program as written (stream destroy + cudaFree in each thread as it finishes) against variants
# that wait until every task is done before destroy+free (late_both) or before the free alone (late_free).
set -u
b=build-slim
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
STEPS=bench BENCH_ARGS="--reference managed-threads" LIMIT=280 tests/gpu/reference.sh $b
o=$OUT/diag.txt
for t in 2 8 32 64 128; do
  len=$((16777216 / t))
  for r in 1 2 3 4; do
    for v in orig late_both late_free; do
      if [ $v = orig ]; then p=$b/tests/gpu/reference/ref_managed_threads; else p=$b/ref_mt_$v; fi
      echo "## t=$t round=$r v=$v" >>$o
      timeout 60 $p $t 8 $len 3 >>$o 2>&1
    done
  done
done
len=$((16777216 / 32))
timeout 60 $b/streamscope record -o $OUT/orig-32.csv -- $b/tests/gpu/reference/ref_managed_threads 32 8 $len 1 >>$o 2>&1
timeout 60 $b/streamscope record -o $OUT/late-32.csv -- $b/ref_mt_late_both 32 8 $len 1 >>$o 2>&1
gzip $OUT/*.csv
echo done >>$o
