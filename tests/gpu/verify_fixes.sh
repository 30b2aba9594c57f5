#!/bin/bash
# verify_fixes.sh: `streamscope analyze --verify --json` on the presets whose insights have a fix that is an
# experiment change (pageable copies, the legacy-stream operation, document 003's weaker order on one hardware queue,
# one stream, 4096 tiny chunks): each fix and the experiment itself re-run on the GPU, alternately, against the
# model's prediction of the gain. One JSON file per case in $OUT/verify/, a line per insight in $OUT/verify.txt.
# Usage: tests/gpu/verify_fixes.sh [BUILD_DIR]   (default: build)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$root/build}/streamscope
out=${OUT:-/tmp}/verify
mkdir -p "$out"
export LD_LIBRARY_PATH=/usr/local/cuda/targets/x86_64-linux/lib:${LD_LIBRARY_PATH:-}
fail=0
while read -r name args; do
	[ -z "$name" ] && continue
	# shellcheck disable=SC2086
	if "$bin" analyze --backend cuda --verify --json $args >"$out/$name.json" 2>"$out/$name.err"; then
		python3 - "$name" "$out/$name.json" >>"$out/../verify.txt" <<'PY'
import json, sys
name, path = sys.argv[1], sys.argv[2]
d = json.load(open(path))
for x in d["insights"]:
    g = x.get("gain") or {}
    m = g.get("measured") or {}
    print(name, x["rule"], x["severity"], x.get("change"),
          "model", g.get("before_ns"), g.get("after_ns"),
          "measured", m.get("before_ns"), m.get("after_ns"), sep="\t")
PY
	else
		echo "$name FAIL $(tail -1 "$out/$name.err")" >>"$out/../verify.txt"
		fail=1
	fi
done <<'CASES'
pageable --preset pageable
default-stream --preset default-stream
weaker-1q --preset vector-add --order weaker --connections 1
one-stream --preset kernel-transfer --streams 1
tiny-chunks --preset kernel-transfer --streams 128 --chunks 4096 --work 1
reverse-sync --preset sync-order
CASES
exit $fail
