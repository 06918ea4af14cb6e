#!/usr/bin/env bash
# Quick start: install what is missing, build, and run iochar's main job on
# its own scratch target: the `quick` plan (a search for the best 4k random
# read inside 2 ms, sequential 1M read and write, 4k random write) on
# ./iochar-data/scratch.dat (1 GiB, written once before it is read). It
# prints the summary table and leaves results in ./results/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
make -s -j"$(nproc)"
exec build/iochar plan quick "$@"
