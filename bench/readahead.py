#!/usr/bin/env python3
"""readahead.py - a RAID 5 VD's read-ahead on against off, side by side.

RAID 5 over 4 members, 64 KiB strips, 64 KiB sequential reads at each
queue depth (1, 2, 4, 16, 32 by default): every round runs readahead=on
and readahead=off at one depth back to back, and off a second time as a
control (the order rotates), so all see the same minute of a shared
machine; the medians over the rounds and the median of the paired on/off
ratios (with its 90 % interval, bench/pairstats.py) are printed beside
the off/off ratios of the control: an on/off interval no narrower than
the control's says the machine's noise, not read-ahead, decides it. With
them what read-ahead did:
member reads per host read, hits per host read, and the VD's CPU time per
host read (cpu.ns_per_io: the iochar process, not the loop devices'
kernel threads).

Members (created here and removed at the end, never any other device):
  loop  loop devices over files in /dev/shm (root): a member read is a
        kernel thread's copy out of tmpfs, no service time
  disk  loop devices over files in /tmp with direct I/O (root): a
        member read goes to the machine's disk, a real service time
  shm   the /dev/shm files themselves, buffered (no root)

  sudo python3 bench/readahead.py [--members loop|disk|shm] [--qd 1,4,16,32]
                                  [--rounds 5] [--runtime 1] [--size 256m]
                                  [--iochar build/iochar]
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile

from pairstats import fmt_ci, median_ci

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sh(args):
    return subprocess.run(args, capture_output=True, text=True)


def size_bytes(s):
    return int(s[:-1]) * {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[s[-1].lower()]


def make_members(kind, size):
    """(paths, loops, dir) of 4 members of size bytes each."""
    where = "/tmp" if kind == "disk" else "/dev/shm"
    tmp = tempfile.mkdtemp(prefix="iochar-ra-", dir=where)
    files = [os.path.join(tmp, "m%d" % i) for i in range(4)]
    for f in files:
        with open(f, "wb") as fh:
            if kind == "disk":  # real blocks: a sparse file reads no disk
                chunk = os.urandom(1 << 20)
                for _ in range(size >> 20):
                    fh.write(chunk)
            else:
                fh.truncate(size)
    if kind == "shm":
        return files, [], tmp
    loops = []
    for f in files:
        args = ["losetup", "-f", "--show", f]
        if kind == "disk":
            args.insert(1, "--direct-io=on")
        p = sh(args)
        if p.returncode != 0:
            remove_members(loops, tmp)
            sys.exit("losetup %s: %s" % (f, p.stderr.strip()))
        loops.append(p.stdout.strip())
    return loops, loops, tmp


def remove_members(loops, tmp):
    for dev in loops:
        p = sh(["losetup", "-d", dev])
        if p.returncode != 0:
            print("losetup -d %s: %s" % (dev, p.stderr.strip()), file=sys.stderr)
    shutil.rmtree(tmp, ignore_errors=True)


def run_one(a, members, ra, qd, size):
    vd = "raid5,strip=64k,members=%s,readahead=%s" % (":".join(members), ra)
    p = sh([a.iochar, "run", "--name=ra", "--vd=" + vd, "--rw=read", "--bs=64k",
            "--iodepth=%d" % qd, "--direct=%d" % (a.members != "shm"),
            "--ioengine=io_uring", "--time_based", "--runtime=%s" % a.runtime,
            "--size=%d" % (3 * size), "--output-format=json", "--force"])
    if p.returncode != 0:
        sys.exit("iochar failed (readahead=%s QD %d): %s" % (ra, qd, p.stderr[-2000:]))
    j = json.loads(p.stdout)
    vdj = j["vd"][0]
    host = max(vdj["host_reads"], 1)
    return {"mbs": j["read"]["bw_bytes"] / 1e6,
            "mr": vdj["amplification"]["reads_per_host_io"],
            "hits": vdj["cache"]["readahead_hits"] / host,
            "cpu": j["cpu"]["ns_per_io"] / 1e3}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--members", choices=("loop", "disk", "shm"), default="loop")
    ap.add_argument("--qd", default="1,2,4,16,32")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runtime", default="1")
    ap.add_argument("--size", default="256m", help="per member")
    ap.add_argument("--iochar", default=os.path.join(ROOT, "build/iochar"))
    a = ap.parse_args()
    if a.members != "shm" and os.geteuid() != 0:
        sys.exit("readahead.py: loop members need root; or --members shm")
    size = size_bytes(a.size)
    qds = [int(q) for q in a.qd.split(",")]
    members, loops, tmp = make_members(a.members, size)
    rows = {q: {"on": [], "off": [], "off2": []} for q in qds}
    kinds = ("on", "off", "off2")
    try:
        for rnd in range(a.rounds):
            for q in qds:
                for i in range(3):
                    kind = kinds[(rnd + q + i) % 3]
                    ra = "on" if kind == "on" else "off"
                    rows[q][kind].append(run_one(a, members, ra, q, size))
            print("round %d of %d done, load %.1f" % (rnd + 1, a.rounds, os.getloadavg()[0]),
                  flush=True)
    finally:
        remove_members(loops, tmp)
    med = lambda v, k: statistics.median(x[k] for x in v)
    print("\nRAID 5 x 4 (%s members, %s each), 64k strips, 64k sequential reads; "
          "medians of %d rounds, on/off: median of the paired ratios [90 %% interval]"
          % (a.members, a.size, a.rounds))
    print("%4s %9s %9s %7s %13s %8s %13s %8s %9s %9s %9s" % (
        "QD", "on MB/s", "off MB/s", "on/off", "interval", "off/off", "interval",
        "rd/host", "hits/host", "on us/io", "off us/io"))
    for q in qds:
        on, off, off2 = rows[q]["on"], rows[q]["off"], rows[q]["off2"]
        r = [x["mbs"] / y["mbs"] for x, y in zip(on, off) if y["mbs"]]
        c = [x["mbs"] / y["mbs"] for x, y in zip(off2, off) if y["mbs"]]
        print("%4d %9.0f %9.0f %6.2fx %13s %7.2fx %13s %8.2f %9.2f %9.1f %9.1f" % (
            q, med(on, "mbs"), med(off, "mbs"), statistics.median(r), fmt_ci(median_ci(r)),
            statistics.median(c), fmt_ci(median_ci(c)), med(on, "mr"), med(on, "hits"),
            med(on, "cpu"), med(off, "cpu")))


if __name__ == "__main__":
    main()
