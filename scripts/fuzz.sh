#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers with libFuzzer.
#
#     scripts/fuzz.sh [SECONDS] [NAME...]
#
# Builds build-fuzz/fuzz_NAME for every tests/fuzz/fuzz_NAME.c (`make fuzz`,
# clang with ASan+UBSan), then runs each (or only the NAMEs given) for
# SECONDS (default 30) one per CPU at a time, on a fresh copy of its seed
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

# fuzz_one NAME: one target for $secs on a fresh copy of its seeds; its
# report goes to $out/logs/NAME.summary, and it fails on any find.
fuzz_one() {
	local name=$1 bin=$out/fuzz_$1 corpus=$out/corpus/$1
	local artifacts=$out/artifacts/$1 log=$out/logs/$1.log tmp=$out/tmp/$1
	local rc=0 failed=0 flags status execs found f
	rm -rf "$corpus" "$artifacts" "$tmp"
	mkdir -p "$corpus" "$artifacts" "$tmp"
	[ -d "tests/fuzz/corpus/$name" ] && cp -R "tests/fuzz/corpus/$name/." "$corpus/"
	flags=(-max_total_time="$secs" -timeout="${FUZZ_TIMEOUT:-10}"
	       -max_len="${FUZZ_MAX_LEN:-4096}" -rss_limit_mb=2048
	       -print_final_stats=1 -artifact_prefix="$artifacts/")
	[ -f "tests/fuzz/$name.dict" ] && flags+=(-dict="$root/tests/fuzz/$name.dict")

	echo "== fuzz $name: ${secs}s, corpus $(ls "$corpus" | wc -l) seeds"
	TMPDIR=$tmp \
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
	UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
		"$bin" "${flags[@]}" "$corpus" >"$log" 2>&1 || rc=$?
	rm -rf "$tmp" # what a crashed target could not clean up

	# The last status line and the final stats: what was done.
	status=$(grep -E '^#[0-9]+' "$log" | tail -n1 || true)
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	echo "   ${status:-no status line}"
	echo "   execs ${execs:-?}, corpus now $(ls "$corpus" | wc -l) files"

	found=$(find "$artifacts" -type f | sort)
	if [ "$rc" -ne 0 ] || [ -n "$found" ]; then
		failed=1
		echo "FAIL fuzz $name (exit $rc); log $log"
		grep -E 'ERROR: |SUMMARY: |runtime error: |contract broken' "$log" |
			head -n 5 || true
		for f in $found; do
			echo "   reproducer: $f (replay: $bin $f)"
		done
	fi
	return "$failed"
}

for name in "${names[@]}"; do
	[ -x "$out/fuzz_$name" ] || { echo "fuzz: no target $out/fuzz_$name" >&2; exit 2; }
done

# One target per CPU at a time (each is one single-threaded process); the
# reports are printed in the targets' order once all have run.
lanes=$(nproc)
running=0
for name in "${names[@]}"; do
	if [ "$running" -ge "$lanes" ]; then
		wait -n || true
		running=$((running - 1))
	fi
	(fuzz_one "$name" >"$out/logs/$name.summary" 2>&1; echo $? >"$out/logs/$name.rc") &
	running=$((running + 1))
done
wait

failed=0
for name in "${names[@]}"; do
	cat "$out/logs/$name.summary"
	if [ "$(cat "$out/logs/$name.rc" 2>/dev/null)" != 0 ]; then
		failed=1
	fi
done

if [ "$failed" -ne 0 ]; then
	echo "fuzz: FAILED" >&2
	exit 1
fi
echo "fuzz: ok (${#names[@]} targets, ${secs}s each, $lanes at a time)"
