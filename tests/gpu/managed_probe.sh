#!/bin/bash
# managed_probe.sh: the managed preset taken apart on the GPU (managed_probe.c) on 1 and 8 hardware queues,
# alternating processes, then more untraced validate runs of the managed preset (its rows are noisy).
# Usage (on the GPU machine): [PROBE_ROUNDS=11] [PROBE_PROCS=2] [PROBE_OFFSETS="0 1024"] [PROBE_VARIANTS=full,...]
#   [VALIDATE_RUNS=3] tests/gpu/managed_probe.sh BUILD
# Results in $OUT: probe-1q.txt, probe-8q.txt (probe-1q-oK.txt for an offset of K KiB other than 0),
# validate-mN.csv/.txt, log.txt.
set -u
build=${1:-build-h200}
out=${OUT:-/tmp/managed-probe-out}
mkdir -p "$out"
probe=$build/managed_probe
[ -x "$probe" ] || probe=$build/tests/gpu/managed_probe
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
log() { echo "== $(date +%T) $*" | tee -a "$out/log.txt"; }
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv; git log --oneline -1; } \
	>>"$out/log.txt" 2>&1
for p in $(seq 1 "${PROBE_PROCS:-2}"); do
	for q in 1 8; do
		for off in ${PROBE_OFFSETS:-0}; do
			f=$out/probe-${q}q$([ "$off" = 0 ] || echo "-o$off").txt
			log "probe process $p, $q queues, offset $off KiB"
			CUDA_DEVICE_MAX_CONNECTIONS=$q PROBE_OFFSET_KIB=$off timeout 200 "$probe" "${PROBE_ROUNDS:-11}" \
				>>"$f" 2>&1
			log "exit $?"
			tail -n 9 "$f" >>"$out/log.txt"
		done
	done
done
for r in $(seq 1 "${VALIDATE_RUNS:-3}"); do
	log "validate managed run $r"
	timeout "${VALIDATE_LIMIT:-120}" "$build/streamscope" validate --preset managed --csv "$out/validate-m$r.csv" \
		>"$out/validate-m$r.txt" 2>&1
	log "exit $?"
	tail -n 6 "$out/validate-m$r.txt" >>"$out/log.txt"
done
