#!/usr/bin/env python3
"""pacing.py - rate-limited runs: does pacing steal the measurement?

  1. loop: four loop devices over /dev/shm files (made, filled with random
     data and removed here), 4 jobs (one per device), 4k randread, direct,
     io_uring, iodepth 1. First each tool's maximum (closed loop), then both
     at 50 % of the measured maximum (rate_iops per job), alternating
     iochar and fio inside every round. Targets: iochar's response latency
     (from the scheduled time) within 1.5 x fio's latency + 20 us (mean)
     and 1.5 x + 50 us (p99). fio's lat under rate_iops counts from
     submission, so iochar's service latency (from submission) is shown
     beside it too: like for like.
  2. cpu: iochar's CPU at 10 % of the maximum against its CPU at the
     maximum, same devices. Target: <= 25 %.
  3. null: the null engine, 4 jobs x 71k IOPS, iochar and fio alternating.
     Target: iochar's p99 response latency <= 100 us.

In the loop and cpu cases a third reader alternates with the two tools:
bench/floor_paced.c, built here with cc, the least a paced QD 1 reader can
do (one sleep and one io_uring_enter per I/O, no spinning, no statistics
until the end), measuring response and service latency as iochar does.
Its response p99 at 50 % is the devices' own queueing at QD 1, which any
honest open-loop reader reports; its CPU share at 10 % is the floor of
that share on this machine.

Every figure is a median over the rounds; ratios are medians of the
per-round ratios of the two tools run back to back. The load average is
logged before and after every run: this machine is shared, and a p99 of
wake-ups measures it as much as the tool. Raw runs:
bench/out/pacing-<time>.json.

  4. grid (issue 34): at iodepth 1, 8, 32 and 128, fio's closed-loop
     maximum on the loop devices, then 10, 25, 50 and 90 % of it as
     rate_iops per job, iochar and fio alternating (the order rotated each
     round; the floor reader too at QD 1), with io_uring and libaio.
     Targets per cell: the rate reached (>= 0.98 x); iochar's service mean
     within 1.3 x fio's lat mean + 10 us; its response mean within 1.5 x +
     20 us and p99 within 2 x + 50 us of fio's; at 90 %, IOPS >= 0.95 x
     fio's with no more CPU per I/O. Not in the default cases (~32 cells).

  python3 bench/pacing.py [--rounds N] [--runtime S] [--size 256m]
                          [--cases loop,cpu,null,grid] [--engines io_uring,libaio] [--quick]

Needs root (losetup) and fio. Loop devices are detached and the files
removed at the end, also on failure or Ctrl-C.
"""
import argparse, json, os, resource, shutil, statistics, subprocess, sys, tempfile, time

import bench
from pairstats import fmt_ci, median_ci

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NULL_RATE = 71000


def load():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def child_cpu_ns():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return int((r.ru_utime + r.ru_stime) * 1e9)


def run_json(argv, log):
    """Runs a tool; its JSON gets "_cpu_ns": the CPU time of the tool's
    whole process tree (rusage of the waited child: every thread, and
    fio's job processes, which fio waits for), the same measure for both
    tools. The tools' own CPU figures differ in what they cover: fio's
    group usr_cpu + sys_cpu is per job on average, iochar's the process."""
    l0 = load()
    c0 = child_cpu_ns()
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (argv[0], p.returncode, p.stderr.strip()))
    d = json.loads(p.stdout[p.stdout.index("{"):])
    d["_cpu_ns"] = child_cpu_ns() - c0
    log.append({"argv": argv, "load_before": l0, "load_after": load(), "json": d})
    return d, l0


def iochar_argv(iochar, devs, runtime, rate=0, engine="io_uring", null=False, qd=1):
    a = [iochar, "run", "--output-format=json", "--time_based",
         "--runtime=%s" % runtime, "--rw=randread", "--bs=4k",
         "--ioengine=%s" % engine, "--iodepth=%d" % qd]
    if rate:
        a.append("--rate_iops=%d" % rate)
    if null:
        return a + ["--numjobs=4", "--size=1g"]
    # one job per device, as fio below: a job file
    return a + ["--direct=1", devs["jobfile"]]


def fio_argv(devs, runtime, rate=0, null=False, engine="io_uring", qd=1):
    a = ["fio", "--output-format=json", "--group_reporting", "--time_based",
         "--runtime=%s" % runtime, "--rw=randread", "--bs=4k",
         "--clat_percentiles=0", "--lat_percentiles=1", "--iodepth=%d" % qd]
    if rate:
        a.append("--rate_iops=%d" % rate)
    if null:
        return a + ["--ioengine=null", "--size=1g", "--numjobs=4", "--name=null"]
    a += ["--ioengine=%s" % engine, "--direct=1"]
    for i, d in enumerate(devs["paths"]):
        a += ["--name=j%d" % i, "--filename=%s" % d]
    return a


def m_iochar(d):
    t = d["total"]
    cpu = d["cpu"]
    el = d["elapsed_ns"] or 1
    return {"iops": t["iops"], "mean": t["lat_ns"]["mean"], "p99": t["lat_ns"]["p99"],
            "ios": t["ios"], "reached": d.get("rate", {}).get("reached", True),
            "svc_mean": t.get("service_latency", t["lat_ns"])["mean"],
            "svc_p99": t.get("service_latency", t["lat_ns"])["p99"],
            "lag_p99": t.get("lag", {}).get("p99", float("nan")),
            "cpu_pct": 100.0 * d["_cpu_ns"] / el,  # of one CPU, the whole process
            "cpu_pct_self": 100.0 * (cpu["usr_ns"] + cpu["sys_ns"]) / el,
            "tool_limited": d.get("tool_limited", False),
            "reason": d.get("tool_limited_reason", "")}


def floor_argv(floor, devs, runtime, rate=0, qd=1):
    return [floor, "-d", "%d" % qd, "%d" % max(1, round(float(runtime))), "%d" % rate] + devs["paths"]


def m_floor(d):
    el = d["elapsed_ns"] or 1
    return {"iops": d["iops"], "mean": d["resp_mean_ns"], "p99": d["resp_p99_ns"],
            "svc_mean": d["svc_mean_ns"], "svc_p99": d["svc_p99_ns"], "lag_p99": d["lag_p99_ns"],
            "cpu_pct": 100.0 * d["_cpu_ns"] / el, "tool_limited": False, "reason": ""}


def build_floor(bindir):
    return bench.build_c(os.path.join(bindir, "floor_paced"),
                         [os.path.join(ROOT, "bench", "floor_paced.c")], ["-luring", "-lpthread"])


def m_fio(d):
    j = d["jobs"][0]["read"]
    return {"iops": j["iops"], "mean": j["lat_ns"]["mean"], "ios": j["total_ios"],
            "p99": j["lat_ns"].get("percentile", {}).get("99.000000", 0),
            # of one CPU, the whole process tree, over the run's time
            "cpu_pct": 100.0 * d["_cpu_ns"] / (max(j["runtime"], 1) * 1e6),
            "cpu_pct_self": d["jobs"][0]["usr_cpu"] + d["jobs"][0]["sys_cpu"]}


def med(rs, k):
    return statistics.median(r[k] for r in rs)


def us(ns):
    return "%.1f us" % (ns / 1e3) if ns < 1e7 else "%.2f ms" % (ns / 1e6)


def alternate(rounds, runs, log):
    """runs: {name: (argv, metric)}; each round runs them all, the order
    rotated by one every round. Returns {name: [metrics]} and the loads."""
    out = {k: [] for k in runs}
    loads = []
    names = list(runs)
    for r in range(rounds):
        for k in names[r % len(names):] + names[:r % len(names)]:
            d, l0 = run_json(runs[k][0], log)
            out[k].append(runs[k][1](d))
            loads.append(l0)
            print("  round %d %-8s %s  (load %.2f)" % (r + 1, k, brief(out[k][-1]), l0), flush=True)
    return out, loads


def brief(m):
    s = "IOPS %.0f mean %s p99 %s" % (m["iops"], us(m["mean"]), us(m["p99"]))
    if "lag_p99" in m:
        s += " | service mean %s p99 %s, lag p99 %s, cpu %.0f%%%s" % (
            us(m["svc_mean"]), us(m["svc_p99"]), us(m["lag_p99"]), m["cpu_pct"],
            ", TOOL-LIMITED" if m["tool_limited"] else "")
    return s


def per_round(a, b, k):
    """a's k over b's, round by round."""
    return [x[k] / y[k] for x, y in zip(a, b) if y[k]]


def ratios(a, b, k):
    return statistics.median(per_round(a, b, k))


def ratios_ci(a, b, k):
    """The 90 % interval of ratios(a, b, k), as '[x0.90-x1.20]'."""
    return fmt_ci(median_ci(per_round(a, b, k)), "x")


def make_devices(size, tmp, devs):
    """Fill devs (made by the caller, so that what is attached is detached
    even when this fails half way) with 4 loop devices over tmp files."""
    paths, files = devs["paths"], devs["files"]
    chunk = os.urandom(1 << 20)
    for i in range(4):
        fn = os.path.join(tmp, "loop%d.dat" % i)
        with open(fn, "wb") as f:
            for k in range(size >> 20):
                f.write(chunk[k % 4096:] + chunk[:k % 4096])  # no two MiB alike
        files.append(fn)
        dev = subprocess.run(["losetup", "--find", "--show", fn], capture_output=True,
                             text=True, check=True).stdout.strip()
        paths.append(dev)
    devs["jobfile"] = os.path.join(tmp, "loops.fio")
    with open(devs["jobfile"], "w") as f:
        for i, d in enumerate(paths):
            f.write("[j%d]\nfilename=%s\n" % (i, d))


def case_loop(a, iochar, floor, devs, log, summary):
    print("loop: maximum (closed loop), 4 jobs x QD1", flush=True)
    mx, loads = alternate(a.rounds, {
        "iochar": (iochar_argv(iochar, devs, a.runtime), m_iochar),
        "fio": (fio_argv(devs, a.runtime), m_fio),
        "floor": (floor_argv(floor, devs, a.runtime), m_floor)}, log)
    top = min(med(mx["iochar"], "iops"), med(mx["fio"], "iops"))
    rate = int(top * 0.5 / 4)
    print("loop: 50 %% of %.0f IOPS = %d IOPS per job" % (top, rate), flush=True)
    runs = {"iochar": (iochar_argv(iochar, devs, a.runtime, rate), m_iochar),
            "fio": (fio_argv(devs, a.runtime, rate), m_fio),
            "floor": (floor_argv(floor, devs, a.runtime, rate), m_floor)}
    if a.baseline:
        runs["baseline"] = (iochar_argv(a.baseline, devs, a.runtime, rate), m_iochar)
    half, l2 = alternate(a.rounds, runs, log)
    io, fi, fl = half["iochar"], half["fio"], half["floor"]
    base = []
    if a.baseline:
        b = half["baseline"]
        base.append({"case": "baseline", "of": "loop 50%", "binary": a.baseline,
                        "mean": med(b, "mean"), "p99": med(b, "p99"), "cpu_pct": med(b, "cpu_pct"),
                        "iops": med(b, "iops"), "ratio_mean": ratios(io, b, "mean"),
                        "ratio_p99": ratios(io, b, "p99"), "ratio_cpu": ratios(io, b, "cpu_pct")})
    svc = [dict(m, mean=m["svc_mean"], p99=m["svc_p99"]) for m in io]  # from submission
    ok_mean = med(io, "mean") <= 1.5 * med(fi, "mean") + 20000
    ok_p99 = med(io, "p99") <= 1.5 * med(fi, "p99") + 50000
    summary.append({
        "case": "loop 50%", "rate_per_job": rate, "max_iops": top,
        "max_iochar": med(mx["iochar"], "iops"), "max_fio": med(mx["fio"], "iops"),
        "iochar_resp_mean": med(io, "mean"), "iochar_resp_p99": med(io, "p99"),
        "iochar_svc_mean": med(io, "svc_mean"), "iochar_svc_p99": med(io, "svc_p99"),
        "iochar_lag_p99": med(io, "lag_p99"),
        "fio_mean": med(fi, "mean"), "fio_p99": med(fi, "p99"),
        "ratio_resp_mean": ratios(io, fi, "mean"), "ratio_resp_p99": ratios(io, fi, "p99"),
        "ratio_svc_mean": ratios(svc, fi, "mean"), "ratio_svc_p99": ratios(svc, fi, "p99"),
        "ci90": {"resp_mean": ratios_ci(io, fi, "mean"), "resp_p99": ratios_ci(io, fi, "p99"),
                 "svc_mean": ratios_ci(svc, fi, "mean"), "svc_p99": ratios_ci(svc, fi, "p99")},
        # the floor reader: the same response measure, the least pacing
        "floor_resp_mean": med(fl, "mean"), "floor_resp_p99": med(fl, "p99"),
        "floor_svc_p99": med(fl, "svc_p99"), "floor_lag_p99": med(fl, "lag_p99"),
        "floor_iops": med(fl, "iops"), "floor_max": med(mx["floor"], "iops"),
        "ratio_floor_mean": ratios(io, fl, "mean"), "ratio_floor_p99": ratios(io, fl, "p99"),
        "ci90_floor": {"mean": ratios_ci(io, fl, "mean"), "p99": ratios_ci(io, fl, "p99")},
        "floor_pass_p99": med(fl, "p99") <= 1.5 * med(fi, "p99") + 50000,
        "pass_svc": med(io, "svc_mean") <= 1.5 * med(fi, "mean") + 20000 and
                    med(io, "svc_p99") <= 1.5 * med(fi, "p99") + 50000,
        "tool_limited_rounds": sum(m["tool_limited"] for m in io),
        "pass_mean": ok_mean, "pass_p99": ok_p99,
        "load_median": statistics.median(loads + l2)})
    summary.extend(base)
    return top, {k: med(mx[k], "cpu_pct") for k in mx}


def case_cpu(a, iochar, floor, devs, top, cpu_maxes, log, summary):
    cpu_max, fio_max, floor_max = cpu_maxes["iochar"], cpu_maxes["fio"], cpu_maxes["floor"]
    rate = max(1, int(top * 0.1 / 4))
    print("cpu: 10 %% of %.0f IOPS = %d IOPS per job" % (top, rate), flush=True)
    # fio beside it, for reference: what one sleep and wake-up per I/O
    # costs on this machine whoever paces
    runs = {"iochar": (iochar_argv(iochar, devs, a.runtime, rate), m_iochar),
            "fio": (fio_argv(devs, a.runtime, rate), m_fio),
            "floor": (floor_argv(floor, devs, a.runtime, rate), m_floor)}
    if a.baseline:
        runs["baseline"] = (iochar_argv(a.baseline, devs, a.runtime, rate), m_iochar)
    r, loads = alternate(a.rounds, runs, log)
    c = med(r["iochar"], "cpu_pct")
    summary.append({"case": "cpu 10%", "rate_per_job": rate, "cpu_pct_10": c,
                    "cpu_pct_max": cpu_max, "share": c / cpu_max if cpu_max else None,
                    "fio_cpu_pct_10": med(r["fio"], "cpu_pct"), "fio_cpu_pct_max": fio_max,
                    "fio_share": med(r["fio"], "cpu_pct") / fio_max if fio_max else None,
                    "floor_cpu_pct_10": med(r["floor"], "cpu_pct"), "floor_cpu_pct_max": floor_max,
                    "floor_share": med(r["floor"], "cpu_pct") / floor_max if floor_max else None,
                    "floor_share_ci90": median_ci([m["cpu_pct"] / floor_max for m in r["floor"]])
                    if floor_max else None,
                    "pass": cpu_max > 0 and c <= 0.25 * cpu_max,
                    # the share's 90 % interval, round by round against the maximum's median
                    "share_ci90": median_ci([m["cpu_pct"] / cpu_max for m in r["iochar"]])
                    if cpu_max else None,
                    "load_median": statistics.median(loads)})
    if a.baseline:
        b = r["baseline"]
        summary.append({"case": "baseline", "of": "cpu 10%", "binary": a.baseline,
                        "mean": med(b, "mean"), "p99": med(b, "p99"), "cpu_pct": med(b, "cpu_pct"),
                        "iops": med(b, "iops"), "ratio_mean": ratios(r["iochar"], b, "mean"),
                        "ratio_p99": ratios(r["iochar"], b, "p99"),
                        "ratio_cpu": ratios(r["iochar"], b, "cpu_pct")})


def case_null(a, iochar, log, summary):
    print("null: 4 jobs x %d IOPS" % NULL_RATE, flush=True)
    runs = {"iochar": (iochar_argv(iochar, None, a.runtime, NULL_RATE, "null", True), m_iochar),
            "fio": (fio_argv(None, a.runtime, NULL_RATE, True), m_fio)}
    if a.baseline:
        runs["baseline"] = (iochar_argv(a.baseline, None, a.runtime, NULL_RATE, "null", True), m_iochar)
    r, loads = alternate(a.rounds, runs, log)
    io = r["iochar"]
    summary.append({"case": "null 4x71k", "iochar_resp_mean": med(io, "mean"),
                    "iochar_resp_p99": med(io, "p99"), "iochar_lag_p99": med(io, "lag_p99"),
                    "iochar_iops": med(io, "iops"), "iochar_cpu_pct": med(io, "cpu_pct"),
                    "fio_mean": med(r["fio"], "mean"), "fio_p99": med(r["fio"], "p99"),
                    "fio_iops": med(r["fio"], "iops"), "fio_cpu_pct": med(r["fio"], "cpu_pct"),
                    "tool_limited_rounds": sum(m["tool_limited"] for m in io),
                    "pass": med(io, "p99") <= 100000,
                    "load_median": statistics.median(loads)})
    if a.baseline:
        b = r["baseline"]
        summary.append({"case": "baseline", "of": "null", "binary": a.baseline,
                        "mean": med(b, "mean"), "p99": med(b, "p99"), "cpu_pct": med(b, "cpu_pct"),
                        "iops": med(b, "iops"), "ratio_mean": ratios(io, b, "mean"),
                        "ratio_p99": ratios(io, b, "p99"), "ratio_cpu": ratios(io, b, "cpu_pct")})

GRID_QDS = (1, 8, 32, 128)
GRID_PCTS = (10, 25, 50, 90)


def case_grid(a, iochar, floor, devs, log, summary):
    """Issue 34's grid: at each iodepth, fio's closed-loop maximum, then
    each share of it as a rate per job, iochar, fio and the floor reader
    (open loop at the same depth, io_uring whatever the engine)
    alternating, for each engine.
    The targets: rate >= 0.98 x asked; service mean within 1.3 x fio's lat
    mean + 10 us; response mean within 1.5 x + 20 us and p99 within 2 x +
    50 us of fio's; at 90 % iochar's IOPS >= 0.95 x fio's and its CPU per
    I/O no higher."""
    for engine in a.engines.split(","):
        for qd in GRID_QDS:
            mx, _ = alternate(a.rounds, {"fio": (fio_argv(devs, a.runtime, engine=engine, qd=qd), m_fio)},
                              log)
            top = med(mx["fio"], "iops")
            for pct in GRID_PCTS:
                rate = max(1, int(top * pct / 100 / len(devs["paths"])))
                print("grid: %s QD %d, %d %% of fio's %.0f = %d IOPS per job"
                      % (engine, qd, pct, top, rate), flush=True)
                runs = {"iochar": (iochar_argv(iochar, devs, a.runtime, rate, engine, qd=qd), m_iochar),
                        "fio": (fio_argv(devs, a.runtime, rate, engine=engine, qd=qd), m_fio)}
                runs["floor"] = (floor_argv(floor, devs, a.runtime, rate, qd), m_floor)
                r, loads = alternate(a.rounds, runs, log)
                io, fi = r["iochar"], r["fio"]
                asked = rate * len(devs["paths"])
                cell = {"case": "grid", "engine": engine, "qd": qd, "pct": pct, "rate_per_job": rate,
                        "fio_max": top, "iochar_iops": med(io, "iops"), "fio_iops": med(fi, "iops"),
                        "resp_mean": med(io, "mean"), "resp_p99": med(io, "p99"),
                        "svc_mean": med(io, "svc_mean"), "svc_p99": med(io, "svc_p99"),
                        "fio_mean": med(fi, "mean"), "fio_p99": med(fi, "p99"),
                        "iochar_cpu_per_io": med([dict(m, c=m["cpu_pct"] / max(m["iops"], 1)) for m in io], "c"),
                        "fio_cpu_per_io": med([dict(m, c=m["cpu_pct"] / max(m["iops"], 1)) for m in fi], "c"),
                        "tool_limited_rounds": sum(m["tool_limited"] for m in io),
                        "load_median": statistics.median(loads)}
                cell["floor_resp_mean"] = med(r["floor"], "mean")
                cell["floor_svc_mean"] = med(r["floor"], "svc_mean")
                fm, fp = cell["fio_mean"], cell["fio_p99"]
                cell["pass_rate"] = cell["iochar_iops"] >= 0.98 * asked
                cell["pass_svc"] = cell["svc_mean"] <= 1.3 * fm + 10000
                cell["pass_resp"] = cell["resp_mean"] <= 1.5 * fm + 20000 and cell["resp_p99"] <= 2 * fp + 50000
                if pct == 90:
                    cell["pass_90"] = (cell["iochar_iops"] >= 0.95 * cell["fio_iops"] and
                                       cell["iochar_cpu_per_io"] <= cell["fio_cpu_per_io"])
                summary.append(cell)


def report_grid(cells):
    if not cells:
        return
    print("grid (medians; response from the schedule, service and fio's lat from submission):")
    print("  %-8s %4s %4s %9s | %9s %9s %9s %9s | %9s %9s | rate svc resp 90%%"
          % ("engine", "qd", "pct", "IOPS/job", "resp", "resp p99", "svc", "svc p99", "fio lat", "fio p99"))
    for c in cells:
        print("  %-8s %4d %3d%% %9d | %9s %9s %9s %9s | %9s %9s | %s %s %s %s%s"
              % (c["engine"], c["qd"], c["pct"], c["rate_per_job"], us(c["resp_mean"]), us(c["resp_p99"]),
                 us(c["svc_mean"]), us(c["svc_p99"]), us(c["fio_mean"]), us(c["fio_p99"]),
                 verdict(c["pass_rate"]), verdict(c["pass_svc"]), verdict(c["pass_resp"]),
                 verdict(c["pass_90"]) if "pass_90" in c else "-",
                 (" | floor resp %s svc %s" % (us(c["floor_resp_mean"]), us(c["floor_svc_mean"])))
                 if "floor_resp_mean" in c else ""))
    n = len(cells)
    print("  passed: rate %d/%d, service %d/%d, response %d/%d"
          % (sum(c["pass_rate"] for c in cells), n, sum(c["pass_svc"] for c in cells), n,
             sum(c["pass_resp"] for c in cells), n))


def report(summary):
    print("\n== summary (medians; load = median 1-min load average at the runs' start; %d CPUs)"
          % os.cpu_count())
    report_grid([s for s in summary if s["case"] == "grid"])
    for s in summary:
        if s["case"] == "grid":
            continue
        if s["case"] == "loop 50%":
            print("loop, 50 %% of %.0f IOPS (iochar max %.0f, fio max %.0f), %d IOPS/job, load %.2f:"
                  % (s["max_iops"], s["max_iochar"], s["max_fio"], s["rate_per_job"], s["load_median"]))
            print("  iochar response (from schedule): mean %s p99 %s | service (from submission): "
                  "mean %s p99 %s | lag p99 %s" % (us(s["iochar_resp_mean"]), us(s["iochar_resp_p99"]),
                                                   us(s["iochar_svc_mean"]), us(s["iochar_svc_p99"]),
                                                   us(s["iochar_lag_p99"])))
            print("  fio lat (from submission): mean %s p99 %s" % (us(s["fio_mean"]), us(s["fio_p99"])))
            ci = s["ci90"]
            print("  iochar response / fio lat: mean x%.2f %s, p99 x%.2f %s (per-round medians, "
                  "90 %% intervals); mean %s, p99 %s; tool-limited in %d rounds"
                  % (s["ratio_resp_mean"], ci["resp_mean"], s["ratio_resp_p99"], ci["resp_p99"],
                     verdict(s["pass_mean"]), verdict(s["pass_p99"]), s["tool_limited_rounds"]))
            print("  like for like, iochar service / fio lat (both from submission): mean x%.2f %s, "
                  "p99 x%.2f %s; within 1.5x +20/+50 us: %s"
                  % (s["ratio_svc_mean"], ci["svc_mean"], s["ratio_svc_p99"], ci["svc_p99"],
                     verdict(s["pass_svc"])))
            print("  floor reader (max %.0f IOPS, at the rate %.0f): response mean %s p99 %s, service p99 %s, "
                  "lag p99 %s; its p99 within 1.5x fio's +50 us: %s; iochar / floor response: mean x%.2f %s, "
                  "p99 x%.2f %s"
                  % (s["floor_max"], s["floor_iops"], us(s["floor_resp_mean"]), us(s["floor_resp_p99"]),
                     us(s["floor_svc_p99"]), us(s["floor_lag_p99"]), verdict(s["floor_pass_p99"]),
                     s["ratio_floor_mean"], s["ci90_floor"]["mean"], s["ratio_floor_p99"],
                     s["ci90_floor"]["p99"]))
        elif s["case"] == "cpu 10%":
            ci = s.get("share_ci90")
            print("cpu, 10 %% (%d IOPS/job): %.1f %% vs %.1f %% at the maximum = %.0f %% of it "
                  "[%s]: %s (load %.2f); fio %.1f %% vs %.1f %% = %.0f %% (CPU of one CPU, the "
                  "whole process, from rusage)"
                  % (s["rate_per_job"], s["cpu_pct_10"], s["cpu_pct_max"], 100 * (s["share"] or 0),
                     "%.0f-%.0f %%" % (100 * ci[0], 100 * ci[1]) if ci else "-",
                     verdict(s["pass"]), s["load_median"], s["fio_cpu_pct_10"],
                     s["fio_cpu_pct_max"] or 0, 100 * (s["fio_share"] or 0)))
            fci = s.get("floor_share_ci90")
            print("  floor reader: %.1f %% vs %.1f %% at its maximum = %.0f %% [%s]: the least "
                  "this machine allows, against the target's 25 %%"
                  % (s["floor_cpu_pct_10"], s["floor_cpu_pct_max"] or 0, 100 * (s["floor_share"] or 0),
                     "%.0f-%.0f %%" % (100 * fci[0], 100 * fci[1]) if fci else "-"))
        elif s["case"] == "baseline":
            print("  baseline %s (alternating): mean %s p99 %s, %.0f IOPS, CPU %.1f %%; "
                  "this iochar / baseline (per-round medians): mean x%.3f, p99 x%.3f, CPU x%.2f"
                  % (s["binary"], us(s["mean"]), us(s["p99"]), s["iops"], s["cpu_pct"],
                     s["ratio_mean"], s["ratio_p99"], s["ratio_cpu"]))
        else:
            print("null, 4 x %d IOPS: iochar mean %s p99 %s (lag p99 %s), %.0f IOPS, CPU %.0f %%; "
                  "fio mean %s p99 %s (from submission), %.0f IOPS, CPU %.0f %%; p99 <= 100 us: %s; "
                  "tool-limited in %d rounds (load %.2f)"
                  % (NULL_RATE, us(s["iochar_resp_mean"]), us(s["iochar_resp_p99"]),
                     us(s["iochar_lag_p99"]), s["iochar_iops"], s["iochar_cpu_pct"],
                     us(s["fio_mean"]), us(s["fio_p99"]), s["fio_iops"], s["fio_cpu_pct"],
                     verdict(s["pass"]), s["tool_limited_rounds"], s["load_median"]))


def verdict(ok):
    return "PASS" if ok else "FAIL"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runtime", default="3")
    ap.add_argument("--size", default="256m", help="per loop device")
    ap.add_argument("--cases", default="loop,cpu,null",
                    help="loop, cpu, null, grid (issue 34: QD 1/8/32/128 x 10/25/50/90 %% of fio's max)")
    ap.add_argument("--engines", default="io_uring,libaio", help="the grid's engines")
    ap.add_argument("--quick", action="store_true", help="1 round of 1 s, 32m devices")
    ap.add_argument("--baseline", help="another iochar binary (e.g. before a change) "
                    "to alternate with in every paced case (loop at 50 %%, cpu at 10 %%, null)")
    a = ap.parse_args()
    if a.quick:
        a.rounds, a.runtime, a.size = 1, "1", "32m"
    try:
        size = int(a.size[:-1]) << {"m": 20, "g": 30}[a.size[-1].lower()]
        runtime = float(a.runtime)
    except (ValueError, KeyError, IndexError):
        ap.error("--size takes NNNm or NNNg, --runtime seconds: got %r, %r" % (a.size, a.runtime))
    cases = a.cases.split(",")
    for c in cases:
        if c not in ("loop", "cpu", "null", "grid"):
            ap.error("--cases: unknown case %r (loop, cpu, null, grid)" % c)
    if a.rounds < 1 or runtime <= 0 or size < 1 << 20:
        ap.error("--rounds >= 1, --runtime > 0 and --size >= 1m")
    if a.baseline and not os.access(a.baseline, os.X_OK):
        ap.error("--baseline: %s is not an executable" % a.baseline)
    if os.geteuid() != 0 or not shutil.which("fio") or not shutil.which("losetup"):
        sys.exit("pacing.py needs root, fio and losetup")
    tmp = tempfile.mkdtemp(prefix="iochar-pacing-", dir="/dev/shm")
    iochar = os.path.join(tmp, "iochar")  # a private copy: a rebuild cannot mix binaries
    shutil.copy(os.path.join(ROOT, "build/iochar"), iochar)
    floor = build_floor(tmp)
    log, summary, devs = [], [], {"paths": [], "files": []}
    print("fio: %s; %d CPUs; load %.2f" % (subprocess.run(["fio", "--version"], capture_output=True,
                                                           text=True).stdout.strip(), os.cpu_count(), load()))
    try:
        if "loop" in cases or "cpu" in cases:
            make_devices(size, tmp, devs)
            top, cpu_maxes = case_loop(a, iochar, floor, devs, log, summary)
            if "cpu" in cases:
                case_cpu(a, iochar, floor, devs, top, cpu_maxes, log, summary)
        if "grid" in cases:
            if not devs["paths"]:
                make_devices(size, tmp, devs)
            case_grid(a, iochar, floor, devs, log, summary)
        if "null" in cases:
            case_null(a, iochar, log, summary)
    finally:
        for d in devs["paths"]:
            subprocess.run(["losetup", "-d", d])
        shutil.rmtree(tmp, ignore_errors=True)
    report(summary)
    os.makedirs(os.path.join(ROOT, "bench/out"), exist_ok=True)
    out = os.path.join(ROOT, "bench/out/pacing-%s.json" % time.strftime("%Y%m%d-%H%M%S"))
    with open(out, "w") as f:
        json.dump({"summary": summary, "runs": log}, f, indent=1)
    print("raw runs: %s" % out)


if __name__ == "__main__":
    main()
