/* io.h - moving control bytes over sockets, each read and write bounded by
 * a timeout, and making the sockets (connect, listen, options).
 *
 * Every function returns 0 or -errno: -ETIMEDOUT when the deadline passed,
 * -ECONNRESET when the peer closed the connection before all bytes came
 * (a truncated message), -EMSGSIZE for a JSON length over the caller's cap
 * (nothing is allocated for it). Writes use MSG_NOSIGNAL: a closed peer
 * is an error return, never SIGPIPE.
 */
#ifndef IOCHAR_NET_IO_H
#define IOCHAR_NET_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include <json-c/json.h>

#include "util/err.h"

/* Read exactly len bytes within timeout_ms (<0: no limit). */
int net_read_full(int fd, void *buf, size_t len, int timeout_ms);

/* Write all len bytes within timeout_ms. */
int net_write_full(int fd, const void *buf, size_t len, int timeout_ms);

/* One control state byte. */
int net_send_state(int fd, int state, int timeout_ms);

/* iperf3's error path: SERVER_ERROR, then its error code (i_errno) and
 * errno, each a 32-bit big-endian int; a stock client prints its text. */
#define NET_IEUNIMP 13 /* "an option you are trying to set is not implemented yet" */
int net_send_server_error(int fd, int iperf_errno, int sys_errno, int timeout_ms);
int net_recv_state(int fd, int *state, int timeout_ms);

/* A length-prefixed JSON message. net_recv_json rejects a length over max
 * before reading the body and parses it with net_json_parse; *out is the
 * caller's. Both fill err with one line on failure. */
int net_send_json(int fd, json_object *j, int timeout_ms, struct ioc_err *err);
int net_recv_json(int fd, uint32_t max, int timeout_ms, json_object **out,
		  struct ioc_err *err);

/* Socket options for a data connection, set before connect (client) or
 * right after accept (server). */
struct net_sockopts {
	uint32_t window;        /* SO_SNDBUF and SO_RCVBUF; 0 = leave */
	uint32_t mss;           /* TCP_MAXSEG; 0 = leave */
	bool nodelay;
	const char *congestion; /* TCP_CONGESTION; NULL or "" = leave */
	bool zerocopy;          /* SO_ZEROCOPY */
	unsigned tos;           /* IP_TOS / IPV6_TCLASS (iperf3 -S); 0 = leave */
	uint64_t fq_rate_bps;   /* SO_MAX_PACING_RATE, bits/s (iperf3 --fq-rate);
				 * 0 = unpaced */
};

int net_sockopts_apply(int fd, const struct net_sockopts *o,
		       struct ioc_err *err);

/* Connect a TCP socket to host:port within timeout_ms, options applied
 * first (o may be NULL). *fd is blocking on return. */
int net_connect(const char *host, uint16_t port, int timeout_ms,
		const struct net_sockopts *o, int *fd, struct ioc_err *err);

/* Listen on addr:port: addr an IPv4 or IPv6 literal (no name lookup),
 * port 0 = any. *port_out (may be NULL) receives the bound port. */
int net_listen(const char *addr, uint16_t port, int backlog, int *fd,
	       uint16_t *port_out, struct ioc_err *err);

/* "addr:port" of a socket address ("[addr]:port" for IPv6). */
void net_addr_str(const struct sockaddr_storage *ss, char *buf, size_t len);

/* The host alone (no brackets) into buf and the port; "?" and 0 for a
 * family other than IPv4/IPv6. */
void net_addr_host_port(const struct sockaddr_storage *ss, char *buf,
			size_t len, unsigned *port);

/* Milliseconds left until deadline_ns (monotonic), at least 0. */
int net_ms_left(uint64_t deadline_ns);

#endif
