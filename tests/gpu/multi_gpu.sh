#!/bin/bash
# multi_gpu.sh: issue 19's run on a machine of two or more GPUs (nvidia-h200-x2), everything under $OUT:
#   1. builds tests/gpu/multi/multi_gpu_app.cu (a two-GPU pipeline with peer copies, checked on the host, then a peer
#      link and a host link probe) and runs it untraced: multi_gpu_app.plain.out;
#   2. records it with `streamscope record` (every device's streams, the peer copies as D2D on both ends):
#      multi_gpu_app.sqlite, .out, .err; `stats` (the per-device table) and `analyze --json` of it;
#   3. the peer bandwidth from the recorded intervals (the D2D peer rows' bytes over their time, sqlite3) beside the
#      probe's: peer.txt;
#   4. the multi-GPU experiment on the model (examples/multi-gpu.ini, with and without --peer, 1 device) and on
#      CUDA (which refuses --devices 2 today: its one line is kept), and a profile with the probes' multi.* values:
#      model.txt, multi.profile (multi.host_link_gbs from h2d_both_gbs, multi.peer_gbs from peer_gbs; marked
#      measured), and the model re-run on it.
# Usage: tests/gpu/multi_gpu.sh BUILD_DIR (streamscope and libstreamscope_inject.so there). Exit 0 when the program
# verified under recording and the trace has two devices and peer copies; 1 otherwise.
set -u
build=$1
ss=$build/streamscope
src=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$src/../.." && pwd)
out=${OUT:-/tmp/multi_gpu}
mkdir -p "$out/bin"
log=$out/multi_gpu.txt
: >"$log"
status=0
say() { echo "$*" | tee -a "$log"; }
fail() { say "FAIL: $*"; status=1; }
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
{
	nvidia-smi --query-gpu=index,name,uuid,pci.bus_id --format=csv
	nvidia-smi topo -m
} >"$out/env.txt" 2>&1

# 1. build and run untraced
if ! timeout 180 "$nvcc" -arch=sm_90 -O2 -o "$out/bin/multi_gpu_app" "$src/multi/multi_gpu_app.cu" \
	>"$out/build.txt" 2>&1; then
	fail "build: $(head -c 400 "$out/build.txt")"
	exit 1
fi
timeout 120 "$out/bin/multi_gpu_app" >"$out/multi_gpu_app.plain.out" 2>&1
say "plain: exit $?; $(grep '^MULTI_GPU_APP ' "$out/multi_gpu_app.plain.out")"

# 2. record, stats, analyze
timeout 180 "$ss" record -o "$out/multi_gpu_app.sqlite" -- "$out/bin/multi_gpu_app" >"$out/multi_gpu_app.out" \
	2>"$out/multi_gpu_app.err"
rc=$?
line=$(grep '^MULTI_GPU_APP ' "$out/multi_gpu_app.out")
say "record: exit $rc; $line"
[ "$rc" = 0 ] && [[ "$line" == *verified=1* ]] || fail "record: exit $rc: $(tail -c 300 "$out/multi_gpu_app.err")"
"$ss" stats "$out/multi_gpu_app.sqlite" >"$out/stats.txt" 2>&1
"$ss" stats --json "$out/multi_gpu_app.sqlite" >"$out/stats.json" 2>&1
"$ss" analyze --json "$out/multi_gpu_app.sqlite" >"$out/analyze.json" 2>&1
grep -q "per device: 2 devices" "$out/stats.txt" || fail "stats: the trace does not have two devices"

# 3. peer bandwidth from the intervals
if command -v sqlite3 >/dev/null 2>&1; then
	sqlite3 "$out/multi_gpu_app.sqlite" "SELECT count(*), sum(bytes), sum(end - start),
		round(1.0 * sum(bytes) / sum(end - start), 2) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE copyKind = 10" \
		>"$out/peer.txt" 2>&1
	say "peer copies in the trace (count|bytes|ns|GB/s): $(cat "$out/peer.txt"); probe: $(echo "$line" |
		grep -o 'peer_gbs=[0-9.]*')"
	[ "$(cut -d'|' -f1 "$out/peer.txt")" -ge 16 ] 2>/dev/null || fail "fewer than 16 peer copies recorded"
fi

# 4. the model and CUDA on the multi-GPU example; a profile with the probes' values
{
	for a in "" "--peer=off" "--peer=off --devices 1 --streams 8"; do
		echo "== model $a"
		# shellcheck disable=SC2086
		"$ss" run "$root/examples/multi-gpu.ini" --backend model $a 2>&1 | grep -E '^experiment|makespan|^H2D|^compute|^D2H'
	done
	echo "== cuda"
	"$ss" run "$root/examples/multi-gpu.ini" --backend cuda 2>&1 | tail -n 2
} >"$out/model.txt" 2>&1
peer=$(echo "$line" | grep -o 'peer_gbs=[0-9.]*' | cut -d= -f2)
both=$(echo "$line" | grep -o 'h2d_both_gbs=[0-9.]*' | cut -d= -f2)
if [ -n "$peer" ] && [ -n "$both" ]; then
	"$ss" calibrate --help >/dev/null 2>&1
	{
		echo "multi.peer_gbs = $peer measured  # multi_gpu_app's probe: 64 MiB cudaMemcpyPeerAsync, median of 5"
		echo "multi.host_link_gbs = $both measured  # multi_gpu_app's probe: both GPUs' 256 MiB pinned H2D at once"
	} >"$out/multi.profile"
	"$ss" run "$root/examples/multi-gpu.ini" --backend model --profile "$out/multi.profile" 2>&1 |
		grep -E '^experiment|makespan' >>"$out/model.txt"
fi
say "done: status $status; files in $out"
exit $status
