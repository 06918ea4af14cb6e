#!/bin/sh
# run.sh - build iochar if needed, make sure fio is there, run the iochar-vs-fio
# benchmark. Arguments go to bench/bench.py:
#   --rounds N  --runtime S  --cases 1,2,3,4  --keep-files
# Data files live in /var/tmp/iochar-bench/ and are removed at the end unless
# --keep-files. Raw per-round numbers: bench/out/<timestamp>.json.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cd "$root"

# make is a no-op when build/iochar is up to date
make -s -j2 >/dev/null || {
	echo "run.sh: make failed; to bench the existing build/iochar anyway: python3 bench/bench.py ..." >&2
	exit 1
}
[ -x build/iochar ] || { echo "run.sh: build/iochar missing after make" >&2; exit 1; }

if ! command -v fio >/dev/null 2>&1; then
	echo "run.sh: fio not found, installing it" >&2
	apt-get install -y fio
fi
command -v python3 >/dev/null 2>&1 || { echo "run.sh: python3 is required" >&2; exit 1; }

exec python3 "$here/bench.py" "$@"
