#!/usr/bin/env bash
# test_report_browser.sh - open an iochar HTML report in headless Chromium
# (Debian's `chromium`) and check what a reader would get:
#   - the page loads and logs no console message (error or other);
#   - it makes no network request: Chromium runs behind a proxy that
#     refuses everything and a resolver that resolves nothing, and its
#     NetLog must show no request from the page; the report's HTML has no
#     src or href that is not an in-page #anchor;
#   - every chart is in the DOM with its data-points and as many data marks;
#   - at 1280 and 1024 px, and as printed (the print stylesheet at A4's 718 px), no
#     two labels of a chart overlap, none leaves its chart, and the page
#     does not scroll sideways (check_layout.py measures a
#     copy of the report with a probe script; the report has none);
#   - the screenshot is not blank: many distinct colours, the charts'
#     blue (#0072B2) among them.
# A canary page with an external image and a console.error first proves
# both detectors see what they must.
#
#     tests/browser/test_report_browser.sh REPORT.html OUTDIR
#
# Leaves OUTDIR/report.png (the screenshot), report-dom.html, report-net.json
# and report-log.txt (Chromium's log), and the same for the canary.
# Exit 0 pass, 1 fail, 77 skip (no chromium or python3).
set -uo pipefail
html=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)

chrome=
for c in chromium chromium-browser; do
	command -v "$c" >/dev/null 2>&1 && { chrome=$c; break; }
done
[ -n "$chrome" ] || { echo "SKIP: chromium not installed (scripts/deps.sh installs it)"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 not installed"; exit 77; }

mkdir -p "$out" && out=$(cd "$out" && pwd) # file:// URLs need absolute paths
profile=$(mktemp -d "${TMPDIR:-/tmp}/iochar-chromium-XXXXXX")
trap 'rm -rf "$profile"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# No network: every request goes to a proxy on a closed port, no name
# resolves, background services are off.
chrome_run() {
	timeout 120 "$chrome" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$profile" --proxy-server=127.0.0.1:9 \
		"--host-resolver-rules=MAP * ~NOTFOUND" \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --disable-default-apps --disable-extensions \
		--hide-scrollbars --enable-logging=stderr --v=0 "$@"
}

page_check() { # NAME URL [ARGS]: DOM, NetLog and log of one load
	local name=$1 url=$2
	shift 2
	chrome_run --log-net-log="$out/$name-net.json" "$@" --dump-dom "$url" \
		>"$out/$name-dom.html" 2>"$out/$name-log.txt"
}

# 1. the detectors work: the canary's image request and console error show
canary=$out/canary.html
printf '%s\n' '<!DOCTYPE html><html><head><title>canary</title></head><body>' \
	'<img src="http://canary.invalid/x.png"><script>console.error("canary-error")</script>' \
	'</body></html>' >"$canary"
page_check canary "file://$canary" || fail "chromium failed on the canary page"
python3 "$here/net_requests.py" "$out/canary-net.json" | grep -q canary.invalid ||
	fail "the NetLog check does not see the canary's request"
grep -q 'CONSOLE.*canary-error' "$out/canary-log.txt" ||
	fail "the console check does not see the canary's console.error"

# 2. the report itself
case $html in /*) ;; *) html=$PWD/$html ;; esac
grep -Eo '(src|href|xlink:href)="[^"]*"' "$html" | grep -v '="#' &&
	fail "the report refers to something outside itself (above)"
grep -Eiq '<script|@import|url\(' "$html" && fail "the report has a script, @import or url()"

# one load gives the DOM, the NetLog, the console and the screenshot
page_check report "file://$html" --screenshot="$out/report.png" --window-size=1000,1800 ||
	fail "chromium failed to load the report"
grep -q '</html>' "$out/report-dom.html" || fail "no DOM dumped: the page did not load"
grep -q '<title>iochar report' "$out/report-dom.html" || fail "the DOM is not the report"
if grep 'CONSOLE' "$out/report-log.txt"; then fail "console messages (above)"; fi
reqs=$(python3 "$here/net_requests.py" "$out/report-net.json")
[ -z "$reqs" ] || fail "the page made network requests: $reqs"
python3 "$here/check_dom.py" "$html" "$out/report-dom.html" || fail "charts in the DOM differ"
python3 "$here/check_layout.py" "$chrome" "$html" "$out" 1280 1024 print:718 ||
	fail "text in the report overlaps or leaves the page (above)"

# 3. the screenshot
[ -s "$out/report.png" ] || fail "no screenshot written"
read -r w h colours blue < <(python3 "$here/png_colours.py" "$out/report.png" --has 0072b2) ||
	fail "cannot decode the screenshot"
echo "  screenshot ${w}x${h}: $colours distinct colours, chart blue present: $blue"
[ "$colours" -ge 50 ] || fail "the screenshot looks blank ($colours colours)"
[ "$blue" = yes ] || fail "no chart colour in the screenshot"
echo "PASS: report renders in $("$chrome" --version 2>/dev/null | head -n1)"
