/* net_sock.c - see net_sock.h. */
#define _GNU_SOURCE
#include "engine/net_sock.h"

#include <arpa/inet.h>
#include <endian.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

struct link_msg {
	uint32_t magic;
	uint32_t cmd;
};

static int domain_of(int proto)
{
	if (proto == NET_UNIX)
		return AF_UNIX;
	return netio_is_v6(proto) ? AF_INET6 : AF_INET;
}

static int type_of(int proto)
{
	return netio_is_udp(proto) ? SOCK_DGRAM : SOCK_STREAM;
}

static void addr_unix(const char *path, struct netio_addr *a)
{
	struct sockaddr_un *un = (struct sockaddr_un *)&a->sa;

	memset(a, 0, sizeof(*a));
	un->sun_family = AF_UNIX;
	snprintf(un->sun_path, sizeof(un->sun_path), "%s", path);
	a->len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
			     strlen(un->sun_path) + 1);
}

int netio_addr_peer(const struct netio_opts *o, const char *peer, unsigned port,
		  struct netio_addr *a, struct ioc_err *err)
{
	int af = domain_of(o->proto);
	struct addrinfo hints = { .ai_family = af,
				  .ai_socktype = type_of(o->proto) };
	struct addrinfo *res = NULL;
	char serv[16];

	if (o->proto == NET_UNIX) {
		addr_unix(peer, a);
		return 0;
	}
	snprintf(serv, sizeof(serv), "%u", port);
	int ret = getaddrinfo(peer, serv, &hints, &res);
	if (ret)
		return err_set(err, EINVAL, "hostname=%s: %s", peer,
			       gai_strerror(ret));
	memset(a, 0, sizeof(*a));
	memcpy(&a->sa, res->ai_addr, res->ai_addrlen);
	a->len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

static int sockopt(int fd, int level, int name, unsigned v, const char *what,
		   struct ioc_err *err)
{
	int iv = (int)v;

	if (setsockopt(fd, level, name, &iv, sizeof(iv)) == 0)
		return 0;
	return err_set(err, errno, "net: %s: %s", what, strerror(errno));
}

/* fio's set_window_size and set_mss: the receiving end's buffer, the
 * sending end's, both with pingpong. */
static int buffers_and_mss(const struct netio_opts *o, bool listens, int fd,
			   struct ioc_err *err)
{
	int ret = 0;

	if (o->window_size && (listens || o->pingpong))
		ret = sockopt(fd, SOL_SOCKET, SO_RCVBUF, o->window_size,
			      "window_size (SO_RCVBUF)", err);
	if (!ret && o->window_size && (!listens || o->pingpong))
		ret = sockopt(fd, SOL_SOCKET, SO_SNDBUF, o->window_size,
			      "window_size (SO_SNDBUF)", err);
	if (!ret && o->mss && netio_is_tcp(o->proto))
		ret = sockopt(fd, IPPROTO_TCP, TCP_MAXSEG, o->mss,
			      "mss (TCP_MAXSEG)", err);
	return ret;
}

int netio_nodelay(const struct netio_opts *o, int fd, struct ioc_err *err)
{
	if (!o->nodelay || !netio_is_tcp(o->proto))
		return 0;
	return sockopt(fd, IPPROTO_TCP, TCP_NODELAY, 1, "nodelay (TCP_NODELAY)",
		       err);
}

int netio_socket(const struct netio_opts *o, bool listens, int *fd,
	       struct ioc_err *err)
{
	int s = socket(domain_of(o->proto), type_of(o->proto) | SOCK_CLOEXEC, 0);

	if (s < 0)
		return err_set(err, errno, "net: socket: %s", strerror(errno));
	int ret = netio_nodelay(o, s, err);
	if (!ret)
		ret = buffers_and_mss(o, listens, s, err);
	if (ret) {
		close(s);
		return ret;
	}
	*fd = s;
	return 0;
}

/* Any address at port, as fio's receiving end binds. */
static void addr_any(int proto, unsigned port, struct netio_addr *a)
{
	memset(a, 0, sizeof(*a));
	if (netio_is_v6(proto)) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&a->sa;
		s6->sin6_family = AF_INET6;
		s6->sin6_addr = in6addr_any;
		s6->sin6_port = htons((uint16_t)port);
		a->len = sizeof(*s6);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&a->sa;
		s4->sin_family = AF_INET;
		s4->sin_addr.s_addr = htonl(INADDR_ANY);
		s4->sin_port = htons((uint16_t)port);
		a->len = sizeof(*s4);
	}
}

static int bind_inet(const struct netio_opts *o, unsigned port, int s,
		     struct ioc_err *err)
{
	struct netio_addr a;
	int ret;

	if ((ret = sockopt(s, SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR", err)) ||
	    (ret = sockopt(s, SOL_SOCKET, SO_REUSEPORT, 1, "SO_REUSEPORT", err)) ||
	    (ret = buffers_and_mss(o, true, s, err)))
		return ret;
	addr_any(o->proto, port, &a);
	if (bind(s, (struct sockaddr *)&a.sa, a.len) < 0)
		return err_set(err, errno, "net: bind to port %u: %s", port,
			       strerror(errno));
	return 0;
}

/* fio's umask(0) around the bind: the socket file any user may use. */
static int bind_unix(const char *path, int s, struct ioc_err *err)
{
	struct netio_addr a;

	addr_unix(path, &a);
	unlink(path);
	mode_t mode = umask(0);
	int ret = bind(s, (struct sockaddr *)&a.sa, a.len);
	int e = errno;
	umask(mode);
	if (ret < 0)
		return err_set(err, e, "net: bind to %s: %s", path, strerror(e));
	return 0;
}

int netio_listen(const struct netio_opts *o, const char *peer, unsigned port,
	       int *fd, struct ioc_err *err)
{
	int s = socket(domain_of(o->proto), type_of(o->proto) | SOCK_CLOEXEC, 0);
	int ret;

	if (s < 0)
		return err_set(err, errno, "net: socket: %s", strerror(errno));
	ret = o->proto == NET_UNIX ? bind_unix(peer, s, err)
				   : bind_inet(o, port, s, err);
	if (!ret && !netio_is_udp(o->proto) && listen(s, 10) < 0)
		ret = err_set(err, errno, "net: listen: %s", strerror(errno));
	if (ret) {
		close(s);
		return ret;
	}
	*fd = s;
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Waits in slices of 100 ms: the stop flag and the deadline are looked
 * at between them. */
int netio_wait_fd(int fd, short events, const struct netio_wait *w)
{
	for (;;) {
		if (w->stop && atomic_load(w->stop))
			return 0;
		uint64_t now = now_ns();
		if (w->deadline_ns && now >= w->deadline_ns)
			return 0;
		int ms = 100;
		if (w->deadline_ns && w->deadline_ns - now < 100000000ull)
			ms = (int)((w->deadline_ns - now) / 1000000ull) + 1;
		struct pollfd p = { .fd = fd, .events = events };
		int ret = poll(&p, 1, ms);
		if (ret < 0 && errno != EINTR)
			return -errno;
		if (ret > 0)
			return 1; /* ready, or an error the next call returns */
	}
}

/* fio writes the open message in network order and the close message in
 * little-endian order: both kept, so that fio understands iochar. */
int netio_link_send(int fd, const struct netio_addr *a, uint32_t cmd,
		  bool big_endian)
{
	struct link_msg m = {
		.magic = big_endian ? htobe32(NET_LINK_MAGIC) : htole32(NET_LINK_MAGIC),
		.cmd = big_endian ? htobe32(cmd) : htole32(cmd),
	};
	ssize_t n = a ? sendto(fd, &m, sizeof(m), MSG_NOSIGNAL,
			       (const struct sockaddr *)&a->sa, a->len)
		      : send(fd, &m, sizeof(m), MSG_NOSIGNAL);

	return n == (ssize_t)sizeof(m) ? 0 : n < 0 ? -errno : -EIO;
}

bool netio_is_close(const void *buf, int64_t len)
{
	struct link_msg m;

	if (len != (int64_t)sizeof(m))
		return false;
	memcpy(&m, buf, sizeof(m));
	return le32toh(m.magic) == NET_LINK_MAGIC &&
	       le32toh(m.cmd) == NET_LINK_CLOSE;
}
