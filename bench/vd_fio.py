#!/usr/bin/env python3
"""vd_fio.py - a RAID 0 virtual drive against fio on its member devices
(issue 23: the VD must not lose IOPS the members could give).

fio has no RAID, so the VD's RAID 0 (64k strips: a 4k read is one member
I/O) is compared with fio running the same I/O on the member devices
directly, as bench/vd.py part 1 does against iochar itself:

  1 job:  the VD at iodepth Q  vs  fio one job, filename=m0:m1:m2:m3, iodepth Q
  4 jobs: the VD, 4 jobs each on its quarter at iodepth Q/4
          vs  fio 4 jobs, one per member, iodepth Q/4

and iochar runs fio's job file too ("iochar" column: the members without
the VD), so each case shows the VD's cost apart from iochar's own. fio's
jobs are processes, each in a session (so a scheduler autogroup) of its
own; iochar weighs its autogroup as that many (util/autogroup.h).

Direct 4k random reads, io_uring and libaio, both tools from job files
(so iochar takes fio's batching: submit 1, reap what there is; --batch
pass gives both tools iodepth_batch_submit and _complete_max = the depth). The
members are loop devices over /dev/shm files this script creates and
removes (root), never any other device. Rounds alternate which tool runs
first; medians of the paired VD/fio ratios are printed with their 90 %
intervals (bench/pairstats.py), the verdict against issue 23's 0.98x (a
'?' when the interval spans it: the rounds lean, they do not decide) and
the load average; raw runs saved to bench/out/vd-fio-<time>.json.

  sudo python3 bench/vd_fio.py [--rounds 5] [--runtime 3] [--qd 32] [--size 256m]
                               [--batch fio|pass]
                               [--iochar build/iochar]
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

from pairstats import decided, fmt_ci, median_ci, verdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sh(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def run_json(args):
    p = sh(args)
    if p.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(args), p.stderr))
    return json.loads(p.stdout[p.stdout.index("{"):])


def read_iops(j, fio):
    if fio:
        return sum(job["read"]["iops"] for job in j["jobs"])
    return j["read"]["iops"]


def jobfile(path, glob, jobs):
    with open(path, "w") as f:
        f.write("[global]\n" + "".join("%s=%s\n" % kv for kv in glob))
        for i, kv in enumerate(jobs):
            f.write("[j%d]\n" % i + "".join("%s=%s\n" % x for x in kv))
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runtime", default="3")
    ap.add_argument("--qd", type=int, default=32, help="total depth (4 jobs: a quarter each)")
    ap.add_argument("--size", default="256m", help="per member")
    ap.add_argument("--batch", choices=["fio", "pass"], default="fio",
                    help="fio: fio's defaults (submit 1); pass: both submit and reap a whole depth")
    ap.add_argument("--iochar", default=os.path.join(ROOT, "build/iochar"), help="the binary")
    a = ap.parse_args()
    if os.geteuid() != 0:
        sys.exit("vd_fio.py: needs root (loop devices)")
    iochar = a.iochar
    size_b = int(a.size[:-1]) * {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[a.size[-1]]
    tmp = tempfile.mkdtemp(prefix="iochar-vdfio-", dir="/dev/shm")
    backs, devs = [], []
    out = {"started": time.time(), "runs": []}
    try:
        for i in range(4):
            b = os.path.join(tmp, "m%d" % i)
            with open(b, "wb") as f:
                f.truncate(size_b)
            backs.append(b)
            p = sh(["losetup", "--find", "--show", b])
            if p.returncode != 0:
                sys.exit("losetup: " + p.stderr)
            devs.append(p.stdout.strip())
        vd = "raid0,strip=64k,members=" + ":".join(devs)
        rows = {}
        for rnd in range(a.rounds):
            for eng in ("io_uring", "libaio"):
                for nj in (1, 4):
                    qd = a.qd // nj
                    g = [("ioengine", eng), ("rw", "randread"), ("bs", "4k"), ("direct", 1),
                         ("iodepth", qd), ("runtime", a.runtime), ("time_based", 1),
                         ("ramp_time", 1), ("norandommap", 1), ("group_reporting", 1)]
                    if a.batch == "pass":
                        g += [("iodepth_batch_submit", qd), ("iodepth_batch_complete_max", qd)]
                    if nj == 1:
                        fj = [[("filename", ":".join(devs)), ("size", 4 * size_b)]]
                        vj = [[("size", 4 * size_b)]]
                    else:
                        fj = [[("filename", d), ("size", size_b)] for d in devs]
                        vj = [[("offset", i * size_b), ("size", size_b)] for i in range(4)]
                    ff = jobfile(os.path.join(tmp, "fio.fio"), g, fj)
                    vf = jobfile(os.path.join(tmp, "vd.fio"), g + [("vd", vd)], vj)
                    tools = ("vd", "iochar", "fio")
                    order = tools[rnd % 3:] + tools[:rnd % 3]
                    res = {}
                    for tool in order:
                        if tool == "fio":
                            j = run_json(["fio", "--output-format=json", ff])
                        elif tool == "iochar":
                            j = run_json([iochar, "run", "--output-format=json", ff])
                        else:
                            j = run_json([iochar, "run", "--output-format=json", vf])
                        res[tool] = read_iops(j, tool == "fio")
                    load = os.getloadavg()[0]
                    name = "%s %d job%s qd %d" % (eng, nj, "s" if nj > 1 else "", qd)
                    rows.setdefault(name, []).append((res["vd"], res["iochar"], res["fio"], load))
                    out["runs"].append({"case": name, "batch": a.batch, "round": rnd, "first": order[0],
                                        "vd_iops": res["vd"], "iochar_iops": res["iochar"],
                                        "fio_iops": res["fio"], "loadavg_1m": load})
                    print("round %d %-26s vd %8.0f  iochar %8.0f  fio %8.0f  %.2fx %.2fx  load %.1f" % (
                        rnd, name, res["vd"], res["iochar"], res["fio"], res["vd"] / res["fio"],
                        res["iochar"] / res["fio"], load), flush=True)
        print("\nmedians over %d rounds (VD RAID 0 and iochar on the members vs fio on the "
              "4 members; ratios: medians of the paired ratios, [90 %% interval])" % a.rounds)
        print("%-26s %10s %10s %10s %20s %7s %20s %12s" % (
            "case", "VD IOPS", "iochar", "fio IOPS", "VD/fio", ">=0.98", "iochar/fio", "load"))
        for name, v in rows.items():
            vd_r = [x[0] / x[2] for x in v]
            ci = median_ci(vd_r)
            m = statistics.median(vd_r)
            ok = verdict(m >= 0.98, decided(ci, lo_ok=0.98))
            print("%-26s %10.0f %10.0f %10.0f %6.2fx %13s %7s %6.2fx %13s %5.1f-%4.1f" % (
                name, statistics.median(x[0] for x in v), statistics.median(x[1] for x in v),
                statistics.median(x[2] for x in v), m, fmt_ci(ci), ok,
                statistics.median(x[1] / x[2] for x in v),
                fmt_ci(median_ci([x[1] / x[2] for x in v])), min(x[3] for x in v),
                max(x[3] for x in v)))
        os.makedirs(os.path.join(ROOT, "bench/out"), exist_ok=True)
        path = os.path.join(ROOT, "bench/out/vd-fio-%s.json" % time.strftime("%Y%m%d-%H%M%S"))
        with open(path, "w") as f:
            json.dump(out, f, indent=1)
        print("raw: " + path)
    finally:
        for d in devs:
            sh(["losetup", "-d", d])
        for b in backs:
            os.unlink(b)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
