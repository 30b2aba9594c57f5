#!/bin/sh
# run.sh: build the importers' libFuzzer targets with clang (ASan + UBSan) and run each for a short while, starting
# from the committed seed corpus. New interesting inputs go to a scratch directory, crashes to $build/fuzz-*.
# A crash fails the script; fix it and commit the crashing input to tests/fuzz/corpus/<target>/.
#   SS_FUZZ_SECONDS (default 20) per target, SS_FUZZ_BUILD (default build-fuzz) build directory.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${SS_FUZZ_BUILD:-$root/build-fuzz}
secs=${SS_FUZZ_SECONDS:-20}

CC=clang cmake -S "$root" -B "$build" -DSS_FUZZ=ON -DSS_SANITIZE=ON -DSS_CUDA=OFF -DSS_TESTS=OFF \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"$(nproc)" --target fuzz_import_sqlite fuzz_import_chrome

status=0
for target in import_sqlite import_chrome; do
	scratch=$(mktemp -d)
	echo "fuzz_$target: ${secs}s"
	if ! "$build/tests/fuzz/fuzz_$target" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 \
		-print_final_stats=1 -artifact_prefix="$build/fuzz-$target-" "$scratch" \
		"$root/tests/fuzz/corpus/$target"; then
		echo "fuzz_$target: FAILED (input saved as $build/fuzz-$target-*)" >&2
		status=1
	fi
	rm -rf "$scratch"
done
exit $status
