/* io.c - bounded reads and writes of control messages; socket setup. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/io.h"
#include "net/proto.h"
#include "util/clock.h"

#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY 60
#endif

int net_ms_left(uint64_t deadline_ns)
{
	uint64_t now = clock_ns();

	if (now >= deadline_ns)
		return 0;
	uint64_t ms = (deadline_ns - now + 999999) / 1000000;
	return ms > 1000000000 ? 1000000000 : (int)ms;
}

static uint64_t deadline_of(int timeout_ms)
{
	return timeout_ms < 0 ? UINT64_MAX
			      : clock_ns() + (uint64_t)timeout_ms * 1000000;
}

static int wait_fd(int fd, short events, uint64_t deadline)
{
	for (;;) {
		struct pollfd p = {fd, events, 0};
		int ms = deadline == UINT64_MAX ? -1 : net_ms_left(deadline);
		int n = poll(&p, 1, ms);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -ETIMEDOUT;
		return 0;
	}
}

int net_read_full(int fd, void *buf, size_t len, int timeout_ms)
{
	uint64_t deadline = deadline_of(timeout_ms);
	size_t got = 0;

	while (got < len) {
		int rc = wait_fd(fd, POLLIN, deadline);
		if (rc)
			return rc;
		ssize_t n = recv(fd, (char *)buf + got, len - got, MSG_DONTWAIT);
		if (n == 0)
			return -ECONNRESET;
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		got += (size_t)n;
	}
	return 0;
}

int net_write_full(int fd, const void *buf, size_t len, int timeout_ms)
{
	uint64_t deadline = deadline_of(timeout_ms);
	size_t put = 0;

	while (put < len) {
		ssize_t n = send(fd, (const char *)buf + put, len - put,
				 MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				return errno == EPIPE ? -ECONNRESET : -errno;
			int rc = wait_fd(fd, POLLOUT, deadline);
			if (rc)
				return rc;
			continue;
		}
		put += (size_t)n;
	}
	return 0;
}

int net_send_state(int fd, int state, int timeout_ms)
{
	int8_t b = (int8_t)state;

	return net_write_full(fd, &b, 1, timeout_ms);
}

int net_send_server_error(int fd, int iperf_errno, int sys_errno, int timeout_ms)
{
	uint8_t b[9] = {(uint8_t)(int8_t)NET_SERVER_ERROR};
	uint32_t e[2] = {htonl((uint32_t)iperf_errno), htonl((uint32_t)sys_errno)};

	memcpy(b + 1, e, sizeof(e));
	return net_write_full(fd, b, sizeof(b), timeout_ms);
}

int net_recv_state(int fd, int *state, int timeout_ms)
{
	int8_t b;
	int rc = net_read_full(fd, &b, 1, timeout_ms);

	if (rc == 0)
		*state = b;
	return rc;
}

int net_send_json(int fd, json_object *j, int timeout_ms, struct ioc_err *err)
{
	size_t len;
	const char *s = json_object_to_json_string_length(
		j, JSON_C_TO_STRING_PLAIN, &len);
	uint8_t hdr[4];
	int rc;

	if (!s)
		return err_set(err, ENOMEM, "out of memory writing JSON");
	net_len_encode((uint32_t)len, hdr);
	rc = net_write_full(fd, hdr, 4, timeout_ms);
	if (!rc)
		rc = net_write_full(fd, s, len, timeout_ms);
	if (rc)
		return err_set(err, -rc, "sending a JSON message: %s",
			       strerror(-rc));
	return 0;
}

int net_recv_json(int fd, uint32_t max, int timeout_ms, json_object **out,
		  struct ioc_err *err)
{
	uint64_t deadline = deadline_of(timeout_ms);
	uint8_t hdr[4];
	uint32_t n;
	char *buf;
	int rc;

	*out = NULL;
	rc = net_read_full(fd, hdr, 4, timeout_ms);
	if (rc)
		return err_set(err, -rc, "reading a JSON length: %s",
			       rc == -ECONNRESET ? "connection closed"
						 : strerror(-rc));
	n = net_len_decode(hdr);
	if (n > max)
		return err_set(err, EMSGSIZE,
			       "JSON length %u over the limit %u", n, max);
	buf = malloc(n ? n : 1);
	if (!buf)
		return err_set(err, ENOMEM, "out of memory");
	rc = net_read_full(fd, buf, n,
			   deadline == UINT64_MAX ? -1 : net_ms_left(deadline));
	if (rc) {
		free(buf);
		return err_set(err, -rc, "reading a JSON message of %u bytes: %s",
			       n, rc == -ECONNRESET ? "truncated, connection closed"
						    : strerror(-rc));
	}
	rc = net_json_parse(buf, n, out, err);
	free(buf);
	return rc;
}

int net_sockopts_apply(int fd, const struct net_sockopts *o,
		       struct ioc_err *err)
{
	int one = 1;

	if (!o)
		return 0;
	if (o->window) {
		int w = (int)o->window;
		if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &w, sizeof(w)) ||
		    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &w, sizeof(w)))
			return err_set(err, errno, "window %u: %s", o->window,
				       strerror(errno));
	}
	if (o->mss) {
		int m = (int)o->mss;
		if (setsockopt(fd, IPPROTO_TCP, TCP_MAXSEG, &m, sizeof(m)))
			return err_set(err, errno, "MSS %u: %s", o->mss,
				       strerror(errno));
	}
	if (o->nodelay &&
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		return err_set(err, errno, "TCP_NODELAY: %s", strerror(errno));
	if (o->congestion && o->congestion[0] &&
	    setsockopt(fd, IPPROTO_TCP, TCP_CONGESTION, o->congestion,
		       (socklen_t)strlen(o->congestion)))
		return err_set(err, errno, "congestion control '%s': %s",
			       o->congestion, strerror(errno));
	if (o->zerocopy &&
	    setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)))
		return err_set(err, errno, "SO_ZEROCOPY: %s", strerror(errno));
	if (o->tos) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		int v = (int)o->tos, rc;
		if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0 && ss.ss_family == AF_INET6)
			rc = setsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS, &v, sizeof(v));
		else
			rc = setsockopt(fd, IPPROTO_IP, IP_TOS, &v, sizeof(v));
		if (rc)
			return err_set(err, errno, "TOS %u: %s", o->tos, strerror(errno));
	}
	if (o->fq_rate_bps) { /* bytes a second: fq's pacing, or TCP's own */
		uint64_t rate = o->fq_rate_bps / 8 ? o->fq_rate_bps / 8 : 1;
		if (setsockopt(fd, SOL_SOCKET, SO_MAX_PACING_RATE, &rate, sizeof(rate)))
			return err_set(err, errno, "--fq-rate %llu: %s",
				       (unsigned long long)o->fq_rate_bps, strerror(errno));
	}
	return 0;
}

static int set_nonblock(int fd, bool on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -errno;
	fl = on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK;
	return fcntl(fd, F_SETFL, fl) < 0 ? -errno : 0;
}

static int connect_one(const struct addrinfo *ai, int timeout_ms,
		       const struct net_sockopts *o, int *out,
		       struct ioc_err *err)
{
	int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
			ai->ai_protocol);
	int rc, soerr = 0;
	socklen_t sl = sizeof(soerr);

	if (fd < 0)
		return -errno;
	rc = net_sockopts_apply(fd, o, err);
	if (rc)
		goto fail;
	if ((rc = set_nonblock(fd, true)))
		goto fail;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
		if (errno != EINPROGRESS) {
			rc = -errno;
			goto fail;
		}
		rc = wait_fd(fd, POLLOUT, deadline_of(timeout_ms));
		if (rc)
			goto fail;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) < 0)
			soerr = errno;
		if (soerr) {
			rc = -soerr;
			goto fail;
		}
	}
	if ((rc = set_nonblock(fd, false)))
		goto fail;
	*out = fd;
	return 0;
fail:
	close(fd);
	return rc;
}

int net_connect(const char *host, uint16_t port, int timeout_ms,
		const struct net_sockopts *o, int *fd, struct ioc_err *err)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM,
				 .ai_family = AF_UNSPEC};
	struct addrinfo *res, *ai;
	char ports[8];
	int rc = -EHOSTUNREACH;

	snprintf(ports, sizeof(ports), "%u", port);
	int g = getaddrinfo(host, ports, &hints, &res);
	if (g)
		return err_set(err, EHOSTUNREACH, "%s: %s", host,
			       gai_strerror(g));
	for (ai = res; ai; ai = ai->ai_next) {
		rc = connect_one(ai, timeout_ms, o, fd, err);
		if (rc == 0 || err->msg[0])
			break;
	}
	freeaddrinfo(res);
	if (rc && !err->msg[0])
		err_set(err, -rc, "connecting to %s port %u: %s", host, port,
			strerror(-rc));
	return rc;
}

int net_listen(const char *addr, uint16_t port, int backlog, int *fd,
	       uint16_t *port_out, struct ioc_err *err)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM,
				 .ai_family = AF_UNSPEC,
				 .ai_flags = AI_PASSIVE | AI_NUMERICSERV |
					     AI_NUMERICHOST};
	struct addrinfo *res;
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char ports[8];
	int one = 1, s, rc;

	snprintf(ports, sizeof(ports), "%u", port);
	int g = getaddrinfo(addr, ports, &hints, &res);
	if (g)
		return err_usage(err, EINVAL, "--bind %s: %s", addr,
				 gai_strerror(g));
	s = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0) {
		rc = -errno;
		freeaddrinfo(res);
		return err_set(err, -rc, "socket: %s", strerror(-rc));
	}
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(s, res->ai_addr, res->ai_addrlen) < 0 ||
	    listen(s, backlog) < 0) {
		rc = -errno;
		freeaddrinfo(res);
		close(s);
		return err_set(err, -rc, "listening on %s port %u: %s", addr,
			       port, strerror(-rc));
	}
	freeaddrinfo(res);
	if (port_out) {
		getsockname(s, (struct sockaddr *)&ss, &sl);
		*port_out = ntohs(ss.ss_family == AF_INET6
					  ? ((struct sockaddr_in6 *)&ss)->sin6_port
					  : ((struct sockaddr_in *)&ss)->sin_port);
	}
	*fd = s;
	return 0;
}

void net_addr_host_port(const struct sockaddr_storage *ss, char *buf,
			size_t len, unsigned *port)
{
	snprintf(buf, len, "?");
	*port = 0;
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *s = (const void *)ss;
		inet_ntop(AF_INET, &s->sin_addr, buf, (socklen_t)len);
		*port = ntohs(s->sin_port);
	} else if (ss->ss_family == AF_INET6) {
		const struct sockaddr_in6 *s = (const void *)ss;
		inet_ntop(AF_INET6, &s->sin6_addr, buf, (socklen_t)len);
		*port = ntohs(s->sin6_port);
	}
}

void net_addr_str(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];
	unsigned port;

	net_addr_host_port(ss, a, sizeof(a), &port);
	if (ss->ss_family == AF_INET)
		snprintf(buf, len, "%s:%u", a, port);
	else if (ss->ss_family == AF_INET6)
		snprintf(buf, len, "[%s]:%u", a, port);
	else
		snprintf(buf, len, "?");
}
