#!/usr/bin/env bash
# Short runs of iochar under valgrind's memcheck: fails on any memory error
# and on definite or indirect leaks.
#
#     scripts/valgrind.sh          (or: make valgrind)
#
# Runs BUILD/iochar (BUILD=build unless set; built here without sanitizers,
# which valgrind cannot run with):
#   1. the null engine, time based, 1 s;
#   2. psync on a fresh temporary file, random 70/30 read/write, 1 s.
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${BUILD:-build}
make -s SAN=0 BUILD="$BUILD" "$BUILD/iochar"
iochar=$BUILD/iochar

tmp=$(mktemp -d "${TMPDIR:-/tmp}/iochar-valgrind.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

failed=0
# vg NAME ARGS...: run iochar ARGS under memcheck, log in $tmp/NAME.log
vg() {
	local name=$1 rc=0
	shift
	echo "== valgrind $name: iochar $*"
	valgrind --quiet --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=9 --log-file="$tmp/$name.log" \
		"$iochar" "$@" >"$tmp/$name.out" 2>&1 || rc=$?
	if [ "$rc" -ne 0 ] || [ -s "$tmp/$name.log" ]; then
		failed=1
		echo "FAIL valgrind $name (exit $rc)" >&2
		cat "$tmp/$name.log" >&2
		tail -n 20 "$tmp/$name.out" >&2
	else
		echo "   ok: no errors, no leaks"
	fi
}

vg null run --ioengine=null --time_based --runtime=1
vg psync run --ioengine=psync --filename="$tmp/data.dat" --size=8m \
	--rw=randrw --rwmixread=70 --bs=4k --time_based --runtime=1 \
	--output-format=json

if [ "$failed" -ne 0 ]; then
	echo "valgrind: FAILED" >&2
	exit 1
fi
echo "valgrind: ok"
