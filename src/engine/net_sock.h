/* net_sock.h - the net engine's sockets: addresses, the listening and
 * connecting ends, fio's socket options, waits that give up when the run
 * stops, and fio's udp link messages (so either end may be fio 3.33). */
#ifndef IOCHAR_ENGINE_NET_SOCK_H
#define IOCHAR_ENGINE_NET_SOCK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "engine/net_opts.h"
#include "util/err.h"

/* fio's udp link messages: {magic, cmd}, 8 bytes. */
#define NET_LINK_MAGIC 0x6c696e6bu
#define NET_LINK_CLOSE 0x89u
#define NET_LINK_OPEN 0x98u

/* The other end's address, or the address to bind. */
struct netio_addr {
	struct sockaddr_storage sa;
	socklen_t len;
};

/* How long a wait may last: until stop is set or the monotonic deadline
 * (0: none) passes. */
struct netio_wait {
	const atomic_bool *stop;
	uint64_t deadline_ns;
};

/* The address to connect or send to: peer (a literal address or a name)
 * at port, or the unix socket path peer. 0 or -errno with a message. */
int netio_addr_peer(const struct netio_opts *o, const char *peer, unsigned port,
		  struct netio_addr *a, struct ioc_err *err);

/* The receiving end's socket, bound (and listening for tcp and unix), as
 * fio's fio_netio_setup_listen: any address at port, or the unix path peer
 * (removed first, as fio does). 0 or -errno with a message. */
int netio_listen(const struct netio_opts *o, const char *peer, unsigned port,
	       int *fd, struct ioc_err *err);

/* A socket of o's protocol with fio's options set for the connecting
 * end. 0 or -errno with a message. */
int netio_socket(const struct netio_opts *o, bool listens, int *fd,
	       struct ioc_err *err);

/* TCP_NODELAY on an accepted or connected tcp socket, when asked. */
int netio_nodelay(const struct netio_opts *o, int fd, struct ioc_err *err);

/* Wait until fd is ready for events (POLLIN, POLLOUT). 1: ready, 0: the
 * wait gave up (stop or deadline), -errno on error. */
int netio_wait_fd(int fd, short events, const struct netio_wait *w);

/* Write fio's link message cmd to fd (to a, for udp). 0 or -errno. */
int netio_link_send(int fd, const struct netio_addr *a, uint32_t cmd,
		  bool big_endian);

/* Is buf (len bytes) fio's close message? */
bool netio_is_close(const void *buf, int64_t len);

#endif
