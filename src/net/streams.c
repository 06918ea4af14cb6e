/* streams.c - the worker threads that move a test's data. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/streams.h"
#include "util/clock.h"

#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY 0x4000000
#endif

#define NET_RECV_MIN (256u * 1024)
#define NET_BURST 16     /* ops on one stream before visiting the next */
#define NET_ZC_REAP 32   /* zero-copy sends between reaping completions */
#define NET_FINISH_MS 2000 /* longest wait to complete the last blocks */
#define NET_STALL_MS 200   /* ... while the peer reads none of them */

struct worker {
	struct net_pool *pool;
	pthread_t thread;
	bool started;
	unsigned *idx;       /* indices into pool->streams */
	unsigned n;
	double user_s, sys_s;
};

struct net_pool {
	struct net_stream *streams;
	unsigned n;
	struct net_pool_opts o;
	struct worker *w;
	unsigned nw;
	int stop_fd;         /* eventfd: written once to wake every worker */
	int stop;            /* read with __atomic */
	bool drain;
	bool stopped;
	unsigned done;       /* streams ended by themselves; __atomic */
	uint64_t stop_ns;
};

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static void zc_reap(int fd)
{
	char control[256];

	for (int i = 0; i < 64; i++) {
		struct msghdr msg = {.msg_control = control,
				     .msg_controllen = sizeof(control)};
		if (recvmsg(fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) < 0)
			break;
	}
}

static void stream_end(struct net_pool *p, struct net_stream *s, int err)
{
	if (err && !s->err)
		s->err = err;
	if (!err)
		s->eof = true;
	s->end_ns = clock_ns();
	__atomic_fetch_add(&p->done, 1, __ATOMIC_RELAXED);
}

/* Up to NET_BURST ops on s. Returns 1 if it can go on, 0 on EAGAIN, -1
 * when the stream ended. */
static int stream_burst(struct net_pool *p, struct net_stream *s, char *sbuf,
			char *rbuf, size_t rlen, unsigned *zc_count)
{
	int flags = MSG_DONTWAIT | MSG_NOSIGNAL;

	if (s->sender && p->o.zerocopy)
		flags |= MSG_ZEROCOPY;
	/* a paced sender sends one block, then its pace is looked at again */
	int ops = s->sender && p->o.rate_bps ? 1 : NET_BURST;
	for (int k = 0; k < ops; k++) {
		ssize_t n = s->sender ? send(s->fd, sbuf, p->o.len, flags)
				      : recv(s->fd, rbuf, rlen, MSG_DONTWAIT);
		if (n > 0) {
			__atomic_store_n(&s->bytes, s->bytes + (uint64_t)n,
					 __ATOMIC_RELAXED);
			if ((flags & MSG_ZEROCOPY) && ++*zc_count % NET_ZC_REAP == 0)
				zc_reap(s->fd);
			continue;
		}
		if (n == 0) {
			stream_end(p, s, 0);
			return -1;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN)
			return 0;
		if (errno == ENOBUFS && (flags & MSG_ZEROCOPY)) {
			/* Over the optmem limit: too many zero-copy sends not
			 * yet completed. Reap, and copy this once rather than
			 * spin (the kernel's msg_zerocopy advice). */
			zc_reap(s->fd);
			flags &= ~MSG_ZEROCOPY;
			k--;
			continue;
		}
		stream_end(p, s, -errno);
		return -1;
	}
	return 1;
}

static void drain(struct net_pool *p, struct net_stream *s, char *rbuf,
		  size_t rlen)
{
	for (int k = 0; k < 4096; k++) {
		ssize_t n = recv(s->fd, rbuf, rlen, MSG_DONTWAIT);
		if (n <= 0)
			break;
		__atomic_store_n(&s->bytes, s->bytes + (uint64_t)n,
				 __ATOMIC_RELAXED);
	}
}

/* Send what it can now of the rest of s's last block, so the stream
 * ends on a multiple of len: iperf3 reads whole blocks and would wait
 * for the rest of a partial one. Bytes still to send; 0 when done or the
 * socket failed (nothing more can go). */
static uint32_t finish_some(struct net_stream *s, const char *sbuf, uint32_t len)
{
	uint32_t left = (uint32_t)(len - s->bytes % len) % len;

	while (left) {
		ssize_t n = send(s->fd, sbuf, left, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n > 0) {
			left -= (uint32_t)n;
			__atomic_store_n(&s->bytes, s->bytes + (uint64_t)n,
					 __ATOMIC_RELAXED);
			continue;
		}
		if (n < 0 && (errno == EINTR))
			continue;
		return n < 0 && (errno == EAGAIN || errno == ENOBUFS) ? left : 0;
	}
	return 0;
}

/* One worker thread's loop: its buffers, which of its streams are ready
 * (epoll said so, or the last burst stopped short of EAGAIN) and which
 * have ended. */
struct wloop {
	struct worker *w;
	struct net_pool *p;
	char *sbuf, *rbuf;
	size_t rlen;
	bool *ready, *ended;
	unsigned zc_count, live;
	int ep;
	uint64_t paced_until; /* a paced sender may send again then; 0 = none */
};

/* A paced sender ahead of its rate: when it may send its next block
 * (the bytes it has sent, at the rate, from its start); 0 if it may now. */
static uint64_t pace_hold(const struct net_pool *p, const struct net_stream *s,
			  uint64_t now)
{
	if (!s->sender || !p->o.rate_bps)
		return 0;
	uint64_t due = s->start_ns + (uint64_t)((unsigned __int128)s->bytes * 8 *
						 1000000000u / p->o.rate_bps);
	return due > now ? due : 0;
}

static struct net_stream *wloop_stream(const struct wloop *l, unsigned i)
{
	return &l->p->streams[l->w->idx[i]];
}

/* Buffers and the epoll set (the stop eventfd and every stream, all
 * ready to start with). 0, or -1 with what was made left in l to free. */
static int wloop_init(struct wloop *l, struct worker *w)
{
	struct net_pool *p = w->pool;

	*l = (struct wloop){.w = w, .p = p, .live = w->n, .ep = -1};
	l->rlen = (size_t)(net_pool_thread_bytes(p->o.len) - p->o.len);
	l->ready = calloc(w->n, sizeof(bool));
	l->ended = calloc(w->n, sizeof(bool));
	if (!l->ready || !l->ended ||
	    posix_memalign((void **)&l->sbuf, 4096, p->o.len) ||
	    posix_memalign((void **)&l->rbuf, 4096, l->rlen))
		return -1;
	/* Not all zeros, so no link compresses it; same idea as iperf3. */
	for (uint32_t i = 0; i < p->o.len; i++)
		l->sbuf[i] = (char)(i * 2654435761u >> 24);
	l->ep = epoll_create1(EPOLL_CLOEXEC);
	if (l->ep < 0)
		return -1;
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = UINT64_MAX};
	if (epoll_ctl(l->ep, EPOLL_CTL_ADD, p->stop_fd, &ev) < 0)
		return -1;
	for (unsigned i = 0; i < w->n; i++) {
		struct net_stream *s = wloop_stream(l, i);
		ev.events = EPOLLET | (s->sender ? EPOLLOUT : EPOLLIN);
		ev.data.u64 = i;
		if (epoll_ctl(l->ep, EPOLL_CTL_ADD, s->fd, &ev) < 0)
			return -1;
		l->ready[i] = true;
	}
	return 0;
}

static void wloop_end(struct wloop *l, unsigned i)
{
	l->ended[i] = true;
	l->live--;
}

/* Complete the last block of every sender of l that is still running,
 * all at once: a peer that has stopped reading (a client past its test's
 * end) costs NET_STALL_MS once, not NET_FINISH_MS per stream (a
 * worker's 64 streams took 128 s); a reading peer gets up to
 * NET_FINISH_MS. */
static void finish_blocks(struct wloop *l, uint32_t len)
{
	uint64_t start = clock_ns(), moved = start;
	uint64_t last_left = UINT64_MAX;
	struct pollfd *pf = calloc(l->w->n ? l->w->n : 1, sizeof(*pf));

	for (;;) {
		unsigned n = 0;
		uint64_t left = 0;
		for (unsigned i = 0; i < l->w->n; i++) {
			struct net_stream *s = wloop_stream(l, i);
			uint32_t k;
			if (l->ended[i] || !s->sender || !(k = finish_some(s, l->sbuf, len)))
				continue;
			if (pf)
				pf[n] = (struct pollfd){s->fd, POLLOUT, 0};
			n++;
			left += k;
		}
		uint64_t now = clock_ns();
		if (left < last_left)
			moved = now;
		last_left = left;
		if (!n || now >= start + NET_FINISH_MS * 1000000ull ||
		    now >= moved + NET_STALL_MS * 1000000ull)
			break;
		poll(pf, pf ? n : 0, 10);
	}
	free(pf);
}

/* Every sender of l still running ends at until (the agreed length),
 * on a whole block. */
static void end_senders(struct wloop *l, uint64_t until)
{
	finish_blocks(l, l->p->o.len);
	for (unsigned i = 0; i < l->w->n; i++) {
		struct net_stream *s = wloop_stream(l, i);
		if (l->ended[i] || !s->sender)
			continue;
		s->end_ns = until;
		wloop_end(l, i);
	}
}

/* One burst on every ready stream; a sender past the agreed length ends
 * on a whole block. Did any stream move data and may go on? */
static bool wloop_pass(struct wloop *l)
{
	struct net_pool *p = l->p;
	bool any = false;

	l->paced_until = 0;
	for (unsigned i = 0; i < l->w->n; i++) {
		struct net_stream *s = wloop_stream(l, i);
		if (!l->ready[i] || l->ended[i])
			continue;
		uint64_t now = clock_ns();
		if (s->sender && p->o.send_until_ns && now >= p->o.send_until_ns) {
			end_senders(l, p->o.send_until_ns);
			continue;
		}
		uint64_t hold = pace_hold(p, s, now);
		if (hold) { /* still writable: ready, but not yet due */
			if (!l->paced_until || hold < l->paced_until)
				l->paced_until = hold;
			continue;
		}
		int r = stream_burst(p, s, l->sbuf, l->rbuf, l->rlen,
				     &l->zc_count);
		if (r < 0)
			wloop_end(l, i);
		l->ready[i] = r > 0;
		any |= r > 0;
	}
	return any;
}

/* Sleep until a stream is ready, the pool stops or the agreed length is
 * over; reap zero-copy completions the kernel reports as errors. */
static void wloop_wait(struct wloop *l)
{
	struct net_pool *p = l->p;
	struct epoll_event evs[64];
	int tmo = -1;

	uint64_t until = p->o.send_until_ns;
	if (l->paced_until && (!until || l->paced_until < until))
		until = l->paced_until;
	if (until) {
		uint64_t now = clock_ns();
		tmo = now >= until ? 0 : (int)((until - now + 999999) / 1000000);
	}
	int ne = epoll_wait(l->ep, evs, 64, tmo);
	for (int e = 0; e < ne; e++) {
		if (evs[e].data.u64 == UINT64_MAX)
			continue;
		unsigned i = (unsigned)evs[e].data.u64;
		l->ready[i] = true;
		if ((evs[e].events & EPOLLERR) && p->o.zerocopy)
			zc_reap(wloop_stream(l, i)->fd);
	}
}

/* The pool stopped: streams still running end now (at the stop time),
 * senders on a whole block, receivers drained when asked. */
static void wloop_finish(struct wloop *l)
{
	struct net_pool *p = l->p;

	for (unsigned i = 0; i < l->w->n; i++) {
		struct net_stream *s = wloop_stream(l, i);
		if (l->ended[i])
			continue;
		s->end_ns = p->stop_ns ? p->stop_ns : clock_ns();
		if (!s->sender && p->drain)
			drain(p, s, l->rbuf, l->rlen);
	}
	finish_blocks(l, p->o.len);
}

/* Setting up failed: every stream not yet ended ends with -ENOMEM. */
static void wloop_fail(struct wloop *l)
{
	for (unsigned i = 0; i < l->w->n; i++)
		if (!l->ended || !l->ended[i])
			stream_end(l->p, wloop_stream(l, i), -ENOMEM);
}

static void wloop_free(struct wloop *l)
{
	if (l->ep >= 0)
		close(l->ep);
	free(l->sbuf);
	free(l->rbuf);
	free(l->ready);
	free(l->ended);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct net_pool *p = w->pool;
	struct rusage r0, r1;
	struct wloop l;

	getrusage(RUSAGE_THREAD, &r0);
	if (wloop_init(&l, w) < 0) {
		wloop_fail(&l);
	} else {
		while (l.live && !__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE))
			if (!wloop_pass(&l) && l.live)
				wloop_wait(&l);
		wloop_finish(&l);
	}
	wloop_free(&l);
	getrusage(RUSAGE_THREAD, &r1);
	w->user_s = tv_s(r1.ru_utime) - tv_s(r0.ru_utime);
	w->sys_s = tv_s(r1.ru_stime) - tv_s(r0.ru_stime);
	return NULL;
}

static unsigned online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned)n : 1;
}

int net_pool_start(struct net_pool **out, struct net_stream *streams,
		   unsigned n, const struct net_pool_opts *o,
		   struct ioc_err *err)
{
	struct net_pool *p = calloc(1, sizeof(*p));
	unsigned nw;
	int rc;

	*out = NULL;
	if (!p)
		return err_set(err, ENOMEM, "out of memory");
	nw = o->threads ? o->threads : online_cpus();
	if (nw > n)
		nw = n ? n : 1;
	p->streams = streams;
	p->n = n;
	p->o = *o;
	if (!p->o.len)
		p->o.len = 128 * 1024;
	p->nw = nw;
	p->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	p->w = calloc(nw, sizeof(*p->w));
	if (p->stop_fd < 0 || !p->w) {
		rc = err_set(err, ENOMEM, "cannot set up the stream threads");
		goto fail;
	}
	for (unsigned t = 0; t < nw; t++) {
		struct worker *w = &p->w[t];
		w->pool = p;
		w->idx = calloc(n / nw + 1, sizeof(unsigned));
		if (!w->idx) {
			rc = err_set(err, ENOMEM, "out of memory");
			goto fail;
		}
	}
	uint64_t now = clock_ns();
	for (unsigned i = 0; i < n; i++) {
		struct worker *w = &p->w[i % nw];
		w->idx[w->n++] = i;
		streams[i].start_ns = now;
		streams[i].end_ns = 0;
		streams[i].bytes = 0;
		streams[i].err = 0;
		streams[i].eof = false;
	}
	for (unsigned t = 0; t < nw; t++) {
		rc = pthread_create(&p->w[t].thread, NULL, worker_main, &p->w[t]);
		if (rc) {
			rc = err_set(err, rc, "cannot start a stream thread: %s",
				     strerror(rc));
			goto fail;
		}
		p->w[t].started = true;
	}
	*out = p;
	return 0;
fail:
	net_pool_free(p);
	return rc;
}

void net_pool_stop(struct net_pool *p, bool drain_rx)
{
	uint64_t one = 1;

	if (!p || p->stopped)
		return;
	p->stop_ns = clock_ns();
	p->drain = drain_rx;
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	if (write(p->stop_fd, &one, sizeof(one)) < 0) {
		/* the counter cannot overflow from one write; nothing to do */
	}
	for (unsigned t = 0; t < p->nw; t++)
		if (p->w[t].started)
			pthread_join(p->w[t].thread, NULL);
	p->stopped = true;
}

bool net_pool_all_done(const struct net_pool *p)
{
	return __atomic_load_n(&p->done, __ATOMIC_RELAXED) >= p->n;
}

void net_pool_cpu(const struct net_pool *p, double *user_s, double *sys_s)
{
	*user_s = *sys_s = 0;
	for (unsigned t = 0; t < p->nw; t++) {
		*user_s += p->w[t].user_s;
		*sys_s += p->w[t].sys_s;
	}
}

uint64_t net_pool_thread_bytes(uint32_t len)
{
	return (uint64_t)len + (len > NET_RECV_MIN ? len : NET_RECV_MIN);
}

unsigned net_pool_threads(const struct net_pool *p)
{
	return p->nw;
}

void net_pool_free(struct net_pool *p)
{
	if (!p)
		return;
	net_pool_stop(p, false);
	for (unsigned t = 0; p->w && t < p->nw; t++)
		free(p->w[t].idx);
	free(p->w);
	if (p->stop_fd >= 0)
		close(p->stop_fd);
	free(p);
}
