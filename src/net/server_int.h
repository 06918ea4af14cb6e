/* server_int.h - what the parts of the server share. Not a public API.
 *
 *   server.c   listening, the main loop, test threads, the log
 *   pending.c  connections not yet let in: read without threads, bounded
 *              per peer, in total and in time
 *   admit.c    what a connection's cookie and parameters earn it: a place
 *              among a waiting test's streams, a test of its own, or a
 *              denial that says why
 *   session.c  one admitted test, from CREATE_STREAMS to its results
 */
#ifndef IOCHAR_NET_SERVER_INT_H
#define IOCHAR_NET_SERVER_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <poll.h>
#include <sys/socket.h>

#include "net/handshake.h"
#include "net/params.h"
#include "net/proto.h"
#include "net/server.h"

#define NET_HOST_MAX 64   /* an address without its port */
/* The parameter message is read before a client is admitted, so it gets
 * a tighter bound than --max-json (iperf3's is a few hundred bytes). */
#define NET_PARAMS_MAX (64u << 10)

/* A test, from its admission to its end. Its data connections are handed
 * to it by the main loop under srv->lock. */
struct session {
	struct session *next;
	char cookie[NET_COOKIE_SIZE];
	char host[NET_HOST_MAX]; /* the client's address (per-peer limit) */
	struct net_params p;    /* admitted: within the caps */
	unsigned threads;       /* stream threads (within --max-test-memory) */
	bool accepting;         /* waiting for data connections */
	bool released;          /* no longer counted as running */
	int *fds;               /* data connections received */
	uint64_t *seqs;         /* their accept order (see struct pend) */
	unsigned nr_fds, want;
	pthread_cond_t cond;    /* signalled when a data connection came */
};

/* A connection not let in yet (no thread, no test slot). */
struct pend {
	int fd;
	uint64_t seq;           /* accept order: the order the client opened
				 * its streams in, which sets their roles and
				 * ids */
	uint64_t deadline_ns;   /* cookie and parameters by then */
	bool control;           /* its cookie started a new test */
	struct net_hs hs;
	char peer[64];          /* address:port, for the log */
	char host[NET_HOST_MAX]; /* what per-peer limits count by: the IPv4
				  * address or the IPv6 /64 */
};

struct pending {
	struct pend *v;
	struct pend **by;       /* scratch: v sorted by host (pending.c) */
	unsigned n, cap;
};

struct test_thread;

struct server {
	const struct net_server_opts *o;
	struct net_caps caps;
	pthread_mutex_t lock;   /* sessions, counters, log */
	struct session *sessions;
	unsigned active_tests;  /* admitted, not yet released */
	unsigned tests_done;    /* admitted and released */
	struct test_thread *threads;
	unsigned fd_high;       /* see fd_high_mark (server.c) */
	FILE *log;
};

/* One line "iochar net server: <peer>: <message>" to the log. */
void server_log(struct server *srv, const char *peer, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Stop counting ss as a running test (once; later calls do nothing).
 * Called before the last message a client waits for (ACCESS_DENIED,
 * DISPLAY_RESULTS), so a client that starts its next test right away
 * finds the slot free. */
void session_release(struct server *srv, struct session *ss);

/* The registered test whose cookie this is, or NULL; under srv->lock. */
struct session *server_find_session(struct server *srv, const char *cookie);

/* Run the admitted test ss (registered, counted in active_tests) on a
 * thread of its own, with ctrl as its control connection (now owned by
 * the test) and peer for the log. 0, or -errno after unregistering ss
 * (the caller then closes ctrl). */
int server_start_test(struct server *srv, struct session *ss, int ctrl,
		      const char *peer);

/* Run the test whose control connection is ctrl (parameters admitted).
 * Closes nothing it did not get; returns when the test is over or
 * dropped, having logged why. */
void session_run(struct server *srv, struct session *ss, int ctrl,
		 const char *peer);

/* Take a new connection in, making room if the per-peer or total limit
 * is reached (the oldest handshake of the peer with the most makes way,
 * with a log line), and read what it already sent. Owns fd from here. */
void pending_add(struct server *srv, struct pending *pd, int fd,
		 const struct sockaddr_storage *ss, uint64_t seq);

/* Out of a resource (why): drop the oldest handshake of the peer with the
 * most, with a log line. 0, or -ENOENT when there is none. */
int pending_shed(struct server *srv, struct pending *pd, const char *why);

/* Poll entries for the pending connections, at most max, from pf[0].
 * Returns the count; the i-th is pd->v[i]. */
unsigned pending_pollfds(const struct pending *pd, struct pollfd *pf,
			 unsigned max);

/* Handle poll results (pf as pending_pollfds filled, n of them) and drop
 * the connections past their deadline. */
void pending_service(struct server *srv, struct pending *pd,
		     const struct pollfd *pf, unsigned n);

/* Milliseconds to the earliest deadline (at most cap_ms). */
int pending_next_ms(const struct pending *pd, int cap_ms);

/* Close them all (the server stops). */
void pending_free(struct pending *pd);

/* A pending connection presented a well-formed cookie: 1 = it was handed
 * to its test as a data stream (fd no longer ours), 0 = it is a new
 * control connection, now waiting for its parameters, -1 = drop it (the
 * reason logged). */
int admit_cookie(struct server *srv, struct pend *pc);

/* Its parameter message is complete: 1 = a test was started (fd now the
 * test's), -1 = denied or dropped (the reason logged; close it). */
int admit_params(struct server *srv, struct pend *pc);

#endif
