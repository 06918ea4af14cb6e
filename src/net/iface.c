/* iface.c - local interface facts from /sys/class/net and ethtool. */
#define _GNU_SOURCE
#include <dirent.h>
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

static long read_long(const char *name, const char *file, long dflt)
{
	char path[128], buf[32];
	FILE *f;
	long v = dflt;

	snprintf(path, sizeof(path), "/sys/class/net/%s/%s", name, file);
	f = fopen(path, "re");
	if (!f)
		return dflt;
	if (fgets(buf, sizeof(buf), f))
		v = strtol(buf, NULL, 10);
	fclose(f);
	return v;
}

static unsigned count_queues(const char *name, const char *prefix)
{
	char path[128];
	unsigned n = 0;
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/class/net/%s/queues", name);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, prefix, strlen(prefix)))
			n++;
	closedir(d);
	return n;
}

static void read_driver(const char *name, char *out, size_t len)
{
	struct ethtool_drvinfo info = {.cmd = ETHTOOL_GDRVINFO};
	struct ifreq ifr;
	char path[128], link[256];
	int s;

	memset(&ifr, 0, sizeof(ifr));
	copy_cut(ifr.ifr_name, sizeof(ifr.ifr_name), name, strlen(name));
	ifr.ifr_data = (void *)&info;
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s >= 0) {
		int rc = ioctl(s, SIOCETHTOOL, &ifr);
		close(s);
		if (rc == 0 && info.driver[0]) {
			copy_cut(out, len, info.driver, sizeof(info.driver));
			return;
		}
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/device/driver", name);
	ssize_t n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		const char *b = strrchr(link, '/');
		b = b ? b + 1 : link;
		copy_cut(out, len, b, strlen(b));
	}
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
	read_driver(ifc->name, ifc->driver, sizeof(ifc->driver));
	ifc->mtu = (unsigned)read_long(ifc->name, "mtu", 0);
	ifc->speed_mbps = (int)read_long(ifc->name, "speed", -1);
	ifc->rx_queues = count_queues(ifc->name, "rx-");
	ifc->tx_queues = count_queues(ifc->name, "tx-");
}
