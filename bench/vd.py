#!/usr/bin/env python3
"""vd.py - RAID virtual drive figures on /dev/shm files.

  1. overhead: RAID 0 over 4 members against the same 4 files as 4
     separate parallel targets (4 jobs), same total queue depth; random 4k
     reads and 1 MiB sequential reads. Target: the VD within 10 %.
  2. RAID 5 and RAID 6 (5 members, 64k strips): small random writes (4k)
     and full-stripe sequential writes (bs = data strips x strip), with the
     amplification iochar reports.
  3. the parity code's GB/s (P, P+Q, two-strip recovery) against memcpy,
     from bench/vd_parity.c built with cc -O2.
  4. write-back against write-through: 64k sequential writes on RAID 5
     (5 members, 64k strips: 4 host writes per stripe), alternating
     rounds; write-back coalesces them into full stripes.
  5. vd rebuild of one RAID 5 member at several --rebuild_rate values
     under a 4k random-read workload: rebuild MB/s, foreground IOPS drop.

Rounds alternate the compared runs so a noisy machine slows both alike;
the medians are printed and the raw runs saved to bench/out/vd-<time>.json.

  python3 bench/vd.py [--rounds N] [--runtime S] [--size 256m] [--quick]
                      [--engines io_uring,psync] [--only overhead|writeback|rebuild]

Part 1 runs once per engine: with psync (one I/O at a time per worker, no
kernel thread pool) both sides spend only CPU on tmpfs, so the ratio is
the VD layer's own cost; with io_uring, buffered tmpfs reads are handed
to io-wq kernel threads, and both sides compete for the same 2 cores.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(iochar, args):
    p = subprocess.run([iochar, "run", "--output-format=json", *args],
                       capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("iochar failed: %s\n%s" % (" ".join(args), p.stderr))
    return json.loads(p.stdout)


def jobfile(path, files, common):
    with open(path, "w") as f:
        f.write("[global]\n" + "".join("%s=%s\n" % kv for kv in common) )
        for i, fn in enumerate(files):
            f.write("[t%d]\nfilename=%s\n" % (i, fn))
    return path


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runtime", default="3")
    ap.add_argument("--size", default="256m", help="per member")
    ap.add_argument("--quick", action="store_true", help="1 round of 1 s, small files: proves it works")
    ap.add_argument("--engines", default="io_uring,psync", help="engines for part 1, comma-separated")
    ap.add_argument("--only", choices=["overhead", "writeback", "rebuild"], help="run one part only")
    a = ap.parse_args()
    if a.quick:
        a.rounds, a.runtime, a.size = 1, "1", "32m"
    subprocess.run(["make", "-s", "-j2"], cwd=ROOT, check=True)
    tmp = tempfile.mkdtemp(prefix="iochar-vd-bench-", dir="/dev/shm")
    iochar = os.path.join(tmp, "iochar")
    shutil.copy(os.path.join(ROOT, "build/iochar"), iochar)
    out = {"rounds": [], "started": time.time()}
    try:
        members = [os.path.join(tmp, "m%d" % i) for i in range(6)]
        t = ["--runtime=" + a.runtime, "--time_based"]
        size_b = int(a.size[:-1]) * {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[a.size[-1]]
        if a.only in ("writeback", "rebuild"):
            part = writeback if a.only == "writeback" else rebuild
            part(iochar, members, size_b, t, a, out)
            return
        r0 = "raid0,strip=64k,members=" + ":".join(members[:4])
        # lay the members out once (the VD run creates and marks them)
        run(iochar, ["--vd=" + r0, "--size=%d" % (4 * size_b), "--rw=write", "--bs=1m", "--runtime=0"])
        rows = {}
        # Both sides: 4 workers, the same member I/O sizes and the same
        # member I/Os in flight. Sequential: a 256k host read is one 64k
        # read per member, against 64k reads on each file.
        # psync does one I/O at a time: depth 1 on both sides.
        cases = []
        for eng in a.engines.split(","):
            sync = eng in ("psync", "sync")
            cases += [("%s randread 4k" % eng, eng, ("randread", "4k", 1 if sync else 8),
                       ("randread", "4k", 1 if sync else 8)),
                      ("%s read 256k/64k" % eng, eng, ("read", "256k", 1 if sync else 2),
                       ("read", "64k", 1 if sync else 8))]
        for rnd in range(a.rounds):
            for name, eng, (vrw, vbs, vqd), (srw, sbs, sqd) in cases:
                jf = jobfile(os.path.join(tmp, "sep.fio"), members[:4],
                             [("ioengine", eng), ("rw", srw), ("bs", sbs), ("iodepth", sqd),
                              ("runtime", a.runtime), ("time_based", 1), ("size", size_b)])
                # 4 jobs on the VD, each on its own quarter (as each
                # separate job has its own file)
                vf = os.path.join(tmp, "vd.fio")
                with open(vf, "w") as f:
                    f.write("[global]\nvd=%s\nioengine=%s\nrw=%s\nbs=%s\niodepth=%d\nruntime=%s\n"
                            "time_based=1\nsize=%d\n" % (r0, eng, vrw, vbs, vqd, a.runtime, size_b))
                    for i in range(4):
                        f.write("[v%d]\noffset=%d\n" % (i, i * size_b))
                vd = run(iochar, [vf])
                sep = run(iochar, [jf])
                rows.setdefault(name, []).append((vd["read"]["bw_bytes"] / 1e6, sep["read"]["bw_bytes"] / 1e6,
                                                  vd["cpu"]["ns_per_io"], sep["cpu"]["ns_per_io"]))
                out["rounds"].append({"case": name, "vd": vd["read"], "separate": sep["read"]})
        print("1. RAID 0 over 4 members vs the 4 files as 4 parallel targets (median of %d)" % a.rounds)
        print("%-24s %10s %10s %8s %12s %12s" % ("case", "VD MB/s", "4f MB/s", "VD/4f", "VD ns/hostIO", "4f ns/IO"))
        for name, v in rows.items():
            m = [statistics.median(x[i] for x in v) for i in range(4)]
            print("%-24s %10.1f %10.1f %7.1f%% %12.0f %12.0f" % (name, m[0], m[1], 100 * m[0] / m[1], m[2], m[3]))
        if a.only != "overhead":

            print("\n2. RAID 5 / RAID 6, 5 members, 64k strips")
            print("%-26s %10s %10s %8s %8s" % ("case", "IOPS", "MB/s", "rd/host", "wr/host"))
            for level, k in (("raid5", 4), ("raid6", 3)):
                spec = "%s,strip=64k,members=%s" % (level, ":".join(members[:5]))
                cap = "--size=%d" % (k * size_b)
                for name, w in (("4k randwrite", ["--rw=randwrite", "--bs=4k", "--iodepth=16"]),
                                ("full-stripe write", ["--rw=write", "--bs=%dk" % (64 * k), "--iodepth=4"])):
                    res = []
                    for rnd in range(a.rounds):
                        res.append(run(iochar, ["--vd=" + spec, cap, *w, *t]))
                    j = sorted(res, key=lambda r: r["write"]["iops"])[len(res) // 2]
                    amp = j["vd"][0]["amplification"]
                    out["rounds"].append({"case": level + " " + name, "write": j["write"], "vd": j["vd"][0]})
                    print("%-26s %10.0f %10.1f %8.2f %8.2f" % (level + " " + name, j["write"]["iops"],
                          j["write"]["bw_bytes"] / 1e6, amp["reads_per_host_io"], amp["writes_per_host_io"]))

            print("\n3. parity code vs memcpy (GB/s of data, one core)")
            exe = os.path.join(tmp, "vd_parity")
            subprocess.run(["cc", "-O2", "-I" + os.path.join(ROOT, "src"), os.path.join(ROOT, "bench/vd_parity.c"),
                            os.path.join(ROOT, "src/vd/parity.c"), "-lpthread", "-o", exe], check=True)
            for k in (4, 8):
                p = json.loads(subprocess.run([exe, str(k), "65536", "0.5" if a.quick else "2"],
                                              capture_output=True, text=True, check=True).stdout)
                out["rounds"].append({"case": "parity", **p})
                print("k=%d: memcpy %.2f  P %.2f  P+Q %.2f  recover 2 data %.2f" % (
                    k, p["memcpy_gb_s"], p["p_xor_gb_s"], p["pq_gen_gb_s"], p["raid6_recover_2data_gb_s"]))
            writeback(iochar, members, size_b, t, a, out)
            rebuild(iochar, members, size_b, t, a, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        save(out)


def writeback(iochar, members, size_b, t, a, out):
    """4. RAID 5 64k sequential writes, write=back vs write=through."""
    print("\n4. RAID 5, 5 members, 64k strips, 64k sequential writes QD 4: write-back vs write-through")
    res = {}
    for rnd in range(a.rounds):
        order = ("through", "back") if rnd % 2 == 0 else ("back", "through")
        for w in order:
            spec = "raid5,strip=64k,members=%s,write=%s" % (":".join(members[:5]), w)
            j = run(iochar, ["--vd=" + spec, "--size=%d" % (4 * size_b), "--rw=write", "--bs=64k",
                             "--iodepth=4", *t])
            res.setdefault(w, []).append(j)
            out["rounds"].append({"case": "writeback " + w, "write": j["write"], "vd": j["vd"][0]})
    print("%-10s %10s %10s %8s %8s %10s" % ("write=", "MB/s", "IOPS", "rd/host", "wr/host", "full rows"))
    med = {}
    for w in ("through", "back"):
        j = sorted(res[w], key=lambda r: r["write"]["bw_bytes"])[len(res[w]) // 2]
        med[w] = statistics.median(r["write"]["bw_bytes"] for r in res[w]) / 1e6
        amp = j["vd"][0]["amplification"]
        print("%-10s %10.1f %10.0f %8.2f %8.2f %10d" % (w, med[w], j["write"]["iops"],
              amp["reads_per_host_io"], amp["writes_per_host_io"], j["vd"][0]["rows"]["full_stripe"]))
    print("back / through: %.2f (median MB/s of %d alternating rounds)" % (med["back"] / med["through"], a.rounds))


def rebuild(iochar, members, size_b, t, a, out):
    """5. vd rebuild at several rates under a 4k random-read workload."""
    spec = "raid5,strip=64k,members=%s" % ":".join(members[:5])
    run(iochar, ["--vd=" + spec, "--size=%d" % (4 * size_b), "--rw=write", "--bs=256k", "--runtime=0"])
    # one read pass first: on tmpfs the first io_uring read of freshly
    # written pages runs at a third of the speed of later ones (seen on
    # this kernel), which would make the baseline look slower than the
    # rebuild passes
    run(iochar, ["--vd=" + spec, "--rw=read", "--bs=1m", "--iodepth=4"])
    rates = "25%,50%,100%"
    print("\n5. RAID 5 rebuild of member 2 (%s) at %s, 4k randread QD 8 foreground" % (a.size, rates))
    p = subprocess.run([iochar, "vd", "rebuild", "--vd=" + spec, "--replace=2", "--rebuild_rate=" + rates,
                        "--rw=randread", "--bs=4k", "--iodepth=8", "--runtime=" + a.runtime,
                        "--output-format=json"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("vd rebuild failed: %s" % p.stderr)
    j = json.loads(p.stdout)
    out["rounds"].append({"case": "rebuild", **j})
    base = j["foreground"]["before"]
    print("baseline: %.0f IOPS, mean %.1f us" % (base["iops"], base["lat_mean_ns"] / 1e3))
    print("%-6s %10s %8s %10s %9s %10s" % ("rate", "MB/s", "busy %", "fg IOPS", "drop %", "mean us"))
    for r in j["rates"]:
        d = r["during"]
        print("%-6s %10.1f %8.1f %10.0f %9.1f %10.1f" % (r["rate"], r["bw_bytes"] / 1e6, r["busy_pct"],
              d["iops"], r["iops_drop_pct"], d["lat_mean_ns"] / 1e3))


def save(out):
    os.makedirs(os.path.join(ROOT, "bench/out"), exist_ok=True)
    path = os.path.join(ROOT, "bench/out/vd-%d.json" % int(time.time()))
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print("\nraw: " + path)


if __name__ == "__main__":
    main()
