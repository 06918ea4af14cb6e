#!/usr/bin/env python3
"""search_vs_grid.py - `iochar search` against an exhaustive fio grid.

For each workload (4k randread; 4k randrw with rwmixread=70) on one fully
written 4 GiB file with direct=1 and io_uring:

  1. the fio grid: iodepth 1, 2, 4 ... 256 x numjobs 1, 2, 4 (27 runs, each
     time based, --runtime=S), timed as a whole by the wall clock (every
     fio start-up included); its best is the most IOPS with the mean
     latency of each direction at most the limit (2 ms: the rule of
     iochar's default latency_scope=each, so a 70:30 point whose writes
     average over 2 ms is outside for both tools);
  2. `iochar search` with the same workload, limit, runtime per point and
     bounds (--max_iodepth=256 --max_numjobs=4 --latency_stat=mean
     --latency_scope=each), timed the same way, its confirmation run of
     the best included. The order alternates: grid first for the first
     workload, search first for the second (and the other way round in the
     next repeat).

Targets (from the issue): the search's best IOPS >= 95 % of the grid's best,
in at most 30 % of the grid's wall time, in each of --repeats (3) repeats.

    python3 bench/search_vs_grid.py [--runtime S] [--repeats N] [--keep-files]

Builds iochar with `make -s -j2` first (a no-op when up to date; --iochar
PATH runs another binary instead), runs a private copy of it (as bench.py
does), and waits (up to --wait-other seconds) while another benchmark (fio,
bench.py) is running, since two at once on a small machine spoil both.
Raw numbers: bench/out/search-<timestamp>.json. See bench/README.md.
"""
import argparse
import datetime
import hashlib
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKDIR = "/var/tmp/iochar-bench"
DATA = os.path.join(WORKDIR, "search.dat")
OUTDIR = os.path.join(ROOT, "bench", "out")
SIZE = "4g"
LIMIT_NS = 2000000
DEPTHS = [1 << i for i in range(9)]  # 1 .. 256
JOBS = [1, 2, 4]
WORKLOADS = {
    "randread": ["--rw=randread"],
    "randrw70": ["--rw=randrw", "--rwmixread=70"],
}
IOPS_TARGET = 0.95
TIME_TARGET = 0.30
HANG_GRACE_S = 30  # a fio run still going this long after its runtime is hung


def log_to(t0):
    def log(msg):
        print("[%6.1fs] %s" % (time.monotonic() - t0, msg), flush=True)
    return log


def parse_json(text):
    """The JSON object in text (fio may print warning lines before it)."""
    i = text.find("{")
    if i < 0:
        raise ValueError("no JSON in output")
    return json.loads(text[i:])


def run(argv, timeout):
    t0 = time.monotonic_ns()
    try:
        r = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=timeout, cwd=WORKDIR)
        rc, out, err = r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = -1, (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) \
            else (e.stdout or ""), "timed out after %d s" % timeout
    return rc, out, err, time.monotonic_ns() - t0


# ---------------------------------------------------------------- other benchmarks


def others_running():
    """Command lines of other load that would spoil the figures: fio,
    iochar, bench.py, search_vs_grid.py and fuzzers (tests/fuzz) that are
    not this script's descendants."""
    me = os.getpid()
    procs = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                argv = [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
            with open("/proc/%s/stat" % pid) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        procs[int(pid)] = (ppid, argv)

    def mine(pid):
        for _ in range(64):
            if pid == me:
                return True
            if pid not in procs:
                return False
            pid = procs[pid][0]
        return False

    found = []
    for pid, (_, argv) in sorted(procs.items()):
        if not argv or mine(pid):
            continue
        exe = os.path.basename(argv[0])
        scripts = [os.path.basename(a) for a in argv[1:3]]
        if exe in ("fio", "iochar") or exe.startswith("fuzz_") or \
                "bench.py" in scripts or "search_vs_grid.py" in scripts:
            found.append("%d %s" % (pid, " ".join(argv)[:160]))
    return found


def wait_for_others(limit_s, log, must=False):
    """Return at once if nothing else runs; else wait until nothing has for
    two checks 5 s apart, up to limit_s. Returns what still runs at the end
    (empty if quiet); exits instead if must."""
    busy = others_running()
    if not busy or limit_s <= 0:  # --wait-other 0: never wait, only mark
        return busy
    t0 = time.monotonic()
    log("other load is running; waiting (up to %d s):\n    %s" % (
        limit_s, "\n    ".join(busy)))
    quiet = 0
    while quiet < 2 and time.monotonic() - t0 <= limit_s:
        time.sleep(10 if busy else 5)
        busy = others_running()
        quiet = 0 if busy else quiet + 1
    if busy:
        if must:
            sys.exit("search_vs_grid: other load still running after %d s; not starting"
                     % limit_s)
        log("  still running after %d s; going on (the points are marked)" % limit_s)
    else:
        log("  quiet after %.0f s" % (time.monotonic() - t0))
    return busy


class Watch:
    """Notes other load seen while a measured run goes (polled each second)."""

    def __init__(self):
        self.seen = set()
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        while not self._stop.is_set():
            self.seen.update(others_running())
            self._stop.wait(1.0)

    def __enter__(self):
        self._t.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._t.join()


# ---------------------------------------------------------------- fio grid


def fio_argv(wl, qd, nj, runtime, engine="io_uring"):
    return (["fio", "--name=g", "--filename=" + DATA, "--size=" + SIZE, "--direct=1",
             "--ioengine=" + engine] + WORKLOADS[wl] +
            ["--bs=4k", "--time_based", "--runtime=%d" % runtime, "--iodepth=%d" % qd,
             "--numjobs=%d" % nj, "--group_reporting", "--norandommap", "--randrepeat=0",
             "--lat_percentiles=1", "--output-format=json"])


def fio_figures(d):
    """Total IOPS and the I/O-weighted mean of read and write lat_ns.mean."""
    ios = 0
    iops = 0.0
    lat_w = 0.0
    per = {}
    for j in d["jobs"]:
        for dr in ("read", "write"):
            s = j[dr]
            ios += s["total_ios"]
            iops += s["iops"]
            lat_w += s["lat_ns"]["mean"] * s["total_ios"]
            per[dr] = {"iops": s["iops"], "ios": s["total_ios"], "lat_mean_ns": s["lat_ns"]["mean"]}
    return {"iops": iops, "ios": ios, "lat_mean_ns": lat_w / ios if ios else None, "dirs": per}


def run_grid(wl, runtime, wait_s, log):
    """The 27 fio runs. Before each, waits for other load to end; the grid's
    time is the sum of the runs' wall times (each from fork to exit: fio's
    start-up included), so such waits are not counted."""
    pts = []
    t0 = time.monotonic_ns()
    for nj in JOBS:
        for qd in DEPTHS:
            argv = fio_argv(wl, qd, nj, runtime)
            wait_for_others(wait_s, log)
            with Watch() as w:
                rc, out, err, wall = run(argv, runtime + HANG_GRACE_S)
            p = {"iodepth": qd, "numjobs": nj, "argv": argv, "rc": rc, "wall_ns": wall,
                 "other_load": sorted(w.seen)}
            try:
                if rc != 0:
                    raise RuntimeError("exit status %d" % rc)
                p.update(fio_figures(parse_json(out)))
                if not p["ios"]:
                    raise RuntimeError("no I/O done")
                # each direction that did I/O (latency_scope=each)
                p["inside"] = all(d["lat_mean_ns"] <= LIMIT_NS
                                  for d in p["dirs"].values() if d["ios"])
                p["ok"] = True
                log("  fio %-8s qd=%-3d nj=%d  %8.0f IOPS  mean %7.0f us  %s  (%.1f s)%s" % (
                    wl, qd, nj, p["iops"], p["lat_mean_ns"] / 1e3,
                    "inside " if p["inside"] else "OUTSIDE", wall / 1e9,
                    "  OTHER LOAD: " + "; ".join(w.seen) if w.seen else ""))
            except Exception as e:  # record it, keep going
                p["ok"] = False
                p["inside"] = False
                p["error"] = "%s; stderr: %s" % (e, err.strip()[-600:])
                log("  fio %s qd=%d nj=%d FAILED: %s" % (wl, qd, nj, p["error"]))
            pts.append(p)
    loop = time.monotonic_ns() - t0
    inside = [p for p in pts if p["ok"] and p["inside"]]
    best = max(inside, key=lambda p: (p["iops"], -p["iodepth"] * p["numjobs"])) if inside else None
    return {"points": pts, "wall_ns": sum(p["wall_ns"] for p in pts), "loop_wall_ns": loop,
            "best": best, "failed": sum(1 for p in pts if not p["ok"]),
            "other_load": sorted({o for p in pts for o in p["other_load"]})}


# ---------------------------------------------------------------- iochar search


def search_argv(iochar, wl, runtime):
    return ([iochar, "search", "--filename=" + DATA, "--size=" + SIZE, "--direct=1",
             "--ioengine=io_uring"] + WORKLOADS[wl] +
            ["--bs=4k", "--time_based", "--runtime=%d" % runtime, "--max_iodepth=256",
             "--max_numjobs=4", "--latency_limit=%dms" % (LIMIT_NS // 1000000),
             "--latency_stat=mean", "--latency_scope=each", "--output-format=json"])


def point_figures(pt):
    return {"iodepth": pt["iodepth"], "numjobs": pt["numjobs"], "iops": pt["iops"],
            "lat_mean_ns": pt["total"]["lat_ns"]["mean"], "inside": pt["inside"],
            "partial": pt["partial"], "elapsed_ns": pt["elapsed_ns"],
            "runs": pt.get("runs", 1)}


# the search's own account of its noise handling, kept with its points
SEARCH_KEYS = ("confirmed", "spread", "best_run", "unsteady", "dropped_by_repeat", "remeasured",
               "repeats")


def run_search(iochar, wl, runtime, wait_s, log):
    argv = search_argv(iochar, wl, runtime)
    wait_for_others(wait_s, log)
    # the search never runs more than a few dozen points; a hang is caught
    with Watch() as w:
        rc, out, err, wall = run(argv, 60 * (runtime + HANG_GRACE_S))
    res = {"argv": argv, "rc": rc, "wall_ns": wall, "other_load": sorted(w.seen)}
    if w.seen:
        log("  OTHER LOAD during the search: %s" % "; ".join(w.seen))
    try:
        if rc != 0:
            raise RuntimeError("exit status %d" % rc)
        d = parse_json(out)
        res["points"] = [point_figures(p) for p in d["points"]]
        res["best"] = point_figures(d["best"]) if d.get("best") else None
        res["repeat"] = point_figures(d["repeat"]) if d.get("repeat") else None
        res.update({k: d.get(k) for k in SEARCH_KEYS})
        res["ok"] = True
        for p in res["points"]:
            log("  search %-8s qd=%-3d nj=%d  %8.0f IOPS  mean %7.0f us  %s" % (
                wl, p["iodepth"], p["numjobs"], p["iops"], p["lat_mean_ns"] / 1e3,
                "inside " if p["inside"] else "OUTSIDE"))
    except Exception as e:
        res["ok"] = False
        res["error"] = "%s; stderr: %s" % (e, err.strip()[-1500:])
        log("  search %s FAILED: %s" % (wl, res["error"]))
    return res


# ---------------------------------------------------------------- cross-checks


def iochar_point(iochar, wl, qd, nj, runtime, wait_s, log):
    """One `iochar run` at (qd, nj): the grid's best measured by iochar."""
    argv = ([iochar, "run", "--filename=" + DATA, "--size=" + SIZE, "--direct=1",
             "--ioengine=io_uring"] + WORKLOADS[wl] +
            ["--bs=4k", "--time_based", "--runtime=%d" % runtime, "--iodepth=%d" % qd,
             "--numjobs=%d" % nj, "--output-format=json"])
    wait_for_others(wait_s, log)
    with Watch() as w:
        rc, out, err, wall = run(argv, runtime + HANG_GRACE_S)
    p = {"iodepth": qd, "numjobs": nj, "argv": argv, "rc": rc, "wall_ns": wall,
         "other_load": sorted(w.seen), "ok": False}
    try:
        if rc != 0:
            raise RuntimeError("exit status %d" % rc)
        t = parse_json(out)["total"]
        p.update(iops=t["iops"], lat_mean_ns=t["lat_ns"]["mean"], ok=True)
        log("  check: iochar %s at the grid's best qd=%d nj=%d: %.0f IOPS, mean %.0f us" % (
            wl, qd, nj, p["iops"], p["lat_mean_ns"] / 1e3))
    except Exception as e:
        p["error"] = "%s; stderr: %s" % (e, err.strip()[-600:])
        log("  check: iochar %s qd=%d nj=%d FAILED: %s" % (wl, qd, nj, p["error"]))
    return p


def fio_point(wl, qd, nj, runtime, wait_s, log, label="the search's best", engine="io_uring"):
    """One fio run at (qd, nj): by default the search's best measured by fio."""
    argv = fio_argv(wl, qd, nj, runtime, engine)
    wait_for_others(wait_s, log)
    with Watch() as w:
        rc, out, err, wall = run(argv, runtime + HANG_GRACE_S)
    p = {"iodepth": qd, "numjobs": nj, "argv": argv, "rc": rc, "wall_ns": wall,
         "other_load": sorted(w.seen), "ok": False}
    try:
        if rc != 0:
            raise RuntimeError("exit status %d" % rc)
        p.update(fio_figures(parse_json(out)))
        p["ok"] = True
        log("  check: fio %s at %s qd=%d nj=%d (%s): %.0f IOPS, mean %.0f us" % (
            wl, label, qd, nj, engine, p["iops"], p["lat_mean_ns"] / 1e3))
    except Exception as e:
        p["error"] = "%s; stderr: %s" % (e, err.strip()[-600:])
        log("  check: fio %s qd=%d nj=%d FAILED: %s" % (wl, qd, nj, p["error"]))
    return p


def settle(wl, gb, sb, pairs, runtime, wait_s, log):
    """Both chosen points measured again by fio, alternating (grid's best,
    search's best, grid's best, ...) `pairs` times. The grid's best is the
    highest of 27 single runs and so partly its luckiest; re-measured
    beside the search's best by one tool, the two configurations compare
    without that bias. Verdict: median at the search's best over median at
    the grid's best. fio runs them with libaio: its io_uring engine rounds
    iodepth up to a power of two (fio 3.33, engines/io_uring.c), so the
    search's qd=153 ran 256 deep there, 2.3 ms, and lost to the grid's
    power-of-two depth for a reason of fio's (bench/README.md); libaio
    keeps the depth it is given, for both points alike."""
    runs = {"grid": [], "search": []}
    for i in range(pairs):
        order = (("grid", gb), ("search", sb)) if i % 2 == 0 else (("search", sb), ("grid", gb))
        for name, b in order:
            runs[name].append(fio_point(wl, b["iodepth"], b["numjobs"], runtime, wait_s, log,
                                        label="the %s's best (settle %d)" % (name, i + 1),
                                        engine="libaio"))
    med = {}
    for name, rs in runs.items():
        ok = [r["iops"] for r in rs if r["ok"]]
        med[name] = statistics.median(ok) if ok else None
    ratio = med["search"] / med["grid"] if med["search"] and med["grid"] else None
    return {"pairs": pairs, "runs": runs, "grid_median_iops": med["grid"],
            "search_median_iops": med["search"], "ratio": ratio,
            "other_load": sorted({o for rs in runs.values() for r in rs for o in r["other_load"]})}


# ---------------------------------------------------------------- printing


def fmt_pt(p):
    if not p:
        return "none"
    return "qd=%d nj=%d %.1fk %.2f ms" % (p["iodepth"], p["numjobs"], p["iops"] / 1e3,
                                         p["lat_mean_ns"] / 1e6)


def render(rows, head):
    rows = [head] + rows
    w = [max(len(str(r[i])) for r in rows) for i in range(len(head))]
    lines = []
    for n, r in enumerate(rows):
        lines.append("  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * x for x in w))
    return "\n".join(lines)


def grid_matrix(grid):
    """The grid as text: one line per numjobs, IOPS/mean per iodepth."""
    rows = []
    for nj in JOBS:
        row = ["nj=%d" % nj]
        for qd in DEPTHS:
            p = next(x for x in grid["points"] if x["iodepth"] == qd and x["numjobs"] == nj)
            if not p["ok"]:
                row.append("ERR")
            else:
                row.append("%.1fk/%.2f%s" % (p["iops"] / 1e3, p["lat_mean_ns"] / 1e6,
                                             "" if p["inside"] else "*"))
        rows.append(row)
    return render(rows, ["kIOPS/ms"] + ["qd=%d" % q for q in DEPTHS])


# ---------------------------------------------------------------- main


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def environment(iochar):
    def out(cmd):
        try:
            env = dict(os.environ, GIT_OPTIONAL_LOCKS="0")  # no index refresh
            return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT,
                                  env=env).stdout.strip()
        except OSError:
            return None
    cpu = None
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), None)
    except OSError:
        pass
    dev = out(["sh", "-c", "df --output=source %s | tail -1" % WORKDIR])
    return {
        "date_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "kernel": platform.release(),
        "fio_version": out(["fio", "--version"]),
        "iochar_git_head": out(["git", "rev-parse", "--short", "HEAD"]),
        "git_tree_dirty": bool(out(["git", "status", "--porcelain", "--untracked-files=no"])),
        "iochar_sha256": sha256(iochar),
        "cpu_model": cpu,
        "cpus": os.cpu_count(),
        "device_of_workdir": dev,
        "fs_of_workdir": out(["stat", "-f", "-c", "%T", WORKDIR]),
    }


def build(args, log):
    if args.iochar:
        return os.path.abspath(args.iochar)
    log("make -s -j2 (a no-op when build/iochar is up to date)")
    r = subprocess.run(["make", "-s", "-j2"], cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("search_vs_grid: make failed (--iochar PATH runs another binary):\n" +
                 r.stderr[-3000:])
    return os.path.join(ROOT, "build", "iochar")


def make_data(iochar, log):
    """Create and fully write the data file with iochar itself (iochar
    writes only to files it created: the randrw search needs that)."""
    argv = [iochar, "run", "--filename=" + DATA, "--size=" + SIZE, "--rw=read", "--bs=1m",
            "--runtime=1", "--ioengine=psync"]
    t0 = time.monotonic()
    rc, _, err, _ = run(argv, 1800)
    if rc != 0:
        sys.exit("search_vs_grid: could not create %s with iochar:\n%s" % (DATA, err[-2000:]))
    st = os.stat(DATA)
    log("data file %s: %.1f GiB, %.1f GiB allocated (%.1f s)" % (
        DATA, st.st_size / (1 << 30), st.st_blocks * 512 / (1 << 30), time.monotonic() - t0))


def main():
    ap = argparse.ArgumentParser(description="iochar search against an exhaustive fio grid")
    ap.add_argument("--runtime", type=int, default=5, help="seconds per point (default 5)")
    ap.add_argument("--keep-files", action="store_true", help="keep %s" % DATA)
    ap.add_argument("--repeats", type=int, default=3,
                    help="times the whole comparison is run (default 3; the target holds in each)")
    ap.add_argument("--workloads", default="randread,randrw70",
                    help="comma-separated subset of %s" % ",".join(WORKLOADS))
    ap.add_argument("--start-anyway", action="store_true",
                    help="start though other load runs (a shared machine); figures are marked")
    ap.add_argument("--iochar", help="run this binary instead of building build/iochar")
    ap.add_argument("--settle", type=int, default=3,
                    help="alternating fio re-runs of both chosen points (default 3 pairs; 0: none)")
    ap.add_argument("--wait-other", type=int, default=1200,
                    help="seconds to wait for another benchmark to end (default 1200)")
    args = ap.parse_args()
    wls = [w.strip() for w in args.workloads.split(",") if w.strip()]
    if not wls or any(w not in WORKLOADS for w in wls) or args.runtime < 1 or args.repeats < 1 \
            or args.settle < 0:
        ap.error("--workloads: a subset of %s; --runtime >= 1; --repeats >= 1; --settle >= 0" %
                 ",".join(WORKLOADS))
    if not shutil.which("fio"):
        sys.exit("search_vs_grid: fio not found (apt-get install fio)")

    # SIGTERM (timeout, kill) ends the run through the finally below: the
    # data file is removed and what is done is kept
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("search_vs_grid: terminated"))
    log = log_to(time.monotonic())
    src = build(args, log)
    if not os.access(src, os.X_OK):
        sys.exit("search_vs_grid: %s missing" % src)
    os.makedirs(WORKDIR, exist_ok=True)
    os.makedirs(OUTDIR, exist_ok=True)
    bindir = tempfile.mkdtemp(prefix="iochar-search-bin.")
    iochar = os.path.join(bindir, "iochar")
    shutil.copy2(src, iochar)  # a rebuild during the run cannot mix binaries
    out_path = os.path.join(OUTDIR, "search-%s.json" %
                            datetime.datetime.now().strftime("%Y%m%d-%H%M%S"))
    report = {"environment": environment(iochar), "args": vars(args),
              "limit_ns": LIMIT_NS, "depths": DEPTHS, "jobs": JOBS, "workloads": {}}
    env = report["environment"]
    log("search vs grid: %s, %d s per point; kernel %s; %s; %s CPUs; %s" % (
        ",".join(wls), args.runtime, env["kernel"], env["fio_version"], env["cpus"],
        env["device_of_workdir"]))
    rows = []
    xrows = []
    srows = []
    matrices = []
    t_start = time.monotonic()
    try:
        wait_for_others(args.wait_other, log, must=not args.start_anyway)
        make_data(iochar, log)
        for n, (r, wl) in enumerate((r, w) for r in range(args.repeats) for w in wls):
            key = wl if args.repeats == 1 else "%s/%d" % (wl, r + 1)
            # the order alternates (grid first, then search first), so a
            # device drifting over the session favours neither every time
            grid = srch = None
            for what in (("grid", "search") if n % 2 == 0 else ("search", "grid")):
                if what == "grid":
                    log("%s: fio grid (%d points)" % (wl, len(DEPTHS) * len(JOBS)))
                    grid = run_grid(wl, args.runtime, args.wait_other, log)
                else:
                    log("%s: iochar search" % wl)
                    srch = run_search(iochar, wl, args.runtime, args.wait_other, log)
            gb, sb = grid["best"], srch.get("best")
            # not timed, not part of the verdict: each best measured by the
            # other tool, so the two points compare by one tool each
            checks = {}
            if gb:
                checks["iochar_at_grid_best"] = iochar_point(
                    iochar, wl, gb["iodepth"], gb["numjobs"], args.runtime, args.wait_other, log)
            if sb:
                checks["fio_at_search_best"] = fio_point(
                    wl, sb["iodepth"], sb["numjobs"], args.runtime, args.wait_other, log)
            st = settle(wl, gb, sb, args.settle, args.runtime, args.wait_other, log) \
                if gb and sb and args.settle else None
            iops_r = sb["iops"] / gb["iops"] if gb and sb else None
            time_r = srch["wall_ns"] / grid["wall_ns"] if srch.get("ok") else None
            ok = (iops_r is not None and time_r is not None and
                  iops_r >= IOPS_TARGET and time_r <= TIME_TARGET and not grid["failed"])
            disturbed = bool(grid["other_load"] or srch.get("other_load"))
            ig = checks.get("iochar_at_grid_best")
            fs = checks.get("fio_at_search_best")
            same_iochar = sb["iops"] / ig["iops"] if sb and ig and ig["ok"] else None
            same_fio = fs["iops"] / gb["iops"] if gb and fs and fs["ok"] else None
            report["workloads"][key] = {"grid": grid, "search": srch, "iops_ratio": iops_r,
                                       "time_ratio": time_r, "pass": ok,
                                       "other_load_seen": disturbed, "checks": checks,
                                       "iochar_search_best_over_grid_best": same_iochar,
                                       "fio_search_best_over_grid_best": same_fio,
                                       "settle": st}
            if st:
                srows.append([key, "qd=%d nj=%d" % (gb["iodepth"], gb["numjobs"]),
                              "%.1fk" % (st["grid_median_iops"] / 1e3)
                              if st["grid_median_iops"] else "-",
                              "qd=%d nj=%d" % (sb["iodepth"], sb["numjobs"]),
                              "%.1fk" % (st["search_median_iops"] / 1e3)
                              if st["search_median_iops"] else "-",
                              "-" if st["ratio"] is None else "%.3f" % st["ratio"],
                              "-" if st["ratio"] is None else
                              ("PASS" if st["ratio"] >= IOPS_TARGET else "MISS") +
                              (" (other load seen)" if st["other_load"] else "")])
            xrows.append([key, fmt_pt(ig) if ig and ig["ok"] else "-",
                          "-" if same_iochar is None else "%.3f" % same_iochar,
                          fmt_pt(fs) if fs and fs["ok"] else "-",
                          "-" if same_fio is None else "%.3f" % same_fio])
            rows.append([key, fmt_pt(gb), "%.1f s" % (grid["wall_ns"] / 1e9), fmt_pt(sb),
                         str(len(srch.get("points", []))),
                         "%.1f s" % (srch["wall_ns"] / 1e9),
                         "-" if iops_r is None else "%.3f" % iops_r,
                         "-" if time_r is None else "%.3f" % time_r,
                         ("PASS" if ok else "MISS") + (" (other load seen)" if disturbed else "")])
            matrices.append("%s grid (IOPS / mean latency; * = a direction over %g ms):\n%s" % (
                key, LIMIT_NS / 1e6, grid_matrix(grid)))
            with open(out_path, "w") as f:  # keep what is done if interrupted
                json.dump(report, f, indent=1)
    finally:
        shutil.rmtree(bindir, ignore_errors=True)
        if not args.keep_files and os.path.exists(DATA):
            os.unlink(DATA)
            try:
                os.rmdir(WORKDIR)
            except OSError:
                pass
    report["seconds"] = time.monotonic() - t_start
    with open(out_path, "w") as f:
        json.dump(report, f, indent=1)

    print("=" * 78)
    print("search vs grid: %s, 4k, direct=1, io_uring, 4 GiB file, mean <= %g ms, %d s per "
          "point" % (",".join(wls), LIMIT_NS / 1e6, args.runtime))
    print("date %s, kernel %s, %s, %s CPUs (%s)" % (env["date_utc"], env["kernel"],
                                                    env["fio_version"], env["cpus"],
                                                    env["cpu_model"]))
    for m in matrices:
        print("\n" + m)
    print("\n" + render(rows, ["workload", "grid best", "grid time", "search best", "points",
                               "search time", "IOPS ratio (>= %.2f)" % IOPS_TARGET,
                               "time ratio (<= %.2f)" % TIME_TARGET, "result"]))
    print("\nCross-checks (not timed, not the verdict): each tool at the other's best point")
    print(render(xrows, ["workload", "iochar at grid best", "search best / that",
                         "fio at search best", "that / grid best"]))
    if srows:
        print("\nSettled (fio with libaio, which keeps the depth it is given, re-runs both "
              "chosen points, %d alternating pairs; medians):" %
              args.settle)
        print(render(srows, ["workload", "grid best", "fio median", "search best", "fio median",
                             "search / grid (>= %.2f)" % IOPS_TARGET, "result"]))
    print("\nraw numbers: %s (%.0f s in all)" % (out_path, report["seconds"]))


if __name__ == "__main__":
    main()
