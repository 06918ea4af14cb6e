#!/usr/bin/env bash
# The whole test suite, as the README's second command and CI run it:
# dependencies, a warnings-as-errors build, every test, the benchmarks'
# statistics, the parsers fuzzed (10 s each: 14 targets; longer by hand,
# scripts/fuzz.sh 300), short runs under valgrind, then every test again
# under AddressSanitizer and UndefinedBehaviorSanitizer, whose summary line
# is the last line of output.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh

jobs=$(nproc)
echo "== build (warnings are errors)"
make -s -j"$jobs" WERROR=1 tests
echo "== build without MPI (make MPI=0: build-nompi/, checked by test_mpi)"
make -s -j"$jobs" MPI=0 WERROR=1
echo "== tests"
make -s WERROR=1 check
echo "== the benchmarks' statistics (bench/test_*.py)"
python3 -m unittest discover -s bench -p 'test_*.py'
echo "== fuzzing the parsers (libFuzzer, 10 s each)"
scripts/fuzz.sh 10
echo "== valgrind"
scripts/valgrind.sh
echo "== tests under ASan + UBSan"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	make -s -j"$jobs" SAN=1 WERROR=1 check
