#!/usr/bin/env bash
# Quick start: install what is missing, build, and run iochar's main job on
# its own scratch target: the `quick` plan (a search for the best 4k random
# read inside 2 ms, sequential 1M read and write, 4k random write) on
# ./iochar-data/scratch.dat (1 GiB, written once before it is read). It
# prints the summary table, leaves results in ./results/, writes their
# HTML report (report.html in the results directory) and says where it is.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
make -s -j"$(nproc)"

# the results directory: the one given (--out/--resume DIR), else the
# newest the plan made
out= prev=
for a in "$@"; do
	case $prev in --out | --resume) out=$a ;; esac
	case $a in --out=* | --resume=*) out=${a#*=} ;; esac
	prev=$a
done
status=0
build/iochar plan quick "$@" || status=$?
[ -n "$out" ] || out=$(ls -td results/quick-*/ 2>/dev/null | head -n1 || true)
out=${out%/}
if [ -n "$out" ] && [ -f "$out/results.json" ]; then
	build/iochar report "$out" -o "$out/report.html" 2>/dev/null &&
		echo "quickstart: HTML report in $out/report.html (open it in a browser)"
fi
exit "$status"
