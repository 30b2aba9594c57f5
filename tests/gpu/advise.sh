#!/bin/bash
# Issue 20's advisor on the H200: for every preset, `advise --verify --json` (the model's search, then at most 6
# configurations measured: the advice, the fastest and the next candidates, the current one), and a measured sweep
# of the same space to hold it to. The space the advisor searches (streams 1..128 x chunks x 4 orders x 32 queue
# counts x 5 syncs x 4 memories) is far too big to measure in minutes, so the sweep is a representative subset,
# each point a `streamscope sweep --backend "$backend"` point (untraced cudaEvent makespan, the median of the repeats):
#   A  streams 1..128 (powers of two) x both orders, the preset's own settings
#   B  the same with pinned memory, stream sync and 32 queues (the settings the advice usually picks but queues)
#   D  B on 1 queue (the model favours one queue for the copy presets)
#   C  B with 64 chunks (more chunks than streams: 1..64 streams)
# hyperq keeps its 32 streams (each stream's kernels are its own work) and sweeps both orders on 1 (A), 8 and 32
# (B), 2 and 4 (D) and 16 (C) queues instead;
# managed-threads keeps depth order and managed-attach memory (the task kernel's) and sweeps 1..64 threads.
# Every run (advise's and the sweep's) uses --repeat 3 --warmup 1. The parts run in the order advise (all
# presets), then A, B, D, C (all presets), and a step is skipped once 230 s have gone (each step at most 60 s), so the script stays under
# 5 minutes (SS_ADVISE_BUDGET sets the 230 s; SS_ADVISE_ONLY=FILE runs only the steps FILE names, one a line, such
# as an earlier run's skipped.txt); timing.txt says what ran and how long it took, skipped.txt what did not.
# Check: python3 tests/gpu/advise_check.py DIR on the unpacked advise/ (each preset: verify's measured best within 3% of the
# best point measured, with how many measured runs each side took).
# Usage (on the GPU machine): tests/gpu/advise.sh BUILD_DIR; results in $OUT/advise.tar.gz (every JSON and its
# stderr, timing, skipped, check), with timing.txt, skipped.txt and check.txt beside it.
set -u
bin=${1:-build-h200}/streamscope
dest=${OUT:-/tmp/advise-out}
out=$(mktemp -d)/advise # packed into $dest/advise.tar.gz at the end (the device tool brings back few files)
mkdir -p "$out" "$dest"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
presets="kernel-transfer decrypt hyperq default-stream sync-order managed pageable vector-add managed-threads"
rep="--repeat 3 --warmup 1"
start=$(date +%s)
budget=${SS_ADVISE_BUDGET:-230}
only=${SS_ADVISE_ONLY:-} # a file of step names (an earlier run's skipped.txt): run those steps alone
backend=${SS_ADVISE_BACKEND:-cuda} # model: a dry run of the script without a GPU (no --verify then)
verify=--verify
[ "$backend" = model ] && verify=
: >"$out/timing.txt"
: >"$out/skipped.txt"
nvidia-smi >"$out/nvidia-smi.txt" 2>&1
git -C "$(dirname "$0")/../.." rev-parse HEAD >"$out/commit.txt" 2>/dev/null

# step NAME FILE ARGS...: runs streamscope ARGS into FILE (stdout) and FILE.err unless the budget is spent.
step() {
	local name=$1 file=$2 t0 rc
	shift 2
	if [ -n "$only" ] && ! grep -qxF "$name" "$only"; then
		return
	fi
	if [ $(($(date +%s) - start)) -ge $budget ]; then
		echo "$name" >>"$out/skipped.txt"
		return
	fi
	t0=$(date +%s%N)
	timeout 60 "$bin" "$@" >"$file" 2>"$file.err"
	rc=$?
	echo "$name exit $rc $((($(date +%s%N) - t0) / 1000000)) ms" >>"$out/timing.txt"
}

for p in $presets; do
	step "advise $p" "$out/$p.advise.json" advise --preset "$p" $rep $verify --json
done
for part in A B D C; do
	for p in $presets; do
		streams=1,2,4,8,16,32,64,128
		orders="--order both"
		extra=""
		case $p in
		hyperq) streams=32 ;;
		managed-threads) streams=1,2,4,8,16,32,64 orders="" ;;
		decrypt) streams=8,16,32,64 orders="" ;; # ~4 s a point (its CPU check of 2^26 words): 16 points outran 60 s
		esac
		case $p in
		hyperq | managed-threads) mem="" ;;
		*) mem="--host-mem pinned" ;;
		esac
		case $part in
		A) ;;
		B) extra="$mem --sync stream --connections 32" ;;
		D) extra="$mem --sync stream --connections 1" ;;
		C)
			streams=${streams%,128}
			extra="$mem --sync stream --connections 32 --chunks 64"
			;;
		esac
		if [ "$p" = hyperq ] && [ "$part" != A ]; then
			# hyperq: its queues instead of its streams
			case $part in B) q="8 32" ;; D) q="2 4" ;; *) q="16" ;; esac
			for n in $q; do
				step "sweep $part $p ${n}q" "$out/$p.sweep-$part-${n}q.json" sweep --backend "$backend" --preset "$p" \
					--streams $streams $orders --sync stream --connections "$n" $rep --json
			done
			continue
		fi
		step "sweep $part $p" "$out/$p.sweep-$part.json" sweep --backend "$backend" --preset "$p" --streams $streams \
			$orders $extra $rep --json
	done
done
echo "done in $(($(date +%s) - start)) s" >>"$out/timing.txt"
python3 "$(dirname "$0")/advise_check.py" "$out" >"$out/check.txt" 2>&1
tar -C "$(dirname "$out")" -czf "$dest/advise.tar.gz" advise
cp "$out/timing.txt" "$out/check.txt" "$out/skipped.txt" "$dest/"
cat "$out/timing.txt" "$out/check.txt"
