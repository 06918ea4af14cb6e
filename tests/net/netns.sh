#!/usr/bin/env bash
# Two network namespaces joined by a veth pair, for the net tests and
# bench/net.sh. Addresses are private (10.x.y.1 and .2 /30) and exist only
# inside the namespaces; nothing on the host's own interfaces changes.
#
#     tests/net/netns.sh up TAG         create ioc-TAG-a and ioc-TAG-b
#     tests/net/netns.sh mtu TAG MTU    set the MTU on both veth ends
#     tests/net/netns.sh down TAG       delete both (their veth goes too)
#     tests/net/netns.sh sweep -        delete ioc-tPID-* / ioc-bPID-* left
#                                       by a test or bench run that was
#                                       killed (its PID is gone)
#
# `up` prints "NS_A NS_B ADDR_A ADDR_B". TAG should be unique to the
# caller (e.g. its PID). Needs root; exits 3 when namespaces cannot be
# made here, so callers can skip with that reason.
set -euo pipefail

cmd=${1:-}
tag=${2:-}
[ -n "$cmd" ] && [ -n "$tag" ] || {
	echo "usage: $0 up|mtu|down TAG [MTU]" >&2
	exit 2
}
a=ioc-$tag-a
b=ioc-$tag-b
# veth names are at most 15 characters
short=$(printf '%s' "$tag" | tail -c 8)
va=iv${short}a
vb=iv${short}b
# a /30 chosen from the tag, inside 10.200.0.0/16
n=$(( $(printf '%s' "$tag" | cksum | cut -d' ' -f1) % 16384 ))
net=10.$((200 + n / 4096)).$(( (n / 16) % 256 )).$(( (n % 16) * 16 ))
base=${net%.*}
last=${net##*.}
addr_a=$base.$((last + 1))
addr_b=$base.$((last + 2))

case $cmd in
sweep)
	for ns in $(ip netns list 2>/dev/null | awk '{print $1}'); do
		case $ns in
		ioc-[tb][0-9]*-[ab]) ;;
		*) continue ;;
		esac
		pid=${ns#ioc-?}
		pid=${pid%-?}
		[ -d "/proc/$pid" ] || ip netns del "$ns" 2>/dev/null || true
	done
	;;
up)
	if [ "$(id -u)" -ne 0 ]; then
		echo "netns: not root" >&2
		exit 3
	fi
	if ! ip netns add "$a" 2>/dev/null; then
		echo "netns: 'ip netns add' failed" >&2
		exit 3
	fi
	trap 'ip netns del "$a" 2>/dev/null || true; ip netns del "$b" 2>/dev/null || true' ERR
	ip netns add "$b"
	ip link add "$va" netns "$a" type veth peer name "$vb" netns "$b"
	ip -n "$a" addr add "$addr_a/30" dev "$va"
	ip -n "$b" addr add "$addr_b/30" dev "$vb"
	ip -n "$a" link set lo up
	ip -n "$b" link set lo up
	ip -n "$a" link set "$va" up
	ip -n "$b" link set "$vb" up
	trap - ERR
	echo "$a $b $addr_a $addr_b"
	;;
mtu)
	mtu=${3:?MTU}
	ip -n "$a" link set "$va" mtu "$mtu"
	ip -n "$b" link set "$vb" mtu "$mtu"
	;;
down)
	rc=0
	ip netns del "$a" 2>/dev/null || rc=1
	ip netns del "$b" 2>/dev/null || rc=1
	exit $rc
	;;
*)
	echo "netns: unknown command $cmd" >&2
	exit 2
	;;
esac
