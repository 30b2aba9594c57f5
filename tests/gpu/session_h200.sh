#!/bin/bash
# session_h200.sh: in one device call of under 600 s, what issue 18 still needs of an H200: the kernels' names from
# the CUDA backend and the recorder (tests/gpu/kernel_names.sh, any card); on an H200 also, in this order, bench of
# decrypt against document 000's program breadth-first, 1..128 streams, one round a point (its rounds have spread
# under 0.3% on an H100; no H200 has run this order), the documents' claims (the stream-0 timer as document 003
# places it), bench of managed-threads against document 004's program (5 rounds), and decrypt depth-first as
# breadth-first. CUPTI is detached for the untraced runs (the default).
# Usage (on the GPU machine, from the repository root, build-h200-slim carried): [DEADLINE=S] bash tests/gpu/session_h200.sh
# (DEADLINE: seconds all steps together may take, default 570; a step that would pass it is cut short or skipped;
# H200_STEPS: which of breadth, claims, mt and depth to run on an H200, in that order, default all four; OTHER_STEPS:
# which of them, or quick (vector-add's weaker order alone, --quick: a check of bench --order), to run on another
# card, default none).
# Results: $OUT/names (kernel_names.sh), $OUT/h200.tar.gz (folder h: each command's output, its summary.json, and
# log.txt with exit status and seconds).
b=build-h200-slim
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
h=$OUT/h
mkdir -p $h
n=$(nvidia-smi --query-gpu=name --format=csv,noheader)
echo "card: $n $(cat $b/COMMIT)" | tee $h/card.txt
nvidia-smi >$h/nvidia-smi.txt 2>&1
end=$(($(date +%s) + ${DEADLINE:-570})) # every step ends by then
t() { # t NAME SECONDS CMD...: run CMD into $h/NAME (for at most SECONDS, and not past end), its status and seconds into log.txt
	local name=$1 secs=$2
	shift 2
	local t0=$(date +%s)
	[ $((end - t0)) -lt $secs ] && secs=$((end - t0))
	[ $secs -lt 5 ] && { echo "$name skipped: no time left" | tee -a $h/log.txt; return; }
	timeout $secs "$@" >$h/$name 2>$h/$name.err
	echo "$name rc=$? $(($(date +%s) - t0)) s" | tee -a $h/log.txt
}
t names.txt 90 bash tests/gpu/kernel_names.sh $b
case "$n" in
*H200*) steps=${H200_STEPS:-breadth claims mt depth} ;;
*) steps=${OTHER_STEPS:-} ;;
esac
export SS_REFERENCE_DIR=$b/tests/gpu/reference
for step in $steps; do
	case $step in
	claims) t claims.json 75 $b/streamscope claims --backend cuda --json ;;
	breadth | depth) t bench-decrypt-$step.txt 150 $b/streamscope bench --backend cuda -o $h/bench-decrypt-$step \
		--reference decrypt --order $step --rounds 1 ;;
	quick) t bench-quick.txt 60 $b/streamscope bench --backend cuda -o $h/bench-quick --reference vector-add \
		--order weaker --quick ;;
	mt) t bench-mt.txt 130 $b/streamscope bench --backend cuda -o $h/bench-mt --reference managed-threads --rounds 5 ;;
	*) echo "$step: no such step (breadth, claims, mt, depth, quick)" | tee -a $h/log.txt ;;
	esac
done
find $h -name "*.sqlite" -delete
tar -C $OUT -czf $OUT/h200.tar.gz h && rm -rf $h
ls -la $OUT
