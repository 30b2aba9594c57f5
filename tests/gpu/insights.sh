#!/bin/bash
# tests/gpu/insights.sh [BUILD_DIR]: the pathology programs of tests/gpu/insights (one performance problem each,
# clean*.cu none; issue 20's test suite of traces with known problems), built with nvcc, each recorded with
# `streamscope record` and analysed with `streamscope analyze --json`, on the GPU machine.
#
# streamscope: $SS, else BUILD_DIR/streamscope (BUILD_DIR default build-h200, built with -DSS_STATIC_DEPS=ON; its
# libstreamscope_inject.so must sit beside it). nvcc: $NVCC, else nvcc on PATH, else /usr/local/cuda/bin/nvcc.
# Run from the repository root. Everything goes to $OUT (default /tmp/insights-out):
#   log.txt                 every step with its status, each program's INSIGHTS_APP line, each analysis' rules
#   insights.tar.gz         insights/: per program NAME.sqlite (the trace, to commit under
#                           tests/data/h200/insights/), NAME.out/.err (program output, recorder summary),
#                           NAME.plain.out (the program run once untraced first, for its own ms),
#                           NAME.analyze.json and NAME.analyze.txt, NAME.build.txt; env.txt
# (the files are packed into one archive because only a few files come back from the GPU machine; KEEP=1 leaves
# insights/ unpacked as well). managed-migration is recorded with SS_CUPTI_MIGRATIONS=1 (the recorder then
# captures its unified-memory migrations); with nsys on PATH it is also recorded by Nsight Systems with its
# unified-memory page faults (managed-migration.nsys.sqlite).
# Optional: ONLY="clean pageable" runs only those programs. A failing program is reported and the rest still run.
# Exit status: 0 when every program built, verified its results under recording and was analysed; 1 otherwise.
set -u
build=${1:-build-h200}
ss=${SS:-$build/streamscope}
out=${OUT:-/tmp/insights-out}
src=tests/gpu/insights
progs="clean clean2 pageable legacy false-dep host-sync-order no-overlap engine-bound small-copies launch-bound
low-kernel-concurrency gpu-idle managed-migration"
progs=${ONLY:-$progs}
mkdir -p "$out/insights" "$out/bin"
out=$(cd "$out" && pwd)
work=$out/insights
log=$out/log.txt
: >"$log"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
say() { echo "== $(date +%T) $*" | tee -a "$log"; }
failed=0
fail() {
	say "FAIL $*"
	failed=1
}

if [ -n "${NVCC:-}" ]; then
	nvcc=$NVCC
elif command -v nvcc >/dev/null 2>&1; then
	nvcc=nvcc
else
	nvcc=/usr/local/cuda/bin/nvcc
fi
[ -d "$src" ] || {
	say "FAIL: run from the repository root ($src not found)"
	exit 1
}
[ -x "$ss" ] || {
	say "FAIL: no streamscope binary at $ss (give SS=... or BUILD_DIR)"
	exit 1
}
{
	date -u
	uname -a
	nvidia-smi -L
	nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
	"$ss" --version
	"$nvcc" --version | tail -n 2
	git log --oneline -1 2>/dev/null
} >"$work/env.txt" 2>&1
twin=
"$ss" record --help 2>&1 | grep -q -- '--twin' && twin=--twin
say "streamscope $ss ${twin:+(record $twin)}, nvcc $nvcc, programs: $(echo $progs)"

# 1. Build, in parallel (each program is one .cu plus common.cuh).
for p in $progs; do
	(timeout 180 "$nvcc" -arch=sm_90 -O2 -o "$out/bin/$p" "$src/$p.cu" >"$work/$p.build.txt" 2>&1
		echo $? >"$work/$p.build.rc") &
done
wait
for p in $progs; do
	rc=$(cat "$work/$p.build.rc" 2>/dev/null || echo '?')
	rm -f "$work/$p.build.rc"
	if [ "$rc" != 0 ]; then
		fail "build $p: nvcc exit $rc: $(head -c 400 "$work/$p.build.txt")"
	else
		rm -f "$work/$p.build.txt"
	fi
done
say "built: $(ls "$out/bin" | tr '\n' ' ')"

# 2. Record and analyse each.
for p in $progs; do
	[ -x "$out/bin/$p" ] || continue
	rm -f "$work/$p.sqlite"
	timeout 60 "$out/bin/$p" >"$work/$p.plain.out" 2>&1
	say "plain $p: exit $?; $(grep '^INSIGHTS_APP ' "$work/$p.plain.out" | head -n 1)"
	# managed-migration's trace needs the unified-memory migrations, which the recorder captures on request only
	mig=0
	[ "$p" = managed-migration ] && mig=1
	SS_CUPTI_MIGRATIONS=$mig timeout 120 "$ss" record $twin -o "$work/$p.sqlite" -- "$out/bin/$p" >"$work/$p.out" \
		2>"$work/$p.err"
	rc=$?
	line=$(grep '^INSIGHTS_APP ' "$work/$p.out" | head -n 1)
	say "record $p: exit $rc; $line"
	grep '^streamscope: recorded' "$work/$p.err" | head -n 1 | cut -c1-300 >>"$log"
	if [ "$rc" != 0 ] || [[ "$line" != *verified=1* ]]; then
		fail "record $p: exit $rc, program output: $(tail -c 300 "$work/$p.err")"
		continue
	fi
	if [ ! -s "$work/$p.sqlite" ]; then
		fail "record $p: no trace written"
		continue
	fi
	timeout 60 "$ss" analyze --json "$work/$p.sqlite" >"$work/$p.analyze.json" 2>"$work/$p.analyze.err"
	rc=$?
	timeout 60 "$ss" analyze "$work/$p.sqlite" >"$work/$p.analyze.txt" 2>&1
	[ -s "$work/$p.analyze.err" ] || rm -f "$work/$p.analyze.err"
	if [ "$rc" != 0 ]; then
		fail "analyze $p: exit $rc: $(head -c 300 "$work/$p.analyze.err" 2>/dev/null)"
		continue
	fi
	say "analyze $p: $(grep -o '"rule": *"[^"]*"\|"severity": *"[^"]*"' "$work/$p.analyze.json" | sed 's/.*: *"\(.*\)"/\1/' | paste -d: - - | tr '\n' ' ')"
done

# 3. The managed program under Nsight Systems, where it is installed (its export carries the page faults).
if [[ " $progs " == *" managed-migration "* ]] && [ -x "$out/bin/managed-migration" ] && command -v nsys >/dev/null 2>&1; then
	timeout 120 nsys profile -o "$out/nsys-managed" --force-overwrite true -t cuda --cuda-um-cpu-page-faults=true \
		--cuda-um-gpu-page-faults=true "$out/bin/managed-migration" >"$work/managed-migration.nsys.txt" 2>&1
	timeout 120 nsys export --type sqlite -o "$work/managed-migration.nsys.sqlite" --force-overwrite true \
		"$out/nsys-managed.nsys-rep" >>"$work/managed-migration.nsys.txt" 2>&1
	say "nsys managed-migration: exit $? ($(stat -c %s "$work/managed-migration.nsys.sqlite" 2>/dev/null) bytes)"
	rm -f "$out/nsys-managed.nsys-rep"
	[ -s "$work/managed-migration.nsys.sqlite" ] &&
		timeout 60 "$ss" analyze --json "$work/managed-migration.nsys.sqlite" \
			>"$work/managed-migration.nsys.analyze.json" 2>&1
else
	say "nsys: not installed or not asked for; managed-migration recorded by streamscope only"
fi

ls -la "$work" >>"$log"
tar -C "$out" -czf "$out/insights.tar.gz" insights
[ "${KEEP:-0}" = 1 ] || rm -rf "$work"
rm -rf "$out/bin"
say "result: $([ "$failed" = 0 ] && echo 'every program built, verified under recording and was analysed' || echo 'some steps FAILED')"
exit "$failed"
