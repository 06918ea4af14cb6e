#!/usr/bin/env python3
"""check_layout.py - does a report read cleanly at a given page width?

    check_layout.py CHROMIUM REPORT.html OUTDIR WIDTH [WIDTH ...]

A WIDTH of the form print:N checks the page as it prints: the report's
@media print rules are applied on screen (headless Chromium's --dump-dom
cannot emulate print media) at N px, the width a printed page gives
(A4 portrait less 1 cm margins is 718 px at 96 dpi).
For each width, loads a copy of the report with layout_probe.js appended
(the report itself has no script and must stay so) in headless Chromium,
and reads what the probe measured from the dumped DOM: no two text boxes
of a chart overlap, no text leaves its chart, nothing makes the page
scroll sideways. A canary page with two labels drawn on top of each
other and one outside its chart first proves the probe sees both.
Prints one line per width; exits 1 on any finding, 2 on a broken run."""
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CANARY = """<!DOCTYPE html><html><head><title>canary</title></head><body>
<svg class="chart" data-chart="canary" width="300" height="200">
<text x="10" y="50">overlapping label</text><text x="12" y="52">another label</text>
<text x="290" y="50">outside the chart</text>
<circle class="dp pt" cx="40" cy="80" r="4"/><text x="30" y="84">on a marker</text>
<line class="limit" x1="0" y1="110" x2="200" y2="110" stroke="red"/><text x="120" y="114">across</text>
<text class="tick" data-axis="y" x="200" y="140">80,000</text>
<text class="tick" data-axis="y" x="200" y="160">100K</text>
<text class="tick" data-axis="y2" x="250" y="140">0 ns</text>
<text class="tick" data-axis="y2" x="250" y="160">1 ms</text>
<g class="legend-item"><rect x="10" y="180" width="10" height="10"/><text x="22" y="190">a</text></g>
<g class="legend-item"><rect x="32" y="180" width="10" height="10"/><text x="44" y="190">b</text></g>
</svg><table class="summary"><tr><td>%s</td></tr></table></body></html>""" % ("x" * 900)


def probe(chrome, html_text, out, tag, width):
    """The probe's findings for html_text at width (a dict)."""
    script = open(os.path.join(HERE, "layout_probe.js"), encoding="utf-8").read()
    page = os.path.join(out, "layout-%s-%d.html" % (tag, width))
    with open(page, "w", encoding="utf-8") as f:
        f.write(html_text.replace("</body>", "<script>%s</script></body>" % script, 1))
    with tempfile.TemporaryDirectory(prefix="iochar-layout-") as profile:
        cmd = [chrome, "--headless", "--no-sandbox", "--disable-gpu",
               "--user-data-dir=" + profile, "--proxy-server=127.0.0.1:9",
               "--host-resolver-rules=MAP * ~NOTFOUND",
               "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run", "--disable-extensions",
               "--hide-scrollbars", "--window-size=%d,2000" % width,
               "--dump-dom", "file://" + page]
        dom = subprocess.run(cmd, capture_output=True, text=True, timeout=120).stdout
    # the last one: the probe's own comment names the element too
    m = re.findall(r'<pre id="iochar-layout">(\{.*?)</pre>', dom, re.S)
    if not m:
        print("check_layout: the probe did not run at %d px (no result in the DOM)" % width)
        sys.exit(2)
    text = m[-1].replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
    return json.loads(text.replace("&amp;", "&"))


def main():
    chrome, report, out = sys.argv[1], sys.argv[2], sys.argv[3]
    widths = [w if w.startswith("print:") else int(w) for w in sys.argv[4:]]
    os.makedirs(out, exist_ok=True)
    out = os.path.abspath(out)  # file:// URLs need absolute paths
    c = probe(chrome, CANARY, out, "canary", 800)
    missed = [k for k in ("overlaps", "outside", "on_marks", "legend", "ticks", "tables")
              if not c[k]]
    if missed or len(c["ticks"]) != 2:
        print("check_layout: the probe misses the canary's %s: %s" % (", ".join(missed) or "ticks", c))
        return 2
    html = open(report, encoding="utf-8").read()
    bad = 0
    for arg in widths:
        page, tag, w = html, "report", arg
        if isinstance(arg, str):  # print:N
            w = int(arg.split(":", 1)[1])
            page = html.replace("@media print{", "@media all{")
            if page == html:
                print("check_layout: the report has no @media print rules to apply")
                return 2
            tag = "print"
        r = probe(chrome, page, out, tag, w)
        print("%s%d px: %d charts, %d labels, %d marks, %d overlapping pairs, %d over marks, "
              "%d outside, %d legend entries touching, %d axes of mixed formats, "
              "%d too wide, %d tables too wide"
              % ("print, " if tag == "print" else "", w, r["charts"], r["texts"], r["marks"],
                 len(r["overlaps"]), len(r["on_marks"]), len(r["outside"]), len(r["legend"]),
                 len(r["ticks"]), len(r["wide"]), len(r["tables"])))
        for o in r["overlaps"]:
            print("  overlap in %s: '%s' / '%s'" % (o["chart"], o["a"], o["b"]))
        for o in r["outside"]:
            print("  outside its chart in %s: '%s'" % (o["chart"], o["text"]))
        for o in r["on_marks"]:
            print("  text over a mark in %s: '%s' / %s" % (o["chart"], o["text"], o["mark"]))
        for o in r["legend"]:
            print("  legend entries %d and %d touch in %s" % (o["a"], o["b"], o["chart"]))
        for o in r["ticks"]:
            print("  mixed tick formats on axis %s in %s: %s" % (o["axis"], o["chart"], o["ticks"]))
        for o in r["tables"]:
            print("  table %s needs %d px, has %d" % (o["table"], o["width"], o["room"]))
        for o in r["wide"]:
            print("  wider than the page: <%s> '%s' to %d px" % (o["tag"], o["text"], o["right"]))
        if r["charts"] == 0:
            print("  no chart measured")
            bad = 1
        bad |= bool(r["overlaps"] or r["outside"] or r["wide"] or r["on_marks"] or
                     r["legend"] or r["ticks"] or r["tables"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
