#!/usr/bin/env python3
"""bench/net.py - iochar net against iperf3 on loopback, in the same run.

For each stream count (default 1 and 4), every round runs one iochar test
(iochar net server + iochar net client) and one iperf3 test (iperf3 -s +
iperf3 -c), alternating which goes first from round to round, and reports
the medians over the rounds of:
  - throughput: what the receiving end counted, Gbit/s;
  - CPU time per gigabit: user + system time of BOTH whole processes
    (server and client, from wait4's rusage), over the gigabits moved.
The ratio iochar/iperf3 of each. With --veth (root), the same at 4 streams
across two network namespaces on a veth pair at MTU 1500 and 9000, adding
retransmits and the congestion window per stream (from each tool's JSON).

Every process is bounded (test time + 20 s) and killed by PID if it
overruns. Raw numbers: bench/out/net-<timestamp>.json (git-ignored).

    bench/net.sh [--rounds N] [--time S] [--streams 1,4] [--veth] [--len SIZE]
                 [--threads N]
"""
import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NETNS = os.path.join(ROOT, "tests", "net", "netns.sh")


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def listening(port):
    """Is a socket listening on port? Read /proc (no probe connection:
    iperf3 would take one for a client)."""
    for name in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(name) as f:
                next(f)
                for line in f:
                    parts = line.split()
                    if parts[3] == "0A" and int(parts[1].rsplit(":", 1)[1], 16) == port:
                        return True
        except OSError:
            pass
    return False


def wait_child(proc, limit):
    """wait4 with a deadline; kill by PID past it. -> (status, rusage)"""
    end = time.monotonic() + limit
    while True:
        pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
        if pid == proc.pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return proc.returncode, ru
        if time.monotonic() > end:
            os.kill(proc.pid, signal.SIGKILL)
            pid, status, ru = os.wait4(proc.pid, 0)
            proc.returncode = -9
            return -9, ru
        time.sleep(0.01)


def run_pair(tool, iochar, streams, secs, length, ns=None, addr="127.0.0.1",
             threads=0):
    """One test of tool ("iochar" or "iperf3"). ns = (ns_client, ns_server)
    to run inside network namespaces. Returns a dict of figures."""
    port = 5201 if ns else free_port()
    pre_s = ["ip", "netns", "exec", ns[1]] if ns else []
    pre_c = ["ip", "netns", "exec", ns[0]] if ns else []
    if tool == "iochar":
        srv = pre_s + [iochar, "net", "server", "-B", addr, "-p", str(port), "-1"]
        cli = pre_c + [iochar, "net", "client", addr, "-p", str(port), "--output-format=iochar-json",
                       "-t", str(secs), "-P", str(streams), "-l", length]
        if threads:
            srv += ["--threads", str(threads)]
            cli += ["--threads", str(threads)]
    else:
        srv = pre_s + ["iperf3", "-s", "-B", addr, "-p", str(port), "-1"]
        cli = pre_c + ["iperf3", "-c", addr, "-p", str(port), "-J",
                       "-t", str(secs), "-P", str(streams), "-l", length]
    with tempfile.TemporaryFile() as sout, tempfile.TemporaryFile() as cout:
        s = subprocess.Popen(srv, stdout=sout, stderr=subprocess.STDOUT)
        end = time.monotonic() + 5
        while time.monotonic() < end:
            if ns:
                # another netns: ask ss inside it
                r = subprocess.run(["ip", "netns", "exec", ns[1], "ss", "-Htln",
                                    f"sport = :{port}"], capture_output=True, text=True)
                if r.stdout.strip():
                    break
            elif listening(port):
                break
            time.sleep(0.02)
        c = subprocess.Popen(cli, stdout=cout, stderr=subprocess.STDOUT)
        crc, cru = wait_child(c, secs + 20)
        src, sru = wait_child(s, 20)
        cout.seek(0)
        text = cout.read().decode(errors="replace")
    if crc != 0 or src != 0:
        return {"ok": False, "client_rc": crc, "server_rc": src, "output": text[-2000:]}
    j = json.loads(text)
    res = {"ok": True, "cpu_s": cru.ru_utime + cru.ru_stime + sru.ru_utime + sru.ru_stime,
           "cpu_client_s": cru.ru_utime + cru.ru_stime,
           "cpu_server_s": sru.ru_utime + sru.ru_stime}
    if tool == "iochar":
        d = j["directions"][0]
        res["bytes"] = d["receiver_bytes"]
        res["seconds"] = d["seconds"]
        res["retransmits"] = d["retransmits"]
        res["cwnd"] = [st["snd_cwnd"] for st in j["streams"]]
        res["stream_retransmits"] = [st["retransmits"] for st in j["streams"]]
        res["reord_seen"] = [st["reord_seen"] for st in j["streams"]]
        res["mss"] = j["streams"][0]["snd_mss"]
    else:
        e = j["end"]
        res["bytes"] = e["sum_received"]["bytes"]
        res["seconds"] = e["sum_received"]["seconds"]
        res["retransmits"] = e["sum_sent"].get("retransmits", -1)
        res["cwnd"] = [st["sender"].get("max_snd_cwnd", 0) for st in e["streams"]]
        res["stream_retransmits"] = [st["sender"].get("retransmits", -1) for st in e["streams"]]
    res["gbps"] = res["bytes"] * 8 / res["seconds"] / 1e9
    gbit = res["bytes"] * 8 / 1e9
    res["cpu_s_per_gbit"] = res["cpu_s"] / gbit if gbit else None
    return res


def med(runs, key):
    vals = [r[key] for r in runs if r.get("ok") and r.get(key) is not None]
    return statistics.median(vals) if vals else None


def series(label, runs_a, runs_b, rows):
    ga, gb = med(runs_a, "gbps"), med(runs_b, "gbps")
    ca, cb = med(runs_a, "cpu_s_per_gbit"), med(runs_b, "cpu_s_per_gbit")
    ra, rb = med(runs_a, "retransmits"), med(runs_b, "retransmits")
    rows.append((label, ga, gb, ca, cb, ra, rb))


def fmt(v, f="{:.3f}"):
    return "-" if v is None else f.format(v)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--time", type=int, default=5, help="seconds per test")
    ap.add_argument("--streams", default="1,4")
    ap.add_argument("--len", default="128K", help="bytes per write, both tools")
    ap.add_argument("--veth", action="store_true", help="also MTU 1500/9000 over veth (root)")
    ap.add_argument("--threads", type=int, default=0,
                    help="iochar stream threads per end (0 = its default)")
    ap.add_argument("--iochar", default=os.path.join(ROOT, "build", "iochar"))
    a = ap.parse_args()
    if not shutil.which("iperf3"):
        sys.exit("net.py: iperf3 not found (scripts/deps.sh installs it)")
    # a private copy, so a rebuild during the run cannot mix binaries
    tmp = tempfile.mkdtemp(prefix="iochar-bench-net-")
    iochar = os.path.join(tmp, "iochar")
    shutil.copy2(a.iochar, iochar)
    out = {"rounds": a.rounds, "time": a.time, "len": a.len,
           "threads": a.threads, "cases": {},
           "iperf3": subprocess.run(["iperf3", "--version"], capture_output=True,
                                    text=True).stdout.splitlines()[0]}
    rows = []
    try:
        for p in [int(x) for x in a.streams.split(",")]:
            runs = {"iochar": [], "iperf3": []}
            for r in range(a.rounds):
                order = ["iochar", "iperf3"] if r % 2 == 0 else ["iperf3", "iochar"]
                for tool in order:
                    res = run_pair(tool, iochar, p, a.time, a.len, threads=a.threads)
                    runs[tool].append(res)
                    print(f"loopback P={p} round {r + 1} {tool}: " +
                          (f"{res['gbps']:.3f} Gbit/s, {res['cpu_s_per_gbit']:.4f} CPU s/Gbit"
                           if res["ok"] else f"FAILED {res}"), flush=True)
            out["cases"][f"loopback_P{p}"] = runs
            series(f"loopback, {p} stream(s)", runs["iochar"], runs["iperf3"], rows)
        if a.veth:
            tag = f"b{os.getpid()}"
            up = subprocess.run([NETNS, "up", tag], capture_output=True, text=True)
            if up.returncode != 0:
                print(f"veth: skipped ({up.stderr.strip()})")
            else:
                ns_a, ns_b, addr_a, addr_b = up.stdout.split()
                try:
                    for mtu in (1500, 9000):
                        subprocess.run([NETNS, "mtu", tag, str(mtu)], check=True)
                        runs = {"iochar": [], "iperf3": []}
                        for r in range(a.rounds):
                            order = ["iochar", "iperf3"] if r % 2 == 0 else ["iperf3", "iochar"]
                            for tool in order:
                                res = run_pair(tool, iochar, 4, a.time, a.len,
                                               ns=(ns_a, ns_b), addr=addr_b,
                                               threads=a.threads)
                                runs[tool].append(res)
                                print(f"veth MTU {mtu} P=4 round {r + 1} {tool}: " +
                                      (f"{res['gbps']:.3f} Gbit/s, retr {res['retransmits']}, "
                                       f"cwnd {res['cwnd']}" +
                                       (f", reord_seen {res['reord_seen']}" if "reord_seen" in res else "")
                                       if res["ok"] else f"FAILED {res}"), flush=True)
                        out["cases"][f"veth_mtu{mtu}_P4"] = runs
                        series(f"veth MTU {mtu}, 4 streams", runs["iochar"], runs["iperf3"], rows)
                finally:
                    subprocess.run([NETNS, "down", tag])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print()
    print(f"medians over {a.rounds} round(s) of {a.time} s, -l {a.len}; iperf3: {out['iperf3']}")
    print(f"{'case':28} {'iochar Gbit/s':>13} {'iperf3 Gbit/s':>13} {'ratio':>6} "
          f"{'iochar CPU s/Gbit':>17} {'iperf3 CPU s/Gbit':>17} {'ratio':>6} {'retr i/p':>12}")
    for label, ga, gb, ca, cb, ra, rb in rows:
        print(f"{label:28} {fmt(ga):>13} {fmt(gb):>13} "
              f"{fmt(ga / gb if ga and gb else None, '{:.2f}'):>6} "
              f"{fmt(ca, '{:.4f}'):>17} {fmt(cb, '{:.4f}'):>17} "
              f"{fmt(ca / cb if ca and cb else None, '{:.2f}'):>6} "
              f"{fmt(ra, '{:.0f}') + '/' + fmt(rb, '{:.0f}'):>12}")
    os.makedirs(os.path.join(ROOT, "bench", "out"), exist_ok=True)
    path = os.path.join(ROOT, "bench", "out", time.strftime("net-%Y%m%d-%H%M%S.json"))
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
    print(f"raw: {path}")


if __name__ == "__main__":
    main()
