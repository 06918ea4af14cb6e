/* iface.c - the interface a connection leaves by: found from the socket's
 * local address, then read by the inventory's NIC reader (one reader of
 * /sys/class/net for both), with ethtool naming the driver of virtual
 * interfaces (veth, bridge) that have no device/driver link in sysfs. */
#define _GNU_SOURCE
#include <ifaddrs.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "inventory/inventory.h"
#include "base/json_writer.h"
#include "net/iface.h"

/* Copy src into dst (size len), cut to fit. */
static void copy_cut(char *dst, size_t len, const char *src, size_t srclen)
{
	size_t n = strnlen(src, srclen);

	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

static bool same_addr(const struct sockaddr *a, const struct sockaddr_storage *b)
{
	if (!a || a->sa_family != b->ss_family)
		return false;
	if (a->sa_family == AF_INET)
		return ((const struct sockaddr_in *)a)->sin_addr.s_addr ==
		       ((const struct sockaddr_in *)b)->sin_addr.s_addr;
	if (a->sa_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
			       &((const struct sockaddr_in6 *)b)->sin6_addr,
			       sizeof(struct in6_addr));
	return false;
}

/* The driver ethtool names, for interfaces sysfs gives none. */
static void ethtool_driver(const char *name, char *out, size_t len)
{
	struct ethtool_drvinfo info = {.cmd = ETHTOOL_GDRVINFO};
	struct ifreq ifr;
	int s, rc;

	memset(&ifr, 0, sizeof(ifr));
	copy_cut(ifr.ifr_name, sizeof(ifr.ifr_name), name, strlen(name));
	ifr.ifr_data = (void *)&info;
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return;
	rc = ioctl(s, SIOCETHTOOL, &ifr);
	close(s);
	if (rc == 0 && info.driver[0])
		copy_cut(out, len, info.driver, sizeof(info.driver));
}

void net_iface_of_socket(int fd, struct net_iface *ifc)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct ifaddrs *ifa = NULL, *i;

	memset(ifc, 0, sizeof(*ifc));
	ifc->speed_mbps = -1;
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0 ||
	    getifaddrs(&ifa) < 0)
		return;
	for (i = ifa; i; i = i->ifa_next)
		if (same_addr(i->ifa_addr, &ss)) {
			copy_cut(ifc->name, sizeof(ifc->name), i->ifa_name,
				 strlen(i->ifa_name));
			break;
		}
	freeifaddrs(ifa);
	if (!ifc->name[0])
		return;
	struct inv_net n;
	inventory_read_net("", &n, ifc->name);
	copy_cut(ifc->driver, sizeof(ifc->driver), n.driver, sizeof(n.driver));
	if (!ifc->driver[0])
		ethtool_driver(ifc->name, ifc->driver, sizeof(ifc->driver));
	ifc->mtu = n.mtu;
	ifc->speed_mbps = n.speed_mbps;
	ifc->rx_queues = n.rx_queues;
	ifc->tx_queues = n.tx_queues;
}

void net_iface_json(struct jw *w, const char *key, const struct net_iface *ifc)
{
	jw_key(w, key);
	jw_object_begin(w);
	jw_kv_string(w, "name", ifc->name);
	jw_kv_string(w, "driver", ifc->driver);
	jw_kv_uint(w, "mtu", ifc->mtu);
	jw_kv_uint(w, "rx_queues", ifc->rx_queues);
	jw_kv_uint(w, "tx_queues", ifc->tx_queues);
	jw_kv_int(w, "speed_mbps", ifc->speed_mbps);
	jw_object_end(w);
}
