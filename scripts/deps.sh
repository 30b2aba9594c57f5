#!/bin/sh
# Installs the Debian packages streamscope needs to build and test, when they are missing.
set -eu
need="cmake make gcc pkg-config libncurses-dev libsqlite3-dev libyajl-dev libinih-dev"
if [ "${1:-}" = "--test" ]; then
	need="$need libcmocka-dev libvterm-dev clang libclang-rt-dev clang-format python3"
fi
missing=""
for p in $need; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "streamscope: installing$missing" >&2
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
