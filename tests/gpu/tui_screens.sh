#!/bin/sh
# tui_screens.sh: the TUI's main screens on a GPU machine, captured from tmux as ANSI text (.ansi, colours kept),
# plain text (.txt) and, when python3 is there, SVG pictures rendered by tools/ansi2svg.py.
#
# Usage: tests/gpu/tui_screens.sh STREAMSCOPE [OUT_DIR]
#   OUT_DIR defaults to $OUT, then ./screens. SS_ARGS adds options to every run after the screen's own (e.g.
#   SS_ARGS="--backend model" to try the script without a GPU; file-trace, a trace, takes none); SS_COLS / SS_ROWS
#   set the terminal size (default 160x48); SS_SHOTS=REGEX takes only the screens whose names match.
# Each screen runs in its own tmux session. A capture is taken once the screen shows what the scenario waits
# for, the header no longer says "running" and the pane stayed the same for half a second: the script polls,
# it never sleeps a fixed time before a capture.
BIN=${1:?usage: tui_screens.sh STREAMSCOPE [OUT_DIR]}
O=${2:-${OUT:-screens}}
COLS=${SS_COLS:-160}
ROWS=${SS_ROWS:-48}
HERE=$(cd "$(dirname "$0")" && pwd)
SVG="$HERE/../../tools/ansi2svg.py"
case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
mkdir -p "$O"
LOG="$O/tui_screens.log"
: >"$LOG"
fails=0

# settle SESSION PATTERN [SECONDS]: wait until the pane shows PATTERN, is not running, and stops changing.
settle() {
	s=$1
	pat=$2
	limit=$((${3:-180} * 10))
	prev=
	same=0
	i=0
	while [ $i -lt $limit ]; do
		cur=$(tmux capture-pane -p -t "$s" 2>/dev/null) || return 1
		if printf '%s\n' "$cur" | grep -q -- "$pat" && ! printf '%s\n' "$cur" | head -n 1 | grep -q running; then
			if [ "$cur" = "$prev" ]; then
				same=$((same + 1))
				[ $same -ge 5 ] && return 0
			else
				same=0
			fi
		fi
		prev=$cur
		sleep 0.1 # the polling interval
		i=$((i + 1))
	done
	echo "$s: the screen never settled on '$pat'" >>"$LOG"
	return 1
}

# capture SESSION NAME: write NAME.ansi, NAME.txt and NAME.svg.
capture() {
	tmux capture-pane -p -e -t "$1" >"$O/$2.ansi"
	tmux capture-pane -p -t "$1" >"$O/$2.txt"
	if command -v python3 >/dev/null 2>&1 && [ -f "$SVG" ]; then
		python3 "$SVG" "$O/$2.ansi" "$O/$2.svg" --cols "$COLS" --title "streamscope: $2" >>"$LOG" 2>&1
	fi
	echo "captured $2" >>"$LOG"
}

# start SESSION ARGS...: run streamscope with ARGS in a new detached session of COLS x ROWS.
start() {
	s=$1
	shift
	tmux kill-session -t "$s" 2>/dev/null
	tmux new-session -d -s "$s" -x "$COLS" -y "$ROWS" \
		"env TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8 $BIN $* $SS_ARGS; echo exit=\$?; sleep 3600"
}

# quit SESSION: Esc (closes an overlay), q, then check the program exited with 0, then close the session.
quit() {
	tmux send-keys -t "$1" Escape
	settle "$1" "streamscope" 30
	tmux send-keys -t "$1" q
	if ! settle "$1" "exit=" 30 || ! tmux capture-pane -p -t "$1" | grep -q "exit=0"; then
		echo "$1: did not exit with 0" >>"$LOG"
		fails=$((fails + 1))
	fi
	tmux kill-session -t "$1" 2>/dev/null
}

# shot NAME WAIT_FOR KEYS ARGS...: one screen: start with ARGS, send KEYS (one tmux key per word), capture.
shot() {
	name=$1
	want=$2
	keys=$3
	shift 3
	# SS_SHOTS=REGEX takes only the screens whose names match
	if [ -n "${SS_SHOTS:-}" ] && ! printf '%s\n' "$name" | grep -qE -- "$SS_SHOTS"; then
		return
	fi
	start "ss-$name" "$@"
	if ! settle "ss-$name" "records"; then
		fails=$((fails + 1))
		capture "ss-$name" "$name-FAILED"
		tmux kill-session -t "ss-$name" 2>/dev/null
		return
	fi
	for k in $keys; do
		tmux send-keys -t "ss-$name" "$k"
		settle "ss-$name" "streamscope" 60 || break
	done
	if settle "ss-$name" "$want" 600; then
		capture "ss-$name" "$name"
	else
		fails=$((fails + 1))
		capture "ss-$name" "$name-FAILED"
	fi
	quit "ss-$name"
}

shot kernel-transfer-depth "depth-first" "" --preset kernel-transfer
shot kernel-transfer-breadth "breadth-first" "o" --preset kernel-transfer
shot ab-depth-vs-breadth "B-A" "p o" --preset kernel-transfer --connections 1
shot ab-hyperq-1queue "B-A" "p o" --preset hyperq --connections 1
shot hyperq-1queue-depth "depth-first" "" --preset hyperq --connections 1
shot hyperq-1queue-breadth "breadth-first" "o" --preset hyperq --connections 1
shot default-stream "legacy" "" --preset default-stream
shot pageable "pageable" "" --preset pageable
shot managed "prefetch events auto: on" "" --preset managed
shot managed-selected "timed by cudaEvents" "Tab j" --preset managed
shot managed-key-v "(prefetch events on)" "v" --preset managed
shot managed-1queue "prefetch events auto: off" "u u u" --preset managed
shot selected "API call" "Tab j j" --preset kernel-transfer
shot sweep "done 16/16" "s" --preset kernel-transfer
shot help "streamscope keys" "?" --preset kernel-transfer
shot claims "the run's claims" "C" --preset vector-add --order weaker
shot claims-sweep "the sweep's claims: " "s C" --preset kernel-transfer
shot claims-ab "A and B's claims" "p y C" --preset sync-order --sync stream
SS_COLS=80 SS_ROWS=24 COLS=80 ROWS=24 shot small-80x24 "records" "" --preset kernel-transfer
shot ascii "records" "" --preset kernel-transfer --ascii
shot file-interleave "from " "" examples/interleave.ini
shot file-trace "file /" "" "$HERE/../data/h200/record-twin/twin.sqlite"

echo "$fails failed" >>"$LOG"
cat "$LOG"
exit $((fails > 0))
