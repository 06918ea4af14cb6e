/* tcpinfo.c - TCP_INFO, the congestion control name and the path MTU.
 * Uses the kernel's struct tcp_info (linux/tcp.h), which carries the
 * fields glibc's older copy lacks (reord_seen, bytes_retrans). */
#include <errno.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>

#include "net/io.h"
#include "net/tcpinfo.h"

#ifndef IP_MTU
#define IP_MTU 14
#endif
#ifndef IPV6_MTU
#define IPV6_MTU 24
#endif

/* Was the field inside what the kernel filled in? */
#define HAS(len, f) \
	((size_t)(len) >= offsetof(struct tcp_info, f) + sizeof(((struct tcp_info *)0)->f))

int net_tcpinfo_sample(int fd, struct net_tcpinfo *ti)
{
	struct tcp_info k;
	socklen_t len = sizeof(k);

	memset(ti, 0, sizeof(*ti));
	memset(&k, 0, sizeof(k));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &k, &len) < 0)
		return -errno;
	ti->valid = true;
	ti->total_retrans = k.tcpi_total_retrans;
	ti->snd_cwnd = k.tcpi_snd_cwnd * k.tcpi_snd_mss;
	ti->rtt_us = k.tcpi_rtt;
	ti->rttvar_us = k.tcpi_rttvar;
	ti->pmtu = k.tcpi_pmtu;
	ti->snd_mss = k.tcpi_snd_mss;
	ti->rcv_mss = k.tcpi_rcv_mss;
	ti->reordering = k.tcpi_reordering;
	if (HAS(len, tcpi_reord_seen))
		ti->reord_seen = k.tcpi_reord_seen;
	if (HAS(len, tcpi_bytes_retrans))
		ti->bytes_retrans = k.tcpi_bytes_retrans;
	if (HAS(len, tcpi_snd_wnd))
		ti->snd_wnd = k.tcpi_snd_wnd;
	return 0;
}

void net_sock_ends(int fd, struct net_sock_ends *e)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	memset(e, 0, sizeof(*e));
	e->socket = fd;
	memset(&ss, 0, sizeof(ss));
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
		ss.ss_family = AF_UNSPEC;
	net_addr_host_port(&ss, e->local_host, sizeof(e->local_host), &e->local_port);
	sl = sizeof(ss);
	memset(&ss, 0, sizeof(ss));
	if (getpeername(fd, (struct sockaddr *)&ss, &sl) < 0)
		ss.ss_family = AF_UNSPEC;
	net_addr_host_port(&ss, e->remote_host, sizeof(e->remote_host), &e->remote_port);
}

void net_tcp_congestion(int fd, char *name, unsigned size)
{
	char buf[32] = "";
	socklen_t len = sizeof(buf) - 1;

	name[0] = '\0';
	if (getsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, buf, &len) < 0)
		return;
	buf[len < sizeof(buf) ? len : sizeof(buf) - 1] = '\0';
	strncpy(name, buf, size - 1);
	name[size - 1] = '\0';
}

unsigned net_path_mtu(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	int mtu = 0;
	socklen_t ml = sizeof(mtu);

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) < 0)
		return 0;
	if (ss.ss_family == AF_INET6) {
		if (getsockopt(fd, IPPROTO_IPV6, IPV6_MTU, &mtu, &ml) < 0)
			return 0;
	} else if (getsockopt(fd, IPPROTO_IP, IP_MTU, &mtu, &ml) < 0) {
		return 0;
	}
	return mtu > 0 ? (unsigned)mtu : 0;
}
