/* session.c - one admitted test on the server (admit.c checked its
 * parameters): streams collected, data moved until the client's TEST_END,
 * results exchanged. Every wait is bounded; every way out logs one line. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "net/exchange.h"
#include "net/io.h"
#include "net/result.h"
#include "net/result_csv.h"
#include "net/server_int.h"
#include "net/streams.h"
#include "base/json_writer.h"
#include "util/clock.h"

struct test {
	struct server *srv;
	struct session *ss;
	const char *peer;
	int ctrl;
	int idle;                 /* ms */
	struct net_params p;
	struct net_stream *streams;
	unsigned n;
	struct net_pool *pool;
	struct net_result r;
	/* 1 s intervals, as iperf3's server reports them (-J) */
	uint64_t t0, last_ns, *last_bytes;
};

#define SESSION_INTERVAL_NS 1000000000ull

/* An interval when one is due (or, last, when a tenth of one has passed
 * since the one before), unless memory runs out: then none. */
static void sample_interval(struct test *t, bool last)
{
	uint64_t now = clock_ns(), since = now - t->last_ns;

	if (!t->last_bytes || since < (last ? SESSION_INTERVAL_NS / 10 : SESSION_INTERVAL_NS))
		return;
	net_result_add_interval(&t->r, t->streams, t->n, t->t0, &t->last_ns, t->last_bytes);
}

static double thread_cpu_s(double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
}

/* Wait for the client's data connections (handed over by server.c). */
static int get_streams(struct test *t)
{
	struct server *srv = t->srv;
	struct session *ss = t->ss;
	struct timespec ts;
	int rc = 0;

	t->n = t->p.parallel * (t->p.bidir ? 2 : 1);
	t->streams = calloc(t->n, sizeof(*t->streams));
	if (!t->streams)
		return -ENOMEM;
	for (unsigned i = 0; i < t->n; i++)
		t->streams[i].fd = -1;
	pthread_mutex_lock(&srv->lock);
	ss->fds = calloc(t->n, sizeof(int));
	ss->seqs = calloc(t->n, sizeof(uint64_t));
	ss->want = t->n;
	ss->accepting = ss->fds && ss->seqs;
	pthread_mutex_unlock(&srv->lock);
	if (!ss->accepting)
		return -ENOMEM;
	if ((rc = net_send_state(t->ctrl, NET_CREATE_STREAMS, t->idle))) {
		server_log(srv, t->peer, "dropped: %s", strerror(-rc));
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += t->idle / 1000;
	ts.tv_nsec += (long)(t->idle % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&srv->lock);
	while (ss->nr_fds < ss->want && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&ss->cond, &srv->lock, &ts);
	ss->accepting = false;
	unsigned got = ss->nr_fds;
	pthread_mutex_unlock(&srv->lock);
	if (got < t->n) {
		server_log(srv, t->peer,
			   "dropped: %u of %u data connections within %d ms",
			   got, t->n, t->idle);
		rc = -ETIMEDOUT;
		goto out;
	}
	rc = 0;
out:
	return rc;
}

/* Put the data connections back in the order they were accepted, which
 * is the order the client opened them in (one after the other). */
static void sort_by_accept(struct session *ss)
{
	for (unsigned i = 1; i < ss->nr_fds; i++)
		for (unsigned k = i; k > 0 && ss->seqs[k - 1] > ss->seqs[k]; k--) {
			uint64_t sq = ss->seqs[k];
			int fd = ss->fds[k];
			ss->seqs[k] = ss->seqs[k - 1];
			ss->fds[k] = ss->fds[k - 1];
			ss->seqs[k - 1] = sq;
			ss->fds[k - 1] = fd;
		}
}

static int setup_streams(struct test *t)
{
	struct net_sockopts so = {
		.window = t->p.window,
		.nodelay = t->p.nodelay,
		.congestion = t->p.congestion,
		.zerocopy = t->srv->o->zerocopy,
		.tos = t->p.tos,
		.fq_rate_bps = t->p.fqrate,
	};
	struct ioc_err err = {0};

	sort_by_accept(t->ss); /* no handover after get_streams */
	for (unsigned i = 0; i < t->n; i++) {
		struct net_stream *s = &t->streams[i];
		s->fd = t->ss->fds[i];
		t->ss->fds[i] = -1;
		s->id = net_stream_id(i);
		/* bidir: the client's sending streams come first */
		s->sender = t->p.bidir ? i >= t->p.parallel : t->p.reverse;
		if (net_sockopts_apply(s->fd, &so, &err)) {
			session_release(t->srv, t->ss);
			net_send_state(t->ctrl, NET_ACCESS_DENIED, 1000);
			server_log(t->srv, t->peer, "denied: %s", err.msg);
			return -EINVAL;
		}
	}
	return 0;
}

/* From TEST_RUNNING until the client's TEST_END (0), or a drop. */
static int wait_end(struct test *t)
{
	const atomic_bool *stop = t->srv->o->stop;
	uint64_t limit = clock_ns() + (uint64_t)t->p.duration * 1000000000ull +
			 (uint64_t)t->idle * 1000000ull + 2000000000ull;

	for (;;) {
		struct pollfd pf = {t->ctrl, POLLIN, 0};
		int n, st, rc;

		if (stop && atomic_load(stop)) {
			net_send_state(t->ctrl, NET_SERVER_TERMINATE, 1000);
			server_log(t->srv, t->peer, "test ended: server stopping");
			return -EINTR;
		}
		if (clock_ns() > limit) {
			server_log(t->srv, t->peer,
				   "dropped: no TEST_END %d ms after the test's end",
				   t->idle);
			return -ETIMEDOUT;
		}
		int ms = net_ms_left(t->last_ns + SESSION_INTERVAL_NS);
		n = poll(&pf, 1, ms < 200 ? ms : 200);
		sample_interval(t, false);
		if (n <= 0)
			continue;
		rc = net_recv_state(t->ctrl, &st, t->idle);
		if (rc) {
			server_log(t->srv, t->peer,
				   "dropped: client disconnected mid-test");
			return rc;
		}
		if (st == NET_TEST_END)
			return 0;
		if (st == NET_CLIENT_TERMINATE) {
			server_log(t->srv, t->peer, "client ended the test early");
			return -ECANCELED;
		}
		server_log(t->srv, t->peer, "dropped: unexpected %s (%d) mid-test",
			   net_state_name(st), st);
		return -EPROTO;
	}
}

static int finish(struct test *t, double user_s, double sys_s)
{
	struct ioc_err err = {0};
	struct net_exchange mine, peer;
	json_object *j = NULL;
	int rc, st;

	if (net_result_build(&t->r, t->streams, t->n, false, user_s, sys_s,
			     NULL))
		return -ENOMEM;
	if ((rc = net_send_state(t->ctrl, NET_EXCHANGE_RESULTS, t->idle)))
		goto io;
	rc = net_recv_json(t->ctrl, t->srv->caps.max_json, t->idle, &j, &err);
	if (!rc)
		rc = net_exchange_from_json(j, t->n * 2 + 16, &peer, &err);
	json_object_put(j);
	if (rc) {
		server_log(t->srv, t->peer, "dropped: client results: %s",
			   err.msg);
		return rc;
	}
	rc = net_result_build(&t->r, t->streams, t->n, false, user_s, sys_s,
			      &peer);
	net_exchange_free(&peer);
	if (rc || net_result_exchange(&t->r, &mine))
		return -ENOMEM;
	if (t->p.get_server_output) { /* what this server prints of the test */
		bool json = t->srv->o->json && !t->srv->o->json_native;
		mine.server_output = net_result_server_output(&t->r, json);
		mine.server_output_is_json = json;
	}
	j = net_exchange_to_json(&mine);
	net_exchange_free(&mine);
	if (!j)
		return -ENOMEM;
	rc = net_send_json(t->ctrl, j, t->idle, &err);
	json_object_put(j);
	if (rc)
		goto io;
	session_release(t->srv, t->ss);
	if ((rc = net_send_state(t->ctrl, NET_DISPLAY_RESULTS, t->idle)))
		goto io;
	/* IPERF_DONE ends it; a client that just closes is done too. */
	rc = net_recv_state(t->ctrl, &st, t->idle);
	if (rc == 0 && st != NET_IPERF_DONE)
		server_log(t->srv, t->peer, "expected IPERF_DONE, got %s (%d)",
			   net_state_name(st), st);
	return 0;
io:
	server_log(t->srv, t->peer, "dropped: %s",
		   rc == -ECONNRESET ? "connection closed" : strerror(-rc));
	return rc;
}

static void report(struct test *t)
{
	struct server *srv = t->srv;
	const struct net_result *r = &t->r;

	server_log(srv, t->peer,
		   "test done: %u stream(s)%s, %.2f s, %.3f Gbit/s received, "
		   "%.3f Gbit/s sent",
		   t->p.parallel, t->p.bidir ? " each way" : "", r->seconds,
		   (r->dir[NET_C2S].used ? r->dir[NET_C2S].receiver_bps : 0) / 1e9,
		   (r->dir[NET_S2C].used ? r->dir[NET_S2C].sender_bps : 0) / 1e9);
	if (srv->o->json) {
		struct jw w;
		pthread_mutex_lock(&srv->lock);
		jw_init(&w, srv->o->json, 0);
		if (srv->o->json_native)
			net_result_json(&w, r, NULL);
		else
			net_result_iperf3_json(&w, r);
		jw_finish(&w);
		fflush(srv->o->json);
		pthread_mutex_unlock(&srv->lock);
	}
	if (srv->o->csv) {
		pthread_mutex_lock(&srv->lock);
		net_result_csv_rows(srv->o->csv, r);
		fflush(srv->o->csv);
		pthread_mutex_unlock(&srv->lock);
	}
}

/* Who and what this test is, for its result: roles, addresses, the
 * parameters as run (the secret blanked), the sockets' facts. */
static void fill_identity(struct test *t)
{
	struct sockaddr_storage ls;
	socklen_t ll = sizeof(ls);

	snprintf(t->r.role, sizeof(t->r.role), "server");
	snprintf(t->r.peer_addr, sizeof(t->r.peer_addr), "%s", t->peer);
	if (getsockname(t->ctrl, (struct sockaddr *)&ls, &ll) == 0)
		net_addr_str(&ls, t->r.local_addr, sizeof(t->r.local_addr));
	snprintf(t->r.peer_version, sizeof(t->r.peer_version), "%s", t->p.client_version);
	t->r.params = t->p;
	memset(t->r.params.secret, 0, sizeof(t->r.params.secret));
	t->r.zerocopy = t->srv->o->zerocopy;
	memcpy(t->r.cookie, t->ss->cookie, sizeof(t->r.cookie));
	net_result_socket_facts(&t->r, t->ctrl, t->streams[0].fd);
}

void session_run(struct server *srv, struct session *ss, int ctrl,
		 const char *peer)
{
	struct test t = {.srv = srv, .ss = ss, .peer = peer, .ctrl = ctrl,
			 .idle = (int)srv->caps.idle_ms};
	struct net_pool_opts po;
	struct ioc_err err = {0};
	double u0, s0, u1, s1, pu = 0, ps = 0;

	t.p = ss->p;
	if (get_streams(&t) || setup_streams(&t))
		goto out;
	fill_identity(&t);
	if (net_send_state(ctrl, NET_TEST_START, t.idle)) {
		server_log(srv, peer, "dropped: connection closed");
		goto out;
	}
	/* Senders stop by themselves at the agreed length, as the client's
	 * timer does, not when TEST_END is read: a loaded machine that is
	 * slow to read it must not count extra seconds of sending. */
	po = (struct net_pool_opts){.threads = ss->threads,
				    .len = t.p.len,
				    .zerocopy = srv->o->zerocopy,
				    .rate_bps = t.p.bandwidth, /* the client's -b */
				    .send_until_ns = clock_ns() +
						     (uint64_t)t.p.duration * 1000000000ull};
	u0 = thread_cpu_s(&s0);
	if (net_pool_start(&t.pool, t.streams, t.n, &po, &err)) {
		server_log(srv, peer, "dropped: %s", err.msg);
		goto out;
	}
	t.r.threads = net_pool_threads(t.pool);
	t.t0 = t.last_ns = clock_ns();
	net_result_host_cpu_begin(&t.r);
	t.last_bytes = calloc(t.n, sizeof(*t.last_bytes));
	/* ids and roles for the intervals; the figures are built at the end */
	if (net_result_build(&t.r, t.streams, t.n, false, 0, 0, NULL)) {
		server_log(srv, peer, "dropped: out of memory");
		goto out;
	}
	if (net_send_state(ctrl, NET_TEST_RUNNING, t.idle)) {
		server_log(srv, peer, "dropped: connection closed");
		goto out;
	}
	int rc = wait_end(&t);
	net_pool_stop(t.pool, true);
	net_result_host_cpu_end(&t.r);
	if (!rc)
		sample_interval(&t, true);
	/* As iperf3's server does at TEST_END: the data stops here. A client
	 * blocked reading a stream sees the end and gets to its results. */
	for (unsigned i = 0; i < t.n; i++)
		if (t.streams[i].sender)
			shutdown(t.streams[i].fd, SHUT_WR);
	net_pool_cpu(t.pool, &pu, &ps);
	u1 = thread_cpu_s(&s1);
	if (rc)
		goto out;
	if (finish(&t, pu + u1 - u0, ps + s1 - s0) == 0)
		report(&t);
out:
	net_pool_free(t.pool);
	for (unsigned i = 0; t.streams && i < t.n; i++)
		if (t.streams[i].fd >= 0)
			close(t.streams[i].fd);
	free(t.streams);
	free(t.last_bytes);
	net_result_free(&t.r);
}
