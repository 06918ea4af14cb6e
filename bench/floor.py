#!/usr/bin/env python3
"""floor.py - iochar against the floor (bench/floor.c) and fio, alternating.

The floor is the least a program can do per 4k random read: a pread loop,
and a liburing loop with and without registered files and buffers (no
statistics, no clock per I/O). floor.py builds bench/floor.c with cc, then
per round runs, for every point, each floor variant, iochar and fio on the
same file (the order rotated each round), each under bench.py's rusage
helper, so CPU per I/O (user + system of the whole process / I/Os done) is
measured alike for all. At the io_uring points iochar also runs with the
floor's own discipline ("iochar-pass": a pass's I/Os in one submission
that waits, the floor's ring flags), against which the QD 32 direct
target is judged. Reported: medians, spreads, iochar/floor and
iochar/fio (ratios of the medians, and the paired per-round ratio), with
the load average. See bench/README.md, "The floor".

  python3 bench/floor.py                     # 3 rounds x 3 s: ~5 min
  python3 bench/floor.py --rounds 5 --keep-files
"""
import argparse
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import bench

WORKDIR = "/var/tmp/iochar-floor"  # not bench.py's: the two may run at once
BUF_FILE = os.path.join(WORKDIR, "buffered.dat")
DIRECT_FILE = os.path.join(WORKDIR, "direct.dat")
# 256 MiB, not bench.py's 2 GiB: this session's memory cgroup kept only
# ~325 MiB of a 2 GiB file cached, and the "buffered" points then read the
# disk. It is re-read before every buffered point (fincore logged).
BUF_SIZE = 256 * bench.MiB
FLOOR = [None]

# (key, engine of iochar/fio, floor variants, iodepth, direct)
POINTS = [
    ("psync qd=1 buffered", "psync", ("pread",), 1, 0),
    ("psync qd=1 direct", "psync", ("pread",), 1, 1),
    ("io_uring qd=1 buffered", "io_uring", ("uring", "uring-reg"), 1, 0),
    ("io_uring qd=32 buffered", "io_uring", ("uring", "uring-reg"), 32, 0),
    ("io_uring qd=1 direct", "io_uring", ("uring", "uring-reg"), 1, 1),
    ("io_uring qd=32 direct", "io_uring", ("uring", "uring-reg"), 32, 1),
]
# iochar run with the floor's own discipline (io_uring points): a loop
# pass's I/Os in one submission, every completion there is, and the
# floor's ring (io_uring_queue_init with no flags). "iochar" itself gets
# bench.py's fio-style command line, so fio's batching (one I/O per
# submission): a discipline the floor does not use.
IOCHAR_FLOORLIKE = ["--iodepth_batch_submit=0", "--iodepth_batch_complete_max=65536",
                    "--ring_setup=none"]
# the targets: (point, metric, iochar variant, floor variant, bound, sense)
TARGETS = {
    "io_uring qd=32 direct": ("cpu_ns_per_io", "iochar-pass", "uring-reg", 1.1, "<="),
    "psync qd=1 buffered": ("iops", "iochar", "pread", 0.95, ">="),
}
IOCHARS = ("iochar", "iochar-pass")


def floor_cmd(variant, p):
    f = p["filename"]
    if variant == "pread":
        return [FLOOR[0], "pread", f, str(p["direct"]), str(p["runtime"])]
    return [FLOOR[0], "uring", f, str(p["direct"]), str(p["runtime"]), str(p["iodepth"]),
            "1" if variant == "uring-reg" else "0"]


def run_floor(variant, p, log):
    argv = floor_cmd(variant, p)
    load = os.getloadavg()[0]
    r = bench.run_measured(argv, timeout=p["runtime"] + bench.HANG_GRACE_S)
    rec = {"tool": "floor-" + variant, "argv": argv, "rc": r["rc"], "loadavg_1m": load,
           "usr_ns": r["usr_ns"], "sys_ns": r["sys_ns"], "maxrss_kib": r["maxrss_kib"],
           "ok": False}
    try:
        if r["rc"] != 0:
            raise RuntimeError("exit status %d" % r["rc"])
        d = bench.parse_json(r["stdout"])
        rec.update(ios=d["ios"], iops=d["iops"], ok=True,
                   cpu_ns_per_io=(r["usr_ns"] + r["sys_ns"]) / d["ios"])
    except Exception as e:
        rec["error"] = "%s; stderr: %s" % (e, r["stderr"].strip()[-400:])
        log("    floor-%s FAILED: %s" % (variant, rec["error"]))
    return rec


def run_rounds(pts, rounds, log):
    """Every round: every point, each of its tools, in an order rotated by
    one each round (no tool always first after another's run)."""
    raw = {k: {} for k, _, _ in pts}
    for rnd in range(rounds):
        for k, p, tools in pts:
            if not p["direct"]:
                bench.warm_cache(BUF_FILE, log)
            order = tools[rnd % len(tools):] + tools[:rnd % len(tools)]
            for tool in order:
                if tool.startswith("floor-"):
                    rec = run_floor(tool[6:], p, log)
                elif tool == "iochar-pass":
                    bench.IOCHAR_USER_EXTRA[:] = IOCHAR_FLOORLIKE
                    try:
                        rec = bench.run_tool("iochar", p, log)
                    finally:
                        bench.IOCHAR_USER_EXTRA[:] = []
                    rec["tool"] = tool
                else:
                    rec = bench.run_tool(tool, p, log)
                rec["round"] = rnd
                raw[k].setdefault(tool, []).append(rec)
                if rec["ok"]:
                    log("  round %d %-24s %-16s IOPS %-8s CPU/IO %-9s load %.1f" % (
                        rnd + 1, k, tool, bench.fmt_iops(rec["iops"]),
                        bench.fmt_ns(rec["cpu_ns_per_io"]), rec["loadavg_1m"]))
    return raw


def summarize_point(k, tools, raw):
    s = {t: bench.summarize(raw[t]) for t in tools}
    out = {"per_tool": s}
    for i in (t for t in tools if t in IOCHARS):
        for t in tools:
            if t in IOCHARS:
                continue
            for m in ("iops", "cpu_ns_per_io"):
                out["%s/%s %s" % (i, t, m)] = {
                    "ratio_of_medians": bench.ratio(s[i][m], s[t][m]),
                    "paired": bench.paired_ratio(raw[i], raw[t], m)}
    tg = TARGETS.get(k)
    if tg:
        m, i, fl, bound, sense = tg
        r = out["%s/floor-%s %s" % (i, fl, m)]["ratio_of_medians"]
        ok = None if r is None else (r <= bound if sense == "<=" else r >= bound)
        out["target"] = {"metric": m, "iochar": i, "floor": fl,
                         "bound": "%s %.2fx" % (sense, bound), "ratio": r, "pass": ok}
    loads = [r["loadavg_1m"] for t in tools for r in raw[t]]
    out["loadavg_1m_median"] = statistics.median(loads) if loads else None
    out["loadavg_1m_range"] = [min(loads), max(loads)] if loads else None
    return out


def render(pts, summ):
    lines = []
    fr = bench.fmt_ratio
    for k, _, tools in pts:
        s = summ[k]
        pt = s["per_tool"]
        lines.append("%s  (load %.1f-%.1f)" % (k, *s["loadavg_1m_range"]))
        for t in tools:
            v = pt[t]
            lines.append("  %-16s IOPS %-14s CPU/IO %-16s" % (
                t, bench.with_spread(bench.fmt_iops(v["iops"]), v["iops_spread_pct"]),
                bench.with_spread(bench.fmt_ns(v["cpu_ns_per_io"]), v["cpu_ns_per_io_spread_pct"])))
        for a in (t for t in tools if t in IOCHARS):
            for t in tools:
                if t in IOCHARS:
                    continue
                i, c = s["%s/%s iops" % (a, t)], s["%s/%s cpu_ns_per_io" % (a, t)]
                lines.append("  %s/%-9s IOPS %s (paired %s)  CPU/IO %s (paired %s)" % (
                    a, t, fr(i["ratio_of_medians"]), fr(i["paired"]),
                    fr(c["ratio_of_medians"]), fr(c["paired"])))
        if "target" in s:
            g = s["target"]
            lines.append("  target: %s/floor-%s %s %s: %s -> %s" % (
                g["iochar"], g["floor"], g["metric"], g["bound"], fr(g["ratio"]),
                bench.verdict(g["pass"])))
    return "\n".join(lines)


def build_floor(bindir):
    FLOOR[0] = bench.build_c(os.path.join(bindir, "floor"),
                             [os.path.join(bench.ROOT, "bench", "floor.c")], ["-luring"])


def make_points(args, only):
    pts = []
    for k, eng, fl, qd, direct in POINTS:
        if only and k not in only:
            continue
        p = dict(engine=eng, iodepth=qd, numjobs=1, direct=direct,
                 size="4g" if direct else "256m",
                 filename=DIRECT_FILE if direct else BUF_FILE, runtime=args.runtime)
        ours = ["iochar", "iochar-pass"] if eng == "io_uring" else ["iochar"]
        pts.append((k, p, ["floor-" + f for f in fl] + ours + ["fio"]))
    return pts


def main():
    ap = argparse.ArgumentParser(description="iochar against the floor and fio")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runtime", type=int, default=3)
    ap.add_argument("--points", default="", help="comma-separated subset of the point names")
    ap.add_argument("--keep-files", action="store_true")
    args = ap.parse_args()
    only = {x.strip() for x in args.points.split(",") if x.strip()}
    if args.rounds < 1 or args.runtime < 1 or (only - {p[0] for p in POINTS}):
        ap.error("--rounds/--runtime >= 1; --points from: %s" % ", ".join(p[0] for p in POINTS))
    if not os.access(bench.IOCHAR, os.X_OK):
        sys.exit("floor: %s missing: run make first" % bench.IOCHAR)
    os.makedirs(WORKDIR, exist_ok=True)
    os.makedirs(bench.OUTDIR, exist_ok=True)
    bench.WORKDIR = WORKDIR  # the tools' working directory
    bindir = tempfile.mkdtemp(prefix="iochar-floor-bin.")
    bench.IOCHAR_RUN[0] = os.path.join(bindir, "iochar")
    shutil.copy2(bench.IOCHAR, bench.IOCHAR_RUN[0])
    bench.build_spawn(bindir)
    build_floor(bindir)
    t_start = time.monotonic()

    def log(msg):
        print("[%6.1fs] %s" % (time.monotonic() - t_start, msg), flush=True)

    pts = make_points(args, only)
    out_path = os.path.join(bench.OUTDIR, "floor-%s.json" %
                            datetime.datetime.now().strftime("%Y%m%d-%H%M%S"))
    report = {"environment": bench.environment(), "args": vars(args)}
    try:
        if any(p["direct"] for _, p, _ in pts):
            bench.make_file(DIRECT_FILE, 4 * bench.GiB, log)
        if any(not p["direct"] for _, p, _ in pts):
            bench.make_file(BUF_FILE, BUF_SIZE, log)
        raw = run_rounds(pts, args.rounds, log)
        summ = {k: summarize_point(k, tools, raw[k]) for k, _, tools in pts}
        report.update(raw=raw, summary=summ, seconds=time.monotonic() - t_start)
        with open(out_path, "w") as f:
            json.dump(report, f, indent=1)
    finally:
        shutil.rmtree(bindir, ignore_errors=True)
        if not args.keep_files:
            shutil.rmtree(WORKDIR, ignore_errors=True)
    print("\nMedians of %d rounds x %d s (±x%% = half the min..max range); ratios of the "
          "medians, paired = median of per-round ratios\n" % (args.rounds, args.runtime))
    print(render(pts, summ))
    print("\nraw per-round numbers: %s" % out_path)


if __name__ == "__main__":
    main()
