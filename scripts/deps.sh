#!/usr/bin/env bash
# Installs the Debian packages iochar needs to build, test and benchmark,
# when any is missing. Idempotent; needs root (or sudo) only to install.
set -euo pipefail

PKGS=(build-essential pkg-config liburing-dev libaio-dev libblkid-dev
      libcmocka-dev libjson-c-dev fio util-linux e2fsprogs fdisk
      clang libclang-rt-14-dev valgrind # these three: fuzz.sh, valgrind.sh
      chromium python3 # the report's browser test (tests/browser/)
      libopenmpi-dev openmpi-bin) # runs over many hosts (docs/mpi.md)
PKGS+=(iperf3 iproute2) # iochar net: interop tests, namespaces, bench/net.sh

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
echo "deps: installing ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
	"${missing[@]}" >/dev/null
