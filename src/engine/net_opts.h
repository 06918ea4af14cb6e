/* netio_opts.h - the net engine's own options (fio 3.33's engines/net.c
 * names), kept in the job's engine_opts area as struct netio_opts, and the
 * checks fio makes of them, made before anything runs. */
#ifndef IOCHAR_ENGINE_NET_OPTS_H
#define IOCHAR_ENGINE_NET_OPTS_H

#include <stdbool.h>

#include "engine/engine.h"

/* fio's protocol= values; tcp (0) is the default. */
enum netio_proto {
	NET_TCP = 0,
	NET_TCP_V6,
	NET_UDP,
	NET_UDP_V6,
	NET_UNIX,
};

/* All zero is every default: tcp, no port, connect, no ping-pong. */
struct netio_opts {
	char hostname[256];	/* fio's hostname=: the job's peer */
	char interface[64];	/* multicast only: the interface's address */
	unsigned port;		/* 1..65535; 0: not given */
	int proto;		/* enum netio_proto */
	bool listen;		/* tcp: accept a connection */
	bool pingpong;		/* each block sent back by the other end */
	bool nodelay;		/* TCP_NODELAY */
	unsigned ttl;		/* multicast only: accepted, unused */
	unsigned window_size;	/* SO_RCVBUF / SO_SNDBUF; 0: the kernel's */
	unsigned mss;		/* TCP_MAXSEG; 0: the kernel's */
};

/* The rows, {NULL}-terminated: engine_net.options. */
extern const struct option_def netio_options[];

static inline bool netio_is_tcp(int p) { return p == NET_TCP || p == NET_TCP_V6; }
static inline bool netio_is_udp(int p) { return p == NET_UDP || p == NET_UDP_V6; }
static inline bool netio_is_v6(int p) { return p == NET_TCP_V6 || p == NET_UDP_V6; }

/* The job's peer: hostname= when given, else its filename= (fio's
 * hostname= sets the filename); NULL when neither. */
const char *netio_peer(const struct netio_opts *o, const char *filename);

/* Does this end wait for the other (fio's listen: a tcp job with listen,
 * a udp or unix job that reads)? */
bool netio_listens(const struct netio_opts *o, bool job_reads);

/* engine_net.check: fio's refusals of engines/net.c init, made before
 * anything runs (a usage error naming the option, exit 2). */
int netio_check(const struct job_spec *job, struct ioc_err *err);

#endif
