#!/usr/bin/env python3
"""multi.py - many block devices at once, as a paper's parallel virtual drives.

Makes 8 devices (zram through /sys/class/zram-control/hot_add where it
exists, else loop devices over /dev/shm files), fills each with random
data, and runs the same fio job file through iochar and fio, alternating
(order rotated each round), in two layouts:

  per-device  one job per device ([d0] filename=/dev/zramA, [d1] ...)
  one-job     one job over all of them (filename=A:B:...; fio's round robin)

4k randread, direct=1, io_uring with registered files and buffers,
iodepth 32 per job, time_based. Reported: total IOPS and CPU per I/O
(user + system of the whole process from wait4(), bench.py's helper, over
all I/Os), medians, spreads, iochar/fio, with the load average. The devices
are removed at the end, also on failure or ^C. Needs root.

  python3 bench/multi.py                  # 3 rounds x 3 s: ~1.5 min
  python3 bench/multi.py --devices 16 --iodepth 8
"""
import argparse
import datetime
import errno
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import bench

ZRAM_CTL = "/sys/class/zram-control"


def zram_add(size):
    with open(ZRAM_CTL + "/hot_add") as f:
        n = int(f.read())
    try:
        with open("/sys/block/zram%d/disksize" % n, "w") as f:
            f.write(str(size))
    except OSError:
        zram_remove(n)
        raise
    return "/dev/zram%d" % n, n


def zram_remove(n):
    # Right after the runs a device can still be busy for a moment (udev's
    # probe of what was written, a tool's last close): retry for up to 10 s
    # rather than leave it behind (seen here: EBUSY on all 8, gone 5 s later).
    for attempt in range(50):
        try:
            with open("/sys/block/zram%d/reset" % n, "w") as f:
                f.write("1")
        except OSError:
            pass
        try:
            with open(ZRAM_CTL + "/hot_remove", "w") as f:
                f.write(str(n))
            return
        except OSError as e:
            if e.errno != errno.EBUSY or attempt == 49:
                raise
            time.sleep(0.2)


def loop_add(size, i):
    path = "/dev/shm/iochar-multi-%d-%d.img" % (os.getpid(), i)
    with open(path, "wb") as f:
        f.truncate(size)
    try:
        dev = subprocess.run(["losetup", "--find", "--show", "--direct-io=on", path],
                             check=True, capture_output=True, text=True).stdout.strip()
    except subprocess.CalledProcessError:
        os.unlink(path)
        raise
    return dev, path


def loop_remove(dev, path):
    subprocess.run(["losetup", "-d", dev], capture_output=True)
    os.unlink(path)


class Devices:
    """The devices, made on entry and removed on exit, whatever happened."""

    def __init__(self, count, size, log):
        self.count, self.size, self.log = count, size, log
        self.made = []  # (dev, undo)
        self.kind = "zram" if os.path.exists(ZRAM_CTL + "/hot_add") else "loop"

    def __enter__(self):
        try:
            for i in range(self.count):
                if self.kind == "zram":
                    dev, n = zram_add(self.size)
                    self.made.append((dev, lambda n=n: zram_remove(n)))
                else:
                    dev, path = loop_add(self.size, i)
                    self.made.append((dev, lambda d=dev, p=path: loop_remove(d, p)))
                fill(dev, self.size)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        self.log("  %d %s devices of %d MiB, filled with random data: %s" % (
            self.count, self.kind, self.size >> 20, " ".join(d for d, _ in self.made)))
        return [d for d, _ in self.made]

    def __exit__(self, *exc):
        for dev, undo in reversed(self.made):
            try:
                undo()
            except OSError as e:
                self.log("  could not remove %s: %s" % (dev, e))
        self.made = []
        return False


def fill(dev, size):
    chunk = os.urandom(4 * bench.MiB)
    fd = os.open(dev, os.O_WRONLY)
    try:
        done = 0
        while done < size:
            done += os.write(fd, chunk[: min(len(chunk), size - done)])
        os.fsync(fd)
    finally:
        os.close(fd)


GLOBAL = """[global]
ioengine=io_uring
fixedbufs=1
registerfiles=1
direct=1
rw=randread
bs=4k
iodepth={qd}
time_based=1
runtime={runtime}
norandommap=1
randrepeat=0
thread=1
group_reporting=1
invalidate=0
"""


def job_file(layout, devs, args):
    text = GLOBAL.format(qd=args.iodepth, runtime=args.runtime)
    if layout == "per-device":
        for i, d in enumerate(devs):
            text += "\n[d%d]\nfilename=%s\n" % (i, d)
    else:
        text += "\n[all]\nfilename=%s\n" % ":".join(devs)
    return text


def run(tool, path, args, log):
    argv = ([bench.IOCHAR_RUN[0], "run", path] if tool == "iochar" else ["fio", path])
    argv.append("--output-format=json")
    load = os.getloadavg()[0]
    r = bench.run_measured(argv, timeout=args.runtime + bench.HANG_GRACE_S)
    rec = {"tool": tool, "argv": argv, "rc": r["rc"], "loadavg_1m": load,
           "usr_ns": r["usr_ns"], "sys_ns": r["sys_ns"], "maxrss_kib": r["maxrss_kib"],
           "ok": False}
    try:
        if r["rc"] != 0:
            raise RuntimeError("exit status %d" % r["rc"])
        d = bench.parse_json(r["stdout"])
        m = bench.metrics_iochar(d) if tool == "iochar" else bench.metrics_fio(d)
        rec.update(m)
        rec["cpu_ns_per_io"] = (r["usr_ns"] + r["sys_ns"]) / m["ios"]
        rec["ok"] = True
    except Exception as e:
        rec["error"] = "%s; stderr: %s" % (e, r["stderr"].strip()[-400:])
        log("    %s FAILED: %s" % (tool, rec["error"]))
    return rec


def measure(devs, args, tmp, log):
    layouts = ("per-device", "one-job")
    raw = {lay: {"iochar": [], "fio": []} for lay in layouts}
    paths = {}
    for lay in layouts:
        paths[lay] = os.path.join(tmp, lay + ".fio")
        with open(paths[lay], "w") as f:
            f.write(job_file(lay, devs, args))
    for rnd in range(args.rounds):
        for lay in layouts:
            order = ("iochar", "fio") if rnd % 2 == 0 else ("fio", "iochar")
            for tool in order:
                rec = run(tool, paths[lay], args, log)
                rec["round"] = rnd
                raw[lay][tool].append(rec)
                if rec["ok"]:
                    log("  round %d %-10s %-6s IOPS %-8s CPU/IO %-9s RSS %s load %.1f" % (
                        rnd + 1, lay, tool, bench.fmt_iops(rec["iops"]),
                        bench.fmt_ns(rec["cpu_ns_per_io"]), bench.fmt_kib(rec["maxrss_kib"]),
                        rec["loadavg_1m"]))
    return raw


def report(raw, args, kind):
    lines = []
    summ = {}
    for lay, per in raw.items():
        a, b = bench.summarize(per["iochar"]), bench.summarize(per["fio"])
        loads = [r["loadavg_1m"] for t in per.values() for r in t]
        s = {"iochar": a, "fio": b,
             "iops_ratio": bench.ratio(a["iops"], b["iops"]),
             "iops_paired": bench.paired_ratio(per["iochar"], per["fio"], "iops"),
             "cpu_ratio": bench.ratio(a["cpu_ns_per_io"], b["cpu_ns_per_io"]),
             "cpu_paired": bench.paired_ratio(per["iochar"], per["fio"], "cpu_ns_per_io"),
             "load_range": [min(loads), max(loads)] if loads else None}
        summ[lay] = s
        lines.append("%s: %d %s devices, iodepth %d per job (load %.1f-%.1f)" % (
            lay, args.devices, kind, args.iodepth, *s["load_range"]))
        for t, v in (("iochar", a), ("fio", b)):
            lines.append("  %-6s IOPS %-14s CPU/IO %-16s RSS %s" % (
                t, bench.with_spread(bench.fmt_iops(v["iops"]), v["iops_spread_pct"]),
                bench.with_spread(bench.fmt_ns(v["cpu_ns_per_io"]),
                                  v["cpu_ns_per_io_spread_pct"]),
                bench.fmt_kib(v["maxrss_kib"])))
        fr = bench.fmt_ratio
        lines.append("  iochar/fio IOPS %s (paired %s), CPU/IO %s (paired %s)" % (
            fr(s["iops_ratio"]), fr(s["iops_paired"]), fr(s["cpu_ratio"]), fr(s["cpu_paired"])))
    return "\n".join(lines), summ


def main():
    ap = argparse.ArgumentParser(description="many block devices at once: iochar vs fio")
    ap.add_argument("--devices", type=int, default=8)
    ap.add_argument("--size-mib", type=int, default=128, help="per device (default 128)")
    ap.add_argument("--iodepth", type=int, default=32)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runtime", type=int, default=3)
    args = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("multi: needs root (it makes and removes block devices)")
    if not (1 <= args.devices <= 64 and args.size_mib >= 1 and args.rounds >= 1
            and args.runtime >= 1 and args.iodepth >= 1):
        ap.error("--devices 1..64; --size-mib, --iodepth, --rounds, --runtime >= 1")
    os.makedirs(bench.OUTDIR, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="iochar-multi.")
    bench.WORKDIR = tmp
    bench.IOCHAR_RUN[0] = os.path.join(tmp, "iochar")
    shutil.copy2(bench.IOCHAR, bench.IOCHAR_RUN[0])
    bench.build_spawn(tmp)
    t0 = time.monotonic()

    def log(msg):
        print("[%6.1fs] %s" % (time.monotonic() - t0, msg), flush=True)

    env = bench.environment()
    devs_obj = Devices(args.devices, args.size_mib * bench.MiB, log)
    try:
        with devs_obj as devs:
            raw = measure(devs, args, tmp, log)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    text, summ = report(raw, args, devs_obj.kind)
    out = os.path.join(bench.OUTDIR, "multi-%s.json" %
                       datetime.datetime.now().strftime("%Y%m%d-%H%M%S"))
    with open(out, "w") as f:
        json.dump({"environment": env, "args": vars(args),
                   "kind": devs_obj.kind, "raw": raw, "summary": summ}, f, indent=1)
    print("\nMedians of %d rounds x %d s (±x%% = half the min..max range)\n" % (
        args.rounds, args.runtime))
    print(text)
    print("\nraw per-round numbers: %s" % out)


if __name__ == "__main__":
    main()
