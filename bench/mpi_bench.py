#!/usr/bin/env python3
"""mpi_bench.py - the cost of coordinating ranks, and the start skew vs
ranks, on this machine (run through bench/mpi.sh, which builds and checks
first). See bench/README.md, "MPI: coordination cost and start skew".

1. A plan of 1 and of N short steps (100 ms of null I/O each), run alone
   and under `mpirun -np 1`, alternating, medians over the rounds. The
   slope (N steps minus 1 step, over N - 1) is the time per step in each
   mode; their difference is what coordination adds to a step (barrier,
   heartbeats, gather, verdict), with mpirun's start-up taken out.
2. The start skew iochar reports (latest rank's start minus the
   earliest's) for a 300 ms null run with 1 .. M ranks (--oversubscribe).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "build", "iochar")


def plan_file(d, n):
    p = os.path.join(d, f"plan{n}.ini")
    with open(p, "w") as f:
        f.write("[global]\nioengine=null\nsize=1g\nbs=4k\nrw=randread\n"
                "runtime=100ms\ntime_based=1\n")
        for i in range(n):
            f.write(f"[s{i}]\n")
    return p


def timed(cmd):
    t0 = time.monotonic()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    t = time.monotonic() - t0
    if r.returncode:
        sys.exit(f"failed ({r.returncode}): {' '.join(cmd)}\n{r.stderr}")
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--max-ranks", type=int, default=4)
    a = ap.parse_args()
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    with tempfile.TemporaryDirectory(prefix="iochar-bench-mpi-", dir="/var/tmp") as w:
        plans = {n: plan_file(w, n) for n in (1, a.steps)}
        t = {(m, n): [] for m in ("alone", "mpi") for n in plans}
        out = os.path.join(w, "res")
        for _ in range(a.rounds):
            for n, p in plans.items():
                for m in ("alone", "mpi"):
                    subprocess.run(["rm", "-rf", out])
                    pre = ["mpirun", "-np", "1"] if m == "mpi" else []
                    t[(m, n)].append(timed(pre + [BIN, "plan", p, "--out", out]))
        med = {k: statistics.median(v) for k, v in t.items()}
        n = a.steps
        print(f"== 1. coordination cost: plans of 1 and {n} steps of 100 ms, "
              f"{a.rounds} rounds (medians)")
        per = {}
        for m, label in (("alone", "alone"), ("mpi", "mpirun -np 1")):
            per[m] = (med[(m, n)] - med[(m, 1)]) / (n - 1)
            print(f"  {label:13s} 1 step {med[(m, 1)]:.3f} s, {n} steps {med[(m, n)]:.3f} s"
                  f" -> {per[m] * 1e3:.1f} ms per step")
        print(f"  coordination adds {(per['mpi'] - per['alone']) * 1e3:+.1f} ms per step; "
              f"mpirun start-up + MPI_Init {med[('mpi', 1)] - med[('alone', 1)]:+.3f} s per run")

        print(f"== 2. start skew vs ranks (null engine, 300 ms, {a.rounds} rounds, --oversubscribe)")
        skew = {np: [] for np in range(1, a.max_ranks + 1)}
        for _ in range(a.rounds):
            for np in skew:
                r = subprocess.run(["mpirun", "--oversubscribe", "-np", str(np), BIN, "run",
                                    "--ioengine=null", "--rw=randread", "--bs=4k", "--size=1g",
                                    "--runtime=300ms", "--time_based", "--output-format=json"],
                                   capture_output=True, text=True)
                if r.returncode:
                    sys.exit(f"mpirun -np {np} failed:\n{r.stderr}")
                skew[np].append(json.loads(r.stdout)["start_skew_ns"])
        print("  ranks  median skew    max skew")
        for np, v in skew.items():
            print(f"  {np:5d}  {statistics.median(v) / 1e6:8.3f} ms  {max(v) / 1e6:8.3f} ms")


if __name__ == "__main__":
    main()
