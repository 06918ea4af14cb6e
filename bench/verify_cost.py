#!/usr/bin/env python3
"""The cost of --verify: IOPS and CPU per I/O of 4k random writes to a file
on /dev/shm (tmpfs: no device in the way, so the tool's own work shows),
verify=1 against verify=0, alternating, several rounds; medians and ratio.
Also prints the verify map's memory per TiB of target.

    python3 bench/verify_cost.py [--rounds N] [--runtime S]
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IOCHAR = os.path.join(ROOT, "build", "iochar")


def run(args):
    """Run iochar; return (iops, cpu ns per I/O of the whole process)."""
    p = subprocess.Popen([IOCHAR, "run"] + args + ["--output-format=json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = p.communicate()
    if p.returncode != 0:
        sys.exit("iochar failed (%d): %s" % (p.returncode, err.decode()))
    r = json.loads(out)
    ios = r["total"]["ios"]
    cpu = r["cpu"]["usr_ns"] + r["cpu"]["sys_ns"]
    return r["total"]["iops"], cpu / ios if ios else 0.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runtime", type=int, default=5)
    a = ap.parse_args()
    subprocess.run(["make", "-s", "-C", ROOT, "-j2"], check=True)
    d = tempfile.mkdtemp(prefix="iochar-verify-bench-", dir="/dev/shm")
    f = os.path.join(d, "v.dat")
    rows = []
    try:
        for engine, depth in (("psync", 1), ("io_uring", 16)):
            base = ["--filename=" + f, "--size=256m", "--rw=randwrite", "--bs=4k",
                    "--ioengine=" + engine, "--iodepth=%d" % depth,
                    "--time_based", "--runtime=%d" % a.runtime]
            res = {0: [], 1: []}
            for _ in range(a.rounds):
                for v in (0, 1):
                    res[v].append(run(base + ["--verify=%d" % v]))
            med = {v: (statistics.median(x[0] for x in res[v]),
                       statistics.median(x[1] for x in res[v])) for v in res}
            rows.append((engine, depth, med[0], med[1], res))
    finally:
        if os.path.exists(f):
            os.unlink(f)
        os.rmdir(d)
    print("4k randwrite on /dev/shm, 1 job, %d rounds x %d s, medians "
          "(CPU: the process's usr+sys per I/O, as iochar reports it)" % (a.rounds, a.runtime))
    print("%-9s %5s %12s %12s %8s %12s %12s" % ("engine", "QD", "IOPS v=0", "IOPS v=1",
                                            "ratio", "ns/IO v=0", "ns/IO v=1"))
    for engine, depth, m0, m1, _ in rows:
        print("%-9s %5d %12.0f %12.0f %8.2f %12.0f %12.0f" % (
            engine, depth, m0[0], m1[0], m1[0] / m0[0], m0[1], m1[1]))
    # one generation byte per block plus one in-flight bit
    for bs in (4096, 8192, 65536):
        blocks = (1 << 40) // bs
        print("verify map per TiB at bs=%-6d %6.0f MiB (%.0f MiB generations + %.0f MiB "
              "in-flight bits)" % (bs, blocks * 1.125 / 2**20, blocks / 2**20, blocks / 8 / 2**20))
    out = os.path.join(ROOT, "bench", "out")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "verify-%s.json" % time.strftime("%Y%m%d-%H%M%S")), "w") as fh:
        json.dump([{"engine": e, "iodepth": q, "rounds": {str(k): v for k, v in r.items()}}
                   for e, q, _, _, r in rows], fh, indent=1)


if __name__ == "__main__":
    main()
