/* tcpinfo.h - one TCP_INFO sample of a connection: what explains a
 * throughput figure (retransmits, congestion window, RTT, path MTU). */
#ifndef IOCHAR_NET_TCPINFO_H
#define IOCHAR_NET_TCPINFO_H

#include <stdbool.h>
#include <stdint.h>

struct net_tcpinfo {
	bool valid;
	uint32_t total_retrans; /* segments retransmitted over the life */
	uint32_t snd_cwnd;      /* congestion window, bytes (segments * MSS) */
	uint32_t rtt_us, rttvar_us;
	uint32_t pmtu;          /* path MTU the kernel uses */
	uint32_t snd_mss, rcv_mss;
	uint32_t reordering;    /* reordering degree the sender assumes */
	uint32_t reord_seen;    /* reordering events seen (Linux >= 4.19) */
	uint64_t bytes_retrans; /* bytes retransmitted (Linux >= 4.19) */
	uint32_t snd_wnd;       /* peer's advertised receive window (>= 5.4) */
};

/* A connected socket's two ends, as iperf3's JSON names them. */
struct net_sock_ends {
	int socket;             /* the descriptor, iperf3's stream name */
	char local_host[46], remote_host[46]; /* INET6_ADDRSTRLEN */
	unsigned local_port, remote_port;
};

/* Fill e from fd (getsockname/getpeername); "?" and 0 where unknown. */
void net_sock_ends(int fd, struct net_sock_ends *e);

/* Sample fd's TCP_INFO into ti (zeroed, valid=false on failure). 0 or
 * -errno. Safe to call from any thread while another moves data. */
int net_tcpinfo_sample(int fd, struct net_tcpinfo *ti);

/* The congestion control in use on fd into name (size >= 16); "" when
 * unknown. */
void net_tcp_congestion(int fd, char *name, unsigned size);

/* IP_MTU / IPV6_MTU of a connected socket (the path MTU), 0 if unknown. */
unsigned net_path_mtu(int fd);

#endif
