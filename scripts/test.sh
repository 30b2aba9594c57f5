#!/bin/sh
# Builds streamscope with -Werror and runs every test: unit, CLI, end-to-end TUI (libvterm), replay of the H200 data;
# then the same suite under AddressSanitizer + UndefinedBehaviorSanitizer, then a short fuzz run of each fuzz target.
# First the two checks of the house: the layers (tools/layout-check) and the formatting (tools/format-check).
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh --test
tools/layout-check
tools/format-check
jobs=$(nproc)
cmake -S . -B build-test -DSS_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-test -j"$jobs"
ctest --test-dir build-test --output-on-failure -j"$jobs"
cmake -S . -B build-asan -DSS_WERROR=ON -DSS_SANITIZE=ON -DSS_CUDA=OFF -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-asan -j"$jobs"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	ctest --test-dir build-asan --output-on-failure -j"$jobs"
if [ -x tests/fuzz/run.sh ]; then
	SS_FUZZ_SECONDS=${SS_FUZZ_SECONDS:-15} tests/fuzz/run.sh
fi
echo "streamscope: all tests passed"
