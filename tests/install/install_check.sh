#!/bin/sh
# install_check.sh BUILD_DIR CMAKE HAVE_CUDA: `cmake --install BUILD_DIR` into a temporary prefix P, then the
# installed binary, run outside the source and build trees, must find what it needs from P alone:
#   - the model's default profile in P/share/streamscope/profiles: `run --backend model` exits 0 with a summary
#     labelled by the profile, and after the installed file's name is changed the label follows it (so the file
#     was read, not the built-in values, which carry the same name);
#   - with CUDA (HAVE_CUDA ON), the injection library in P/lib/streamscope: `record` of a program that prints
#     CUDA_INJECTION64_PATH (the library record found) gets that path and returns the program's status; without
#     CUDA, no library is installed and `record` says it needs CUDA (exit 3).
# Prints one line per problem and exits 1 on the first; 0 when all hold.
set -eu
build=$1
cmake=$2
cuda=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "install_check: $*" >&2
	exit 1
}

"$cmake" --install "$build" --prefix "$tmp/p" >"$tmp/install.log" 2>&1 || {
	cat "$tmp/install.log" >&2
	fail "cmake --install failed"
}
bin=$tmp/p/bin/streamscope
profile=$tmp/p/share/streamscope/profiles/h200.profile
lib=$tmp/p/lib/streamscope/libstreamscope_inject.so
[ -x "$bin" ] || fail "no executable $bin"
[ -r "$profile" ] || fail "no profile $profile"
cd "$tmp" # no data/profiles here, so the profile can only be found from the binary
unset STREAMSCOPE_PROFILE STREAMSCOPE_INJECT || true

"$bin" run --backend model >"$tmp/run.txt" 2>&1 || fail "run --backend model exited $?: $(cat "$tmp/run.txt")"
grep -q "device MODEL (H200 profile)" "$tmp/run.txt" || fail "run's summary names no H200 profile: $(cat "$tmp/run.txt")"
grep -q "^name = H200$" "$profile" || fail "the installed profile has no 'name = H200' line"
sed -i 's/^name = H200$/name = installed-check/' "$profile"
"$bin" run --backend model >"$tmp/run.txt" 2>&1 || fail "run --backend model exited $? on the renamed profile"
grep -q "device MODEL (installed-check profile)" "$tmp/run.txt" ||
	fail "the installed binary did not read $profile: $(grep device "$tmp/run.txt")"

if [ "$cuda" = ON ]; then
	[ -r "$lib" ] || fail "no injection library $lib"
	rc=0
	"$bin" record -- /bin/sh -c 'printf "%s\n" "$CUDA_INJECTION64_PATH"; exit 7' >"$tmp/rec.out" 2>"$tmp/rec.err" ||
		rc=$?
	[ "$rc" -eq 7 ] || fail "record returned $rc, not the program's 7: $(cat "$tmp/rec.err")"
	want=$(readlink -f "$lib")
	got=$(cat "$tmp/rec.out")
	[ "$got" = "$want" ] || fail "record gave the program CUDA_INJECTION64_PATH='$got', not the installed '$want'"
else
	[ ! -e "$tmp/p/lib/streamscope" ] || fail "a build without CUDA installed $tmp/p/lib/streamscope"
	rc=0
	"$bin" record -- /bin/true 2>"$tmp/rec.err" || rc=$?
	[ "$rc" -eq 3 ] || fail "record without CUDA returned $rc, not 3"
	grep -q "record needs CUDA and CUPTI" "$tmp/rec.err" || fail "record without CUDA said: $(cat "$tmp/rec.err")"
fi
echo "install_check: $bin finds its profile$([ "$cuda" = ON ] && echo " and $lib")"
