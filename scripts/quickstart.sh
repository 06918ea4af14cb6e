#!/usr/bin/env bash
# Quick start: install what is missing, build, and run iochar's main job on
# its own scratch target (./iochar-data/scratch.dat, 1 GiB, written first).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/deps.sh
make -s -j"$(nproc)"
exec build/iochar run "$@"
