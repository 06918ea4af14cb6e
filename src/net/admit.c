/* admit.c - what a connection's cookie and parameters earn it. Nothing
 * counts against --max-tests, --max-peer-tests or --tests, and no thread
 * or stream buffer is spent, before the parameters are complete, carry
 * the secret (when one is set) and are within the caps. Every denial
 * says its true reason, in the log and (as ACCESS_DENIED) to the client. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/io.h"
#include "net/server_int.h"
#include "net/streams.h"

/* Equal without an early exit, so timing tells nothing about the secret. */
static bool secret_equal(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned char d = la != lb;

	for (size_t i = 0; i < la; i++)
		d |= (unsigned char)(a[i] ^ b[i % (lb ? lb : 1)]);
	return d == 0;
}

/* What of the parameters iochar does not implement, or NULL: refused
 * with iperf3's own "not implemented" (IEUNIMP), never ignored. */
static const char *unimplemented(const struct net_params *p)
{
	if (p->udp || p->sctp)
		return "only TCP tests are served";
	if (p->bytes || p->blocks)
		return "only timed tests (-t) are served, not -n or -k";
	/* served, the receiver would count the omitted seconds and the sender
	 * not: two ends disagreeing on what was measured */
	if (p->omit)
		return "-O/--omit is not served: give the test a longer -t instead";
	if (p->reverse && p->bidir)
		return "reverse and bidirectional together";
	if (p->burst)
		return "-b RATE/BURST is not served: iochar paces without bursts";
	if (p->flowlabel)
		return "-L/--flowlabel is not served";
	if (p->authtoken)
		return "--username/--rsa-public-key-path authentication is not served "
		       "(iochar servers take --secret)";
	if (p->server_affinity)
		return "-A with a server CPU is not served (pin the server with taskset)";
	if (p->repeating_payload)
		return "--repeating-payload is not served";
	return NULL;
}

/* Why the parameters are refused, or NULL. */
static const char *check_caps(const struct server *srv,
			      const struct net_params *p, char *buf, size_t len)
{
	const struct net_caps *c = &srv->caps;

	if (srv->o->secret && !secret_equal(p->secret, srv->o->secret))
		return p->secret[0] ? "wrong secret" : "no secret presented";
	/* per direction, as iperf3's own -P limit: --bidir -P 128 is 256 */
	if (p->parallel < 1 || p->parallel > c->max_streams)
		snprintf(buf, len, "%u streams asked, limit %u (--max-streams)",
			 p->parallel, c->max_streams);
	else if (p->duration < 1 || p->duration > c->max_duration)
		snprintf(buf, len, "duration %u s asked, limit 1 to %u s "
			 "(--max-duration)", p->duration, c->max_duration);
	else if (p->len < 1 || p->len > c->max_len)
		snprintf(buf, len, "write size %u asked, limit %u (--max-len)",
			 p->len, c->max_len);
	else if (p->window > c->max_window)
		snprintf(buf, len, "window %u asked, limit %u (--max-window)",
			 p->window, c->max_window);
	else if (net_pool_thread_bytes(p->len) > c->max_test_mem)
		snprintf(buf, len, "write size %u needs %llu bytes of buffers "
			 "per stream thread, limit %llu (--max-test-memory)",
			 p->len,
			 (unsigned long long)net_pool_thread_bytes(p->len),
			 (unsigned long long)c->max_test_mem);
	else
		return NULL;
	return buf;
}

/* Stream threads for the test: as many as asked (--threads) or one per
 * CPU, at most one per stream, and no more than --max-test-memory holds. */
static unsigned test_threads(const struct server *srv,
			     const struct net_params *p)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned n = srv->o->threads ? srv->o->threads
				     : cpus > 0 ? (unsigned)cpus : 1;
	unsigned streams = p->parallel * (p->bidir ? 2 : 1);
	uint64_t fit = srv->caps.max_test_mem / net_pool_thread_bytes(p->len);

	if (n > streams)
		n = streams;
	if (n > fit)
		n = (unsigned)fit;
	return n ? n : 1;
}

int admit_cookie(struct server *srv, struct pend *pc)
{
	pthread_mutex_lock(&srv->lock);
	struct session *ss = server_find_session(srv, pc->hs.cookie);
	if (ss && ss->accepting && ss->nr_fds < ss->want) {
		ss->seqs[ss->nr_fds] = pc->seq;
		ss->fds[ss->nr_fds++] = pc->fd;
		pthread_cond_signal(&ss->cond);
		pthread_mutex_unlock(&srv->lock);
		return 1;
	}
	pthread_mutex_unlock(&srv->lock);
	if (ss) {
		server_log(srv, pc->peer,
			   "dropped: connection for a test not taking streams");
		return -1;
	}
	if (net_send_state(pc->fd, NET_PARAM_EXCHANGE, 0)) {
		server_log(srv, pc->peer, "dropped: cannot send PARAM_EXCHANGE");
		return -1;
	}
	pc->control = true;
	net_hs_expect_params(&pc->hs);
	return 0;
}

static unsigned peer_tests(const struct server *srv, const char *host)
{
	unsigned n = 0;

	for (const struct session *s = srv->sessions; s; s = s->next)
		n += !s->released && !strcmp(s->host, host);
	return n;
}

/* Why there is no slot for a test from host now, or NULL (then one is
 * taken); under srv->lock. */
static const char *take_slot(struct server *srv, const char *host, char *buf,
			     size_t len)
{
	const struct net_caps *c = &srv->caps;
	unsigned mine = peer_tests(srv, host);

	if (srv->active_tests >= c->max_tests)
		snprintf(buf, len, "%u tests running already (--max-tests %u)",
			 srv->active_tests, c->max_tests);
	else if (mine >= c->max_peer_tests)
		snprintf(buf, len, "%u tests from %s running already "
			 "(--max-peer-tests %u)", mine, host, c->max_peer_tests);
	else if (srv->o->max_total &&
		 srv->tests_done + srv->active_tests >= srv->o->max_total)
		snprintf(buf, len, "the server serves %u test(s) in all "
			 "(-1/--tests): %u done, %u running", srv->o->max_total,
			 srv->tests_done, srv->active_tests);
	else {
		srv->active_tests++;
		return NULL;
	}
	return buf;
}

static struct session *new_session(const struct pend *pc,
				   const struct net_params *p, unsigned threads)
{
	struct session *ss = calloc(1, sizeof(*ss));
	pthread_condattr_t ca;

	if (!ss)
		return NULL;
	memcpy(ss->cookie, pc->hs.cookie, NET_COOKIE_SIZE);
	memcpy(ss->host, pc->host, sizeof(ss->host));
	ss->p = *p;
	ss->threads = threads;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&ss->cond, &ca);
	pthread_condattr_destroy(&ca);
	return ss;
}

static int deny(struct server *srv, struct pend *pc, const char *why)
{
	net_send_state(pc->fd, NET_ACCESS_DENIED, 0);
	server_log(srv, pc->peer, "denied: %s", why);
	return -1;
}

int admit_params(struct server *srv, struct pend *pc)
{
	struct ioc_err err = {0};
	struct net_params p;
	json_object *j = NULL;
	struct session *ss;
	char why[192];
	const char *no;
	int rc;

	rc = net_json_parse(pc->hs.body, pc->hs.len, &j, &err);
	if (!rc)
		rc = net_params_from_json(j, &p, &err);
	json_object_put(j);
	if (rc) {
		server_log(srv, pc->peer, "dropped: parameters: %s", err.msg);
		return -1;
	}
	if ((no = unimplemented(&p))) {
		net_send_server_error(pc->fd, NET_IEUNIMP, 0, 0);
		server_log(srv, pc->peer, "refused: %s", no);
		return -1;
	}
	if ((no = check_caps(srv, &p, why, sizeof(why))))
		return deny(srv, pc, no);
	ss = new_session(pc, &p, test_threads(srv, &p));
	if (!ss) {
		server_log(srv, pc->peer, "dropped: out of memory");
		return -1;
	}
	pthread_mutex_lock(&srv->lock);
	no = take_slot(srv, pc->host, why, sizeof(why));
	if (!no) {
		ss->next = srv->sessions;
		srv->sessions = ss;
	}
	pthread_mutex_unlock(&srv->lock);
	if (no) {
		pthread_cond_destroy(&ss->cond);
		free(ss);
		return deny(srv, pc, no);
	}
	return server_start_test(srv, ss, pc->fd, pc->peer) ? -1 : 1;
}
