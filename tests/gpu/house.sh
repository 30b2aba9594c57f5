#!/bin/bash
# house.sh: what issue 17's restructuring touched, run on the GPU in one call: every subcommand through the new
# command table on the CUDA backend (run of each preset with its exports, sweep in both orders as text and JSON,
# ops, stats of a run and of a trace, bench --quick with its traces and summary.json), `record` of the test
# program through the moved recorder (tests/record/h200.sh), and the usage errors the table makes. Usage (on the
# GPU machine): [STEPS="cli runs record bench sweep"] tests/gpu/house.sh BUILD_DIR; results go to
# $OUT/house.tar.gz plus $OUT/log.txt.
set -u
build=${1:-build-h200}
bin=$build/streamscope
out=${OUT:-/tmp/house-out}
work=$out/house # in $OUT from the start: a run stopped at its time limit still brings back log.txt
mkdir -p "$work"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
export TERM=xterm-256color LANG=C.UTF-8
log() { echo "== $(date +%T) $*" | tee -a "$out/log.txt"; }
step() { # step NAME SECONDS CMD...: run with a time limit, keep stdout+stderr, note the status
	local name=$1 secs=$2
	shift 2
	log "$name: $*"
	timeout "$secs" "$@" >"$work/$name.txt" 2>&1
	local rc=$?
	log "$name: exit $rc"
	tail -n 30 "$work/$name.txt" >>"$out/log.txt"
}
only=${STEPS:-cli runs record bench sweep}
has() { [[ " $only " == *" $1 "* ]]; }
{ nvidia-smi; git -C "$(dirname "$0")/../.." log --oneline -1 2>/dev/null; } >"$work/nvidia-smi.txt" 2>&1
if has cli; then
	step help 10 "$bin" --help
	step keys 10 "$bin" keys
	step usage-unknown 10 "$bin" run --bogus
	step usage-refused 10 "$bin" sweep --export x.json
	step ops 10 "$bin" ops --preset default-stream --json
	step stats-run 60 "$bin" stats --backend cuda --preset sync-order --json
fi
if has runs; then
	for p in kernel-transfer decrypt hyperq default-stream sync-order managed pageable; do
		step "run-$p" 90 "$bin" run --backend cuda --preset "$p" --export "$work/run-$p.sqlite" \
			--export "$work/run-$p.json"
	done
	step run-json 60 "$bin" run --backend cuda --streams 16 --json
	step stats-trace 30 "$bin" stats "$work/run-kernel-transfer.sqlite"
	step view-convert 30 "$bin" view "$work/run-hyperq.sqlite" --export "$work/hyperq.svg"
fi
has bench && step bench 300 "$bin" bench --backend cuda --quick -o "$work/bench"
if has record && [ -f tests/record/h200.sh ]; then
	mkdir -p "$work/record"
	OUT="$work/record" step record 200 bash tests/record/h200.sh "$build"
fi
if has sweep; then
	step sweep-both 240 "$bin" sweep --backend cuda --preset kernel-transfer --order both \
		--streams 1,2,4,8,16,32
	step sweep-json 120 "$bin" sweep --backend cuda --preset hyperq --connections 1 --order both --streams 1,8,32 \
		--json
fi
# the JSON exports are large and say what the SQLite ones say: left out of what comes back
find "$work" -name 'run-*.json' -delete
tar -C "$out" -czf "$out/house.tar.gz" house && rm -rf "$work"
ls -la "$out"
