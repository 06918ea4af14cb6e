#!/usr/bin/env python3
"""check_dom.py - compare the charts of a report as written (SOURCE.html)
with the DOM a browser built from it (--dump-dom output): every
<svg class="chart"> must be there, with the same data-chart kind and
data-points, and as many data marks (class "dp ...") inside as it claims.
The per-host tables of runs over many hosts (<table class="hosts"
data-hosts=N>) must be there too, each with N host rows and a total row.
Prints one line per chart kind; exits 1 on any difference."""
import re
import sys
from html.parser import HTMLParser


class Charts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.charts = []      # [kind, claimed points, marks found]
        self.depth = 0        # <svg> nesting inside a chart
        self.hosts = []       # [claimed hosts, host rows, total rows]
        self.in_hosts = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = (a.get("class") or "").split()
        if tag == "table":
            self.in_hosts = "hosts" in cls
            if self.in_hosts:
                self.hosts.append([int(a.get("data-hosts", -1)), 0, 0])
        if tag == "tr" and self.in_hosts:
            self.hosts[-1][1] += "host" in cls
            self.hosts[-1][2] += "total" in cls
        if tag == "svg" and "chart" in (a.get("class") or "").split():
            self.charts.append([a.get("data-chart"), int(a.get("data-points", -1)), 0])
            self.depth = 1
            return
        if self.depth and tag == "svg":
            self.depth += 1
        if self.depth and "dp" in (a.get("class") or "").split():
            self.charts[-1][2] += 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag == "svg" and self.depth:
            self.depth -= 1

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_hosts = False
        if tag == "svg" and self.depth:
            self.depth -= 1


def parse(path):
    p = Charts()
    p.feed(open(path, encoding="utf-8").read())
    return p


def main():
    sp, dp = parse(sys.argv[1]), parse(sys.argv[2])
    src, dom = sp.charts, dp.charts
    ok = True
    if sp.hosts != dp.hosts:
        print(f"per-host tables differ: source {sp.hosts}, DOM {dp.hosts}")
        ok = False
    for claimed, rows, totals in dp.hosts:
        if claimed != rows or totals != 1:
            print(f"per-host table: data-hosts={claimed} but {rows} host rows, {totals} totals")
            ok = False
    if dp.hosts:
        print(f"  per-host tables: {len(dp.hosts)}, {sum(h[1] for h in dp.hosts)} host rows")
    if not src:
        print("no charts in the source")
        ok = False
    if [c[:2] for c in src] != [c[:2] for c in dom]:
        print(f"charts differ: source {len(src)}, DOM {len(dom)}")
        ok = False
    for kind, claimed, marks in dom:
        if claimed != marks:
            print(f"{kind}: data-points={claimed} but {marks} marks in the DOM")
            ok = False
    kinds = {}
    for kind, claimed, _ in dom:
        n, pts = kinds.get(kind, (0, 0))
        kinds[kind] = (n + 1, pts + claimed)
    for kind, (n, pts) in sorted(kinds.items()):
        print(f"  {kind}: {n} charts, {pts} points")
    sys.exit(0 if ok else 1)


main()
