#!/usr/bin/env python3
"""net_requests.py - the URLs a page asked for, from a Chromium NetLog
(--log-net-log=FILE): requests whose network isolation key is the page's
file:// site. Chromium's own background requests (updates, accounts) carry
another key and are not the page's. Prints one URL a line."""
import json
import sys

log = json.load(open(sys.argv[1]))
urls = set()
for e in log.get("events", []):
    p = e.get("params") or {}
    if "url" in p and "file://" in str(p.get("network_isolation_key", "")):
        urls.add(p["url"])
for u in sorted(urls):
    print(u)
