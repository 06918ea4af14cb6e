#!/usr/bin/env python3
"""raid_levels.py - the paper's RAID comparison (RAID 0, 5, 10 and JBOD over
the same drives) run by iochar's raid_level= plan, beside fio on the same
members.

fio has no RAID: what it can run is the JBOD of the paper, every drive
passed through (one fio job per drive, summed, as targets=parallel over
raw devices). So each workload gets fio's JBOD figure as the baseline,
and iochar's four levels are shown beside it with their ratio to it;
iochar's own jbod against fio's is the check that the pass-through costs
nothing (a 1.00x there is expected; the RAID levels' ratios are what the
levels cost or give).

Members: zram devices this script makes and removes (root, the zram
module), or with --members shm, files under /dev/shm (no root). Never any
other device. Each round runs one iochar plan (mode=fixed, every level of
every workload) and fio on every workload, alternating which goes first;
the medians over the rounds and the medians of the paired ratios (with
their 90 % intervals, bench/pairstats.py) are printed, then the path of
the last round's HTML report, whose "RAID levels compared" section is the
paper's chart. On a shared, noisy machine the figures are not quiet:
this makes the comparison run, it does not settle it.

  sudo python3 bench/raid_levels.py [--drives 8] [--size 256m] [--runtime 2]
                                    [--rounds 3] [--qd 8] [--members zram|shm]
                                    [--iochar build/iochar]
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

from pairstats import fmt_ci, median_ci

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LEVELS = ("raid0", "raid5", "raid10", "jbod")
# (section, rw, bs): random in IOPS, sequential in MB/s
WORKLOADS = (("random", "randread", "4k"), ("random", "randwrite", "4k"),
             ("sequential", "read", "256k"), ("sequential", "write", "256k"))


def sh(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def size_bytes(s):
    return int(s[:-1]) * {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[s[-1].lower()]


def zram_make(n, size):
    devs = []
    for _ in range(n):
        with open("/sys/class/zram-control/hot_add") as f:
            i = int(f.read())
        devs.append(i)
        with open("/sys/block/zram%d/disksize" % i, "w") as f:
            f.write(str(size))
    return devs


def zram_remove(ids):
    for i in ids:
        try:
            with open("/sys/block/zram%d/reset" % i, "w") as f:
                f.write("1")
            with open("/sys/class/zram-control/hot_remove", "w") as f:
                f.write(str(i))
        except OSError as e:
            print("zram%d: %s" % (i, e), file=sys.stderr)


def plan_text(a, size):
    g = ("[global]\nmode=fixed\ndirect=%d\nioengine=io_uring\ntime_based\nruntime=%s\n"
         "ramp_time=1\niodepth=%d\nsize=%d\nraid_level=%s\n" % (
             a.direct, a.runtime, a.qd, size, ",".join(LEVELS)))
    g += "[random]\nrw=randread,randwrite\nbs=4k\n"
    g += "[sequential]\nrw=read,write\nbs=256k\n"
    return g


def iochar_round(a, tmp, devs, size, rnd):
    ini = os.path.join(tmp, "matrix.ini")
    with open(ini, "w") as f:
        f.write(plan_text(a, size))
    out = os.path.join(tmp, "plan-%d" % rnd)
    p = sh([a.iochar, "plan", ini, "--filename=" + ":".join(devs), "--out", out, "--force"])
    if p.returncode != 0:
        sys.exit("iochar plan failed:\n" + p.stderr[-2000:])
    with open(os.path.join(out, "results.json")) as f:
        j = json.load(f)
    res = {}
    for st in j["steps"]:
        label = st["label"]
        level = label.split("raid_level=")[1].split()[0]
        rw = label.split("rw=")[1].split()[0]
        pt = st["sets"][0]["fixed"]
        tot = pt["total"] if "total" in pt else pt
        res[(rw, level)] = tot["iops"] if rw.startswith("rand") else tot["bw_bytes"]
    return res, out


def fio_value(a, tmp, devs, size, rw, bs):
    path = os.path.join(tmp, "jbod.fio")
    with open(path, "w") as f:
        f.write("[global]\nioengine=io_uring\ndirect=%d\nrw=%s\nbs=%s\niodepth=%d\n"
                "time_based\nruntime=%s\nramp_time=1\nsize=%d\nnorandommap\n" % (
                    a.direct, rw, bs, a.qd, a.runtime, size))
        for i, d in enumerate(devs):
            f.write("[d%d]\nfilename=%s\n" % (i, d))
    p = sh(["fio", "--output-format=json", path])
    if p.returncode != 0:
        sys.exit("fio failed:\n" + p.stderr[-2000:])
    j = json.loads(p.stdout[p.stdout.index("{"):])
    key = "read" if "read" in rw else "write"
    return sum(job[key]["iops" if rw.startswith("rand") else "bw_bytes"] for job in j["jobs"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--drives", type=int, default=8)
    ap.add_argument("--size", default="256m", help="per drive")
    ap.add_argument("--runtime", default="2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--qd", type=int, default=8, help="per target (VD or drive)")
    ap.add_argument("--members", choices=("zram", "shm"), default="zram")
    ap.add_argument("--iochar", default=os.path.join(ROOT, "build/iochar"))
    a = ap.parse_args()
    size = size_bytes(a.size)
    zram = a.members == "zram"
    if zram and (os.geteuid() != 0 or not os.path.exists("/sys/class/zram-control")):
        sys.exit("raid_levels.py: zram members need root and the zram module "
                 "(modprobe zram); or --members shm")
    a.direct = 1 if zram else 0  # tmpfs takes no O_DIRECT
    tmp = tempfile.mkdtemp(prefix="iochar-raidlv-", dir="/dev/shm")
    ids = []
    try:
        if zram:
            ids = zram_make(a.drives, size)
            devs = ["/dev/zram%d" % i for i in ids]
        else:
            devs = [os.path.join(tmp, "d%d" % i) for i in range(a.drives)]
            for d in devs:
                with open(d, "wb") as f:
                    f.truncate(size)
        rows, last = {}, None
        for rnd in range(a.rounds):
            first_fio = rnd % 2 == 1
            fio = {}
            if first_fio:
                fio = {rw: fio_value(a, tmp, devs, size, rw, bs) for _, rw, bs in WORKLOADS}
            res, last = iochar_round(a, tmp, devs, size, rnd)
            if not first_fio:
                fio = {rw: fio_value(a, tmp, devs, size, rw, bs) for _, rw, bs in WORKLOADS}
            load = os.getloadavg()[0]
            for _, rw, _ in WORKLOADS:
                for lv in LEVELS:
                    rows.setdefault((rw, lv), []).append((res[(rw, lv)], fio[rw], load))
            print("round %d done (%s first), load %.1f" % (rnd, "fio" if first_fio else "iochar",
                                                           load), flush=True)
        print("\n%d drives (%s, %s each), QD %d per target, medians over %d rounds; "
              "ratio: to fio's JBOD (one job per drive), median of the paired ratios "
              "[90 %% interval]" % (a.drives, a.members, a.size, a.qd, a.rounds))
        print("%-10s %-7s %14s %14s %8s %20s" % ("workload", "level", "iochar", "fio JBOD",
                                                  "ratio", "interval"))
        for (rw, lv), v in rows.items():
            unit = (lambda x: "%.0f IOPS" % x) if rw.startswith("rand") else \
                   (lambda x: "%.1f MB/s" % (x / 1e6))
            r = [x[0] / x[1] for x in v if x[1]]
            print("%-10s %-7s %14s %14s %7.2fx %20s" % (
                rw, lv, unit(statistics.median(x[0] for x in v)),
                unit(statistics.median(x[1] for x in v)),
                statistics.median(r) if r else 0, fmt_ci(median_ci(r)) if r else "-"))
        html = os.path.join(ROOT, "bench/out/raid-levels-%s.html" % time.strftime("%Y%m%d-%H%M%S"))
        os.makedirs(os.path.dirname(html), exist_ok=True)
        p = sh([a.iochar, "report", last, "-o", html])
        print("report (last round): " + (html if p.returncode == 0 else "failed: " + p.stderr))
    finally:
        if ids:
            zram_remove(ids)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
