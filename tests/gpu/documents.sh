#!/bin/bash
# documents.sh: issue 18 on the GPU in few calls: the source documents' presets run on the CUDA backend (each
# verified), calibrate of the documents' kernels, validate of the presets whose workload changed against the
# calibrated model, the documents' claims (`streamscope claims`), and the reference programs against the presets
# (tests/gpu/reference.sh, when built). Usage (on the GPU machine):
#   [STEPS="runs detach repeats calibrate validate claims reference sweep"] [VALIDATE_RUNS=2] [VALIDATE_PRESETS=managed,pageable]
#   [VALIDATE_LIMIT=280] tests/gpu/documents.sh BUILD_DIR
# (detach: what CUPTI detached between traced runs reports, and what detaching costs a repeat: run --json's
# untraced_cupti with and without SS_CUPTI_DETACH, one thread per stream (each thread's per-thread stream id held on
# re-attach), SS_CUPTI_MIGRATIONS=1, the text export. repeats: each repeat's times (repeats.txt) of the run in
# CFGS (';' between them) each way in WAYS (environments, ';' between them), ROUNDS rounds.
# VALIDATE_PRESETS: validate only these presets, e.g. to measure single-measurement rows again; VALIDATE_LIMIT:
# seconds each validate run may take)
# Results go to $OUT/documents.tar.gz plus $OUT/log.txt; each step's output is kept whole, its tail in the log.
set -u
build=${1:-build-h200}
bin=$build/streamscope
out=${OUT:-/tmp/documents-out}
work=$out/documents # in $OUT from the start: a run stopped at its time limit still brings back log.txt
mkdir -p "$work"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
export TERM=xterm-256color LANG=C.UTF-8
log() { echo "== $(date +%T) $*" | tee -a "$out/log.txt"; }
step() { # step NAME SECONDS CMD...: run with a time limit, keep stdout+stderr, note the status and the time
	local name=$1 secs=$2 t0 rc
	shift 2
	log "$name: $*"
	t0=$(date +%s%N)
	timeout "$secs" "$@" >"$work/$name.txt" 2>&1
	rc=$?
	log "$name: exit $rc in $((($(date +%s%N) - t0) / 1000000)) ms" # no bc on the GPU machine
	tail -n 25 "$work/$name.txt" >>"$out/log.txt"
}
only=${STEPS:-runs calibrate validate claims reference sweep}
has() { [[ " $only " == *" $1 "* ]]; }
{ nvidia-smi; git -C "$(dirname "$0")/../.." log --oneline -1 2>/dev/null; } >"$work/nvidia-smi.txt" 2>&1
changed=${VALIDATE_PRESETS:-kernel-transfer,decrypt,default-stream,sync-order,managed,pageable,vector-add}
if has runs; then
	step ops-kernel-transfer 10 "$bin" ops --preset kernel-transfer --streams 4
	step ops-decrypt 10 "$bin" ops --preset decrypt --streams 3 --elements 10
	step ops-vector-add 10 "$bin" ops --preset vector-add
	step ops-vector-add-weaker 10 "$bin" ops --preset vector-add --order weaker
	step ops-managed-threads 10 "$bin" ops --preset managed-threads --streams 2 --threads 2 --work 2
	step run-managed-threads 120 "$bin" run --backend cuda --preset managed-threads --json
	step run-managed-threads-1t 120 "$bin" run --backend cuda --preset managed-threads --threads 1 --json
	step run-managed-threads-text 120 "$bin" run --backend cuda --preset managed-threads --export "$work/managed-threads.sqlite"
	step run-kernel-transfer 60 "$bin" run --backend cuda --preset kernel-transfer --json
	step run-kernel-transfer-20 60 "$bin" run --backend cuda --preset kernel-transfer --streams 20 --json
	step run-kernel-transfer-fma 60 "$bin" run --backend cuda --preset kernel-transfer --kernel fma --json
	step run-decrypt 120 "$bin" run --backend cuda --preset decrypt --json
	step run-vector-add-best 60 "$bin" run --backend cuda --preset vector-add --json
	step run-vector-add-weaker 60 "$bin" run --backend cuda --preset vector-add --order weaker --json
	step run-get-last-error 60 "$bin" run --backend cuda --preset kernel-transfer --default-stream get-last-error \
		--json
	step run-event-timer 60 "$bin" run --backend cuda --preset kernel-transfer --default-stream event-timer --json
	step run-kernel-transfer-text 60 "$bin" run --backend cuda --preset kernel-transfer --export \
		"$work/kernel-transfer.sqlite"
	step run-vector-add-text 60 "$bin" run --backend cuda --preset vector-add --export "$work/vector-add.sqlite"
	step run-vector-add-weaker-text 60 "$bin" run --backend cuda --preset vector-add --order weaker --export \
		"$work/vector-add-weaker.sqlite"
fi
if has detach; then
	keys='import json,sys
d=json.load(sys.stdin)
c,x=d["counts"],d["expected"]
print("verified=%s records_as_expected=%s untraced_cupti=%s traced_ns=%s untraced_ns=%s" % (d["verified"],
 all(c.get(k,0)==v for k,v in x.items()), d.get("untraced_cupti"), d["traced_ns"], d["untraced_ns"]))'
	detach_run() { # detach_run LABEL ENV... -- ARGS...: one run --json, one line in detach.txt
		local label=$1 envs=()
		shift
		while [ "$1" != -- ]; do envs+=("$1"); shift; done
		shift
		printf '%s %s: ' "$label" "${envs[*]}" >>"$work/detach.txt"
		env "${envs[@]}" "$bin" run --backend cuda "$@" --json 2>>"$work/detach-err.txt" |
			python3 -c "$keys" >>"$work/detach.txt" 2>>"$work/detach-err.txt" || echo failed >>"$work/detach.txt"
	}
	log "detach: runs"
	detach_run kernel-transfer SS_CUPTI_DETACH=1 -- --preset kernel-transfer
	detach_run kernel-transfer SS_CUPTI_DETACH=0 -- --preset kernel-transfer
	detach_run kernel-transfer-threads SS_CUPTI_DETACH=1 -- --preset kernel-transfer --streams 8 --threads 8
	detach_run kernel-transfer-threads-per-thread SS_CUPTI_DETACH=1 -- --preset kernel-transfer --streams 8 \
		--threads 8 --default-stream per-thread
	detach_run managed-migrations SS_CUPTI_DETACH=1 SS_CUPTI_MIGRATIONS=1 -- --preset managed
	detach_run managed-threads SS_CUPTI_DETACH=1 -- --preset managed-threads
	step detach-text 60 "$bin" run --backend cuda --preset vector-add --export "$work/detach.txt.txt"
	grep -i "untraced" "$work/detach.txt.txt" >>"$work/detach.txt" 2>&1
	grep -i "untraced\|cupti" "$work/detach-text.txt" >>"$work/detach.txt" 2>&1
	tail -n 20 "$work/detach.txt" >>"$out/log.txt"
fi
if has repeats; then
	# each repeat's traced and untraced times (SS_VERBOSE=1: the experiment's repeats, then its one-stream twin's, each line naming its run)
	# and each run's wall time, ROUNDS rounds of every configuration in CFGS run each way of WAYS in turn
	log "repeats: run --repeat 10 --warmup 1 (SS_VERBOSE=1), the ways in turn"
	IFS=';' read -r -a cfgs <<<"${CFGS:-kernel-transfer --streams 128 --elements 16k --sync stream;kernel-transfer --streams 64;vector-add --streams 128}"
	IFS=";" read -r -a ways <<<"${WAYS:-SS_CUPTI_DETACH=1;SS_CUPTI_DETACH=0}"
	for r in $(seq 1 "${ROUNDS:-3}"); do
		for c in "${cfgs[@]}"; do
			for m in "${ways[@]}"; do
				t0=$(date +%s%N)
				# shellcheck disable=SC2086 # $m and $c are words
				env SS_VERBOSE=1 $m "$bin" run --backend cuda --preset $c --repeat 10 --warmup 1 >/dev/null \
					2>"$work/verbose.txt"
				rc=$?
				echo "round=$r cfg=\"$c\" way=\"$m\" exit=$rc wall_ms=$((($(date +%s%N) - t0) / 1000000))" \
					>>"$work/repeats.txt"
				grep "repeat [0-9]*/" "$work/verbose.txt" >>"$work/repeats.txt"
			done
		done
	done
	rm -f "$work/verbose.txt"
fi
if has calibrate; then
	step calibrate 300 "$bin" calibrate -o "$work/h200.profile"
fi
prof=()
[ -s "$work/h200.profile" ] && prof=(--profile "$work/h200.profile")
if has validate; then
	for r in $(seq 1 "${VALIDATE_RUNS:-1}"); do
		step "validate-$r" "${VALIDATE_LIMIT:-280}" "$bin" validate --preset "$changed" --csv "$work/validate-$r.csv" "${prof[@]}"
	done
fi
if has claims && "$bin" claims --help >/dev/null 2>&1; then
	step claims 400 "$bin" claims --backend cuda "${prof[@]}"
	step claims-json 400 "$bin" claims --backend cuda --json "${prof[@]}"
fi
if has reference && [ -f tests/gpu/reference.sh ]; then
	mkdir -p "$work/reference"
	OUT="$work" step reference 540 bash tests/gpu/reference.sh "$build"
fi
if has sweep; then
	step sweep-kernel-transfer 200 "$bin" sweep --backend cuda --preset kernel-transfer \
		--streams 1,2,4,8,16,20,32,64,128 "${prof[@]}"
	step sweep-kernel-transfer-json 200 "$bin" sweep --backend cuda --preset kernel-transfer \
		--streams 1,2,4,8,16,20,32,64,128 --json "${prof[@]}"
fi
tar -C "$out" -czf "$out/documents.tar.gz" documents && rm -rf "$work"
ls -la "$out"
