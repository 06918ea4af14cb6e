#!/usr/bin/env python3
"""bench.py - iochar against fio on the same targets, alternating, in rounds.

Every measured point runs iochar and fio with the same workload parameters,
one after the other (iochar, fio, iochar, fio, ...), for --rounds rounds, and
reports per-tool medians and the iochar/fio ratio: the machine is shared and
noisy, so no single absolute time is quoted.

CPU per I/O is the whole child process's CPU time (user + system of all its
threads, io_uring kernel worker threads included), taken from the wait4()
rusage of the tool, divided by the I/Os the tool reports. That includes each
tool's startup (fio's job setup, iochar's option parsing and inventory):
nothing is subtracted; runs of several seconds keep it small. Peak RSS is
rusage ru_maxrss. A tiny C helper (SPAWN_C below, compiled at start) forks
the tool and does the wait4(), so that Python's own memory does not leak
into ru_maxrss.

See bench/README.md for the cases, the flags of both tools and results.
"""
import argparse
import datetime
import json
import os
import platform
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from pairstats import decided, fmt_ci, median_ci, verdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IOCHAR = os.path.join(ROOT, "build", "iochar")
WORKDIR = "/var/tmp/iochar-bench"
# the binary actually run: a private copy of build/iochar taken at start, so a
# rebuild during the suite cannot mix two versions into one result
IOCHAR_RUN = [IOCHAR]
OUTDIR = os.path.join(ROOT, "bench", "out")
BUF_FILE = os.path.join(WORKDIR, "buffered.dat")  # case 2
DIRECT_FILE = os.path.join(WORKDIR, "direct.dat")  # cases 3 and 4
GiB = 1 << 30
MiB = 1 << 20
HANG_GRACE_S = 30  # a run still going this long after its runtime is hung

# ---------------------------------------------------------------- commands


def common_args(p):
    """The workload flags both tools take verbatim (fio's names)."""
    a = [
        "--rw=randread",
        "--bs=4k",
        "--iodepth=%d" % p["iodepth"],
        "--numjobs=%d" % p["numjobs"],
        "--ioengine=%s" % p["engine"],
        "--direct=%d" % p["direct"],
        "--size=%s" % p["size"],
        "--time_based",
        "--runtime=%d" % p["runtime"],
    ]
    if p.get("filename"):
        a.append("--filename=%s" % p["filename"])
    return a


IOCHAR_USER_EXTRA = []  # --iochar-extra: A/B of iochar's own settings


def iochar_cmd(p):
    if p.get("jobfile"):  # everything is in the file (write_jobfile)
        return [IOCHAR_RUN[0], "run", "--output-format=json", p["jobfile"]] + IOCHAR_USER_EXTRA
    # --invalidate=0 --norandommap: iochar has fio's invalidate (default 1:
    # drop the file's cache at job start) and random map (on by default),
    # so it gets what fio gets below
    return ([IOCHAR_RUN[0], "run"] + common_args(p)
            + ["--invalidate=0", "--norandommap", "--output-format=json"]
            + IOCHAR_USER_EXTRA)


# fio flags beyond the common ones, and why:
#   --norandommap --randrepeat=0  uniform offsets with replacement, as iochar
#   --group_reporting --thread    one result for all jobs; threads, as iochar,
#                                 so rusage and ru_maxrss cover every job
#   --invalidate=0                do not drop the file's page cache at job start
#                                 (iochar never does; case 2 needs the cache)
#   --clat_percentiles=0 --lat_percentiles=1
#                                 one histogram, of submission-to-completion
#                                 latency (what iochar records): same work as
#                                 fio's default, which histograms clat instead
#   io_uring: --fixedbufs --registerfiles  (iochar registers both too)
FIO_EXTRA = [
    "--norandommap",
    "--randrepeat=0",
    "--group_reporting",
    "--thread",
    "--invalidate=0",
    "--clat_percentiles=0",
    "--lat_percentiles=1",
    "--output-format=json",
]


FIO_USER_EXTRA = []  # --fio-extra: for investigations, recorded in the output


def fio_cmd(p):
    if p.get("jobfile"):
        return ["fio", "--output-format=json", p["jobfile"]] + FIO_USER_EXTRA
    a = ["fio", "--name=bench"] + common_args(p) + FIO_EXTRA
    if p["engine"] == "io_uring":
        a += ["--fixedbufs", "--registerfiles"]
    return a + FIO_USER_EXTRA


# ---------------------------------------------------------------- running


# Why a helper: Python starts children with vfork()+exec, and on exec the
# kernel folds the old (here: Python's own) memory's high-water RSS into the
# new process's ru_maxrss (exec_mmap -> setmax_mm_hiwater_rss). Measured here:
# /bin/true started from a Python holding 200 MiB reports ru_maxrss = 214 MiB.
# So this small C program, started by Python, fork()s the tool from its own
# sub-MiB image, wait4()s it and writes the tool's rusage to a file: the same
# rusage os.wait4() would give, without Python's footprint. CPU times are
# the whole process's (all threads, io_uring workers, waited-for children).
SPAWN_C = r"""
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
static volatile pid_t child;
static void forward(int sig) { if (child > 0) kill(child, sig); }
int main(int argc, char **argv)
{
	if (argc < 3) { fprintf(stderr, "usage: spawn RUSAGE_FILE CMD [ARG...]\n"); return 2; }
	pid_t parent = getpid();
	child = fork();
	if (child < 0) { perror("spawn: fork"); return 2; }
	if (child == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent) _exit(127);
		execvp(argv[2], argv + 2);
		perror("spawn: exec");
		_exit(127);
	}
	struct sigaction sa = { .sa_handler = forward };
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	int st; struct rusage ru;
	while (wait4(child, &st, 0, &ru) < 0)
		if (errno != EINTR) { perror("spawn: wait4"); return 2; }
	FILE *f = fopen(argv[1], "w");
	if (!f) { perror("spawn: rusage file"); return 2; }
	fprintf(f, "{\"pid\": %d, \"status\": %d, \"utime_us\": %lld, \"stime_us\": %lld, "
		"\"maxrss_kib\": %ld, \"minflt\": %ld, \"majflt\": %ld, \"nvcsw\": %ld, \"nivcsw\": %ld}\n",
		(int)child, st,
		(long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec,
		(long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec,
		ru.ru_maxrss, ru.ru_minflt, ru.ru_majflt, ru.ru_nvcsw, ru.ru_nivcsw);
	if (fclose(f)) { perror("spawn: rusage file"); return 2; }
	return 0;
}
"""
SPAWN = [None]  # path of the compiled helper


def build_c(exe, sources, libs=(), what=None):
    """Compile the bench's C helpers with $CC (cc) -O2 -std=gnu11 into exe;
    exits naming what failed to build. Returns exe."""
    cc = os.environ.get("CC", "cc")
    r = subprocess.run([cc, "-O2", "-std=gnu11", "-o", exe] + list(sources) + list(libs),
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("bench: cannot build %s with %s:\n%s" % (what or " ".join(sources), cc, r.stderr))
    return exe


def build_spawn(bindir):
    src = os.path.join(bindir, "spawn.c")
    with open(src, "w") as f:
        f.write(SPAWN_C)
    SPAWN[0] = build_c(os.path.join(bindir, "spawn"), [src], what="the rusage helper")


def child_of(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            kids = f.read().split()
        return int(kids[0]) if kids else None
    except OSError:
        return None


def run_measured(argv, timeout):
    """Run argv to completion under the spawn helper; return wall time, the
    tool's rusage (all threads, waited-for descendants) and its output."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile(prefix="rusage.", suffix=".json") as rf:
        t0 = time.monotonic_ns()
        proc = subprocess.Popen([SPAWN[0], rf.name] + argv, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=err, cwd=WORKDIR)
        killed = []

        def kill():
            # a hung run: note where each thread waits, ask for the partial
            # results (SIGINT, forwarded by the helper), then kill it
            tool = child_of(proc.pid)
            killed.append(thread_states(tool) if tool else [])
            try:
                os.kill(proc.pid, signal.SIGINT)
                time.sleep(5)
                if tool:
                    os.kill(tool, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, hstatus, _ = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.monotonic_ns() - t0
        proc.returncode = os.waitstatus_to_exitcode(hstatus)
        out.seek(0)
        err.seek(0)
        res = {
            "timed_out": bool(killed),
            "hang_threads": killed[0] if killed else None,
            "wall_ns": wall,
            "stdout": out.read().decode(errors="replace"),
            "stderr": err.read().decode(errors="replace"),
        }
        try:
            ru = json.load(open(rf.name))
        except (OSError, ValueError):
            ru = None
        if proc.returncode != 0 or not ru:
            res.update(rc=-1000 - proc.returncode, usr_ns=0, sys_ns=0, maxrss_kib=0)
            res["stderr"] += "\n(rusage helper failed, status %d)" % proc.returncode
            return res
        res.update(rc=os.waitstatus_to_exitcode(ru["status"]),
                   usr_ns=ru["utime_us"] * 1000, sys_ns=ru["stime_us"] * 1000,
                   maxrss_kib=ru["maxrss_kib"], rusage=ru)
        return res


def thread_states(pid):
    """comm, state, wchan and kernel stack of each thread of pid."""
    out = []
    base = "/proc/%d/task" % pid
    try:
        tids = sorted(os.listdir(base), key=int)
    except OSError:
        return out
    for tid in tids:
        t = {"tid": int(tid)}
        for name in ("comm", "wchan", "stat", "stack"):
            try:
                with open(os.path.join(base, tid, name)) as f:
                    t[name] = f.read().strip()
            except OSError as e:
                t[name] = "(%s)" % e.strerror
        out.append(t)
    return out


def parse_json(text):
    """The JSON object in text (fio may print warning lines before it)."""
    i = text.find("{")
    if i < 0:
        raise ValueError("no JSON in output")
    return json.loads(text[i:])


def metrics_iochar(d):
    t = d["total"]
    return {
        "ios": t["ios"],
        "iops": t["iops"],
        "lat_mean_ns": t["lat_ns"]["mean"],
        "lat_p99_ns": t["lat_ns"]["p99"],
        "tool_elapsed_ns": d["elapsed_ns"],
        # iochar's own report, for reference only
        "tool_cpu_ns": d["cpu"]["usr_ns"] + d["cpu"]["sys_ns"],
        "partial": d.get("partial", False),
    }


def metrics_fio(d):
    ios = 0
    iops = 0.0
    lat_w = 0.0
    p99 = None
    usr_pct = sys_pct = 0.0
    for j in d["jobs"]:
        for dr in ("read", "write"):
            s = j[dr]
            ios += s["total_ios"]
            iops += s["iops"]
            lat_w += s["lat_ns"]["mean"] * s["total_ios"]
            pct = s["lat_ns"].get("percentile") or {}
            if s["total_ios"] and "99.000000" in pct:
                p99 = max(p99 or 0, pct["99.000000"])
        usr_pct += j["usr_cpu"]
        sys_pct += j["sys_cpu"]
    return {
        "ios": ios,
        "iops": iops,
        "lat_mean_ns": lat_w / ios if ios else 0.0,
        "lat_p99_ns": p99,
        "fio_usr_cpu_pct": usr_pct,  # fio's own report, for reference only
        "fio_sys_cpu_pct": sys_pct,
        "partial": False,
    }


def run_tool(tool, p, log):
    as_iochar = tool == "iochar" and not CONTROL[0]
    argv = iochar_cmd(p) if as_iochar else fio_cmd(p)
    load = os.getloadavg()[0]  # the machine is shared: every figure with its load
    r = run_measured(argv, timeout=p["runtime"] + HANG_GRACE_S)
    rec = {"tool": tool, "argv": argv, "rc": r["rc"], "wall_ns": r["wall_ns"],
           "loadavg_1m": load,
           "usr_ns": r["usr_ns"], "sys_ns": r["sys_ns"],
           "maxrss_kib": r["maxrss_kib"], "rusage": r.get("rusage")}
    if r["timed_out"]:
        rec["hang_threads"] = r["hang_threads"]
        rec["hang_stdout"] = r["stdout"][-4000:]
        log("    %s HUNG: still running %d s after its runtime; thread states: %s" % (
            tool, HANG_GRACE_S, "; ".join("%s %s %s" % (t["tid"], t["comm"], t["wchan"])
                                          for t in r["hang_threads"])))
    try:
        if r["rc"] != 0:
            raise RuntimeError("exit status %d%s" % (
                r["rc"], " (killed after timeout)" if r["timed_out"] else ""))
        d = parse_json(r["stdout"])
        m = metrics_iochar(d) if as_iochar else metrics_fio(d)
        if m["ios"] <= 0:
            raise RuntimeError("no I/O done")
        rec.update(m)
        rec["cpu_ns_per_io"] = (r["usr_ns"] + r["sys_ns"]) / m["ios"]
        rec["usr_ns_per_io"] = r["usr_ns"] / m["ios"]
        rec["sys_ns_per_io"] = r["sys_ns"] / m["ios"]
        rec["ok"] = True
    except Exception as e:  # record it, keep going: one bad run is data too
        rec["ok"] = False
        rec["error"] = "%s; stderr: %s" % (e, r["stderr"].strip()[-600:])
        log("    %s FAILED: %s" % (tool, rec["error"]))
    return rec


# ---------------------------------------------------------------- stats


def med(recs, key):
    v = [r[key] for r in recs if r.get("ok") and r.get(key) is not None]
    return statistics.median(v) if v else None


def spread(recs, key):
    """Half the min..max range relative to the median, in percent."""
    v = [r[key] for r in recs if r.get("ok") and r.get(key) is not None]
    if len(v) < 2:
        return None
    m = statistics.median(v)
    return 100.0 * (max(v) - min(v)) / 2 / m if m else None


def paired_ratios(recs_a, recs_b, key):
    """iochar/fio for the runs of each round (they ran back to back, so slow
    drifts of the machine cancel)."""
    fb = {r["round"]: r[key] for r in recs_b if r.get("ok") and r.get(key)}
    return [r[key] / fb[r["round"]] for r in recs_a
            if r.get("ok") and r.get(key) is not None and r["round"] in fb]


def paired_ratio(recs_a, recs_b, key):
    """The median of paired_ratios. Case 3's verdicts use it; elsewhere it
    is shown beside the ratio of the medians, which decides."""
    v = paired_ratios(recs_a, recs_b, key)
    return statistics.median(v) if v else None


def paired_ci(recs_a, recs_b, key):
    """The 90 % interval of paired_ratio (pairstats.median_ci)."""
    return median_ci(paired_ratios(recs_a, recs_b, key))


def ratio(a, b):
    return a / b if a is not None and b else None


def summarize(recs):
    s = {"rounds_ok": sum(1 for r in recs if r.get("ok")),
         "rounds": len(recs)}
    for k in ("iops", "cpu_ns_per_io", "usr_ns_per_io", "sys_ns_per_io", "lat_mean_ns", "lat_p99_ns",
              "maxrss_kib", "wall_ns"):
        s[k] = med(recs, k)
        s[k + "_spread_pct"] = spread(recs, k)
    v = [r["maxrss_kib"] for r in recs if r.get("ok")]
    s["maxrss_kib_max"] = max(v) if v else None
    return s


# ---------------------------------------------------------------- printing


def fmt_iops(v):
    if v is None:
        return "ERR"
    if v >= 1e6:
        return "%.2fM" % (v / 1e6)
    if v >= 1e3:
        return "%.1fk" % (v / 1e3)
    return "%.0f" % v


def fmt_ns(v):
    if v is None:
        return "ERR"
    if v >= 1e6:
        return "%.2f ms" % (v / 1e6)
    if v >= 1e3:
        return "%.2f us" % (v / 1e3)
    return "%.0f ns" % v


def fmt_kib(v):
    return "ERR" if v is None else "%.1f MiB" % (v / 1024.0)


def with_spread(text, sp):
    return text if sp is None else "%s ±%.0f%%" % (text, sp)


def fmt_ratio(r):
    return "-" if r is None else "%.2fx" % r


class Table:
    HEAD = ("params", "metric", "iochar (median)", "fio (median)",
            "iochar/fio", "paired", "target", "result")

    def __init__(self, title):
        self.title = title
        self.rows = []

    def add(self, params, metric, a, b, r, target="-", result="", paired=None, ci=None):
        p = fmt_ratio(paired) + ("" if ci is None else " " + fmt_ci(ci))
        self.rows.append((params, metric, a, b, r, p, target, result))

    def render(self):
        rows = [self.HEAD] + self.rows
        w = [max(len(str(r[i])) for r in rows) for i in range(len(self.HEAD))]
        lines = [self.title]
        for n, r in enumerate(rows):
            lines.append("  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)).rstrip())
            if n == 0:
                lines.append("  ".join("-" * x for x in w))
        return "\n".join(lines)


# ---------------------------------------------------------------- targets


def make_file(path, size, log):
    """Write path in full with incompressible data and fsync it, unless a
    fully allocated file of that size is already there. Returns True if it
    wrote the file."""
    if REPLAY[0] is not None:
        return False
    try:
        st = os.stat(path)
        if st.st_size == size and st.st_blocks * 512 >= size:
            log("  reusing %s (%d GiB, fully allocated)" % (path, size // GiB))
            return False
    except FileNotFoundError:
        pass
    log("  writing %s (%d GiB of random data) ..." % (path, size // GiB))
    t0 = time.monotonic()
    chunk = bytearray(os.urandom(16 * MiB))
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        done = 0
        n = 0
        while done < size:
            # stamp each 16 MiB chunk so no two are alike
            chunk[0:8] = n.to_bytes(8, "little")
            done += os.write(fd, chunk[: min(len(chunk), size - done)])
            n += 1
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    log("  written in %.1f s" % (time.monotonic() - t0))
    return True


def warm_cache(path, log):
    if REPLAY[0] is not None:
        return
    t0 = time.monotonic()
    with open(path, "rb", buffering=0) as f:
        buf = bytearray(8 * MiB)
        while f.readinto(buf):
            pass
    cached = ""
    if shutil.which("fincore"):
        r = subprocess.run(["fincore", "--bytes", "--noheadings", "-o", "RES,SIZE", path],
                           capture_output=True, text=True)
        if r.returncode == 0 and r.stdout.split():
            res, size = (int(x) for x in r.stdout.split()[:2])
            cached = ", %.1f%% in page cache" % (100.0 * res / size)
    log("  read %s once in %.1f s%s" % (path, time.monotonic() - t0, cached))


# ---------------------------------------------------------------- cases


TOOL_ORDER = ("iochar", "fio")  # --fio-first swaps it
ORDER_ALTERNATES = [False]  # --alternate-order: odd rounds run the other way round
CONTROL = [False]  # --control: fio in iochar's slot too (an A/A run)
REPLAY = [None]  # --summarize: the saved {key: {"iochar": [recs], "fio": [recs]}}
ONLY = []  # --points: run only the points of these names (all when empty)


def alternate(points, rounds, log):
    """points: list of (key, params). For each round, each point runs iochar
    then fio (TOOL_ORDER; reversed in odd rounds with --alternate-order).
    Returns {key: {"iochar": [recs], "fio": [recs]}}; with --summarize,
    the saved run's, nothing run."""
    if REPLAY[0] is not None:
        return {k: REPLAY[0].get(k, {"iochar": [], "fio": []}) for k, _ in points}
    res = {k: {"iochar": [], "fio": []} for k, _ in points}
    for rnd in range(rounds):
        for k, p in points:
            if ONLY and k not in ONLY:
                continue
            order = TOOL_ORDER[::-1] if ORDER_ALTERNATES[0] and rnd % 2 else TOOL_ORDER
            for tool in order:
                rec = run_tool(tool, p, log)
                rec["round"] = rnd
                res[k][tool].append(rec)
                if rec["ok"]:
                    log("  round %d %-26s %-6s IOPS %-8s CPU/IO %-9s RSS %s load %.1f" % (
                        rnd + 1, k, tool, fmt_iops(rec["iops"]),
                        fmt_ns(rec["cpu_ns_per_io"]), fmt_kib(rec["maxrss_kib"]),
                        rec["loadavg_1m"]))
    return res


def case1(args, log):
    title = ("Case 1: ioengine=null, 4k randread, numjobs=1, size=1g "
             "(%d rounds x %d s)" % (args.rounds, args.runtime))
    pts = []
    for qd in (1, 32, 128):
        pts.append(("null qd=%d" % qd, dict(engine="null", iodepth=qd, numjobs=1,
                                            direct=0, size="1g", runtime=args.runtime)))
    raw = alternate(pts, args.rounds, log)
    t = Table(title)
    summary = {}
    for k, _ in pts:
        a, b = summarize(raw[k]["iochar"]), summarize(raw[k]["fio"])
        r = ratio(a["iops"], b["iops"])
        ok = None if r is None else r >= 5.0  # issue 20: >= 5x fio at every depth
        recorded = [x for x in raw[k]["iochar"] if x.get("ok")]
        lat_ok = bool(recorded) and all(
            x["lat_mean_ns"] > 0 and x["lat_p99_ns"] > 0 for x in recorded)
        ok_all = None if ok is None else (ok and lat_ok)
        ra, rb = raw[k]["iochar"], raw[k]["fio"]
        t.add(k, "IOPS", with_spread(fmt_iops(a["iops"]), a["iops_spread_pct"]),
              with_spread(fmt_iops(b["iops"]), b["iops_spread_pct"]), fmt_ratio(r),
              ">= 5x, lat recorded", verdict(ok_all), paired_ratio(ra, rb, "iops"))
        t.add(k, "CPU/IO (rusage)", fmt_ns(a["cpu_ns_per_io"]), fmt_ns(b["cpu_ns_per_io"]),
              fmt_ratio(ratio(a["cpu_ns_per_io"], b["cpu_ns_per_io"])),
              paired=paired_ratio(ra, rb, "cpu_ns_per_io"))
        t.add(k, "lat mean", fmt_ns(a["lat_mean_ns"]), fmt_ns(b["lat_mean_ns"]),
              fmt_ratio(ratio(a["lat_mean_ns"], b["lat_mean_ns"])),
              "iochar > 0", "yes" if lat_ok else "NO", paired_ratio(ra, rb, "lat_mean_ns"))
        t.add(k, "lat p99", fmt_ns(a["lat_p99_ns"]), fmt_ns(b["lat_p99_ns"]),
              fmt_ratio(ratio(a["lat_p99_ns"], b["lat_p99_ns"])),
              paired=paired_ratio(ra, rb, "lat_p99_ns"))
        summary[k] = {"iochar": a, "fio": b, "iops_ratio": r,
                      "latency_recorded": lat_ok, "pass": ok_all}
    return t, {"raw": raw, "summary": summary}


def case2(args, log):
    make_file(BUF_FILE, 2 * GiB, log)
    warm_cache(BUF_FILE, log)
    engines = ("psync", "io_uring", "libaio")
    title = ("Case 2: 2 GiB file in page cache, 4k randread, direct=0, "
             "best engine of each tool (%d rounds x %d s)" % (args.rounds, args.runtime))
    t = Table(title)
    raw_all, summary = {}, {}
    for nj in (1, 2):
        for qd in (1, 32):
            pts = [("nj=%d qd=%d %s" % (nj, qd, e),
                    dict(engine=e, iodepth=qd, numjobs=nj, direct=0, size="2g",
                         filename=BUF_FILE, runtime=args.runtime)) for e in engines]
            raw = alternate(pts, args.rounds, log)
            raw_all.update(raw)
            per = {k: {"iochar": summarize(raw[k]["iochar"]),
                       "fio": summarize(raw[k]["fio"])} for k, _ in pts}
            params = "nj=%d qd=%d" % (nj, qd)
            for k, _ in pts:
                e = k.split()[-1]
                a, b = per[k]["iochar"], per[k]["fio"]
                t.add(params, "IOPS, CPU/IO %s" % e,
                      "%s, %s" % (with_spread(fmt_iops(a["iops"]), a["iops_spread_pct"]),
                                  fmt_ns(a["cpu_ns_per_io"])),
                      "%s, %s" % (with_spread(fmt_iops(b["iops"]), b["iops_spread_pct"]),
                                  fmt_ns(b["cpu_ns_per_io"])),
                      fmt_ratio(ratio(a["iops"], b["iops"])),
                      paired=paired_ratio(raw[k]["iochar"], raw[k]["fio"], "iops"))

            def best(tool):
                c = [(per[k][tool]["iops"], k.split()[-1], per[k][tool])
                     for k, _ in pts if per[k][tool]["iops"] is not None]
                return max(c, key=lambda x: x[0]) if c else (None, "-", None)

            ai, ae, a = best("iochar")
            bi, be, b = best("fio")
            r = ratio(ai, bi)
            ok = None if r is None else r >= 1.2
            ka, kb = "%s %s" % (params, ae), "%s %s" % (params, be)
            pr = (paired_ratio(raw[ka]["iochar"], raw[kb]["fio"], "iops")
                  if ka in raw and kb in raw else None)
            t.add(params, "IOPS best (iochar %s, fio %s)" % (ae, be),
                  fmt_iops(ai), fmt_iops(bi), fmt_ratio(r), ">= 1.2x", verdict(ok), pr)
            acpu = a["cpu_ns_per_io"] if a else None
            bcpu = b["cpu_ns_per_io"] if b else None
            cpu_ok = None
            target = "-"
            if nj == 1:
                target = "iochar <= 1.2 us"
                cpu_ok = None if acpu is None else acpu <= 1200
            pc = (paired_ratio(raw[ka]["iochar"], raw[kb]["fio"], "cpu_ns_per_io")
                  if ka in raw and kb in raw else None)
            t.add(params, "CPU/IO of best engines", fmt_ns(acpu), fmt_ns(bcpu),
                  fmt_ratio(ratio(acpu, bcpu)), target, verdict(cpu_ok) if nj == 1 else "", pc)
            summary[params] = {"per_engine": per, "best_iochar": ae, "best_fio": be,
                               "iops_ratio": r, "iops_pass": ok,
                               "cpu_ns_per_io_iochar": acpu, "cpu_ns_per_io_fio": bcpu,
                               "cpu_pass": cpu_ok}
    return t, {"raw": raw_all, "summary": summary}


def within(r, pct):
    return None if r is None else abs(r - 1.0) <= pct / 100.0


CASE3_DEPTHS = (1, 8, 32, 128)
CASE3_ENGINES = ("io_uring", "libaio")


def case3(args, log):
    """Issue 23's targets, on the medians of the paired (back-to-back)
    ratios: IOPS >= 0.98x fio's, mean latency within 5 %, CPU per I/O below
    fio's, at every depth and engine."""
    make_file(DIRECT_FILE, 4 * GiB, log)
    title = ("Case 3: 4 GiB file, direct=1, 4k randread, numjobs=1, io_uring and "
             "libaio (%d rounds x %d s, order %s%s%s)" % (
                 args.rounds, args.runtime, ",".join(TOOL_ORDER),
                 ", reversed in odd rounds" if ORDER_ALTERNATES[0] else "",
                 "; A/A CONTROL: both columns are fio" if CONTROL[0] else ""))
    pts = [("%s qd=%d" % (e, qd), dict(engine=e, iodepth=qd, numjobs=1, direct=1,
                                      size="4g", filename=DIRECT_FILE,
                                      runtime=args.runtime))
           for e in CASE3_ENGINES for qd in CASE3_DEPTHS]
    raw = alternate(pts, args.rounds, log)
    t = Table(title)
    summary = {}
    for k, _ in pts:
        ra, rb = raw[k]["iochar"], raw[k]["fio"]
        if not ra and not rb:  # not run (--points)
            continue
        a, b = summarize(ra), summarize(rb)
        pi = paired_ratio(ra, rb, "iops")
        pm = paired_ratio(ra, rb, "lat_mean_ns")
        pp = paired_ratio(ra, rb, "lat_p99_ns")
        pc = paired_ratio(ra, rb, "cpu_ns_per_io")
        ci = {key: paired_ci(ra, rb, key)
              for key in ("iops", "lat_mean_ns", "lat_p99_ns", "cpu_ns_per_io")}
        iops_ok = None if pi is None else pi >= 0.98
        mean_ok = within(pm, 5)
        cpu_ok = None if pc is None else pc < 1.0
        sure = {"iops": decided(ci["iops"], lo_ok=0.98),
                "lat_mean_ns": decided(ci["lat_mean_ns"], lo_ok=0.95, hi_ok=1.05),
                "cpu_ns_per_io": decided(ci["cpu_ns_per_io"], hi_ok=1.0)}
        t.add(k, "IOPS", with_spread(fmt_iops(a["iops"]), a["iops_spread_pct"]),
              with_spread(fmt_iops(b["iops"]), b["iops_spread_pct"]),
              fmt_ratio(ratio(a["iops"], b["iops"])), "paired >= 0.98x",
              verdict(iops_ok, sure["iops"]), pi, ci["iops"])
        t.add(k, "lat mean (fio lat_ns)", fmt_ns(a["lat_mean_ns"]), fmt_ns(b["lat_mean_ns"]),
              fmt_ratio(ratio(a["lat_mean_ns"], b["lat_mean_ns"])), "paired ±5%",
              verdict(mean_ok, sure["lat_mean_ns"]), pm, ci["lat_mean_ns"])
        t.add(k, "lat p99 (fio lat_ns pct)", fmt_ns(a["lat_p99_ns"]), fmt_ns(b["lat_p99_ns"]),
              fmt_ratio(ratio(a["lat_p99_ns"], b["lat_p99_ns"])), "-", "", pp, ci["lat_p99_ns"])
        t.add(k, "CPU/IO (rusage)", fmt_ns(a["cpu_ns_per_io"]), fmt_ns(b["cpu_ns_per_io"]),
              fmt_ratio(ratio(a["cpu_ns_per_io"], b["cpu_ns_per_io"])), "paired < 1x",
              verdict(cpu_ok, sure["cpu_ns_per_io"]), pc, ci["cpu_ns_per_io"])
        loads = [r["loadavg_1m"] for r in ra + rb if r.get("loadavg_1m") is not None]
        summary[k] = {"iochar": a, "fio": b, "iops_paired": pi, "iops_pass": iops_ok,
                      "lat_mean_paired": pm, "lat_mean_pass": mean_ok,
                      "lat_p99_paired": pp, "cpu_paired": pc, "cpu_pass": cpu_ok,
                      "paired_ci90": ci, "decided": sure,
                      "loadavg_1m_median": statistics.median(loads) if loads else None}
    return t, {"raw": raw, "summary": summary}


RSS_TARGETS, RSS_JOBS = 24, 4  # issue 20: the papers' 24 drives, 4 jobs each
RSS_DIR = "/dev/shm/iochar-bench-rss"  # tmpfs: 24 targets without 24 disks


def write_jobfile(path, targets, runtime):
    """One job file both tools read: FIO_EXTRA's settings as job options
    (fio's command-line options do not reach a job file's jobs), a
    section per target."""
    with open(path, "w") as f:
        f.write("[global]\nioengine=io_uring\nrw=randread\nbs=4k\niodepth=32\n"
                "numjobs=%d\ntime_based=1\nruntime=%d\nsize=16m\nnorandommap=1\n"
                "randrepeat=0\ngroup_reporting=1\nthread=1\ninvalidate=0\n"
                "clat_percentiles=0\nlat_percentiles=1\n" % (RSS_JOBS, runtime))
        for i, t in enumerate(targets):
            f.write("[t%d]\nfilename=%s\n" % (i, t))


def case4(args, log):
    make_file(DIRECT_FILE, 4 * GiB, log)
    title = ("Case 4: peak RSS, numjobs=8 iodepth=256, io_uring, direct=1, 4k randread "
             "on the 4 GiB file; %d tmpfs files x %d jobs, iodepth 32, buffered "
             "(%d rounds x %d s)" % (RSS_TARGETS, RSS_JOBS, args.rounds, args.runtime))
    k = "nj=8 qd=256"
    pts = [(k, dict(engine="io_uring", iodepth=256, numjobs=8, direct=1, size="4g",
                    filename=DIRECT_FILE, runtime=args.runtime))]
    raw = alternate(pts, args.rounds, log)
    a, b = summarize(raw[k]["iochar"]), summarize(raw[k]["fio"])
    t = Table(title)
    amax = a["maxrss_kib_max"]
    ok = None if amax is None else amax < 64 * 1024
    t.add(k, "peak RSS median", fmt_kib(a["maxrss_kib"]), fmt_kib(b["maxrss_kib"]),
          fmt_ratio(ratio(a["maxrss_kib"], b["maxrss_kib"])))
    t.add(k, "peak RSS max of rounds", fmt_kib(amax), fmt_kib(b["maxrss_kib_max"]),
          fmt_ratio(ratio(amax, b["maxrss_kib_max"])), "iochar < 64 MiB", verdict(ok))
    ra, rb = raw[k]["iochar"], raw[k]["fio"]
    t.add(k, "IOPS", with_spread(fmt_iops(a["iops"]), a["iops_spread_pct"]),
          with_spread(fmt_iops(b["iops"]), b["iops_spread_pct"]),
          fmt_ratio(ratio(a["iops"], b["iops"])), paired=paired_ratio(ra, rb, "iops"))
    t.add(k, "CPU/IO (rusage)", fmt_ns(a["cpu_ns_per_io"]), fmt_ns(b["cpu_ns_per_io"]),
          fmt_ratio(ratio(a["cpu_ns_per_io"], b["cpu_ns_per_io"])),
          paired=paired_ratio(ra, rb, "cpu_ns_per_io"))
    summary = {k: {"iochar": a, "fio": b, "rss_pass": ok}}

    # the papers' layout: 24 targets x 4 jobs (tmpfs files, buffered)
    k2 = "%d targets x %d jobs" % (RSS_TARGETS, RSS_JOBS)
    made = REPLAY[0] is None
    if made:
        os.makedirs(RSS_DIR, exist_ok=True)
    try:
        targets = [os.path.join(RSS_DIR, "t%d.dat" % i) for i in range(RSS_TARGETS)]
        jobfile = os.path.join(RSS_DIR, "many.fio")
        if made:
            for tgt in targets:
                with open(tgt, "wb") as f:
                    f.write(os.urandom(16 * MiB))
            write_jobfile(jobfile, targets, args.runtime)
        raw.update(alternate([(k2, dict(jobfile=jobfile, runtime=args.runtime))],
                             args.rounds, log))
    finally:
        if made:
            shutil.rmtree(RSS_DIR, ignore_errors=True)
    a2, b2 = summarize(raw[k2]["iochar"]), summarize(raw[k2]["fio"])
    amax2 = a2["maxrss_kib_max"]
    ok2 = None if amax2 is None else amax2 < 64 * 1024
    t.add(k2, "peak RSS max of rounds", fmt_kib(amax2), fmt_kib(b2["maxrss_kib_max"]),
          fmt_ratio(ratio(amax2, b2["maxrss_kib_max"])), "iochar < 64 MiB", verdict(ok2))
    t.add(k2, "IOPS", with_spread(fmt_iops(a2["iops"]), a2["iops_spread_pct"]),
          with_spread(fmt_iops(b2["iops"]), b2["iops_spread_pct"]),
          fmt_ratio(ratio(a2["iops"], b2["iops"])),
          paired=paired_ratio(raw[k2]["iochar"], raw[k2]["fio"], "iops"))
    summary[k2] = {"iochar": a2, "fio": b2, "rss_pass": ok2}
    return t, {"raw": raw, "summary": summary}


CASES = {1: case1, 2: case2, 3: case3, 4: case4}

# ---------------------------------------------------------------- main


def sha256(path):
    import hashlib
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def environment():
    def out(cmd):
        try:
            # GIT_OPTIONAL_LOCKS=0: git status must not refresh the index
            env = dict(os.environ, GIT_OPTIONAL_LOCKS="0")
            return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT,
                                  env=env).stdout.strip()
        except OSError:
            return None
    cpu = None
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "date_utc": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "kernel": platform.release(),
        "fio_version": out(["fio", "--version"]),
        "iochar_git_head": out(["git", "rev-parse", "--short", "HEAD"]),
        "iochar_sha256": sha256(IOCHAR_RUN[0]),
        "iochar_mtime": datetime.datetime.fromtimestamp(
            os.stat(IOCHAR_RUN[0]).st_mtime).isoformat(timespec="seconds"),
        "git_tree_dirty": bool(out(["git", "status", "--porcelain", "--untracked-files=no"])),
        "cpu_model": cpu,
        "cpus": os.cpu_count(),
        "fs_of_workdir": out(["stat", "-f", "-c", "%T", WORKDIR]),
    }


def set_order(ns):
    """Who runs first, and whether that alternates or fio runs twice (A/A):
    from main's arguments, or a saved run's."""
    global TOOL_ORDER
    ORDER_ALTERNATES[0] = getattr(ns, "alternate_order", False)
    CONTROL[0] = getattr(ns, "control", False)
    TOOL_ORDER = ("fio", "iochar") if getattr(ns, "fio_first", False) else ("iochar", "fio")


def summarize_saved(ap, paths):
    """--summarize: the saved runs' rounds, no runs. Several runs are
    pooled point by point (their rounds numbered on, so pairs stay pairs);
    the first run's settings title the tables."""
    raw, cases, first = {}, set(), None
    for path in paths:
        try:
            with open(path) as f:
                saved = json.load(f)
            sargs = argparse.Namespace(**saved["args"])
            runs = [c["raw"] for c in saved["cases"].values()]
            cases |= {int(c) for c in saved["cases"]}
        except (OSError, ValueError, KeyError, TypeError) as e:
            ap.error("--summarize: %s is not a saved bench.py run: %s" % (path, e))
        for run in runs:
            for k, tools in run.items():
                dst = raw.setdefault(k, {"iochar": [], "fio": []})
                base = 1 + max((r["round"] for t in dst.values() for r in t), default=-1)
                for tool, recs in tools.items():
                    dst[tool] += [dict(r, round=r["round"] + base) for r in recs]
        env = saved.get("environment", {})
        print("Saved run %s: %s, iochar %s, %s, %d rounds%s" % (
            path, env.get("date_utc"), env.get("iochar_git_head"), env.get("cpu_model"),
            sargs.rounds, ", A/A control" if getattr(sargs, "control", False) else ""))
        first = first or sargs
    if len(paths) > 1:
        print("POOLED: %d runs, each point's rounds together, each in its own run's order "
              "(the titles below are the first run's)" % len(paths))
        first.rounds = max(len(t["iochar"]) for t in raw.values())
    REPLAY[0] = raw
    set_order(first)
    print(LEGEND)
    for c in sorted(cases):
        table, _ = CASES[c](first, lambda msg: None)
        print("\n" + table.render())


LEGEND = ("paired = median of the per-round iochar/fio ratios of back-to-back runs,\n"
          "[lo-hi] its 90 % interval (order statistics: exact, whatever the noise);\n"
          "PASS? / MISS? = the interval spans the target: the rounds lean, they do not decide")


def main():
    ap = argparse.ArgumentParser(description="iochar against fio, alternating rounds")
    ap.add_argument("--rounds", type=int, default=3, help="rounds per point (default 3)")
    ap.add_argument("--runtime", type=int, default=3, help="seconds per run (default 3)")
    ap.add_argument("--cases", default="1,2,3,4", help="comma-separated subset of 1,2,3,4")
    ap.add_argument("--keep-files", action="store_true",
                    help="keep the data files in %s" % WORKDIR)
    ap.add_argument("--fio-first", action="store_true",
                    help="run fio before iochar in each pair (order-bias check)")
    ap.add_argument("--iochar-extra", default="",
                    help="extra iochar flags, e.g. '--ring_setup=coop_taskrun' (A/B of "
                         "iochar's own settings; recorded)")
    ap.add_argument("--fio-extra", default="",
                    help="extra fio flags, e.g. '--iodepth_batch_submit=32' (investigations "
                         "only: the documented comparison uses none)")
    ap.add_argument("--alternate-order", action="store_true",
                    help="odd rounds run the pair the other way round (both orders in one run)")
    ap.add_argument("--control", action="store_true",
                    help="A/A control: run fio in iochar's slot too, to see how often the "
                         "verdicts miss between two identical tools on this device")
    ap.add_argument("--points", default="",
                    help="case 3 only: run only these of its points, comma-separated "
                         "(e.g. 'libaio qd=8,io_uring qd=32')")
    ap.add_argument("--summarize", metavar="FILE", nargs="+",
                    help="run nothing: print the tables of a saved run (bench/out/*.json) "
                         "again, with today's verdicts and intervals; several runs are "
                         "pooled point by point")
    args = ap.parse_args()
    if args.summarize:
        summarize_saved(ap, args.summarize)
        return
    set_order(args)
    ONLY[:] = [p.strip() for p in args.points.split(",") if p.strip()]
    case3_names = {"%s qd=%d" % (e, qd) for e in CASE3_ENGINES for qd in CASE3_DEPTHS}
    if ONLY and (args.cases.strip() != "3" or not set(ONLY) <= case3_names):
        ap.error("--points takes --cases 3 and names among: %s" % ", ".join(sorted(case3_names)))
    FIO_USER_EXTRA[:] = shlex.split(args.fio_extra)
    IOCHAR_USER_EXTRA[:] = shlex.split(args.iochar_extra)
    try:
        cases = sorted({int(c) for c in args.cases.split(",") if c.strip()})
    except ValueError:
        ap.error("--cases: a comma-separated list of 1..4")
    if not cases or any(c not in CASES for c in cases) or args.rounds < 1 or args.runtime < 1:
        ap.error("--cases must name 1..4; --rounds and --runtime must be >= 1")
    if not os.access(IOCHAR, os.X_OK):
        sys.exit("bench: %s missing: run make first (bench/run.sh does)" % IOCHAR)

    os.makedirs(WORKDIR, exist_ok=True)
    os.makedirs(OUTDIR, exist_ok=True)
    bindir = tempfile.mkdtemp(prefix="iochar-bench-bin.")
    IOCHAR_RUN[0] = os.path.join(bindir, "iochar")
    shutil.copy2(IOCHAR, IOCHAR_RUN[0])
    build_spawn(bindir)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    out_path = os.path.join(OUTDIR, stamp + ".json")
    t_start = time.monotonic()

    def log(msg):
        print("[%6.1fs] %s" % (time.monotonic() - t_start, msg), flush=True)

    env = environment()
    report = {"environment": env, "args": vars(args),
              "fio_extra_flags": FIO_EXTRA, "cases": {}}
    log("iochar vs fio: cases %s, %d rounds x %d s; %s; kernel %s; %s CPUs" % (
        ",".join(map(str, cases)), args.rounds, args.runtime, env["fio_version"],
        env["kernel"], env["cpus"]))
    if args.control:
        log("CONTROL (A/A) RUN: the 'iochar' column is fio too, same command line")
    if args.fio_first or FIO_USER_EXTRA or IOCHAR_USER_EXTRA or args.control:
        log("NOT the documented comparison: order %s, extra fio flags %s, extra "
            "iochar flags %s%s" % (",".join(TOOL_ORDER), " ".join(FIO_USER_EXTRA) or "none",
                                   " ".join(IOCHAR_USER_EXTRA) or "none",
                                   "; A/A control" if args.control else ""))
    tables = []
    try:
        for c in cases:
            log("case %d" % c)
            t0 = time.monotonic()
            table, data = CASES[c](args, log)
            data["seconds"] = time.monotonic() - t0
            report["cases"][str(c)] = data
            tables.append(table)
            print("\n" + table.render() + "\n", flush=True)
            with open(out_path, "w") as f:  # keep partial results if interrupted later
                json.dump(report, f, indent=1)
    finally:
        shutil.rmtree(bindir, ignore_errors=True)
        if not args.keep_files:
            for p in (BUF_FILE, DIRECT_FILE):
                if os.path.exists(p):
                    os.unlink(p)
            try:
                os.rmdir(WORKDIR)
            except OSError:
                pass
    report["seconds"] = time.monotonic() - t_start
    with open(out_path, "w") as f:
        json.dump(report, f, indent=1)

    print("=" * 78)
    print("Summary (medians of %d rounds; ±x%% = half the min..max range of the rounds;"
          % args.rounds)
    print("verdicts use iochar/fio = ratio of the medians, case 3's the paired ones)")
    print(LEGEND)
    print("date %s, kernel %s, %s, %s CPUs (%s)" % (env["date_utc"], env["kernel"],
                                                    env["fio_version"], env["cpus"],
                                                    env["cpu_model"]))
    if args.control:
        print("CONTROL (A/A) RUN: the 'iochar' column is fio, with fio's command line")
    for t in tables:
        print("\n" + t.render())
    print("\nraw per-round numbers: %s (%.0f s in all)" % (out_path, report["seconds"]))


if __name__ == "__main__":
    main()
