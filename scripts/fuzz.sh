#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers with libFuzzer.
#
#     scripts/fuzz.sh [SECONDS] [NAME...]
#
# Builds build-fuzz/fuzz_NAME for every tests/fuzz/fuzz_NAME.c (`make fuzz`,
# clang with ASan+UBSan), then runs each (or only the NAMEs given) for
# SECONDS (default 30) one after the other, on a fresh copy of its seed
# corpus tests/fuzz/corpus/NAME/ in build-fuzz/corpus/NAME/ (seeds are never
# modified), with tests/fuzz/NAME.dict when present. Fails when any target
# finds a crash, sanitizer report, leak, timeout or out-of-memory, and
# prints the reproducer: `build-fuzz/fuzz_NAME REPRODUCER` replays it.
# Logs: build-fuzz/logs/NAME.log. Environment: FUZZ_CC (clang),
# FUZZ_TIMEOUT (seconds one input may take, 10), FUZZ_MAX_LEN (4096).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

secs=${1:-30}
shift || true
case $secs in
'' | *[!0-9]*)
	echo "usage: scripts/fuzz.sh [SECONDS] [NAME...]" >&2
	exit 2
	;;
esac

make -s -j"$(nproc)" ${FUZZ_CC:+FUZZ_CC="$FUZZ_CC"} fuzz

if [ $# -gt 0 ]; then
	names=("$@")
else
	names=()
	for src in tests/fuzz/fuzz_*.c; do
		n=${src#tests/fuzz/fuzz_}
		names+=("${n%.c}")
	done
fi

out=$root/build-fuzz
mkdir -p "$out/logs"
failed=0
for name in "${names[@]}"; do
	bin=$out/fuzz_$name
	corpus=$out/corpus/$name
	artifacts=$out/artifacts/$name
	log=$out/logs/$name.log
	[ -x "$bin" ] || { echo "fuzz: no target $bin" >&2; exit 2; }

	rm -rf "$corpus" "$artifacts"
	mkdir -p "$corpus" "$artifacts"
	[ -d "tests/fuzz/corpus/$name" ] && cp -R "tests/fuzz/corpus/$name/." "$corpus/"
	flags=(-max_total_time="$secs" -timeout="${FUZZ_TIMEOUT:-10}"
	       -max_len="${FUZZ_MAX_LEN:-4096}" -rss_limit_mb=2048
	       -print_final_stats=1 -artifact_prefix="$artifacts/")
	[ -f "tests/fuzz/$name.dict" ] && flags+=(-dict="$root/tests/fuzz/$name.dict")

	echo "== fuzz $name: ${secs}s, corpus $(ls "$corpus" | wc -l) seeds"
	rc=0
	rm -rf "$out/tmp" && mkdir -p "$out/tmp"
	TMPDIR=$out/tmp \
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
		"$bin" "${flags[@]}" "$corpus" >"$log" 2>&1 || rc=$?

	rm -rf "$out/tmp" # what a crashed target could not clean up

	# The last status line and the final stats: what was done.
	status=$(grep -E '^#[0-9]+' "$log" | tail -n1 || true)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	echo "   ${status:-no status line}"
	echo "   execs ${execs:-?}, corpus now $(ls "$corpus" | wc -l) files"

	found=$(find "$artifacts" -type f | sort)
	if [ "$rc" -ne 0 ] || [ -n "$found" ]; then
		failed=1
		echo "FAIL fuzz $name (exit $rc); log $log" >&2
		grep -E 'ERROR: |SUMMARY: |runtime error: |contract broken' "$log" |
			head -n 5 >&2 || true
		for f in $found; do
			echo "   reproducer: $f (replay: $bin $f)" >&2
		done
	fi
done

if [ "$failed" -ne 0 ]; then
	echo "fuzz: FAILED" >&2
	exit 1
fi
echo "fuzz: ok (${#names[@]} targets, ${secs}s each)"
