/* server.h - an iperf3-compatible TCP test server that serves several
 * clients at once, each test on its own thread with its own streams.
 *
 * A connection's first 37 bytes are a cookie. A cookie that belongs to a
 * test waiting for its data connections makes the connection one of that
 * test's streams; any other starts a new test (control connection), which
 * is admitted once its parameters are in (with the secret, if one is set)
 * and within the caps (struct net_caps). Until then a connection costs no
 * thread and no test slot, and has handshake_ms in all. A client that
 * breaks the protocol, goes idle or disconnects is dropped with one log
 * line and the others carry on.
 */
#ifndef IOCHAR_NET_SERVER_H
#define IOCHAR_NET_SERVER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/err.h"

struct net_caps {
	unsigned max_streams;   /* per test, both directions together */
	unsigned max_duration;  /* seconds */
	unsigned max_tests;     /* tests running at once */
	unsigned max_peer_tests; /* of them from one client address */
	uint32_t max_len;       /* bytes per write a client may ask for */
	uint32_t max_window;    /* socket buffer a client may ask for */
	uint32_t max_json;      /* bytes in one JSON message */
	uint64_t max_test_mem;  /* stream buffers of one test, bytes: its
				 * threads are capped to fit */
	unsigned idle_ms;       /* longest wait for an admitted client */
	unsigned handshake_ms;  /* cookie and parameters within this */
	unsigned max_pending;   /* connections not yet admitted */
	unsigned max_peer_pending; /* of them from one client address */
};

struct net_server_opts {
	const char *bind;       /* address to listen on; NULL = 127.0.0.1 */
	uint16_t port;          /* 0 = any free port (see on_listen) */
	struct net_caps caps;
	const char *secret;     /* NULL = none; else clients must present it */
	unsigned threads;       /* stream threads per test; 0 = auto */
	bool zerocopy;          /* MSG_ZEROCOPY when this end sends */
	unsigned max_total;     /* exit after this many admitted tests;
				 * 0 = never */
	FILE *log;              /* one line per event; NULL = stderr */
	FILE *json;             /* each finished test's JSON, one per line;
				 * NULL = none */
	bool json_native;       /* iochar's layout there, not iperf3's */
	FILE *csv;              /* each finished test's CSV rows (the header
				 * is the caller's, see net/result_csv.h);
				 * NULL = none */
	const atomic_bool *stop;  /* true: finish (may be NULL) */
	/* Called once listening, with the port (the one picked when port
	 * is 0), before any client is accepted; may be NULL. */
	void (*on_listen)(void *arg, uint16_t port);
	void *listen_arg;
};

/* Defaults: 128 streams, 3600 s, 4 tests (2 per peer), 8 MiB writes,
 * 64 MiB window, 256 KiB JSON, 256 MiB of stream buffers per test, 10 s
 * idle, 3 s handshake, 512 pending (256 per peer). */
void net_caps_default(struct net_caps *c);

/* Serve until *o->stop is set or max_total admitted tests were served
 * (finished or dropped; a connection dropped or denied before admission
 * does not count). Returns 0, or -errno + message when it cannot listen. */
int net_server_run(const struct net_server_opts *o, struct ioc_err *err);

#endif
