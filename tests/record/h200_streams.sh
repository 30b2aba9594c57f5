#!/bin/bash
# tests/record/h200_streams.sh BUILD_DIR: `streamscope record` of many streams on the GPU machine (issue 16 items 7
# and 8). Needs only the carried build (streamscope, libstreamscope_inject.so, streams_app and many_ops_app, all
# built by `cmake -S . -B build-h200 -DSS_STATIC_DEPS=ON -DSS_TESTS=OFF -DCMAKE_BUILD_TYPE=Release`), bash, awk,
# timeout, python3 (sqlite3: the kinds the traces carry) and tmux (the --live step; skipped without it).
#   1. streams_app (128 streams from every creation call) alone, then recorded: streams.sqlite
#   2. many_ops_app (105,600 tiny copies and kernels on 32 streams) alone, then recorded: many.sqlite
#   3. many_ops_app --passes N under `record --live` in tmux: screens while it runs and once it has ended
#   4. streams.sqlite as `streamscope view` shows it (lane labels)
# Checks (PASS/FAIL lines in summary.txt): the programs verified their results with and without recording, every
# issued kernel and copy is in the trace, nothing dropped, the summary names 64 blocking + 64 non-blocking (16 + 16)
# streams and no "kind unknown", the summary fits 20 lines, the trace's STREAMSCOPE_STREAM table carries the same
# kinds, the live view drew and wrote its trace. Counts of streams by kind are printed for each trace.
# Work files go to $WORK (default /tmp/h200-streams); at most 8 files go to $OUT (default /tmp/record-h200-streams):
#   summary.txt, streams_run.err, many_run.err, live-running.ansi, live-ended.ansi, view-streams.ansi and
#   h200_streams.tar.gz (everything in $WORK but the live trace; many.sqlite left out if the archive would pass
#   15 MiB: then said so in summary.txt).
# Exit status: 0 when every check passed, 1 otherwise, 2 when the build is incomplete.
set -u
build=${1:?usage: tests/record/h200_streams.sh BUILD_DIR}
out=${OUT:-/tmp/record-h200-streams}
work=${WORK:-/tmp/h200-streams}
passes=${PASSES:-8}
mkdir -p "$out" "$work"
out=$(cd "$out" && pwd)
work=$(cd "$work" && pwd)
build=$(cd "$build" 2>/dev/null && pwd) || { echo "no build directory $1" >&2; exit 2; }
bin=$build/streamscope
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
summary=$work/summary.txt
: >"$summary"
failed=0
say() { echo "$*" | tee -a "$summary"; }
check() { # check NAME CONDITION-STATUS DETAIL
	if [ "$2" -eq 0 ]; then say "PASS $1: $3"; else say "FAIL $1: $3"; failed=1; fi
}
# field FILE TAG KEY: the value of KEY= in the TAG line of FILE
field() { awk -v t="$2" -v k="$3" '$1==t{for(i=2;i<=NF;i++){split($i,a,"=");if(a[1]==k){print a[2];exit}}}' "$1"; }
# rec FILE WHAT: a count from streamscope's "recorded ..." summary line ("kernels", "H2D", "memsets"...)
rec() { grep '^streamscope: recorded' "$1" | head -n 1 | sed -n 's/.*[:,] \([0-9][0-9]*\) '"$2"'[,;].*/\1/p'; }
# kinds FILE: the summary's count of streams of a kind ("blocking", "non-blocking", "kind unknown")
kinds() { grep '^streamscope: streams:' "$1" | head -n 1 | sed -n 's/.*[(,] *\([0-9][0-9]*\) '"$2"'[,)].*/\1/p'; }
# tracekinds FILE: the trace's streams by kind, from its STREAMSCOPE_STREAM table (kind 0 unknown, 1 blocking,
# 2 non-blocking, 3 legacy, 4 per-thread), as "blocking=N non-blocking=N unknown=N legacy=N per-thread=N"
tracekinds() {
	python3 - "$1" <<'EOF' 2>&1
import sqlite3, sys
c = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
n = dict(c.execute("SELECT kind, COUNT(*) FROM STREAMSCOPE_STREAM GROUP BY kind"))
names = {1: "blocking", 2: "non-blocking", 0: "unknown", 3: "legacy", 4: "per-thread"}
print(" ".join("%s=%d" % (names[k], n.get(k, 0)) for k in (1, 2, 0, 3, 4)))
EOF
}
# summary_lines FILE: the lines of record's summary, from "recorded" to "trace written" (excluded)
summary_lines() { awk '/^streamscope: recorded/{on=1} /^streamscope: trace written/{on=0} on{n++} END{print n+0}' "$1"; }

for f in "$bin" "$build/libstreamscope_inject.so" "$build/streams_app" "$build/many_ops_app"; do
	[ -e "$f" ] || { say "FAIL build: $f is missing"; exit 2; }
done
{ date; uname -a; nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu --format=csv
  ldd "$build/libstreamscope_inject.so"; ldd "$build/streams_app"; "$bin" --version; } >"$work/env.txt" 2>&1

# record_case NAME TAG BLOCKING NONBLOCKING APP [ARGS...]: the program alone, then recorded, with every check
record_case() {
	local name=$1 tag=$2 wb=$3 wn=$4 rc
	shift 4
	timeout 300 "$@" >"$work/${name}_plain.out" 2>"$work/${name}_plain.err"
	rc=$?
	check "$name-plain" "$([ "$rc" = 0 ] && [ "$(field "$work/${name}_plain.out" "$tag" verified)" = 1 ]; echo $?)" \
		"$(basename "$1") alone: exit $rc, $(grep "^$tag " "$work/${name}_plain.out" | head -c 300)$(head -c 300 "$work/${name}_plain.err")"
	timeout 600 "$bin" record -o "$work/$name.sqlite" -- "$@" >"$work/${name}_run.out" 2>"$work/${name}_run.err"
	rc=$?
	check "$name-record" "$([ "$rc" = 0 ] && [ "$(field "$work/${name}_run.out" "$tag" verified)" = 1 ] && [ -s "$work/$name.sqlite" ]; echo $?)" \
		"recorded: exit $rc, $(grep "^$tag " "$work/${name}_run.out" | head -c 300), trace $(stat -c %s "$work/$name.sqlite" 2>/dev/null) bytes"
	! grep -q INCOMPLETE "$work/${name}_run.err"
	check "$name-complete" $? "trace not marked incomplete"
	local dropped
	dropped=$(sed -n 's/.*; \([0-9][0-9]*\) dropped.*/\1/p' "$work/${name}_run.err" | head -n 1)
	check "$name-dropped" "$([ "${dropped:-x}" = 0 ]; echo $?)" "dropped records: ${dropped:-?}"
	for pair in "kernels:kernels" "h2d:H2D" "d2h:D2H"; do
		local k=${pair%%:*} w=${pair#*:} issued got
		issued=$(field "$work/${name}_run.out" "$tag" "$k") got=$(rec "$work/${name}_run.err" "$w")
		check "$name-count-$k" "$([ -n "$issued" ] && [ "$issued" = "$got" ]; echo $?)" "issued $issued, recorded $got"
	done
	local nb nn nu lines tk
	nb=$(kinds "$work/${name}_run.err" blocking) nn=$(kinds "$work/${name}_run.err" non-blocking)
	nu=$(kinds "$work/${name}_run.err" "kind unknown")
	check "$name-summary-kinds" "$([ "${nb:-0}" = "$wb" ] && [ "${nn:-0}" = "$wn" ] && [ -z "$nu" ]; echo $?)" \
		"summary: ${nb:-0} blocking + ${nn:-0} non-blocking, ${nu:-0} unknown (want $wb + $wn, 0): $(grep '^streamscope: streams:' "$work/${name}_run.err")"
	lines=$(summary_lines "$work/${name}_run.err")
	check "$name-summary-short" "$([ "$lines" -le 20 ]; echo $?)" "the summary is $lines lines (at most 20)"
	tk=$(tracekinds "$work/$name.sqlite")
	say "streams by kind in $name.sqlite: $tk"
	check "$name-trace-kinds" "$([[ "$tk" == "blocking=$wb non-blocking=$wn unknown=0 "* ]]; echo $?)" \
		"the trace labels $wb blocking + $wn non-blocking streams, none unknown"
}

# 1, 2. The two programs, alone and recorded.
record_case streams STREAMS_APP 64 64 "$build/streams_app"
record_case many MANY_OPS_APP 16 16 "$build/many_ops_app"
for name in streams many; do
	say "--- record's summary for $name:"
	awk '/^streamscope: recorded/{on=1} /^streamscope: trace written/{on=0} on' "$work/${name}_run.err" | tee -a "$summary"
done

# 3. --live of the 100k-operation program in tmux: screens while it runs and once it has ended, then q.
if command -v tmux >/dev/null 2>&1; then
	export TERM=xterm-256color LANG=C.UTF-8
	tmux kill-session -t ssmany 2>/dev/null
	rm -f "$work/live.done"
	tmux new-session -d -s ssmany -x 160 -y 48 "'$bin' record --live -o '$work/live.sqlite' -- /bin/sh -c \"exec '$build/many_ops_app' --passes $passes --pause-ms 300 >'$work/live_app.out'\" 2>'$work/live.err'; echo done >'$work/live.done'; sleep 60"
	sleep 4
	tmux capture-pane -p -e -t ssmany >"$work/live-running.ansi" 2>/dev/null
	sleep 3
	tmux capture-pane -p -e -t ssmany >"$work/live-running2.ansi" 2>/dev/null
	for _ in $(seq 1 240); do grep -q 'recording ended' <(tmux capture-pane -p -t ssmany 2>/dev/null) && break; sleep 1; done
	tmux capture-pane -p -e -t ssmany >"$work/live-ended.ansi" 2>/dev/null
	tmux send-keys -t ssmany q
	for _ in $(seq 1 240); do [ -e "$work/live.done" ] && break; sleep 1; done
	tmux kill-session -t ssmany 2>/dev/null
	[ -s "$work/live.sqlite" ] && grep -q 'recording ended' "$work/live-ended.ansi" && [ "$(field "$work/live_app.out" MANY_OPS_APP verified)" = 1 ]
	check live $? "live view drew while recording and ended, q wrote live.sqlite ($(stat -c %s "$work/live.sqlite" 2>/dev/null) bytes); $(grep '^MANY_OPS_APP ' "$work/live_app.out" | head -c 300)"
	say "streams by kind in live.sqlite: $(tracekinds "$work/live.sqlite")"
	say "live summary: $(grep '^streamscope: streams:' "$work/live.err")"
	# 4. the 128-stream trace as `streamscope view` shows it
	tmux new-session -d -s ssview -x 160 -y 48 "'$bin' view '$work/streams.sqlite'; sleep 30"
	sleep 3
	tmux capture-pane -p -e -t ssview >"$work/view-streams.ansi" 2>/dev/null
	tmux capture-pane -p -t ssview >"$work/view-streams.txt" 2>/dev/null
	tmux send-keys -t ssview q
	sleep 1
	tmux kill-session -t ssview 2>/dev/null
else
	say "SKIP live and view screens: no tmux"
fi

# What comes back: at most 8 files in $OUT.
say "exit: $([ "$failed" = 0 ] && echo all checks passed || echo some checks FAILED)"
mv -f "$work/live.sqlite" "$work/../h200-streams-live.sqlite" 2>/dev/null
tar -C "$work/.." -czf "$out/h200_streams.tar.gz" "$(basename "$work")"
if [ "$(stat -c %s "$out/h200_streams.tar.gz")" -gt $((15 << 20)) ]; then
	say "many.sqlite left out of h200_streams.tar.gz: the archive passed 15 MiB ($(stat -c %s "$work/many.sqlite") bytes uncompressed)"
	tar -C "$work/.." -czf "$out/h200_streams.tar.gz" --exclude many.sqlite "$(basename "$work")"
fi
for f in summary.txt streams_run.err many_run.err live-running.ansi live-ended.ansi view-streams.ansi; do
	[ -e "$work/$f" ] && cp "$work/$f" "$out/"
done
exit "$failed"
