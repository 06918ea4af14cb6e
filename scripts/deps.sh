#!/usr/bin/env bash
# Installs the Debian packages iochar needs to build, test and benchmark,
# when any is missing. Idempotent; needs root (or sudo) only to install.
set -euo pipefail

PKGS=(build-essential pkg-config liburing-dev libaio-dev libblkid-dev
      libcmocka-dev libjson-c-dev fio util-linux e2fsprogs fdisk
      libssl-dev libxxhash-dev openssl # verify methods (src/verify/fio_sum.c)
      clang libclang-rt-14-dev valgrind # these three: fuzz.sh, valgrind.sh
      chromium python3 # the report's browser test (tests/browser/)
      libopenmpi-dev openmpi-bin) # runs over many hosts (docs/mpi.md)
PKGS+=(iperf3 iproute2) # iochar net: interop tests, namespaces, bench/net.sh
PKGS+=(bc) # tests/test_fio_parse.c: fio's keyword arithmetic, checked against bc
PKGS+=(libnuma-dev) # numa_cpu_nodes, numa_mem_policy (src/base/place_opts.c, src/core/placement.c)
PKGS+=(strace) # tests/test_fio_engines.c: iochar's engines' calls against fio's
PKGS+=(zlib1g-dev) # --inflate-log: fio's compressed logs (src/cmd/inflate_log.c)
PKGS+=(gnuplot-nox) # fio_generate_plots and fio2gnuplot -g on fio logs (tests/test_fio_logs.c)
PKGS+=(blktrace) # iochar capture: blktrace records, blkparse -d merges (tests/test_capture.c)
PKGS+=(jq) # tests/test_net_iperf3_json.c: one iperf3 script (jq) over iperf3's and iochar's -J
PKGS+=(ethtool) # tests/test_nic_profile.c: the adapter profile against ethtool's own reading
PKGS+=(libpci-dev pci.ids) # inventory: PCI vendor and device names (src/inventory/pci_names.c)
# iochar app: real databases on the device under test (src/app/, tests/test_app_run.c)
PKGS+=(mariadb-server mariadb-client sysbench postgresql postgresql-contrib)

missing=()
for p in "${PKGS[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing+=("$p")
done
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
if [ ${#missing[@]} -gt 0 ]; then
	echo "deps: installing ${missing[*]}" >&2
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null
fi
# iochar app starts its own private servers: the packages' own services
# are stopped and kept from starting at boot (where there is an init system)
for svc in mariadb postgresql; do
	if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
		$SUDO systemctl disable --now "$svc" >/dev/null 2>&1 || true
	elif [ -x "/etc/init.d/$svc" ]; then
		$SUDO "/etc/init.d/$svc" stop >/dev/null 2>&1 || true
	fi
done
# PostgreSQL refuses to run as root: iochar app runs it as this user
getent passwd iochar-db >/dev/null ||
	$SUDO useradd --system --no-create-home --home-dir /nonexistent \
		--shell /usr/sbin/nologin iochar-db ||
	echo "deps: no user iochar-db made; iochar app runs PostgreSQL as nobody" >&2
# fio 3.33's example job files, which tests/test_fio_examples.c runs; not
# fatal, so quickstart.sh works offline (that test then says SKIP and why)
$SUDO "$(dirname "$0")/fio_examples_fetch.sh" ||
	echo "deps: fio's example job files not fetched; test_fio_examples will skip" >&2
