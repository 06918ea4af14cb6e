#!/usr/bin/env python3
"""bench/ab.py - A/B of iochar's own submission disciplines (issue 23).

iochar only (fio's side is case 3 of bench.py): the io_uring ring setup
(ring_setup=defer_taskrun, coop_taskrun, none) and the batching ("fio": one
I/O per submission and per reap, fio's defaults; "pass": what a loop pass
queued in one submission, every completion there is, iochar's own) with
io_uring and libaio, 4k direct randread, numjobs=1, on three kinds of
device:

  virtio  a file on the root file system (/var/tmp/iochar-ab/ab.dat)
  loop    a loop device over a /dev/shm file (losetup, detached after)
  zram    a zram device (/sys/class/zram-control/hot_add, hot_remove
          after); SKIPPED when the kernel has no zram

Every device's data is written in full with random bytes first. Each round
runs every configuration once, the order rotated by one per round; the
median of the rounds per configuration is reported with the load average.
Needs root for loop and zram (else those are skipped). Bounded: every run
is `--time_based --runtime=S` under a timeout.

  python3 bench/ab.py [--rounds 3] [--runtime 2] [--devices virtio,loop,zram]
"""
import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IOCHAR = os.path.join(ROOT, "build", "iochar")
WORKDIR = "/var/tmp/iochar-ab"
SHM_FILE = "/dev/shm/iochar-ab-loop.dat"
MiB = 1 << 20
SIZE = 512 * MiB

BATCH = {
    "fio": ["--iodepth_batch_submit=1", "--iodepth_batch_complete_max=0"],
    "pass": ["--iodepth_batch_submit=0", "--iodepth_batch_complete_max=65536"],
}
RINGS = ("defer_taskrun", "coop_taskrun", "none")


def configs():
    """(name, qd, extra args): QD 1 has one I/O in flight, so only the
    ring matters there."""
    out = []
    for r in RINGS:
        out.append(("io_uring %s" % r, 1,
                    ["--ioengine=io_uring", "--ring_setup=%s" % r] + BATCH["pass"]))
    for qd in (32, 128):
        for r in RINGS:
            for b in ("fio", "pass"):
                out.append(("io_uring %s %s" % (r, b), qd,
                            ["--ioengine=io_uring", "--ring_setup=%s" % r] + BATCH[b]))
        for b in ("fio", "pass"):
            out.append(("libaio %s" % b, qd, ["--ioengine=libaio"] + BATCH[b]))
    return out


def fill(path, size):
    with open("/dev/urandom", "rb") as src, open(path, "r+b" if path.startswith("/dev/")
                                                 and not path.startswith("/dev/shm")
                                                 else "wb") as dst:
        left = size
        while left:
            n = min(left, 16 * MiB)
            dst.write(src.read(n))
            left -= n
        dst.flush()
        os.fsync(dst.fileno())


def sh(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def setup_virtio(log):
    os.makedirs(WORKDIR, exist_ok=True)
    p = os.path.join(WORKDIR, "ab.dat")
    if not (os.path.exists(p) and os.stat(p).st_size == SIZE):
        fill(p, SIZE)
    return p, lambda: None


def setup_loop(log):
    fill(SHM_FILE, SIZE)
    r = sh("losetup", "--find", "--show", "--direct-io=on", SHM_FILE)
    if r.returncode:
        r = sh("losetup", "--find", "--show", SHM_FILE)
    if r.returncode:
        os.unlink(SHM_FILE)
        log("SKIP loop: %s" % r.stderr.strip())
        return None, None
    dev = r.stdout.strip()

    def undo():
        sh("losetup", "-d", dev)
        os.unlink(SHM_FILE)
    return dev, undo


def setup_zram(log):
    ctl = "/sys/class/zram-control/hot_add"
    if not os.path.exists(ctl):
        log("SKIP zram: no %s (kernel without zram)" % ctl)
        return None, None
    with open(ctl) as f:
        n = int(f.read().strip())
    dev = "/dev/zram%d" % n

    def undo():
        # udev may still hold the node briefly (EBUSY): retry, boundedly
        for _ in range(50):
            try:
                with open("/sys/block/zram%d/reset" % n, "w") as f:
                    f.write("1")
                with open("/sys/class/zram-control/hot_remove", "w") as f:
                    f.write(str(n))
                return
            except OSError:
                time.sleep(0.2)
        print("zram%d NOT removed: echo %d > /sys/class/zram-control/hot_remove" % (n, n))
    try:
        with open("/sys/block/zram%d/disksize" % n, "w") as f:
            f.write(str(SIZE))
        for _ in range(50):  # udev may be slow to make the node
            if os.path.exists(dev):
                break
            time.sleep(0.1)
        fill(dev, SIZE)
    except OSError as e:
        undo()
        log("SKIP zram: %s" % e)
        return None, None
    return dev, undo


SETUPS = {"virtio": setup_virtio, "loop": setup_loop, "zram": setup_zram}


def run(target, qd, extra, runtime):
    argv = [IOCHAR, "run", "--name=ab", "--filename=%s" % target, "--rw=randread",
            "--bs=4k", "--direct=1", "--numjobs=1", "--iodepth=%d" % qd,
            "--time_based", "--runtime=%d" % runtime, "--size=%d" % SIZE,
            "--output-format=json"] + extra
    load = os.getloadavg()[0]
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = p.communicate(timeout=runtime + 30)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    rec = {"argv": argv, "rc": p.returncode, "loadavg_1m": load}
    if p.returncode != 0:
        rec["error"] = err.decode(errors="replace")[-400:]
        return rec
    d = json.loads(out)
    t = d["total"] if "total" in d else d["jobs"][0]
    ios = t["ios"]
    rec.update(iops=t["iops"], lat_mean_ns=t["lat_ns"]["mean"], ios=ios)
    return rec


def run_cpu(target, qd, extra, runtime):
    """run() with the child's CPU time (usr+sys) per I/O from rusage."""
    before = os.times()
    rec = run(target, qd, extra, runtime)
    after = os.times()
    cpu = (after.children_user - before.children_user +
           after.children_system - before.children_system)
    if rec.get("ios"):
        rec["cpu_ns_per_io"] = cpu * 1e9 / rec["ios"]
    return rec


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runtime", type=int, default=2)
    ap.add_argument("--devices", default="virtio,loop,zram")
    args = ap.parse_args()
    t0 = time.monotonic()

    def log(m):
        print("[%6.1fs] %s" % (time.monotonic() - t0, m), flush=True)

    cfgs = configs()
    report = {"date_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(
        timespec="seconds"), "args": vars(args), "devices": {}}
    for dev in args.devices.split(","):
        target, undo = SETUPS[dev](log)
        if not target:
            report["devices"][dev] = "skipped"
            continue
        log("%s: %s" % (dev, target))
        res = {c[0] + " qd=%d" % c[1]: [] for c in cfgs}
        try:
            for rnd in range(args.rounds):
                k = rnd % len(cfgs)
                for name, qd, extra in cfgs[k:] + cfgs[:k]:
                    rec = run_cpu(target, qd, extra, args.runtime)
                    res[name + " qd=%d" % qd].append(rec)
                    if "error" in rec:
                        log("  %s qd=%d FAILED: %s" % (name, qd, rec["error"]))
        finally:
            undo()
        table = {}
        for key, recs in res.items():
            ok = [r for r in recs if "iops" in r]
            if not ok:
                continue
            table[key] = {m: statistics.median(r[m] for r in ok)
                          for m in ("iops", "lat_mean_ns", "cpu_ns_per_io", "loadavg_1m")}
            table[key]["rounds"] = len(ok)
        report["devices"][dev] = {"target": target, "medians": table, "raw": res}
        print("\n%s (%s), medians of %d rounds x %d s:" % (dev, target, args.rounds,
                                                         args.runtime))
        print("  %-34s %9s %10s %9s %5s" % ("config", "IOPS", "lat mean", "CPU/IO", "load"))
        for key, m in table.items():
            print("  %-34s %8.1fk %8.1fus %7.2fus %5.1f" % (
                key, m["iops"] / 1e3, m["lat_mean_ns"] / 1e3, m["cpu_ns_per_io"] / 1e3,
                m["loadavg_1m"]))
        sys.stdout.flush()
    os.makedirs(os.path.join(ROOT, "bench", "out"), exist_ok=True)
    path = os.path.join(ROOT, "bench", "out", "ab-%s.json" %
                        datetime.datetime.now().strftime("%Y%m%d-%H%M%S"))
    with open(path, "w") as f:
        json.dump(report, f, indent=1)
    print("\nraw: %s (%.0f s)" % (path, time.monotonic() - t0))


if __name__ == "__main__":
    main()
