#!/bin/bash
# tests/record/h200.sh BUILD_DIR: `streamscope record` on the GPU machine. Needs no network and no package: only
# the carried build (streamscope, libstreamscope_inject.so and record_app, all built by
# `cmake -S . -B build-h200 -DSS_STATIC_DEPS=ON -DSS_TESTS=OFF -DCMAKE_BUILD_TYPE=Release`), bash, awk, timeout,
# and tmux for the --live step (skipped without it). Everything goes to $OUT (default /tmp/record-h200):
#   record.sqlite, record_run.out, record_run.err   the trace to commit under tests/data/h200/record/, with the
#                                                   program's output (RECORD_APP line) and streamscope's summary
#   plain-N.out, recorded-N.out/.err                the alternating runs without and with recording
#   children.*, crash.*, live.*                     --children, a kill mid-run, the live view (screens)
#   view.txt, view.ansi                             record.sqlite as `streamscope view` shows it
#   twin.sqlite, twin.out/.err, twin_analyze.txt    record --twin: both wall-clock times, analyze's verdict
#   summary.txt                                     overhead, counts matched, streams, each check PASS/FAIL
# Exit status: 0 when every check passed, 1 otherwise, 2 when the build is incomplete.
set -u
build=${1:?usage: tests/record/h200.sh BUILD_DIR}
out=${OUT:-/tmp/record-h200}
runs=${RUNS:-6}
mkdir -p "$out"
out=$(cd "$out" && pwd)
build=$(cd "$build" 2>/dev/null && pwd) || { echo "no build directory $1" >&2; exit 2; }
bin=$build/streamscope
app=$build/record_app
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
summary=$out/summary.txt
: >"$summary"
failed=0
say() { echo "$*" | tee -a "$summary"; }
check() { # check NAME CONDITION-STATUS DETAIL
	if [ "$2" -eq 0 ]; then say "PASS $1: $3"; else say "FAIL $1: $3"; failed=1; fi
}
# field FILE KEY: the value of KEY= in the RECORD_APP line of FILE
field() { awk -v k="$2" '/^RECORD_APP /{for(i=2;i<=NF;i++){split($i,a,"=");if(a[1]==k){print a[2];exit}}}' "$1"; }
# rec FILE WHAT: a count from streamscope's "recorded ..." summary line ("kernels", "H2D", "NVTX ranges"...)
rec() { grep '^streamscope: recorded' "$1" | head -n 1 | sed -n 's/.*[:,] \([0-9][0-9]*\) '"$2"'[,;].*/\1/p'; }
median() { sort -g | awk '{v[NR]=$1} END{if(NR==0){print "nan";exit} if(NR%2)print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

for f in "$bin" "$app" "$build/libstreamscope_inject.so"; do
	[ -e "$f" ] || { say "FAIL build: $f is missing"; exit 2; }
done
{ date; uname -a; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv
  ldd "$build/libstreamscope_inject.so"; "$bin" --version; } >"$out/env.txt" 2>&1

# 1. The trace to commit.
timeout 120 "$bin" record -o "$out/record.sqlite" -- "$app" >"$out/record_run.out" 2>"$out/record_run.err"
rc=$?
check record-exit "$rc" "streamscope record -- record_app exited $rc (record_app's own status)"
check record-verified "$([ "$(field "$out/record_run.out" verified)" = 1 ]; echo $?)" \
	"record_app checked its results under recording: verified=$(field "$out/record_run.out" verified)"
check record-trace "$([ -s "$out/record.sqlite" ]; echo $?)" "record.sqlite $(stat -c %s "$out/record.sqlite" 2>/dev/null) bytes"
grep -q INCOMPLETE "$out/record_run.err"
check record-complete "$([ $? -ne 0 ]; echo $?)" "trace not marked incomplete"
dropped=$(sed -n 's/.*; \([0-9][0-9]*\) dropped.*/\1/p' "$out/record_run.err" | head -n 1)
check record-dropped "$([ "${dropped:-x}" = 0 ]; echo $?)" "dropped records: ${dropped:-?}"

# 2. Counts: what record_app says it issued against what the trace holds.
for pair in "kernels:kernels" "h2d:H2D" "d2h:D2H" "memsets:memsets" "nvtx_ranges:NVTX ranges"; do
	k=${pair%%:*} w=${pair#*:}
	issued=$(field "$out/record_run.out" "$k") got=$(rec "$out/record_run.err" "$w")
	check "count-$k" "$([ -n "$issued" ] && [ "$issued" = "$got" ]; echo $?)" "issued $issued, recorded $got"
done
d2d=$(rec "$out/record_run.err" D2D)
check count-d2d "$([ "${d2d:-x}" = 0 ]; echo $?)" "no device-to-device copies issued, recorded ${d2d:-?}"
say "streams: $(grep '^streamscope: streams:' "$out/record_run.err" | sed 's/^streamscope: streams: //')"
sl=$(grep '^streamscope: streams:' "$out/record_run.err")
nb=$(sed -n 's/.*[(,] *\([0-9][0-9]*\) blocking.*/\1/p' <<<"$sl") nnb=$(sed -n 's/.*[(,] *\([0-9][0-9]*\) non-blocking.*/\1/p' <<<"$sl")
check stream-kinds "$([ "$nb" = 2 ] && [ "$nnb" = 2 ] && ! grep -q 'kind unknown' <<<"$sl"; echo $?)" "2 blocking + 2 non-blocking streams labelled, none unknown (got ${nb:-0} + ${nnb:-0})"
grep -Eq '^  legacy \(CUPTI id [0-9]+\) +legacy default +[0-9.]+ [a-z]+  1 kernel,' "$out/record_run.err"
check stream-legacy $? "the one legacy default-stream kernel on the legacy lane"
grep -Eq '^  per-thread \(CUPTI id [0-9]+\) +per-thread default +[0-9.]+ [a-z]+  1 kernel,' "$out/record_run.err"
check stream-per-thread $? "the helper thread's kernel on the per-thread default stream lane"
if [ -s "$out/record.sqlite" ] && command -v python3 >/dev/null 2>&1; then
	# the kinds the trace itself carries (STREAMSCOPE_STREAM.kind: 1 blocking, 2 non-blocking)
	tk=$(python3 -c 'import sqlite3,sys; c=sqlite3.connect("file:"+sys.argv[1]+"?mode=ro",uri=True); print(" ".join("%d:%d:%d"%r for r in c.execute("SELECT ssStream, kind, streamId FROM STREAMSCOPE_STREAM ORDER BY ssStream")))' "$out/record.sqlite" 2>&1)
	tb=$(grep -o '[0-9]*:1:[0-9]*' <<<"$tk" | wc -l) tn=$(grep -o '[0-9]*:2:[0-9]*' <<<"$tk" | wc -l)
	check trace-stream-kinds "$([ "$tb" = 2 ] && [ "$tn" = 2 ]; echo $?)" "record.sqlite labels 2 blocking + 2 non-blocking streams (index:kind:CUPTI id: $tk)"
fi
if [ -s "$out/record.sqlite" ] && command -v python3 >/dev/null 2>&1; then
	python3 - "$out/record.sqlite" >"$out/record_sqlite.txt" 2>&1 <<'EOF'
import sqlite3, sys
c = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
for t in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
          "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "NVTX_EVENTS"):
    print(t, c.execute("SELECT COUNT(*) FROM " + t).fetchone()[0])
print("NVTX ranges:")
for row in c.execute("SELECT text, start, end, globalTid FROM NVTX_EVENTS ORDER BY start LIMIT 20"):
    print("  ", row)
print("META:", dict(c.execute("SELECT name, value FROM STREAMSCOPE_META").fetchall()))
EOF
	say "sqlite cross-check (python3): $(tr '\n' ' ' <"$out/record_sqlite.txt" | cut -c1-400)"
fi

# 3. Overhead: record_app's own cudaEvent figures, alternating runs without and with recording (one untimed
# warm-up run first, so both sides see the same clocks and caches).
timeout 60 "$app" >"$out/warmup.out" 2>&1
: >"$out/runs.txt"
for i in $(seq 1 "$runs"); do
	timeout 60 "$app" >"$out/plain-$i.out" 2>&1
	echo "plain $i exit $? gpu_ms_median=$(field "$out/plain-$i.out" gpu_ms_median) wall_ms_median=$(field "$out/plain-$i.out" wall_ms_median)" >>"$out/runs.txt"
	timeout 60 "$bin" record -o "$out/overhead-$i.sqlite" -- "$app" >"$out/recorded-$i.out" 2>"$out/recorded-$i.err"
	echo "recorded $i exit $? gpu_ms_median=$(field "$out/recorded-$i.out" gpu_ms_median) wall_ms_median=$(field "$out/recorded-$i.out" wall_ms_median) kernels=$(rec "$out/recorded-$i.err" kernels)" >>"$out/runs.txt"
	rm -f "$out/overhead-$i.sqlite"
done
cat "$out/runs.txt" >>"$summary"
p_gpu=$(for i in $(seq 1 "$runs"); do field "$out/plain-$i.out" gpu_ms_median; done | median)
r_gpu=$(for i in $(seq 1 "$runs"); do field "$out/recorded-$i.out" gpu_ms_median; done | median)
p_wall=$(for i in $(seq 1 "$runs"); do field "$out/plain-$i.out" wall_ms_median; done | median)
r_wall=$(for i in $(seq 1 "$runs"); do field "$out/recorded-$i.out" wall_ms_median; done | median)
# every timed iteration of every run, pooled
p_all=$(cat "$out"/plain-*.out | sed -n 's/^RECORD_APP_ITER .* gpu_ms=\([0-9.]*\).*/\1/p' | median)
r_all=$(cat "$out"/recorded-*.out | sed -n 's/^RECORD_APP_ITER .* gpu_ms=\([0-9.]*\).*/\1/p' | median)
ov=$(awk -v a="$p_gpu" -v b="$r_gpu" 'BEGIN{if(a>0)printf "%.2f", (b/a-1)*100; else print "nan"}')
ovw=$(awk -v a="$p_wall" -v b="$r_wall" 'BEGIN{if(a>0)printf "%.2f", (b/a-1)*100; else print "nan"}')
ova=$(awk -v a="$p_all" -v b="$r_all" 'BEGIN{if(a>0)printf "%.2f", (b/a-1)*100; else print "nan"}')
say "overhead: cudaEvent makespan per iteration, median of $runs runs: without ${p_gpu} ms, recorded ${r_gpu} ms: ${ov}%"
say "overhead: pooled iterations: without ${p_all} ms, recorded ${r_all} ms: ${ova}%"
say "overhead: host wall time per iteration (issue + sync), median: without ${p_wall} ms, recorded ${r_wall} ms: ${ovw}%"
check overhead "$(awk -v o="$ov" 'BEGIN{exit !(o != "nan" && o <= 2.0)}'; echo $?)" "cudaEvent overhead ${ov}% (<= 2%)"
kk=$(grep -o 'kernels=[0-9]*$' "$out/runs.txt" | sort -u | wc -l)
check overhead-counts "$([ "$kk" = 1 ]; echo $?)" "every recorded run recorded the same kernel count"

# 4. Children: only the launched process by default; --children adds the CUDA programs it starts.
timeout 120 "$bin" record -o "$out/children-off.sqlite" -- /bin/sh -c "'$app' --iters 2 >/dev/null; '$app' --iters 2 >/dev/null" \
	>"$out/children-off.out" 2>"$out/children-off.err"
grep -q 'nothing recorded' "$out/children-off.err"
check children-default $? "without --children a shell's CUDA children are not recorded: $(head -c 200 "$out/children-off.err")"
timeout 120 "$bin" record --children -o "$out/children.sqlite" -- /bin/sh -c "'$app' --iters 2 >/dev/null; '$app' --iters 2 >/dev/null" \
	>"$out/children.out" 2>"$out/children.err"
grep -q '(2 processes)' "$out/children.err"
check children-on $? "--children recorded both CUDA children: $(grep '^streamscope: recorded' "$out/children.err" | head -c 300)"

# 5. Killed mid-run: what was delivered before (every 500 ms) is kept, marked incomplete, status 137.
timeout 120 "$bin" record -o "$out/crash.sqlite" -- /bin/sh -c "(sleep 2; kill -9 \$\$) >/dev/null 2>&1 & exec '$app' --iters 100000" \
	>"$out/crash.out" 2>"$out/crash.err"
rc=$?
grep -q 'marked incomplete' "$out/crash.err" && [ -s "$out/crash.sqlite" ]
check crash "$([ $? -eq 0 ] && [ "$rc" = 137 ]; echo $?)" "killed: exit $rc, $(grep '^streamscope: recorded' "$out/crash.err" | head -c 200)"

# 6. --live in a terminal (tmux): screens while the program runs and after, then q writes the trace.
if command -v tmux >/dev/null 2>&1; then
	export TERM=xterm-256color LANG=C.UTF-8
	tmux kill-session -t ssrec 2>/dev/null
	tmux new-session -d -s ssrec -x 160 -y 48 "'$bin' record --live -o '$out/live.sqlite' -- '$app' --iters 300 2>'$out/live.err'; echo done >'$out/live.done'; sleep 30"
	sleep 3
	tmux capture-pane -p -e -t ssrec >"$out/live-running.ansi" 2>/dev/null
	for _ in $(seq 1 60); do grep -q 'recording ended' <(tmux capture-pane -p -t ssrec 2>/dev/null) && break; sleep 1; done
	tmux capture-pane -p -e -t ssrec >"$out/live-ended.ansi" 2>/dev/null
	tmux send-keys -t ssrec q
	for _ in $(seq 1 30); do [ -e "$out/live.done" ] && break; sleep 1; done
	tmux kill-session -t ssrec 2>/dev/null
	[ -s "$out/live.sqlite" ] && grep -q 'recording ended' "$out/live-ended.ansi"
	check live $? "live view drew while recording, ended, q wrote live.sqlite ($(stat -c %s "$out/live.sqlite" 2>/dev/null) bytes); log: $(head -c 200 "$out/live.sqlite.log" 2>/dev/null | tail -n 1)"
	# the recorded trace as `streamscope view` shows it (for the closing note: lanes, NVTX ranges)
	tmux new-session -d -s ssview -x 160 -y 48 "'$bin' view '$out/record.sqlite'; sleep 30"
	sleep 3
	tmux capture-pane -p -e -t ssview >"$out/view.ansi" 2>/dev/null
	tmux capture-pane -p -t ssview >"$out/view.txt" 2>/dev/null
	tmux send-keys -t ssview q
	sleep 1
	tmux kill-session -t ssview 2>/dev/null
	say "view screen of record.sqlite: view.txt / view.ansi ($(grep -c . "$out/view.txt" 2>/dev/null) non-empty rows)"
	# lane labels: the streams' kinds, and one NVTX lane per thread with ranges (main and helper)
	# (a recorded trace's streams go by their CUPTI id: "13 blk H2D"; experiments' by index: "s0 blk")
	vb=$(grep -cE '^(s|~)?[0-9]+ +blk' "$out/view.txt" 2>/dev/null) vn=$(grep -cE '^(s|~)?[0-9]+ +nb ' "$out/view.txt" 2>/dev/null)
	vt=$(grep -c '^NVTX [t~]' "$out/view.txt" 2>/dev/null)
	check view-labels "$([ "${vb:-0}" = 2 ] && [ "${vn:-0}" = 2 ] && [ "${vt:-0}" = 2 ]; echo $?)" "view lanes: $vb blk + $vn nb stream labels, $vt NVTX thread lanes (want 2, 2, 2)"
else
	say "SKIP live and view screens: no tmux"
fi

# 7. --twin: record_app untraced first, then recorded; both wall-clock times in the trace, and analyze's
# tracing-perturbation fires exactly when the traced run took over 5% longer (a problem over 20%).
timeout 240 "$bin" record --twin -o "$out/twin.sqlite" -- "$app" >"$out/twin.out" 2>"$out/twin.err"
rc=$?
check twin-exit "$rc" "streamscope record --twin -- record_app exited $rc"
check twin-both-ran "$([ "$(grep -c '^RECORD_APP ' "$out/twin.out")" = 2 ]; echo $?)" \
	"record_app's RECORD_APP line twice (untraced, then traced): $(grep -c '^RECORD_APP ' "$out/twin.out")"
tl=$(grep '^streamscope: record --twin:' "$out/twin.err" | head -n 1)
say "twin: ${tl:-no --twin line}"
check twin-line "$([ -n "$tl" ] && grep -q 'stored in the trace' <<<"$tl"; echo $?)" "streamscope printed both times"
if [ -s "$out/twin.sqlite" ] && command -v python3 >/dev/null 2>&1; then
	tw=$(python3 -c 'import sqlite3,sys; c=sqlite3.connect("file:"+sys.argv[1]+"?mode=ro",uri=True); d=dict(c.execute("SELECT name, value FROM STREAMSCOPE_META")); print(d.get("wallTracedNs",""), d.get("wallUntracedNs",""))' "$out/twin.sqlite" 2>&1)
	read -r wt wu <<<"$tw"
	check twin-trace "$([ -n "$wt" ] && [ -n "$wu" ] && [ "$wt" -gt 0 ] && [ "$wu" -gt 0 ]; echo $?)" \
		"twin.sqlite STREAMSCOPE_META wallTracedNs=${wt:-?} wallUntracedNs=${wu:-?}"
	"$bin" analyze "$out/twin.sqlite" >"$out/twin_analyze.txt" 2>&1
	pct=$(awk -v a="${wt:-0}" -v b="${wu:-1}" 'BEGIN{printf "%.2f", (a-b)*100.0/b}')
	want=$(awk -v p="$pct" 'BEGIN{print (p > 5) ? 1 : 0}')
	got=$(grep -c '\] tracing-perturbation:' "$out/twin_analyze.txt")
	say "twin: traced $wt ns, untraced $wu ns: +${pct}%; analyze: $(grep 'tracing-perturbation' "$out/twin_analyze.txt" | head -n 1)"
	check twin-rule "$([ "$got" = "$want" ]; echo $?)" "tracing-perturbation fired $got time(s), expected $want at +${pct}%"
fi

say "result: $([ "$failed" = 0 ] && echo 'all checks passed' || echo 'some checks FAILED')"
exit "$failed"
