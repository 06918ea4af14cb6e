#!/bin/sh
# net.sh - build iochar if needed, check iperf3, run bench/net.py (iochar
# net against iperf3 on loopback, alternating, medians; --veth adds the
# MTU 1500/9000 namespace case, as root). Arguments go to net.py:
#   --rounds N  --time S  --streams 1,4  --len SIZE  --veth  --threads N
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$(dirname "$here")"
make -s -j2 >/dev/null || { echo "net.sh: make failed" >&2; exit 1; }
command -v iperf3 >/dev/null 2>&1 || { echo "net.sh: iperf3 missing; run scripts/deps.sh" >&2; exit 1; }
exec python3 "$here/net.py" "$@"
