"""fio_same.py - run the same job file through fio 3.33 and iochar and say
what each did, for scripts/fio_examples.py and tests/test_fio_examples.c.

A job file is never run as written: `sandbox()` writes a copy whose every
path points into a temporary directory and whose sizes and times are capped
(the rules are the CAP_* constants and `rewrite_line`), the same copy for
both tools, so the two runs are comparable and bounded. `structure()` reads
what a tool's JSON says it ran (fio's own layout, which iochar writes too),
`compare()` lists the differences (the order of the jobs too, from fio's
latency logs and iochar's workers[] times), and `blockers()` finds every line that
blocks iochar (by asking iochar again without the lines it named, until it
accepts the rest), to check that a refusal named them all.

Only the standard library: python3 is the one thing CI installs for this.
"""

import glob
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile

# What the sandbox copy caps; the copy is run by both tools alike.
CAP_SIZE = 1 << 20          # size, filesize, io_size/io_limit: at most 1 MiB
CAP_RUNTIME_MS = 100        # runtime/timeout; added when the file has none
CAP_RAMP_MS = 20            # ramp_time
CAP_NRFILES = 8             # nrfiles/nr_files
CAP_NUMBER_IOS = 256        # number_ios
CAP_OFFSET = 128 << 10      # offset (absolute values)
CAP_OFFSET_INCREMENT = 32 << 10  # offset_increment: 30 clones still fit in 1 MiB
# ... but not in a file that verifies: there a clone's region (size, at
# most CAP_SIZE) stays its own, as the original's offset_increment keeps
# it, or the clones overwrite (and tear) the blocks the others read back
# (cross-stripe-verify failed its check in fio 1 run in 4, in iochar 1 in 2)
CAP_OFFSET_INCREMENT_VERIFY = CAP_SIZE
# startdelay: 0 stays 0, any other becomes this. fio looks at startdelays
# only at the passes of its start loop (backend.c run_threads: 100 ms apart,
# 100 ms more while the jobs of a pass initialize, forked one by one), so
# scaled-down delays below that would order the jobs by fio's loop and fork
# times, not by the file; at this value every delayed job starts in one
# later pass, after the undelayed ones' 100 ms runtime, in both tools.
SANDBOX_STARTDELAY_MS = 200
RUN_TIMEOUT_S = 10          # a tool that takes longer is killed and says so

# Options whose value is a path (or a ':' list of them): pointed into the
# sandbox. Relative names stay: both tools run with the sandbox as cwd.
PATH_KEYS = {"filename", "directory", "filename_format", "write_iolog",
             "read_iolog", "write_bw_log", "write_lat_log", "write_iops_log",
             "write_hist_log", "verify_state_save", "verify_state_load",
             "ioscheduler_file"}
# What no sandbox can contain: commands fio would run, other files read in,
# and paths taken from the environment. A file with any is not run.
UNSANDBOXABLE = {"exec_prerun", "exec_postrun", "include", "ioengine=exec"}
# Prefixes of the temporary directories fio_same and fio_examples.py make.
OUR_DIRS = ("fiosame-", "fioparse-", "fionames-", "fioself-", "genfio-")
SIZE_KEYS = {"size", "filesize", "io_size", "io_limit"}
TIME_KEYS = {"runtime", "timeout"}

_SIZE_RE = re.compile(r"^\s*(\d+)\s*([kmgtp]?)(i?b?)\s*$", re.I)
_TIME_RE = re.compile(r"^\s*(\d+)\s*(us|usec|ms|msec|s|sec|m|min|h|d)?\s*$", re.I)
_TIME_MS = {None: 1000, "us": 0.001, "usec": 0.001, "ms": 1, "msec": 1,
            "s": 1000, "sec": 1000, "m": 60000, "min": 60000,
            "h": 3600000, "d": 86400000}


def parse_size(v):
    """fio's size (powers of 1024, fio's default kb_base) in bytes, or None
    for what this does not read (percentages, ${VAR}, ranges)."""
    m = _SIZE_RE.match(v)
    if not m:
        return None
    return int(m.group(1)) * 1024 ** "bkmgtp".index((m.group(2) or "b").lower())


def parse_ms(v):
    """fio's time value (bare = seconds) in milliseconds, or None."""
    m = _TIME_RE.match(v)
    if not m:
        return None
    return int(m.group(1)) * _TIME_MS[(m.group(2) or None) and m.group(2).lower()]


def split_line(raw):
    """(key, value or None) of a job-file line, or None for a blank line,
    a comment or a section header; inline ';'/'#' comments are dropped."""
    s = raw.strip()
    if not s or s[0] in ";#" or s.startswith("["):
        return None
    s = re.split(r"\s[;#]", s, maxsplit=1)[0].strip()
    if "=" not in s:
        return (s.replace("-", "_").lower(), None)
    k, v = s.split("=", 1)
    return (k.strip().replace("-", "_").lower(), v.strip())


def option_lines(text):
    """[(line number, section, key, value)] of a job file's option lines."""
    out, section = [], None
    for n, raw in enumerate(text.splitlines(), 1):
        m = re.match(r"^\s*\[([^\]]*)\]", raw)
        if m:
            section = m.group(1)
            continue
        kv = split_line(raw)
        if kv:
            out.append((n, section, kv[0], kv[1]))
    return out


class Sandbox:
    """A temporary directory holding the rewritten copy job.fio; `lines`
    maps each line of the copy to the original's line (0: added)."""

    def __init__(self, root):
        self.root = root
        self.paths = {}
        self.lines = []
        self.escapes = None  # why the copy must not run, else None
        self.verifies = False  # the file sets verify= (not 0 or none)

    def path_for(self, orig):
        # the same original path always maps to the same sandbox path, so
        # jobs that shared a file still share one
        if orig not in self.paths:
            base = re.sub(r"[^A-Za-z0-9._$-]", "_", orig.strip("/")) or "f"
            self.paths[orig] = os.path.join(self.root, "p%d-%s" % (len(self.paths), base))
        return self.paths[orig]


def _cap_value(key, v, sb):
    """The sandbox value of one option, or v itself."""
    if key in PATH_KEYS and v:
        parts = re.split(r"(?<!\\):", v)
        new = []
        for p in parts:
            if p.startswith("/") or ".." in p.split("/"):
                p = sb.path_for(p)
            if key == "directory" and p and "$" not in p:
                os.makedirs(os.path.join(sb.root, p), exist_ok=True)
            new.append(p)
        return ":".join(new)
    if key in SIZE_KEYS and v:
        ends = v.split("-")
        sizes = [parse_size(e) for e in ends]
        if all(s is not None for s in sizes):
            return "-".join(str(min(s, CAP_SIZE)) for s in sizes)
    if key in TIME_KEYS and v:
        ms = parse_ms(v)
        if ms is not None and ms > CAP_RUNTIME_MS:
            return "%dms" % CAP_RUNTIME_MS
    if key == "ramp_time" and v:
        ms = parse_ms(v)
        if ms is not None and ms > CAP_RAMP_MS:
            return "%dms" % CAP_RAMP_MS
    if key == "startdelay" and v:
        ends = [parse_ms(e) for e in v.split("-")]
        if all(e is not None for e in ends):
            return "-".join("%dms" % (SANDBOX_STARTDELAY_MS if e else 0) for e in ends)
    if key in ("offset", "offset_increment") and v:
        b = parse_size(v)
        cap = CAP_OFFSET if key == "offset" else \
            CAP_OFFSET_INCREMENT_VERIFY if sb.verifies else CAP_OFFSET_INCREMENT
        if b is not None and b > cap:
            return str(cap)
    if key in ("nrfiles", "nr_files") and v and v.isdigit():
        return str(min(int(v), CAP_NRFILES))
    if key == "number_ios" and v and v.isdigit():
        return str(min(int(v), CAP_NUMBER_IOS))
    return v


def rewrite_line(raw, sb):
    """The sandbox copy of one line (same key, capped or moved value)."""
    kv = split_line(raw)
    if not kv or kv[1] is None:
        return raw
    key, v = kv
    nv = _cap_value(key, v, sb)
    if nv == v:
        return raw
    return "%s=%s" % (raw.split("=", 1)[0].strip(), nv)


def sandbox(job_path, root=None):
    """Write the sandbox copy of job_path into a new directory (under root,
    default /dev/shm when it exists) as job.fio; returns the Sandbox. A file
    with neither size nor filesize gets size=1m, one with no runtime a
    runtime cap, both in a [global] at the top (what fio runs then is the same for
    a file: jobs that named a device now name a sandbox file)."""
    root = root or ("/dev/shm" if os.path.isdir("/dev/shm") else None)
    sb = Sandbox(tempfile.mkdtemp(prefix="fiosame-", dir=root))
    with open(job_path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    keys = {k for _, _, k, _ in option_lines(text)}
    sb.verifies = any(k == "verify" and v and v.lower() not in ("0", "none")
                      for _, _, k, v in option_lines(text))
    head = []
    if not keys & {"size", "filesize"}:
        head.append("size=%d" % CAP_SIZE)
    if not keys & TIME_KEYS:
        head.append("runtime=%dms" % CAP_RUNTIME_MS)
    out, lines = [], []
    if head:
        out += ["[global]"] + head
        lines += [0] * len(out)
    for n, raw in enumerate(text.splitlines(), 1):
        out.append(rewrite_line(raw, sb))
        lines.append(n)
    sb.lines = lines
    with open(os.path.join(sb.root, "job.fio"), "w") as f:
        f.write("\n".join(out) + "\n")
    sb.escapes = escapes(sb, "\n".join(out))
    return sb


def escapes(sb, text):
    """Why the sandbox copy text could reach outside sb.root (None: it
    cannot): a path option naming a place outside it or an environment
    variable, or an option that runs commands or reads other files."""
    root = os.path.realpath(sb.root)
    for c, _, key, v in option_lines(text):
        n = sb.lines[c - 1] if c <= len(sb.lines) else c  # the original's line
        if key.split()[0] in UNSANDBOXABLE or "%s=%s" % (key, v) in UNSANDBOXABLE:
            return "line %d: %s cannot be kept in a sandbox" % (n, key)
        if key not in PATH_KEYS or not v:
            continue
        if "$" in v:
            return "line %d: %s=%s takes a path from the environment" % (n, key, v)
        for p in re.split(r"(?<!\\):", v):
            if not os.path.realpath(os.path.join(root, p)).startswith(root + "/"):
                return "line %d: %s=%s is outside the sandbox" % (n, key, p)
    return None


def remove(sb):
    shutil.rmtree(sb.root, ignore_errors=True)


def _kill_in(cwd):
    """SIGKILL every process working in the directory cwd (one of ours: a
    sandbox), found through /proc: fio's job processes call setsid(), so
    neither a process group nor a parent's pid reaches them once fio's
    main process is gone."""
    root = os.path.realpath(cwd)
    # only in a directory this module's callers made: never the tree, a
    # home or anything another program works in
    if not os.path.basename(root).startswith(OUR_DIRS):
        return
    for pid in filter(lambda x: x.isdigit() and int(x) != os.getpid(), os.listdir("/proc")):
        try:
            where = os.readlink("/proc/%s/cwd" % pid)
        except OSError:
            continue
        if where == root or where.startswith(root + "/"):
            try:
                os.kill(int(pid), signal.SIGKILL)
            except OSError:
                pass


def run(argv, cwd):
    """(exit status, stdout, stderr) of argv in cwd (a sandbox), killed
    with everything it started after RUN_TIMEOUT_S (status 124 then, as
    timeout(1)). Output goes through files, not pipes, so a process left
    holding them cannot keep this waiting."""
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
        p = subprocess.Popen(argv, cwd=cwd, stdout=fo, stderr=fe, start_new_session=True)
        try:
            st = p.wait(timeout=RUN_TIMEOUT_S)
            note = ""
        except subprocess.TimeoutExpired:
            st, note = 124, "\n(killed after %d s)" % RUN_TIMEOUT_S
        # also after a normal exit: a job process fio left behind
        _kill_in(cwd)
        if st == 124:
            p.wait()
        out = []
        for f in (fo, fe):
            f.seek(0)
            out.append(f.read().decode("utf-8", "replace"))
        return st, out[0], out[1] + note


def run_tool(tool, sb, job="job.fio", extra=()):
    """Run "fio" or iochar (its path) on the sandbox copy with JSON output
    into the sandbox; returns (status, parsed JSON or None, stderr). The
    output file is removed afterwards, so a second run starts clean. A
    copy that could reach outside the sandbox is not run (status 125)."""
    if sb.escapes:
        return 125, None, "not run: " + sb.escapes
    out = os.path.join(sb.root, ".out.json")
    lat = os.path.join(sb.root, ".lat")
    if tool == "fio":
        # fio 3.33's JSON has no start or end times: its latency logs, in
        # epoch milliseconds, give each job's (command-line options apply
        # to every job of the file)
        argv = ["fio", "--output-format=json", "--output=" + out,
                "--write_lat_log=" + lat, "--log_unix_epoch=1", job]
    else:
        argv = [tool, "run", job, "--output-format=json", "--output=" + out]
    st, so, se = run(argv + list(extra), sb.root)
    doc = None
    try:
        with open(out) as f:
            txt = f.read()
        # fio may print notes before the document
        doc = json.loads(txt[txt.index("{"):]) if "{" in txt else None
    except (OSError, ValueError):
        doc = None
    if os.path.exists(out):
        os.unlink(out)
    if doc:
        (_fio_times if tool == "fio" else _iochar_times)(doc, lat)
    for f in glob.glob(lat + "_*.log"):
        os.unlink(f)
    return st, doc, se + so


def _fio_times(doc, lat):
    """Each jobs[] member's first submission and end (epoch ms) from
    fio's latency log of its thread, PREFIX_lat.N.log (N: fio's thread
    number, jobs[] order): its last completion, or its first submission
    plus its job_runtime when that is later. Not when jobs[] is merged
    (group_reporting) or a job writes its log elsewhere."""
    jobs = doc.get("jobs", [])
    logs = glob.glob(lat + "_lat.*.log")
    if len(logs) != len(jobs):
        return
    for n, j in enumerate(jobs, 1):
        try:
            with open("%s_lat.%d.log" % (lat, n)) as f:
                rows = [l.split(",") for l in f if l.strip()]
        except OSError:
            return
        if rows:
            j["_start_ms"] = min(int(r[0]) - int(r[1]) / 1e6 for r in rows)
            # the log holds I/Os only: a job that idles after its last one
            # (rate, thinktime) runs on to its runtime, which job_runtime
            # (ms) counts
            j["_end_ms"] = max(max(int(r[0]) for r in rows),
                               j["_start_ms"] + j.get("job_runtime", 0))


def _iochar_times(doc, lat):
    """The same from iochar's workers[] (start_ns, end_ns from the run's
    start_unix_ms), when it writes them: one worker per jobs[] member."""
    ws, jobs = doc.get("workers", []), doc.get("jobs", [])
    t0 = doc.get("start_unix_ms")
    if len(ws) != len(jobs) or t0 is None:
        return
    for w, j in zip(ws, jobs):
        if "start_ns" in w and "end_ns" in w:
            j["_start_ms"] = t0 + w["start_ns"] / 1e6
            j["_end_ms"] = t0 + w["end_ns"] / 1e6


def _norm_rw(v):
    """rw as compared: fio's spelling of the mode, and a modifier (randread:8,
    write:4k, read:-8k) in bytes, as both tools echo it in their own way."""
    v = (v or "read").replace(" ", "").lower()
    mode, _, mod = v.partition(":")
    mode = {"readwrite": "rw"}.get(mode, mode)
    if not mod:
        return mode
    b = parse_size(mod.lstrip("-"))
    return "%s:%s" % (mode, mod if b is None else "%s%d" % ("-" if mod[0] == "-" else "", b))


def _opt(job, doc, *names):
    for src in (job.get("job options", {}), doc.get("global options", {})):
        for n in names:
            if n in src:
                return src[n]
    return None


DIRS = ("read", "write", "trim")


def _dir_lists(v):
    """fio's per-direction lists of a bs-like value: "A" for all three,
    "A,B" reads A and writes and trims B, "A,B,C" each its own."""
    parts = v.split(",")
    if len(parts) == 1:
        return parts * 3
    return [parts[0], parts[1], parts[2] if len(parts) > 2 else parts[1]]


def _sd(pairs):
    """Standard deviation of the sizes of [(size, weight)]."""
    tot = sum(w for _, w in pairs)
    if tot <= 0:
        return None
    mean = sum(b * w for b, w in pairs) / tot
    return (sum(w * (b - mean) ** 2 for b, w in pairs) / tot) ** 0.5


def _bssplit_sd(lst):
    """The sizes' standard deviation of one bssplit list as fio draws it:
    shares missing from 100 spread over the entries without one, and what
    the shares leave goes to the largest share (fio's fall-through); None
    when this cannot read the list."""
    ents = []
    for e in filter(None, lst.split(":")):
        b, _, p = e.partition("/")
        size = parse_size(b)
        try:
            perc = float(p) if p else None
        except ValueError:
            return None
        if size is None:
            return None
        ents.append([size, perc])
    if not ents:
        return 0.0
    given = sum(p for _, p in ents if p is not None)
    missing = [e for e in ents if e[1] is None]
    for e in missing:
        e[1] = int(max(0, 100 - given) / len(missing))
    rest = 100 - sum(p for _, p in ents)
    if rest > 0:
        max(ents, key=lambda e: e[1])[1] += rest
    lo = min(b for b, _ in ents)
    return _sd([(b - b % lo, p) for b, p in ents])


def _bsrange_sd(rng, steps=4096):
    """The sizes' standard deviation of bsrange=LO-HI as fio draws it:
    LO + HI x U[0, 1), aligned down to LO, capped at HI (get_next_buflen);
    U on a fine grid."""
    ends = [parse_size(x) for x in rng.split("-")]
    if len(ends) != 2 or None in ends or not ends[0]:
        return None
    lo, hi = ends
    sizes = []
    for k in range(steps):
        b = lo + int(hi * (k + 0.5) / steps)
        sizes.append((min(b - b % lo, hi), 1))
    return _sd(sizes)


def bs_sd(opts):
    """{direction: the standard deviation of its I/O sizes} that the job
    options opts (fio's echo, e.g. {"bssplit": "4k/30:64k/70"}) give: from
    bssplit, else bsrange, else 0 (one size); None when unreadable."""
    out = dict.fromkeys(DIRS, 0.0)
    for key, fn in (("bsrange", _bsrange_sd), ("bssplit", _bssplit_sd)):
        v = opts.get(key) or opts.get({"bsrange": "blocksize_range"}.get(key, ""))
        if v:
            for d, lst in zip(DIRS, _dir_lists(v)):
                if lst:
                    out[d] = fn(lst)
    return out


def _read_share(job, doc):
    """A mixed job's share of reads (rwmixread, or 100 - rwmixwrite;
    fio's default 50), as a fraction; None for a job of one direction."""
    rw = (_opt(job, doc, "rw", "readwrite") or "read").split(":")[0]
    if rw not in ("rw", "readwrite", "randrw"):
        return None
    r, w = _opt(job, doc, "rwmixread"), _opt(job, doc, "rwmixwrite")
    if r is not None:
        return int(r) / 100
    return 1 - int(w) / 100 if w is not None else 0.5


# A mixed job that moved data in a direction in one tool and not in the
# other differs only when the other, with its own count of I/Os, had
# less than this chance of drawing none in that direction: in a sandbox
# capped at 1 MiB a job of 1 MiB I/Os issues one or two, and which
# direction they take is a coin's throw in both tools.
DIRECTION_CHANCE = 0.001


def _directions_by_chance(f, i):
    """Do f and i (one job's entries) differ in their directions only as
    a mixed job's coin may make them?"""
    share = f.get("read_share")
    if share is None or share != i.get("read_share"):
        return False
    p = {"read": share, "write": 1 - share}
    for have, lack in ((f, i), (i, f)):
        n = sum(lack["ios"].values())
        for d in set(have["dirs"]) - set(lack["dirs"]):
            if d not in p or (1 - p[d]) ** n < DIRECTION_CHANCE:
                return False
    return True


def structure(doc):
    """What a fio-layout JSON document says ran, tool-neutral: one entry
    per jobs[] member, in order, with the name, the group, the rw and bs
    it was given and, per direction that moved data, the mean bytes per
    I/O (dirs), the I/Os (ios) and the standard deviation of the sizes the
    job's options draw (bs_sd). Consecutive equal entries fold into one
    with a count (clones)."""
    ents = []
    for j in doc.get("jobs", []):
        e = {"name": j.get("jobname"), "group": j.get("groupid"),
             "rw": _norm_rw(_opt(j, doc, "rw", "readwrite")),
             "bs": (_opt(j, doc, "bs", "blocksize") or "4k").lower(),
             "dirs": {}, "ios": {},
             "read_share": _read_share(j, doc),
             "bs_sd": bs_sd(dict(doc.get("global options", {}), **j.get("job options", {})))}
        for d in DIRS:
            ios = j.get(d, {}).get("total_ios", 0)
            if ios:
                e["dirs"][d] = round(j[d]["io_bytes"] / ios)
                e["ios"][d] = ios
        t = (j.get("_start_ms"), j.get("_end_ms"))
        if ents and all(ents[-1][k] == e[k] for k in ("name", "group", "rw", "bs")) \
                and set(ents[-1]["dirs"]) == set(e["dirs"]):
            ents[-1]["clones"] += 1
            ents[-1]["times"].append(t)
            continue
        e["clones"], e["times"] = 1, [t]
        ents.append(e)
    for e in ents:
        ts = e.pop("times")
        ok = all(a is not None for a, _ in ts)
        e["start"] = min(a for a, _ in ts) if ok else None
        e["end"] = max(b for _, b in ts) if ok else None
    return ents


# fio starts the jobs after a stonewall or wait_for at its next pass of a
# 100 ms loop, and its times are whole milliseconds: a later start counts
# as "after" only past this gap, "during" only when 1 ms inside the other.
ORDER_GAP_MS = 20


def order(ents, after_gap):
    """{(i, j): "after" | "during"} for each pair of entries i < j whose
    times say clearly whether j started after i ended; pairs without
    times or in between are left out."""
    rel = {}
    for i, a in enumerate(ents):
        for j in range(i + 1, len(ents)):
            b = ents[j]
            if a.get("end") is None or b.get("start") is None:
                continue
            if b["start"] >= a["end"] + after_gap:
                rel[(i, j)] = "after"
            elif b["start"] + 1 < a["end"]:
                rel[(i, j)] = "during"
    return rel


def compare(fs, ios):
    """Differences between fio's structure fs and iochar's ios, as short
    phrases; [] when they ran the same jobs, groups, clones, rw, bs and
    mean I/O sizes (within mean_size_tolerance: bssplit and bsrange are
    random)."""
    diffs = []
    fn = [(e["name"], e["clones"]) for e in fs]
    inn = [(e["name"], e["clones"]) for e in ios]
    if fn != inn:
        return ["jobs x clones: fio %s, iochar %s" % (_show(fn), _show(inn))]
    # groups compare as a partition in order: fio numbers them from 0
    fg = [e["group"] for e in fs]
    ig = [e["group"] for e in ios]
    if _renumber(fg) != _renumber(ig):
        diffs.append("groups: fio %s, iochar %s" % (fg, ig))
    # fio's "after" needs its loop's gap; iochar's own times are exact, so
    # a stonewall it honours counts at any gap. Where fio ran two jobs
    # together, iochar's "after" needs the gap too: on a loaded machine a
    # tiny job can end before the next released thread gets a CPU.
    fo = order(fs, ORDER_GAP_MS)
    io_exact, io_loose = order(ios, 0), order(ios, ORDER_GAP_MS)
    said = {"after": "after %s ended", "during": "while %s ran"}
    for (a, b), r in sorted(fo.items()):
        io = io_exact if r == "after" else io_loose
        if io.get((a, b), r) != r:
            diffs.append("order: %s started %s in fio, %s in iochar"
                         % (fs[b]["name"], said[r] % fs[a]["name"],
                            said[io[(a, b)]] % fs[a]["name"]))
    for f, i in zip(fs, ios):
        if f["rw"] != i["rw"]:
            diffs.append("%s: rw fio %s, iochar %s" % (f["name"], f["rw"], i["rw"]))
        if set(f["dirs"]) != set(i["dirs"]) and not _directions_by_chance(f, i):
            diffs.append("%s: directions fio %s, iochar %s"
                         % (f["name"], sorted(f["dirs"]), sorted(i["dirs"])))
            continue
        for d, fb in f["dirs"].items():
            if d not in i["dirs"]:
                continue  # by chance (above): no sizes to compare
            ib = i["dirs"][d]
            tol = mean_size_tolerance(f, i, d)
            if abs(fb - ib) > tol:
                diffs.append("%s: mean %s size fio %d, iochar %d (tolerance %d)"
                             % (f["name"], d, fb, ib, tol))
    return diffs


# The mean I/O size of a direction is a sample mean when sizes are drawn
# (bssplit, bsrange): two runs differ by chance, with a standard error of
# sd x sqrt(1/n_fio + 1/n_iochar) for n I/Os of a size distribution of
# standard deviation sd, which the job's own options give (bs_sd, from
# fio's echo of them). Means differ when they are more than MEAN_SIZE_SE
# standard errors apart (a chance of some 6e-5 each), or 2 % for one size
# (holes and a last short I/O aside, exact). Over the random map, I/Os
# that run into used blocks are cut short: the sizes' spread is then
# smaller than the options' (measured on iometer-file-access-server.fio's
# bssplit: about half), so the options' figure errs on the side of "same".
MEAN_SIZE_SE = 4
MEAN_SIZE_EXACT = 0.02


def mean_size_tolerance(f, i, d):
    """How far iochar's mean size of direction d may be from fio's
    (entries f and i of structure()): MEAN_SIZE_SE standard errors of the
    difference of two sample means, at least MEAN_SIZE_EXACT of fio's."""
    base = MEAN_SIZE_EXACT * f["dirs"][d]
    sd = f.get("bs_sd", {}).get(d)
    nf, ni = f.get("ios", {}).get(d), i.get("ios", {}).get(d)
    if not sd or not nf or not ni:
        return base
    return max(base, MEAN_SIZE_SE * sd * (1.0 / nf + 1.0 / ni) ** 0.5)


def _renumber(groups):
    seen = {}
    return [seen.setdefault(g, len(seen)) for g in groups]


def _show(pairs):
    return ", ".join("%s%s" % (n, "" if c == 1 else " x%d" % c) for n, c in pairs) or "none"


def tree(root):
    """{relative path: (size, mtime_ns)} of everything under root."""
    out = {}
    for d, dirs, files in os.walk(root):
        for name in dirs + files:
            p = os.path.join(d, name)
            st = os.lstat(p)
            out[os.path.relpath(p, root)] = (st.st_size, st.st_mtime_ns)
    return out


_NAMED_RE = re.compile(r"job\.fio:(\d+):")


def named_lines(stderr, sb):
    """Original line numbers iochar's messages name as job.fio:LINE:
    (lines the sandbox added map to 0)."""
    out = set()
    for m in _NAMED_RE.finditer(stderr):
        n = int(m.group(1))
        out.add(sb.lines[n - 1] if 0 < n <= len(sb.lines) else 0)
    return out


def accepts(iochar, sb, job):
    """(status, stderr) of iochar on job: --parse-only when iochar has it
    (then nothing runs), else a real run of the capped sandbox copy cut
    to 1 ms (acceptance is decided before anything runs)."""
    st, so, se = run([iochar, "run", job, "--parse-only"], sb.root)
    if st == 2 and "parse-only" in se and "unknown option" in se:
        st, _, se = run([iochar, "run", job, "--runtime=1ms"], sb.root)
    return st, se


def blockers(iochar, sb, named):
    """Every line of the sandbox copy that keeps iochar from accepting it,
    given the original lines its refusal named: iochar is asked again
    without the lines named so far until it accepts the rest. Returns a
    dict: blockers (original line numbers), unnamed (the message of a
    refusal that named no new line, else None), induced (a whole job's
    check that only the removals broke, else None), rest (iochar's status
    on the file without the blockers)."""
    with open(os.path.join(sb.root, "job.fio")) as f:
        copy = f.read().splitlines()
    res = {"blockers": set(named) - {0}, "unnamed": None, "induced": None, "rest": None}
    # each pass adds at least one line, so at most len(copy) passes
    for _ in range(len(copy)):
        keep = ["# removed" if sb.lines[i] in res["blockers"] else l
                for i, l in enumerate(copy)]
        # removing filesize= or timeout= may leave the file without any
        # size or runtime, which the sandbox would have added: such a line
        # becomes the sandbox's cap in its place (same line, same section)
        for keys, cap in (({"size", "filesize"}, "size=%d" % CAP_SIZE),
                          (TIME_KEYS, "runtime=%dms" % CAP_RUNTIME_MS)):
            if not {kv[0] for kv in map(split_line, keep) if kv} & keys:
                keep = [cap if k.startswith("# removed") and
                        (split_line(copy[i]) or ("",))[0] in keys else k
                        for i, k in enumerate(keep)]
        with open(os.path.join(sb.root, "rest.fio"), "w") as f:
            f.write("\n".join(keep) + "\n")
        rst, rse = accepts(iochar, sb, "rest.fio")
        res["rest"] = rst
        if rst == 0:
            break
        raw = {int(m) - 1 for m in re.findall(r"rest\.fio:(\d+):", rse)}
        raw = {i for i in raw if 0 <= i < len(sb.lines)}
        # a check of a whole job names its [section]: once lines were
        # removed that is what their removal broke (zonesize left without
        # the zonemode it needed), not a blocker of the file as written
        headers = {i for i in raw if copy[i].lstrip().startswith("[")}
        if res["blockers"] and raw and raw <= headers:
            res["induced"] = rse.strip().splitlines()[-1]
            break
        more = {sb.lines[i] for i in raw} - res["blockers"] - {0}
        if not more:
            res["unnamed"] = rse.strip().splitlines()[-1] if rse.strip() else "(no message)"
            break
        res["blockers"] |= more
    return res


def line_key(text, n):
    """The option key on line n of text (1-based), or the line itself."""
    lines = text.splitlines()
    if not 0 < n <= len(lines):
        return "(line %d)" % n
    kv = split_line(lines[n - 1])
    return kv[0] if kv else lines[n - 1].strip()
