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
<svg class="chart" data-chart="canary" width="300" height="100">
<text x="10" y="50">overlapping label</text><text x="12" y="52">another label</text>
<text x="290" y="50">outside the chart</text></svg></body></html>"""


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
    if not c["overlaps"] or not c["outside"]:
        print("check_layout: the probe misses the canary's overlap or overflow: %s" % c)
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
        print("%s%d px: %d charts, %d labels, %d overlapping pairs, %d outside, %d too wide"
              % ("print, " if tag == "print" else "", w, r["charts"], r["texts"], len(r["overlaps"]), len(r["outside"]),
                 len(r["wide"])))
        for o in r["overlaps"]:
            print("  overlap in %s: '%s' / '%s'" % (o["chart"], o["a"], o["b"]))
        for o in r["outside"]:
            print("  outside its chart in %s: '%s'" % (o["chart"], o["text"]))
        for o in r["wide"]:
            print("  wider than the page: <%s> '%s' to %d px" % (o["tag"], o["text"], o["right"]))
        if r["charts"] == 0:
            print("  no chart measured")
            bad = 1
        bad |= bool(r["overlaps"] or r["outside"] or r["wide"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
