#!/bin/bash
# The whole H200 session in one call: bench (acceptance checks with traces), the kernel-transfer sweep in both
# orders, every preset's summary, calibration, model validation, TUI screens in tmux, and `record` of the test
# program. Usage (on the GPU machine): scripts/h200.sh BUILD_DIR; results go to $OUT/h200.tar.gz (the device tool
# brings back at most 8 files) plus $OUT/log.txt.
set -u
build=${1:-build-h200}
bin=$build/streamscope
out=${OUT:-/tmp/h200-out}
work=$(mktemp -d)/h200
mkdir -p "$work" "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
export TERM=xterm-256color LANG=C.UTF-8
log() { echo "== $(date +%T) $*" | tee -a "$work/log.txt"; }
step() { # step NAME SECONDS CMD...: run with a time limit, keep stdout+stderr, note the status
	local name=$1 secs=$2; shift 2
	log "$name: $*"
	timeout "$secs" "$@" >"$work/$name.txt" 2>&1
	local rc=$?
	log "$name: exit $rc"
	tail -n 40 "$work/$name.txt" >>"$work/log.txt"
}
only=${STEPS:-bench sweep presets calibrate validate tui record}
has() { [[ " $only " == *" $1 "* ]]; }
{ nvidia-smi; nvidia-smi -q | grep -iE "product name|pcie|link (gen|width)|driver"; } >"$work/nvidia-smi.txt" 2>&1
has bench && step bench 480 "$bin" bench --backend cuda -o "$work/bench"
has sweep && step sweep-both 180 "$bin" sweep --backend cuda --preset kernel-transfer --order both
has sweep && step sweep-both-json 180 "$bin" sweep --backend cuda --preset kernel-transfer --order both --json
if has presets; then
	for p in kernel-transfer decrypt hyperq default-stream sync-order managed pageable; do
		step "run-$p" 60 "$bin" run --backend cuda --preset "$p" --export "$work/run-$p.json"
	done
	step run-hyperq-1q-breadth 60 "$bin" run --backend cuda --preset hyperq --connections 1 --order breadth
	step run-hyperq-32q 60 "$bin" run --backend cuda --preset hyperq --connections 32
fi
if has managed; then
	# prefetches timed with cudaEvents and placed by the kernels beside them (--prefetch-events,
	# src/cuda/bracket.c): the preset at 1, 8 and 32 streams in both orders, and at 8 on one hardware queue;
	# SS_VERBOSE shows the placement bounds; then what the events cost (tests/gpu/brackets.sh)
	for n in 1 8 32; do
		for o in depth breadth; do
			step "managed-$n-$o" 60 env SS_VERBOSE=1 "$bin" run --backend cuda --preset managed --streams "$n" \
				--order "$o" --prefetch-events --export "$work/managed-$n-$o.sqlite"
		done
	done
	step managed-8-1q 60 env SS_VERBOSE=1 "$bin" run --backend cuda --preset managed --connections 1 \
		--prefetch-events --export "$work/managed-8-1q.sqlite"
	OUT="$work" step brackets 300 bash tests/gpu/brackets.sh "$build"
fi
# whether auto's rule for the prefetch events holds: events on vs off on both sides of streams <= queues
has prefetch-auto && OUT="$work" step prefetch-auto-log 300 bash tests/gpu/prefetch_auto.sh "$build"
# the event before a prefetch left out where its stream is idle, against one before every prefetch and none
has prefetch-modes && OUT="$work" step prefetch-modes-log 400 bash tests/gpu/prefetch_modes.sh "$build"
if has nocupti; then
	# CUPTI missing on a GPU machine: one line and exit 3 when forced; auto falls back to the model and says why
	step nocupti-cuda 60 env SS_CUPTI_LIBRARY=/nonexistent/libcupti.so.13 "$bin" run --backend cuda
	step nocupti-auto 60 env SS_CUPTI_LIBRARY=/nonexistent/libcupti.so.13 "$bin" run --preset kernel-transfer
fi
if has validate-repeat; then
	# the rows the H200 repeats worst (managed, pageable), measured twice more for the model's noise floor
	for k in ${VALIDATE_MP_RUNS:-1 2}; do
		step "validate-mp$k" 300 "$bin" validate --preset managed,pageable --csv "$work/validate-mp$k.csv"
	done
fi
if has validate-full-repeat; then
	# two more measurements of the whole matrix but decrypt (which repeats within 1%), so the model is held to
	# the median of three, not to one noisy sample per row
	for k in 2 3; do
		step "validate-r$k" 420 "$bin" validate --preset kernel-transfer,hyperq,default-stream,sync-order,managed,pageable \
			--csv "$work/validate-r$k.csv"
	done
fi
if has validate-host; then
	# the matrix (but decrypt) three times, each validate first measuring this host's call costs ('# host:' line
	# of its CSV), which its model column uses
	for k in ${VALIDATE_HOST_RUNS:-1 2 3}; do
		step "validate-h$k" 420 "$bin" validate --preset kernel-transfer,hyperq,default-stream,sync-order,managed,pageable \
			--csv "$work/validate-h$k.csv"
	done
fi
if has host-probes; then
	# the host's call costs alone, many times: each validate measures them before and after its two decrypt rows
	for k in $(seq 1 "${HOST_PROBES:-6}"); do
		step "probe-$k" 60 "$bin" validate --preset decrypt --streams 1 --connections 1 --csv "$work/probe-$k.csv"
	done
fi
if has predict; then
	# run's model prediction next to the measurement, with the profile and with the run's own call costs
	for x in "kernel-transfer" "hyperq --order breadth --connections 8" "sync-order --streams 64"; do
		# shellcheck disable=SC2086
		step "predict-${x%% *}" 60 "$bin" run --backend cuda --preset $x
	done
fi
if has probes; then
	# traces of the rows the model misses most (managed at 1, 32, 128 streams; pageable at 1 and 128 streams)
	step probe-managed-1 60 "$bin" run --backend cuda --preset managed --streams 1 --export "$work/managed-1.sqlite"
	step probe-managed-32 60 "$bin" run --backend cuda --preset managed --streams 32 --export "$work/managed-32.sqlite"
	step probe-managed-128b 60 "$bin" run --backend cuda --preset managed --streams 128 --order breadth \
		--export "$work/managed-128-breadth.sqlite"
	step probe-pageable-1 60 "$bin" run --backend cuda --preset pageable --streams 1 --repeat 15 \
		--export "$work/pageable-1.sqlite"
	step probe-pageable-128 60 "$bin" run --backend cuda --preset pageable --streams 128 --repeat 15 \
		--export "$work/pageable-128.sqlite"
fi
if has pageable-span; then
	# the pageable preset's span against its cudaEvent timer (median over 15 repeats) where the host's staging
	# inside the calls weighs most (1-2 streams: 8-16 MiB a copy) and least (32-128)
	for n in 1 2 8 32 128; do
		step "pageable-span-$n" 60 "$bin" run --backend cuda --preset pageable --streams "$n" --repeat 15 \
			--export "$work/pageable-span-$n.sqlite"
	done
	step pageable-span-8-breadth 60 "$bin" run --backend cuda --preset pageable --order breadth --repeat 15
	step pageable-span-8-threads 60 "$bin" run --backend cuda --preset pageable --threads 8 --repeat 15
fi
if has iobench && [ -x "$build/bench/io_bench" ]; then
	# trace files of 1M and 10M intervals: write and open times, memory per interval (16 cores here)
	step iobench 420 "$build/bench/io_bench" -d "$work" 1000000 10000000
fi
has calibrate && step calibrate 180 "$bin" calibrate -o "$work/h200.profile"
if has validate; then
	prof=()
	[ -s "$work/h200.profile" ] && prof=(--profile "$work/h200.profile")
	step validate 420 "$bin" validate "${prof[@]}" --csv "$work/validate.csv"
fi
if has tui && [ -x tests/gpu/tui_screens.sh ]; then
	mkdir -p "$work/screens"
	OUT="$work/screens" step tui 180 bash tests/gpu/tui_screens.sh "$bin"
fi
if has record && [ -x tests/record/h200.sh ] || [ -f tests/record/h200.sh ]; then
	has record && { mkdir -p "$work/record"; OUT="$work/record" step record 240 bash tests/record/h200.sh "$build"; }
fi
cp "$work/log.txt" "$out/log.txt"
tar -C "$(dirname "$work")" -czf "$out/h200.tar.gz" h200
ls -la "$out"
