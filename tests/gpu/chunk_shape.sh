#!/bin/bash
# chunk_shape.sh: why the advisor's choices for document 001's workload (kernel-transfer, sync-order, managed,
# pageable) measured 30-50% slower on the H200 than modelled (tests/data/h200/advise: 5 streams x 4 chunks, 3 x 37,
# 35-38 streams at 1.69-2.13 ms where the model said 1.30 and 32 or 64 streams measured 1.29-1.36). Three groups
# of `streamscope run --backend cuda --preset kernel-transfer --sync stream --repeat 5 --warmup 1`, each point run
# twice in one process order A B A B (the --json summary: untraced cudaEvent makespans, engines' busy times) and
# once more with a CSV trace (each copy's and kernel's interval, for per-operation durations):
#   one  one chunk per stream, 8..64 streams, powers of two and not
#   many several chunks per stream (the advisor's choices and powers of two)
#   align the same chunk counts with --elements chosen so that every chunk's offset is a multiple of 128 bytes
#         (2^22 elements split 37 ways puts chunk offsets 64-byte aligned, 35, 36, 38 ways 4 or 8 bytes)
# Usage (on the GPU machine): tests/gpu/chunk_shape.sh BUILD_DIR; results in $OUT/chunk-shape.tar.gz (points.tsv:
# group, streams, chunks, elements, run, makespan and busy times; each JSON and CSV).
set -u
bin=${1:-build-h200}/streamscope
dest=${OUT:-/tmp/chunk-shape-out}
out=$(mktemp -d)/chunk-shape
mkdir -p "$out" "$dest"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
nvidia-smi >"$out/nvidia-smi.txt" 2>&1
git -C "$(dirname "$0")/../.." rev-parse HEAD >"$out/commit.txt" 2>/dev/null
start=$(date +%s)
backend=${SS_SHAPE_BACKEND:-cuda} # model: a dry run of the script without a GPU

# point GROUP STREAMS CHUNKS ELEMENTS: the runs of one configuration (skipped once 200 s have gone).
point() {
	local g=$1 s=$2 c=$3 n=$4 name r
	name=$g-s$s-c$c-n$n
	if [ $(($(date +%s) - start)) -ge 200 ]; then
		echo "$name" >>"$out/skipped.txt"
		return
	fi
	for r in 1 2; do
		timeout 60 "$bin" run --backend "$backend" --preset kernel-transfer --streams "$s" --chunks "$c" --elements "$n" \
			--sync stream --repeat 5 --warmup 1 --json >"$out/$name-$r.json" 2>"$out/$name-$r.err"
		echo "$g $s $c $n $r $?" >>"$out/runs.txt"
	done
	timeout 60 "$bin" run --backend "$backend" --preset kernel-transfer --streams "$s" --chunks "$c" --elements "$n" \
		--sync stream --repeat 1 --warmup 1 --export "$out/$name.csv" >"$out/$name-csv.txt" 2>&1
}

full=4194304
for s in 8 16 20 32 35 36 37 38 64; do point one "$s" "$s" $full; done
for sc in 3:37 4:37 5:37 5:20 2:32 4:32 8:32 4:64 8:64 16:64; do point many "${sc%:*}" "${sc#*:}" $full; done
# elements = chunks x (a multiple of 32 elements near 2^22 / chunks): 128-byte aligned chunk offsets
for sc in 20:20 35:35 36:36 37:37 38:38 3:37 5:20; do
	c=${sc#*:}
	per=$(((full / c + 31) / 32 * 32))
	point align "${sc%:*}" "$c" $((per * c))
done
# and the other way: 32 chunks of 2^22 - 32 elements (chunk offsets 4-byte aligned)
point misalign 32 32 $((full - 32))
point misalign 8 32 $((full - 32))

python3 - "$out" >"$out/points.tsv" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
print("group\tstreams\tchunks\telements\trun\tmakespan_ns\tuntraced_ns\th2d_busy\tker_busy\td2h_busy")
for f in sorted(glob.glob(os.path.join(out, "*-[12].json"))):
    base = os.path.basename(f)[:-5]
    g, s, c, n, r = base.split("-")
    try:
        d = json.load(open(f))
    except Exception:
        print(g, s[1:], c[1:], n[1:], r, "FAIL", sep="\t")
        continue
    e = d.get("engines", {})
    print(g, s[1:], c[1:], n[1:], r, d.get("makespan_ns"), d.get("untraced_ns"),
          e.get("H2D", {}).get("busy_ns"), e.get("compute", {}).get("busy_ns"), e.get("D2H", {}).get("busy_ns"),
          sep="\t")
PY
echo "done in $(($(date +%s) - start)) s" >>"$out/runs.txt"
tar czf "$dest/chunk-shape.tar.gz" -C "$(dirname "$out")" chunk-shape
cp "$out/points.tsv" "$out/runs.txt" "$dest/"
