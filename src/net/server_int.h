/* server_int.h - what server.c (listening, routing connections) and
 * session.c (running one test) share. Not a public API. */
#ifndef IOCHAR_NET_SERVER_INT_H
#define IOCHAR_NET_SERVER_INT_H

#include <pthread.h>
#include <stdbool.h>

#include "net/proto.h"
#include "net/server.h"

/* A test, from its control connection's cookie to its end. Its data
 * connections are handed to it by the connection threads under
 * srv->lock. */
struct session {
	struct session *next;
	char cookie[NET_COOKIE_SIZE];
	bool accepting;         /* waiting for data connections */
	bool released;          /* no longer counted as running */
	int *fds;               /* data connections received */
	uint64_t *seqs;         /* their accept order (see struct conn) */
	unsigned nr_fds, want;
	pthread_cond_t cond;    /* signalled when a data connection came */
};

struct server {
	const struct net_server_opts *o;
	struct net_caps caps;
	pthread_mutex_t lock;   /* sessions, counters, log */
	struct session *sessions;
	unsigned active_tests;
	unsigned pending;       /* connection threads still reading a cookie */
	unsigned tests_done;
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

/* Run the test whose control connection is ctrl (cookie already read,
 * ss registered in srv). Closes nothing it did not get; returns when the
 * test is over or dropped, having logged why. */
void session_run(struct server *srv, struct session *ss, int ctrl,
		 const char *peer);

#endif
