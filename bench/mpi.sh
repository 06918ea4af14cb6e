#!/bin/sh
# mpi.sh - build iochar if needed, check mpirun and the MPI build, then run
# bench/mpi_bench.py: the cost of coordinating ranks (a plan of short steps
# alone against `mpirun -np 1`) and the start skew with 1..4 ranks.
#   bench/mpi.sh [--rounds N] [--steps N] [--max-ranks N]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$(dirname "$here")"
command -v mpirun >/dev/null 2>&1 || { echo "mpi.sh: mpirun not found (apt-get install openmpi-bin)" >&2; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "mpi.sh: python3 is required" >&2; exit 1; }
make -s -j2 >/dev/null
ldd build/iochar | grep -q libmpi ||
	{ echo "mpi.sh: build/iochar has no MPI (install libopenmpi-dev; make clean all)" >&2; exit 1; }
exec python3 "$here/mpi_bench.py" "$@"
