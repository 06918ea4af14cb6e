#!/usr/bin/env python3
"""fio_examples.py - issue 14's measurement: fio 3.33's own example job
files (and job files fio's genfio writes) run through fio and iochar.

  scripts/fio_examples.py [--iochar build/iochar] [--examples DIR]
                          [--genfio] [--markdown FILE] [--check] [NAME ...]

For each examples/*.fio (or the NAMEs given): fio must accept it
(`fio --parse-only`, the original file) and every ioengine it names (fio's
default, psync, when none) must be one of FILE_ENGINES; the others are
listed as not eligible, with the reason. An eligible file is copied into two
sandboxes (tests/fio_same.py: paths moved into the sandbox, sizes, times,
file and I/O counts capped), run by fio in one and iochar in the other, and
one line says:
  runs-same       iochar ran the jobs, clones, groups, rw and I/O sizes fio ran
  runs-different  what differs
  refused         the blockers iochar named (option keys), exit 2, nothing written
  fails           iochar exited otherwise (its last line)
then the totals, with runs-same as a share of the eligible files that fio
itself runs in the sandbox, and the blockers ranked by how many files each
blocks. --markdown writes that as docs/fio-examples.md. --check turns the
lines into a verdict (exit 1 on any): a file iochar runs must run the same;
a refusal must exit 2, write nothing, name a file:line for every blocker
and, when iochar names more than one blocker at all, name them all at once.
The share is reported, not checked, until issue 14 reaches it.
"""

import argparse
import collections
import concurrent.futures
import glob
import hashlib
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import fio_same  # noqa: E402

# Engines that issue I/O to plain files with nothing but the kernel: the
# ones issue 14 asks iochar to run, and fio's file-operation engines; and
# the net engine, whose examples talk to themselves on the machine.
FILE_ENGINES = {"sync", "psync", "vsync", "pvsync", "pvsync2", "mmap",
                "posixaio", "libaio", "io_uring", "null",
                "falloc", "ftruncate", "filecreate", "filestat", "filedelete",
                "net"}
FIO_DEFAULT_ENGINE = "psync"
CACHE = os.environ.get("FIO_SAME_CACHE", "/tmp/iochar-fio-same-cache")
JOBS = 2
EXAMPLES = os.environ.get("FIO_SRC_CACHE", "/var/cache/iochar/fio-3.33") + "/examples"


def is_multicast(host):
    """Is host an IPv4 multicast group (224.0.0.0 to 239.255.255.255)?"""
    parts = host.split(".")
    return len(parts) == 4 and parts[0].isdigit() and 224 <= int(parts[0]) <= 239


def eligibility(path):
    """None when the file is eligible, else why not. The engines are read
    from the file first (fio's parse costs a quarter of a second)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        opts = fio_same.option_lines(f.read())
    engines = {v.split(":")[0] for _, _, k, v in opts if k == "ioengine" and v} or {FIO_DEFAULT_ENGINE}
    other = sorted(engines - FILE_ENGINES)
    if other:
        return "needs engine " + ", ".join(other)
    if any(k == "hostname" and is_multicast(v) for _, _, k, v in opts):
        return "not run: udp multicast would leave the machine"
    sb = fio_same.sandbox(path)
    fio_same.remove(sb)
    if sb.escapes:
        return "not run: " + sb.escapes
    with tempfile.TemporaryDirectory(prefix="fioparse-") as d:
        st, _, se = fio_same.run(["fio", "--parse-only", os.path.abspath(path)], d)
    if st != 0:
        return "fio refuses it: " + (se.strip().splitlines() or ["exit %d" % st])[-1]
    return None


def run_fio(path):
    """(structure, None) of fio's run of the sandbox copy, or (None, why).
    A failure is tried once more, in a fresh sandbox but not after a hang:
    some examples fail in fio now and then (cross-stripe-verify's clones
    verified overlapping regions while the sandbox capped offset_increment
    of a verifying file as any other's: fio_same now keeps its clones
    apart)."""
    for attempt in range(2):
        sb = fio_same.sandbox(path)
        try:
            st, doc, se = fio_same.run_tool("fio", sb)
        finally:
            fio_same.remove(sb)
        if st == 0 and doc:
            return fio_same.structure(doc), None
        if st == 124:
            break
    return None, "fio fails in the sandbox (exit %d): %s" % (st, (se.strip().splitlines() or [""])[-1])


def run_iochar(iochar, path, fio_of, multi):
    """(verdict, detail, problems, blocker keys, status) of iochar on the
    sandbox copy; fio_of() gives fio's facts when iochar ran the file.
    problems: what --check fails on."""
    sb = fio_same.sandbox(path)
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    try:
        before = fio_same.tree(sb.root)
        st, doc, se = fio_same.run_tool(iochar, sb)
        after = fio_same.tree(sb.root)
        if st == 0 and doc:
            facts = fio_of()
            if facts["fio_why"]:
                return "fio fails", facts["fio_why"], [], [], st
            diffs = fio_same.compare(facts["fio"], fio_same.structure(doc))
            if diffs:
                return "runs-different", "; ".join(diffs), diffs, [], st
            return "runs-same", "", [], [], st
        if st != 2:
            last = (se.strip().splitlines() or [""])[-1]
            return "fails", "exit %d: %s" % (st, last), ["exit %d, not 0 or 2: %s" % (st, last)], [], st
        wrote = sorted(p for p in after if before.get(p) != after[p])
        return refused(iochar, sb, text, se, wrote, multi) + (st,)
    finally:
        fio_same.remove(sb)


def refused(iochar, sb, text, se, wrote, multi):
    named = fio_same.named_lines(se, sb)
    res = fio_same.blockers(iochar, sb, named)
    keys = sorted({fio_same.line_key(text, n) for n in res["blockers"] if n})
    detail = ", ".join(keys) or se.strip().splitlines()[-1]
    problems = []
    if wrote:
        problems.append("refused but wrote " + ", ".join(wrote))
    if 0 in named:
        problems.append("names a line the sandbox added: " + se.strip())
    if not named:
        problems.append("refusal names no file:line: " + se.strip())
    if res["unnamed"]:
        problems.append("a blocker without file:line once %s were removed: %s"
                        % (keys, res["unnamed"]))
    missed = sorted({fio_same.line_key(text, n) for n in res["blockers"] - named})
    if missed:
        detail += " (named at first: %s)" % ", ".join(
            sorted({fio_same.line_key(text, n) for n in named if n}))
        if multi:
            problems.append("not named at first: " + ", ".join(missed))
    return "refused", detail, problems, keys


def names_every_blocker(iochar):
    """Does iochar name more than one blocker of a file at once? Asked with
    a file of two unknown keys; until it does, --check reports blockers
    named one at a time but does not fail on them."""
    with tempfile.TemporaryDirectory(prefix="fionames-") as d:
        with open(os.path.join(d, "two.fio"), "w") as f:
            f.write("[a]\nsize=4k\nnot_an_option_1=1\nnot_an_option_2=2\n")
        _, _, se = fio_same.run([iochar, "run", "two.fio"], d)
    return "two.fio:3:" in se and "two.fio:4:" in se


def genfio_files(outdir):
    """Job files genfio writes for two disks: sequential and parallel (-a)
    direct at 4k, and parallel cached (-c) at depth 4 and 64k. The disks are names only: genfio writes text, and the
    sandbox moves every absolute path into itself (the fixed names let
    fio's verdicts be cached). Returns {path: label}."""
    disks = "/iochar-genfio/disk-a.dat,/iochar-genfio/disk-b.dat"
    out = {}
    # few modes and one block size each: fio spends some 0.4 s per group
    # (a stonewall each), and genfio -a makes 3 per mode
    for i, v in enumerate([["-a", "-b", "4k", "-m", "write,randread"],
                           ["-p", "-c", "-D", "4", "-b", "64k", "-m", "randwrite,read"]]):
        sub = os.path.join(outdir, "g%d" % i) + "/"
        fio_same.run(["genfio", "-d", disks, "-z", "1m", "-r", "1", "-x", sub] + v, outdir)
        for p in glob.glob(sub + "*.fio"):
            out[p] = "genfio " + " ".join(v)
    return out


def _cache_path(path):
    """Where fio's verdicts on this file are kept: fio 3.33 does the same
    with the same file, so the suite's second pass (ASan) and later runs
    reuse them. The key covers the file, the sandbox rules and fio."""
    h = hashlib.sha256()
    for p in (path, fio_same.__file__, __file__):
        with open(p, "rb") as f:
            h.update(f.read())
    h.update(subprocess.run(["fio", "--version"], capture_output=True).stdout)
    return os.path.join(CACHE, h.hexdigest()[:32] + ".json")


def fio_facts(path, need_run):
    """{"why": why not eligible or None, "fio": fio's structure or None,
    "fio_why": why fio fails}, from the cache when it holds what is needed."""
    cp = _cache_path(path)
    try:
        with open(cp) as f:
            facts = json.load(f)
    except (OSError, ValueError):
        facts = {"why": eligibility(path)}
    if need_run and not facts["why"] and "fio" not in facts:
        facts["fio"], facts["fio_why"] = run_fio(path)
    os.makedirs(CACHE, exist_ok=True)
    tmp = "%s.%d" % (cp, os.getpid())
    with open(tmp, "w") as f:
        json.dump(facts, f)
    os.replace(tmp, cp)
    return facts


def measure_one(iochar, p, name, multi, fio_first):
    """One row: (name, verdict, detail, problems, blocker keys). fio runs
    the file when iochar ran it (to compare) or fio_first (to count it)."""
    facts = fio_facts(p, fio_first)
    if facts["why"]:
        return (name, "not eligible", facts["why"], [], [])
    if facts.get("fio_why"):  # known from the cache even when not asked
        return (name, "fio fails", facts["fio_why"], [], [])
    v, detail, problems, keys, st = run_iochar(iochar, p, lambda: fio_facts(p, True), multi)
    return (name, v, detail, problems, keys)


def measure(iochar, paths, multi, fio_first, label=None):
    # two at a time: each file has its own sandboxes, and the machine's
    # other work keeps its share
    with concurrent.futures.ThreadPoolExecutor(max_workers=JOBS) as ex:
        futs = [ex.submit(measure_one, iochar, p, label(p) if label else os.path.basename(p),
                          multi, fio_first) for p in paths]
        rows = [f.result() for f in futs]
    for r in rows:
        if r[1] not in ("not eligible", "fio fails"):
            print("%-34s %-15s %s" % r[:3], flush=True)
    return rows


def totals(rows):
    c = collections.Counter(r[1] for r in rows)
    runnable = sum(c[k] for k in ("runs-same", "runs-different", "refused", "fails"))
    pct = 100.0 * c["runs-same"] / runnable if runnable else 0.0
    return c, runnable, pct


def ranking(rows):
    c = collections.Counter(k for r in rows if r[1] == "refused" for k in r[4])
    return c.most_common()


def markdown(rows, grows, multi, out):
    c, runnable, pct = totals(rows)
    L = ["# fio's example job files in iochar", "",
         "Generated by `scripts/fio_examples.py --genfio --markdown docs/fio-examples.md`",
         "(issue 14's measurement; tests/test_fio_examples.c checks the same runs).",
         "Each of fio 3.33's `examples/*.fio` that fio accepts (`fio --parse-only`) and",
         "that needs only file engines (%s; fio's default psync when none is named)"
         % ", ".join(sorted(FILE_ENGINES)),
         "ran through fio and iochar, each in its own sandbox: a copy of the file with",
         "every absolute path (filename, directory, logs, ...) moved into a temporary",
         "directory, size/filesize/io_size at most 1 MiB, runtime at most %d ms (added"
         % fio_same.CAP_RUNTIME_MS,
         "when absent, as size=1m is when the file has no size), ramp_time at most %d ms,"
         % fio_same.CAP_RAMP_MS,
         "a startdelay other than 0 set to %d ms (fio looks at it only in its 100 ms start loop),"
         % fio_same.SANDBOX_STARTDELAY_MS,
         "nrfiles at most %d, number_ios at most %d,"
         % (fio_same.CAP_NRFILES, fio_same.CAP_NUMBER_IOS),
         "offset at most %d KiB, offset_increment at most %d KiB (tests/fio_same.py)."
         % (fio_same.CAP_OFFSET >> 10, fio_same.CAP_OFFSET_INCREMENT >> 10),
         "Compared from each tool's JSON (fio's layout): the jobs and their clones in order,",
         "the groups (groupid), per job the rw and bs given and the mean bytes per I/O of",
         "each direction that moved data (when sizes are drawn, bssplit or bsrange: within",
         "%d standard errors of the difference of two sample means, from the sizes' standard"
         % fio_same.MEAN_SIZE_SE,
         "deviation the job's options give and each tool's I/O count, a statistical rule,",
         "`fio_same.mean_size_tolerance`; one size: within %d %%), and the order of the jobs from"
         % round(fio_same.MEAN_SIZE_EXACT * 100),
         "their start and end times (a job started after another ended, or while it ran):",
         "fio's from its latency logs (`--write_lat_log --log_unix_epoch=1`, fio's only",
         "addition; a job ends at its last I/O or at its first plus its `job_runtime`, when",
         "it idled on to its runtime), iochar's from `workers[].start_ns`/`end_ns` when it writes them.",
         "The order is not compared when fio merges jobs[] (`group_reporting`) or a job",
         "writes its latency log under its own name.", "",
         "**%d of %d runnable files run the same (%.0f %%)**; %d refused, %d run"
         " differently, %d fail. iochar %s every blocker of a file at once."
         % (c["runs-same"], runnable, pct, c["refused"], c["runs-different"], c["fails"],
            "names" if multi else "does not yet name"), "",
         "| file | result | detail |", "|---|---|---|"]
    for r in rows + grows:
        L.append("| %s | %s | %s |" % (r[0], r[1], r[2].replace("|", "\\|")))
    L += ["", "Blockers by the number of files they block (refused files only):", "",
          "| option | files |", "|---|---|"]
    for k, n in ranking(rows):
        L.append("| `%s` | %d |" % (k, n))
    with open(out, "w") as f:
        f.write("\n".join(L) + "\n")


SELF_A = """[global]
size=256k
ioengine=psync
[one]
rw=write
bs=64k
[two]
rw=randread
bs=16k
numjobs=2
"""


# A changed copy of SELF_A for iochar, and the phrase compare() must say.
SELF_CHANGES = [("numjobs=2", "numjobs=1", "clones"),
                ("bs=16k", "bs=8k", "mean read size"),
                ("rw=randread", "rw=read", "rw fio randread, iochar read")]


def selftest_order():
    """compare()'s order check on made-up times (iochar writes none yet):
    a stonewall fio kept (the second job 300 ms after the first) that
    iochar broke must be told; a start just after the end must not; jobs
    fio ran together that iochar ran 300 ms apart must be told, 5 ms
    apart (a thread scheduled late) must not."""
    def ents(*times):
        return [{"name": "j%d" % k, "clones": 1, "group": k, "rw": "read", "bs": "4k",
                 "dirs": {"read": 4096}, "start": a, "end": b} for k, (a, b) in enumerate(times)]
    fio = ents((0, 10), (310, 320))
    broke = fio_same.compare(fio, ents((0, 10), (5, 15)))
    kept = fio_same.compare(fio, ents((0, 10), (10.01, 20)))
    problems = []
    if not any("order: j1 started after j0 ended in fio, while j0 ran in iochar" in d for d in broke):
        problems.append("a broken stonewall is not told: %s" % broke)
    if kept:
        problems.append("a kept stonewall compares different: %s" % kept)
    # jobs fio ran together: a thread released 5 ms late is no stonewall,
    # one 300 ms late is
    together = ents((0, 50), (1, 51))
    late = fio_same.compare(together, ents((0, 10), (15, 25)))
    apart = fio_same.compare(together, ents((0, 10), (310, 320)))
    if late:
        problems.append("a thread released late compares different: %s" % late)
    if not any("order: j1 started while j0 ran in fio, after j0 ended in iochar" in d
               for d in apart):
        problems.append("jobs run apart that fio ran together are not told: %s" % apart)
    return problems


def selftest_mean():
    """compare()'s mean-size rule on made-up counts: with bssplit=4k/50:8k/50
    (sizes' sd 2 KiB), 6144 B over 170 reads against 6300 over 160 is
    chance (under 1 standard error), against 7578 (4k/10:8k/90) over 137
    is not (6 standard errors); with one size, 1 % apart is the same and
    3 % is not."""
    def ent(mean, n, opts):
        return [{"name": "j", "clones": 1, "group": 0, "rw": "randread", "bs": "4k",
                 "dirs": {"read": mean}, "ios": {"read": n},
                 "bs_sd": fio_same.bs_sd(opts), "start": None, "end": None}]
    split, one = {"bssplit": "4k/50:8k/50"}, {"bs": "4k"}
    problems = []
    for fm, fn, im, inn, opts, same in [(6144, 170, 6300, 160, split, True),
                                       (6144, 170, 7578, 137, split, False),
                                       (4096, 256, 4137, 256, one, True),
                                       (4096, 256, 4219, 256, one, False)]:
        d = fio_same.compare(ent(fm, fn, opts), ent(im, inn, {}))
        if same == bool(d) or (d and "mean read size" not in d[0]):
            problems.append("mean %d over %d against %d over %d (%s): %s" %
                            (fm, fn, im, inn, opts, d or "same"))
    return problems


def selftest_directions():
    """compare()'s direction rule: a randrw job (50:50) whose 2 I/Os were
    all reads in one tool and a read and a write in the other is chance
    (no write in 2 draws: 25 %); with 40 I/Os (1e-12) it is a difference,
    and a randread job that wrote is always one."""
    def ent(rw, dirs, share):
        return [{"name": "j", "clones": 1, "group": 0, "rw": rw, "bs": "1m",
                 "dirs": {d: 1 << 20 for d in dirs}, "ios": dict(dirs),
                 "read_share": share, "bs_sd": {}, "start": None, "end": None}]
    problems = []
    for f, i, same in [(ent("randrw", {"read": 2}, 0.5), ent("randrw", {"read": 1, "write": 1}, 0.5), True),
                       (ent("randrw", {"read": 40}, 0.5), ent("randrw", {"read": 20, "write": 20}, 0.5), False),
                       (ent("randread", {"read": 2}, None), ent("randread", {"read": 1, "write": 1}, None), False)]:
        d = fio_same.compare(f, i)
        if same == bool(d) or (d and "directions" not in d[0]):
            problems.append("directions %s against %s: %s" % (f[0]["ios"], i[0]["ios"], d or "same"))
    return problems


def selftest(iochar):
    """The comparison itself can fail: SELF_A through fio and iochar must
    compare the same, and iochar's run of each SELF_CHANGES copy must be
    told apart with its phrase. Returns the problems."""
    fs, why = None, None
    with tempfile.TemporaryDirectory(prefix="fioself-") as d:
        a = os.path.join(d, "a.fio")
        with open(a, "w") as f:
            f.write(SELF_A)
        fs, why = run_fio(a)
        if why:
            return [why]
        problems = []
        if [e["name"] for e in fs] != ["one", "two"] or fs[1]["clones"] != 2 \
                or fs[1]["dirs"] != {"read": 16384}:
            problems.append("fio's structure of the self-test is not what its file says: %s" % fs)
        for old, new, phrase in [("", "", None)] + SELF_CHANGES:
            with open(a, "w") as f:
                f.write(SELF_A.replace(old, new) if old else SELF_A)
            sb = fio_same.sandbox(a)
            try:
                st, doc, se = fio_same.run_tool(iochar, sb)
            finally:
                fio_same.remove(sb)
            if st != 0 or not doc:
                problems.append("iochar on the self-test with %s: exit %d: %s" % (new or "no change", st, se.strip()))
                continue
            diffs = fio_same.compare(fs, fio_same.structure(doc))
            print("self-test, iochar with %s: %s" % (new or "the same file", "; ".join(diffs) or "same"))
            if phrase is None and diffs:
                problems.append("the same file compares different: " + "; ".join(diffs))
            if phrase and not any(phrase in x for x in diffs):
                problems.append("%s instead of %s: not told apart (%s)" % (new, old, diffs))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iochar", default=os.environ.get("IOCHAR") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "build", "iochar"))
    ap.add_argument("--examples", default=EXAMPLES)
    ap.add_argument("--genfio", action="store_true", help="also genfio's job files")
    ap.add_argument("--only-genfio", action="store_true")
    ap.add_argument("--markdown")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--selftest", action="store_true", help="only check the comparison itself")
    ap.add_argument("names", nargs="*")
    a = ap.parse_args()
    iochar = os.path.abspath(a.iochar)
    if not os.access(iochar, os.X_OK):
        print("fio_examples.py: no iochar binary at %s (make, or --iochar PATH)" % iochar, file=sys.stderr)
        return 2
    if a.selftest:
        bad = selftest_order() + selftest_mean() + selftest_directions() + selftest(iochar)
        for p in bad:
            print("FAIL self-test: " + p)
        return 1 if bad else 0
    multi = names_every_blocker(iochar)
    rows, grows = [], []
    if not a.only_genfio:
        paths = [os.path.join(a.examples, n if n.endswith(".fio") else n + ".fio") for n in a.names] \
            or sorted(glob.glob(os.path.join(a.examples, "*.fio")))
        rows = measure(iochar, paths, multi, not a.check)
    if a.genfio or a.only_genfio:
        with tempfile.TemporaryDirectory(prefix="genfio-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None) as d:
            gp = genfio_files(d)
            if not gp:
                print("genfio wrote no job file", file=sys.stderr)
                return 1
            grows = measure(iochar, sorted(gp), multi, not a.check, gp.get)
    for r in rows:
        if r[1] in ("not eligible", "fio fails"):
            print("%-34s %-15s %s" % (r[0], r[1], r[2]))
    c, runnable, pct = totals(rows)
    gc, grun, gpct = totals(grows)
    if rows:
        print("examples: %d files, %d eligible, %d runnable%s: %d runs-same (%.1f %%), %d runs-different,"
              " %d refused, %d fails" % (len(rows), len(rows) - c["not eligible"], runnable,
                                         " (with --check, files fio fails count unless cached)" if a.check else "",
                                         c["runs-same"], pct, c["runs-different"], c["refused"], c["fails"]))
        print("blockers: " + ", ".join("%s %d" % kv for kv in ranking(rows)))
    if grows:
        print("genfio: %d files, %d runnable: %d runs-same (%.1f %%), %d refused"
              % (len(grows), grun, gc["runs-same"], gpct, gc["refused"]))
    print("iochar %s every blocker at once" % ("names" if multi else "does not yet name"))
    if a.markdown:
        markdown(rows, grows, multi, a.markdown)
    bad = [(r[0], p) for r in rows + grows for p in r[3]]
    for n, p in bad:
        print("FAIL %s: %s" % (n, p))
    return 1 if a.check and bad else 0


if __name__ == "__main__":
    sys.exit(main())
