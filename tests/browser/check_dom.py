#!/usr/bin/env python3
"""check_dom.py - compare the charts of a report as written (SOURCE.html)
with the DOM a browser built from it (--dump-dom output): every
<svg class="chart"> must be there, with the same data-chart kind and
data-points, and as many data marks (class "dp ...") inside as it claims.
Prints one line per chart kind; exits 1 on any difference."""
import re
import sys
from html.parser import HTMLParser


class Charts(HTMLParser):
    def __init__(self):
        super().__init__()
        self.charts = []      # [kind, claimed points, marks found]
        self.depth = 0        # <svg> nesting inside a chart

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
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
        if tag == "svg" and self.depth:
            self.depth -= 1


def charts(path):
    p = Charts()
    p.feed(open(path, encoding="utf-8").read())
    return p.charts


def main():
    src, dom = charts(sys.argv[1]), charts(sys.argv[2])
    ok = True
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
