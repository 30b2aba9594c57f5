#!/bin/sh
# run.sh: CI's short fuzz run: every libFuzzer target (clang, ASan + UBSan) for a short while from the committed seed
# corpus, which it leaves as it is (new inputs go to a scratch folder). campaign.sh does the work; it runs long
# campaigns too, and merges what they find into the corpus. A crash fails the script, its input saved under
# $build/fuzz-artifacts/; fix it and commit the input to tests/fuzz/corpus/<target>/.
#   SS_FUZZ_SECONDS (default 20) per target, SS_FUZZ_BUILD (default build-fuzz) build directory.
set -eu
exec "$(dirname "$0")/campaign.sh" --no-merge -t "${SS_FUZZ_SECONDS:-20}"
