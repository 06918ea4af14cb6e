/* streams.h - the data connections of one test, moved by a small pool of
 * threads.
 *
 * Each thread owns a share of the streams (stream i goes to thread
 * i % threads) and drives them non-blocking from one edge-triggered epoll
 * set: it writes (or reads) on a stream until the kernel says EAGAIN, and
 * only sleeps in epoll_wait when none of its streams can move; so a busy
 * stream costs one syscall per write of len bytes and few wake-ups.
 * Receivers read up to max(len, 256 KiB) at a time. With zerocopy, sends
 * use MSG_ZEROCOPY and the completions are reaped from the error queue.
 *
 * Counters: a stream's bytes are written only by its thread and may be
 * read at any time with net_stream_bytes (for interval reports).
 */
#ifndef IOCHAR_NET_STREAMS_H
#define IOCHAR_NET_STREAMS_H

#include <stdbool.h>
#include <stdint.h>

#include "util/err.h"

struct net_stream {
	int fd;               /* owned by the caller; -1 = none */
	unsigned id;          /* iperf3 stream id (net_stream_id) */
	bool sender;          /* this end writes on it */
	uint64_t bytes;       /* moved so far; read with net_stream_bytes */
	uint64_t start_ns, end_ns; /* monotonic; end when stopped or ended */
	int err;              /* first I/O error (-errno), 0 if none */
	bool eof;             /* the peer closed it (receivers) */
};

struct net_pool_opts {
	unsigned threads;     /* 0: min(streams, online CPUs) */
	uint32_t len;         /* bytes per write */
	bool zerocopy;        /* MSG_ZEROCOPY sends (SO_ZEROCOPY must be set) */
	uint64_t send_until_ns; /* monotonic; senders end here by themselves
				 * (last block completed); 0 = until stopped */
	uint64_t rate_bps;    /* each sender's pace, bits/s (iperf3 -b), as
			       * iperf3 paces: a block when the stream is not
			       * ahead of rate x time, looked at every ms or
			       * sooner; 0 = as fast as it goes */
};

struct net_pool;

/* Start moving data on the n streams at once (their start_ns is set
 * here). The streams array must outlive the pool. 0 or -errno + message. */
int net_pool_start(struct net_pool **out, struct net_stream *streams,
		   unsigned n, const struct net_pool_opts *o,
		   struct ioc_err *err);

/* Stop every thread and wait for them. Streams still moving get end_ns =
 * the time of this call. With drain, receivers first read what is already
 * queued to them (without waiting), so a peer's final count matches. */
void net_pool_stop(struct net_pool *p, bool drain);

/* Have all streams ended by themselves (peer closed or error)? */
bool net_pool_all_done(const struct net_pool *p);

/* The CPU time the pool's threads used (valid after net_pool_stop). */
void net_pool_cpu(const struct net_pool *p, double *user_s, double *sys_s);

/* Bytes of buffers one pool thread holds for writes of len bytes: a
 * send buffer of len and a receive buffer of max(len, 256 KiB). */
uint64_t net_pool_thread_bytes(uint32_t len);

/* Number of threads the pool runs. */
unsigned net_pool_threads(const struct net_pool *p);

/* Free the pool (stopping it first if needed); p may be NULL. */
void net_pool_free(struct net_pool *p);

static inline uint64_t net_stream_bytes(const struct net_stream *s)
{
	return __atomic_load_n(&s->bytes, __ATOMIC_RELAXED);
}

#endif
