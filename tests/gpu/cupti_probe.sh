#!/bin/bash
# cupti_probe.sh: where bench's kernel-transfer preset loses to document 001's program when many streams make the
# issue loop host-bound. For each stream count and order, ROUNDS rounds, each running in turn: the reference
# program (ref_kernel_transfer), cupti_probe plain (the same loop through streamscope's kernel launcher, CUPTI never
# loaded), cupti_probe attached (CUPTI loaded and initialised, one traced pass, then untraced: what the CUDA
# backend's untraced twin runs under) and the preset (`streamscope run --backend cuda --json`: its untraced
# makespan, the median of its repeats). Each program prints its repeats; the medians are compared by
# tests/replay (cupti_probe_replay.py).
#
# Usage (on the GPU machine, from the repository root): [COUNTS="32 64 128"] [ROUNDS=4] [MODES="attached ..."]
#   [PRESET=0] tests/gpu/cupti_probe.sh BUILD
# (MODES: the cupti_probe modes after plain, default attached; PRESET=0 leaves the preset's runs out)
# Results: $OUT/cupti-probe/probe.txt (every line every program printed, each prefixed by its round) and log.txt.
# Time on the H200 machine: about 1 s a program run, 1.5 s a preset run: 3 counts x 2 orders x 4 rounds x 4.5 s,
# about 110 s.
set -u
build=${1:-build-h200}
out=${OUT:-/tmp/cupti-probe-out}/cupti-probe
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
start=$(date +%s)
{
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
	git -C "$(dirname "$0")/../.." log --oneline -1 2>/dev/null
} >"$out/log.txt" 2>&1
for round in $(seq 1 "${ROUNDS:-4}"); do
	for s in ${COUNTS:-32 64 128}; do
		for o in depth breadth; do
			{
				"$build/tests/gpu/reference/ref_kernel_transfer" --order "$o" "$s" | sed "s/^/round=$round /"
				"$build/tests/gpu/cupti_probe" plain "$s" "$o" | sed "s/^/round=$round /"
				for m in ${MODES:-attached}; do
					"$build/tests/gpu/cupti_probe" "$m" "$s" "$o" | sed "s/^/round=$round /"
				done
				[ "${PRESET:-1}" = 0 ] ||
					"$build/streamscope" run --backend cuda --streams "$s" --order "$o" --json |
					python3 -c "import json,sys; d=json.load(sys.stdin); print('round=$round preset streams=$s order=$o untraced_ns=%d traced_ns=%d' % (d['untraced_ns'], d['traced_ns']))"
			} >>"$out/probe.txt" 2>>"$out/log.txt"
		done
	done
	echo "round $round done after $(($(date +%s) - start)) s" >>"$out/log.txt"
done
