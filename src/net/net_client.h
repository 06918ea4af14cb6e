/* net_client.h - run one TCP throughput test against an iperf3-compatible
 * server (iochar's own or a stock iperf3 3.x) and return its figures.
 *
 * This is the library call other commands build on (e.g. a future
 * `net mesh` over MPI that runs one client per rank pair): it writes
 * nothing to stdout or stderr, takes everything from its arguments, and
 * keeps no global state, so several may run at once in one process.
 *
 * Contract:
 *  - o->params must be valid: parallel >= 1, duration >= 1, len >= 1
 *    (net_client_check tells why not, as a usage error).
 *  - The call blocks for about params.duration seconds plus the set-up;
 *    every wait is bounded by o->timeout_ms (connect, each control step)
 *    or by the test's length, so it always returns.
 *  - On success (0) *r holds the test; the caller frees it with
 *    net_result_free. On failure it returns -errno, fills err with one
 *    line, and *r holds nothing that needs freeing.
 *  - Setting *o->stop to true from another thread or a signal handler
 *    ends the test early, with the results of what ran.
 */
#ifndef IOCHAR_NET_NET_CLIENT_H
#define IOCHAR_NET_NET_CLIENT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "net/params.h"
#include "net/result.h"
#include "util/err.h"

struct net_client_opts {
	const char *host;          /* name or address of the server */
	uint16_t port;             /* 0 = 5201 */
	struct net_params params;  /* what to ask the server for */
	unsigned threads;          /* stream threads; 0 = one per CPU, at
				    * most one per stream */
	bool zerocopy;             /* MSG_ZEROCOPY for the streams this end
				    * sends on */
	double interval_s;         /* interval samples every this many
				    * seconds; 0 = none */
	int timeout_ms;            /* each control step; 0 = 10000 */
	/* Called from the calling thread after interval i was recorded. */
	void (*on_interval)(void *arg, const struct net_result *r, unsigned i);
	void *arg;
	const atomic_bool *stop;   /* may be NULL */
};

/* Check o's parameters without touching the network. 0 or -EINVAL with a
 * usage error in err. */
int net_client_check(const struct net_client_opts *o, struct ioc_err *err);

/* Run the test. See the contract above. */
int net_client_run(const struct net_client_opts *o, struct net_result *r,
		   struct ioc_err *err);

#endif
