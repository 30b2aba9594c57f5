#!/bin/sh
# Builds streamscope and runs it: the interactive timeline on the GPU, or on the model when there is none.
# Arguments are passed to streamscope (e.g. scripts/run.sh run --preset hyperq).
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSS_TESTS=OFF >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
if [ -t 1 ] || [ "$#" -gt 0 ]; then
	exec build/streamscope "$@"
fi
# Not a terminal: show a modelled experiment's summary instead of the TUI.
exec build/streamscope run
