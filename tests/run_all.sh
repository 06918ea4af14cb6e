#!/usr/bin/env bash
# Runs each test binary given, keeps going after a failure, and ends with
# one summary line ("N passed, N failed") counting test binaries' cases.
# $IOCHAR is the iochar binary the end-to-end tests run.
set -uo pipefail
passed=0 failed=0 skipped=0
failed_bins=()
for t in "$@"; do
	log=$(mktemp)
	"$t" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
	f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
	s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$log" | awk '{s+=$1} END {print s+0}')
	rm -f "$log"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	if [ "$rc" -ne 0 ]; then
		failed_bins+=("$(basename "$t")")
		[ "$f" -eq 0 ] && failed=$((failed + 1)) # crashed without a verdict
	fi
done
[ ${#failed_bins[@]} -gt 0 ] && echo "failing: ${failed_bins[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ ${#failed_bins[@]} -eq 0 ]
