#!/usr/bin/env bash
# Puts fio 3.33's examples/ (the job files of the version Debian ships as
# /usr/bin/fio) under $FIO_SRC_CACHE (default /var/cache/iochar/fio-3.33)
# for scripts/fio_examples.py and tests/test_fio_examples.c. The upstream
# tarball comes from Debian's archive, the one place a CI machine can reach,
# and is used only after its sha256 matches. Idempotent: nothing is fetched
# when the examples are there. Nothing of fio's is committed to our tree.
set -euo pipefail

CACHE=${FIO_SRC_CACHE:-/var/cache/iochar/fio-3.33}
URL=http://deb.debian.org/debian/pool/main/f/fio/fio_3.33.orig.tar.gz
SHA256=d2410e13e0f379d061d077cc5ae325835bb7c6186aa7bafc1df954cbc9b014fc
TARBALL=$(dirname "$CACHE")/fio_3.33.orig.tar.gz

# examples/ is moved into place whole after tar succeeded, so an
# interrupted run leaves nothing that looks done.
ls "$CACHE"/examples/*.fio >/dev/null 2>&1 && exit 0

mkdir -p "$(dirname "$CACHE")"
have_sum() { [ -f "$TARBALL" ] && echo "$SHA256  $TARBALL" | sha256sum -c --status; }
if ! have_sum; then
	tmp=$(mktemp "$TARBALL.XXXXXX")
	trap 'rm -f "$tmp"' EXIT
	echo "fio_examples_fetch: downloading $URL" >&2
	if command -v curl >/dev/null; then
		curl -fsSL --max-time 300 -o "$tmp" "$URL"
	elif command -v wget >/dev/null; then
		wget -q -T 300 -O "$tmp" "$URL"
	else
		python3 -c 'import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=300) as r, open(sys.argv[2], "wb") as f:
	f.write(r.read())' "$URL" "$tmp"
	fi
	if ! echo "$SHA256  $tmp" | sha256sum -c --status; then
		echo "fio_examples_fetch: $URL: sha256 is $(sha256sum "$tmp" | cut -d' ' -f1), not $SHA256; not used" >&2
		exit 1
	fi
	mv "$tmp" "$TARBALL"
	trap - EXIT
fi
# Only examples/: fio's sources are read in the cache, never built or copied.
work=$(mktemp -d "$(dirname "$CACHE")/unpack.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar -xzf "$TARBALL" -C "$work" fio-3.33/examples
mkdir -p "$CACHE"
rm -rf "$CACHE/examples"
mv "$work/fio-3.33/examples" "$CACHE/examples"
echo "fio_examples_fetch: $(ls "$CACHE"/examples/*.fio | wc -l) job files in $CACHE/examples" >&2
