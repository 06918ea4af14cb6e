#!/usr/bin/env bash
# Runs each test binary given, keeps going after a failure, and ends with
# one summary line ("N passed, N failed") counting test binaries' cases.
# $IOCHAR is the iochar binary the end-to-end tests run.
# Each binary gets $IOCHAR_TEST_TIMEOUT seconds (default 600), then TERM,
# then KILL 10 s later: a hung binary is named as failed, not waited on.
set -uo pipefail
limit=${IOCHAR_TEST_TIMEOUT:-600}
# timeout(1) puts the test in a process group of its own, which the
# terminal's Ctrl-C no longer reaches: stopping the runner stops it.
pid='' tailpid=''
stop() {
	[ -n "$pid" ] && kill -TERM -- "-$pid" "$pid" 2>/dev/null
	[ -n "$tailpid" ] && kill "$tailpid" 2>/dev/null
	exit 130
}
trap stop INT TERM HUP
passed=0 failed=0 skipped=0
failed_bins=()
times=()
for t in "$@"; do
	log=$(mktemp)
	t0=$EPOCHREALTIME
	# in the background, so that a signal to the runner ends the wait
	timeout -k 10 "$limit" "$t" <&0 >"$log" 2>&1 &
	pid=$!
	tail -s 0.1 -n +1 -f --pid="$pid" "$log" &
	tailpid=$!
	wait "$pid"
	rc=$?
	wait "$tailpid"
	pid='' tailpid=''
	# each binary's wall time, so the suite's budget can be watched
	times+=("$(awk -v a="$t0" -v b="$EPOCHREALTIME" -v n="$(basename "$t")" \
		'BEGIN { printf "%6.1f s  %s", b - a, n }')")
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
	s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
	rm -f "$log"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	# timeout(1) exits 124 after TERM, 137 when KILL was needed
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		echo "$(basename "$t"): timed out after $limit s"
		failed_bins+=("$(basename "$t") (timed out after $limit s)")
		failed=$((failed + 1))
	elif [ "$rc" -ne 0 ]; then
		failed_bins+=("$(basename "$t")")
		[ "$f" -eq 0 ] && failed=$((failed + 1)) # crashed without a verdict
	fi
done
echo "slowest test binaries:"
printf '%s\n' "${times[@]}" | sort -rn | head -8
[ ${#failed_bins[@]} -gt 0 ] && echo "failing: ${failed_bins[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ ${#failed_bins[@]} -eq 0 ]
