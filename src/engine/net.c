/* net.c - fio's net engine: a job reads or writes a tcp, udp or unix
 * socket stream instead of a file (fio 3.33's engines/net.c; the wire is
 * fio's, so either end may be fio).
 *
 * A writer sends each block, a reader receives blocks until its size is
 * done or the other end closes (a tcp end of stream, fio's udp close
 * message). The receiving end binds at init (tcp with listen, udp and
 * unix readers) and waits for the other in open(), when its job starts;
 * the sending end connects then (udp: fio's open message). With pingpong
 * each block comes back: the latency is the round trip. A block is one
 * I/O once all of it has moved: partial sends and receives are continued
 * (fio books each piece as a short I/O). */
#define _GNU_SOURCE
#include <endian.h>
#include <poll.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/net_opts.h"
#include "engine/net_sock.h"
#include "engine/sync_io.h"

struct netio_state {
	struct netio_opts o;
	const char *peer;
	unsigned port;
	bool listens, reads;
	int listen_fd, fd;
	struct netio_addr to;	/* udp: where blocks go (a reader: the sender) */
	struct netio_wait wait;
	uint64_t runtime_ns;
	uint64_t send_seq;	/* fio's udp sequence trailer: the next sent */
	uint64_t recv_seq;	/* ... the next expected */
	uint64_t drops;		/* blocks the trailers say were lost */
	bool seq_off;		/* a trailer of another block size: not counted */
	bool ended;		/* no more blocks: the job ends */
	bool eof;		/* the other end closed its stream */
};

/* never blocking: a wait goes through netio_wait_fd, which gives up when
 * the run stops or the job's time is up */
#define NET_SEND_FLAGS (MSG_NOSIGNAL | MSG_DONTWAIT)

/* fio's udp_seq, the last 24 bytes of each udp block it sends: its
 * receiver counts the blocks lost on the way. */
#define NET_SEQ_MAGIC 0x657375716e556563ull

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A stream closed with bytes unread resets the connection: the other
 * end, stopping at the same moment (both ends' runtime=), would fail its
 * last send. So the end is said (shutdown) and what is still in flight
 * read, until the other end closes, for at most half a second. */
static void drain(struct netio_state *s)
{
	static char sink[65536];
	struct netio_wait w = { .stop = NULL,
				.deadline_ns = mono_ns() + 500000000ull };

	(void)shutdown(s->fd, SHUT_WR);
	for (;;) {
		ssize_t n = recv(s->fd, sink, sizeof(sink), MSG_DONTWAIT);
		if (n > 0 || (n < 0 && errno == EINTR))
			continue;
		if (n == 0 || errno != EAGAIN || netio_wait_fd(s->fd, POLLIN, &w) <= 0)
			return;
	}
}

static void netio_cleanup(void *state)
{
	struct netio_state *s = state;

	if (!s)
		return;
	if (s->fd >= 0) { /* fio's close_file tells the other end */
		bool udp = netio_is_udp(s->o.proto);
		(void)netio_link_send(s->fd, udp ? &s->to : NULL, NET_LINK_CLOSE,
				    false);
		if (!udp && !s->eof)
			drain(s);
		if (s->fd != s->listen_fd)
			close(s->fd);
	}
	if (s->listen_fd >= 0)
		close(s->listen_fd);
	free(s);
}

static int netio_init_opts(const struct engine_params *p, const void *options,
			 void **out, struct ioc_err *err)
{
	struct netio_state *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return err_set(err, ENOMEM, "net engine: out of memory");
	memcpy(&s->o, options, sizeof(s->o));
	s->peer = netio_peer(&s->o, p->peer);
	s->port = s->o.port ? s->o.port + p->clone : 0; /* fio: a port a clone */
	s->reads = p->job_reads;
	s->listens = netio_listens(&s->o, p->job_reads);
	s->listen_fd = s->fd = -1;
	s->wait.stop = p->stop;
	s->runtime_ns = p->runtime_ns;
	if (s->listens)
		ret = netio_listen(&s->o, s->peer, s->port, &s->listen_fd, err);
	else
		ret = netio_addr_peer(&s->o, s->peer, s->port, &s->to, err);
	if (ret) {
		netio_cleanup(s);
		return ret;
	}
	*out = s;
	return 0;
}

/* fio's udp receiver: the sender's open message first. */
static int udp_wait_open(struct netio_state *s, struct ioc_err *err)
{
	uint32_t m[2];
	int r = netio_wait_fd(s->fd, POLLIN, &s->wait);

	if (r <= 0)
		return r ? err_set(err, -r, "net: poll: %s", strerror(-r))
			 : err_set(err, ETIMEDOUT, "net: no sender on udp port %u",
				   s->port);
	s->to.len = sizeof(s->to.sa);
	ssize_t n = recvfrom(s->fd, m, sizeof(m), 0,
			     (struct sockaddr *)&s->to.sa, &s->to.len);
	if (n < 0)
		return err_set(err, errno, "net: recvfrom udp link open: %s",
			       strerror(errno));
	if (n != sizeof(m) || be32toh(m[0]) != NET_LINK_MAGIC ||
	    be32toh(m[1]) != NET_LINK_OPEN)
		return err_set(err, EPROTO, "net: bad udp open magic %x/%x",
			       be32toh(m[0]), be32toh(m[1]));
	return 0;
}

/* The receiving end: the connection, or udp's open message. */
static int open_listening(struct netio_state *s, struct ioc_err *err)
{
	if (netio_is_udp(s->o.proto)) {
		s->fd = s->listen_fd;
		return udp_wait_open(s, err);
	}
	int r = netio_wait_fd(s->listen_fd, POLLIN, &s->wait);
	if (r <= 0)
		return r ? err_set(err, -r, "net: poll: %s", strerror(-r))
			 : err_set(err, ETIMEDOUT,
				   "net: no connection came before the run "
				   "stopped");
	s->fd = accept4(s->listen_fd, NULL, NULL, SOCK_CLOEXEC);
	if (s->fd < 0)
		return err_set(err, errno, "net: accept: %s", strerror(errno));
	return netio_nodelay(&s->o, s->fd, err);
}

static int netio_open(void *state, struct ioc_err *err)
{
	struct netio_state *s = state;
	int ret;

	/* fio waits for its peer without end; here until the run stops */
	s->wait.deadline_ns = 0;
	if (s->listens)
		ret = open_listening(s, err);
	else if ((ret = netio_socket(&s->o, false, &s->fd, err)))
		;
	else if (netio_is_udp(s->o.proto))
		ret = netio_link_send(s->fd, &s->to, NET_LINK_OPEN, true) < 0
			      ? err_set(err, errno, "net: sendto udp link open: %s",
					strerror(errno))
			      : 0;
	else if (connect(s->fd, (struct sockaddr *)&s->to.sa, s->to.len) < 0)
		ret = err_set(err, errno, "net: connect to %s: %s", s->peer,
			      strerror(errno));
	/* from now on a wait ends with the job's runtime */
	if (s->runtime_ns)
		s->wait.deadline_ns = mono_ns() + s->runtime_ns;
	return ret;
}

static void stamp_udp_seq(struct netio_state *s, struct io_unit *u)
{
	uint64_t t[3] = { htole64(NET_SEQ_MAGIC), htole64(s->send_seq++),
			  htole64(u->len) };

	if (u->len >= sizeof(t))
		memcpy((char *)u->buf + u->len - sizeof(t), t, sizeof(t));
}

/* fio's verify_udp_seq: a received block's trailer, when it has fio's,
 * tells the blocks lost since the last one. */
static void check_udp_seq(struct netio_state *s, const struct io_unit *u)
{
	uint64_t t[3];

	if (u->len < sizeof(t) || s->seq_off)
		return;
	memcpy(t, (const char *)u->buf + u->len - sizeof(t), sizeof(t));
	if (le64toh(t[0]) != NET_SEQ_MAGIC)
		return;
	if (le64toh(t[2]) != u->len) {
		s->seq_off = true;
		return;
	}
	uint64_t seq = le64toh(t[1]);
	if (seq > s->recv_seq) /* fio also counts one that came late */
		s->drops += seq - s->recv_seq;
	s->recv_seq = seq + 1;
}

/* All of u's block sent (udp: one datagram). Bytes, or -errno. */
static int64_t send_block(struct netio_state *s, struct io_unit *u)
{
	bool udp = netio_is_udp(s->o.proto);
	uint64_t done = 0;

	if (udp)
		stamp_udp_seq(s, u);
	while (done < u->len) {
		ssize_t n = udp ? sendto(s->fd, u->buf, u->len, NET_SEND_FLAGS,
					 (struct sockaddr *)&s->to.sa, s->to.len)
				: send(s->fd, (char *)u->buf + done, u->len - done,
				       NET_SEND_FLAGS);
		if (n > 0) {
			done += (uint64_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		int r = netio_wait_fd(s->fd, POLLOUT, &s->wait);
		if (r < 0)
			return r;
		if (!r) { /* the run stops, or the job's time is up */
			s->ended = true;
			return 0;
		}
	}
	return (int64_t)done;
}

/* One receive into buf. Bytes (0: the stream ended), or -errno. */
static ssize_t recv_some(struct netio_state *s, char *buf, size_t len)
{
	if (!netio_is_udp(s->o.proto))
		return recv(s->fd, buf, len, MSG_DONTWAIT);
	if (!s->listens)
		return recvfrom(s->fd, buf, len, MSG_DONTWAIT, NULL, NULL);
	s->to.len = sizeof(s->to.sa); /* the sender: where replies go */
	return recvfrom(s->fd, buf, len, MSG_DONTWAIT,
			(struct sockaddr *)&s->to.sa, &s->to.len);
}

/* All of u's block received. Bytes, 0 when the stream ended (s->ended),
 * or -errno. */
static int64_t recv_block(struct netio_state *s, struct io_unit *u)
{
	uint64_t got = 0;

	while (got < u->len) {
		ssize_t n = recv_some(s, (char *)u->buf + got, u->len - got);
		if (n < 0 && errno == EAGAIN) {
			int r = netio_wait_fd(s->fd, POLLIN, &s->wait);
			if (r < 0)
				return r;
			if (!r)
				break; /* the run stops, or the job's time is up */
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0 && !netio_is_udp(s->o.proto)) {
			s->eof = true;
			break;
		}
		if (netio_is_close((char *)u->buf + got, n))
			break;
		got += (uint64_t)n;
	}
	if (got < u->len) { /* a piece before the end is not a block */
		s->ended = true;
		return 0;
	}
	if (netio_is_udp(s->o.proto))
		check_udp_seq(s, u);
	return (int64_t)got;
}

static int64_t move(struct netio_state *s, struct io_unit *u, enum io_dir d)
{
	return d == DIR_WRITE ? send_block(s, u) : recv_block(s, u);
}

static enum engine_queue_ret netio_queue(void *state, struct io_unit *u)
{
	struct netio_state *s = state;

	if (u->op != IO_OP_RW || (u->dir != DIR_READ && u->dir != DIR_WRITE)) {
		u->result = 0; /* a flush of a socket: nothing to do */
		return ENGINE_COMPLETED;
	}
	u->result = move(s, u, u->dir);
	/* fio's pingpong: a reader sends the block back, a writer waits
	 * for it */
	if (s->o.pingpong && u->result > 0)
		u->result = move(s, u, u->dir == DIR_READ ? DIR_WRITE : DIR_READ);
	return ENGINE_COMPLETED;
}

static bool netio_ended(void *state)
{
	return ((struct netio_state *)state)->ended;
}

static uint64_t netio_dropped(void *state)
{
	return ((struct netio_state *)state)->drops;
}

const struct engine_ops engine_net = {
	.name = "net",
	.help = "fio's net engine: a tcp, udp or unix socket stream "
		"(hostname=, port=, protocol=, listen, pingpong)",
	.flags = ENGINE_SYNC | ENGINE_NO_TARGET | ENGINE_BIT_BASED,
	.options = netio_options,
	.probe = sync_io_probe,
	.check = netio_check,
	.init_opts = netio_init_opts,
	.cleanup = netio_cleanup,
	.queue = netio_queue,
	.open = netio_open,
	.ended = netio_ended,
	.dropped = netio_dropped,
};
