/* client.c - one test as the client: the control conversation with an
 * iperf3-compatible server, the data streams, interval samples. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/io.h"
#include "net/net_client.h"
#include "net/proto.h"
#include "net/streams.h"
#include "util/clock.h"

#define NET_CLIENT_JSON_MAX (1u << 20) /* a server's results message */
#define NET_DRAIN_BUF (256u * 1024)
#define NET_ACK_WAIT_MS 1000

struct client {
	const struct net_client_opts *o;
	struct net_result *r;
	int timeout;
	int ctrl;
	char cookie[NET_COOKIE_SIZE];
	struct net_stream *streams;
	unsigned n;
	struct net_pool *pool;
};

int net_client_check(const struct net_client_opts *o, struct ioc_err *err)
{
	const struct net_params *p = &o->params;

	if (!o->host || !o->host[0])
		return err_usage(err, EINVAL, "net client: no server given");
	if (p->parallel < 1 || p->parallel > 128)
		return err_usage(err, EINVAL, "-P %u: must be 1 to 128",
				 p->parallel);
	if (p->duration < 1 || p->duration > 86400)
		return err_usage(err, EINVAL, "-t %u: must be 1 to 86400 s",
				 p->duration);
	if (p->len < 1 || p->len > (1u << 30))
		return err_usage(err, EINVAL, "-l %u: must be 1 B to 1 GiB",
				 p->len);
	if (p->reverse && p->bidir)
		return err_usage(err, EINVAL, "-R and --bidir exclude each other");
	if (o->interval_s < 0 || o->interval_s > 86400)
		return err_usage(err, EINVAL, "-i: out of range");
	return 0;
}

static double thread_cpu_s(double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
}

/* Read the next state; on ACCESS_DENIED / SERVER_ERROR say why. */
static int expect_state(struct client *c, int want, int timeout,
			struct ioc_err *err)
{
	int st, rc = net_recv_state(c->ctrl, &st, timeout);

	if (rc)
		return err_set(err, -rc, "waiting for %s from the server: %s",
			       net_state_name(want),
			       rc == -ECONNRESET ? "connection closed"
						 : strerror(-rc));
	if (st == want)
		return 0;
	if (st == NET_ACCESS_DENIED)
		return err_set(err, EACCES,
			       "the server denied the test (busy, over one of "
			       "its limits, or a missing or wrong --secret)");
	if (st == NET_SERVER_ERROR) {
		uint8_t b[8];
		if (net_read_full(c->ctrl, b, 8, 1000))
			return err_set(err, EPROTO, "the server reported an error");
		if (net_len_decode(b) == NET_IEUNIMP)
			return err_set(err, EOPNOTSUPP,
				       "the server does not implement an option asked "
				       "(iperf3's \"not implemented yet\"; its log names it)");
		return err_set(err, EPROTO, "the server reported error %u (errno %u)",
			       net_len_decode(b), net_len_decode(b + 4));
	}
	return err_set(err, EPROTO, "expected %s from the server, got %s (%d)",
		       net_state_name(want), net_state_name(st), st);
}

static int open_streams(struct client *c, struct ioc_err *err)
{
	const struct net_params *p = &c->o->params;
	struct net_sockopts so = {
		.window = p->window,
		.mss = p->mss,
		.nodelay = p->nodelay,
		.congestion = p->congestion,
		.zerocopy = c->o->zerocopy,
		.tos = p->tos,
		.fq_rate_bps = p->fqrate,
	};
	int rc;

	c->n = p->parallel * (p->bidir ? 2 : 1);
	c->streams = calloc(c->n, sizeof(*c->streams));
	if (!c->streams)
		return err_set(err, ENOMEM, "out of memory");
	for (unsigned i = 0; i < c->n; i++)
		c->streams[i].fd = -1;
	for (unsigned i = 0; i < c->n; i++) {
		struct net_stream *s = &c->streams[i];

		s->id = net_stream_id(i);
		/* bidir: iperf3 opens the client's sending streams first */
		s->sender = p->bidir ? i < p->parallel : !p->reverse;
		rc = net_connect(c->o->host, c->o->port, c->timeout, &so,
				 &s->fd, err);
		if (rc)
			return rc;
		rc = net_write_full(s->fd, c->cookie, NET_COOKIE_SIZE,
				    c->timeout);
		if (rc)
			return err_set(err, -rc, "data connection %u: %s",
				       i + 1, strerror(-rc));
	}
	return 0;
}

static int record_interval(struct client *c, uint64_t t0, uint64_t *last_ns,
			   uint64_t *last_bytes)
{
	return net_result_add_interval(c->r, c->streams, c->n, t0, last_ns, last_bytes);
}

/* From TEST_RUNNING to the end of the test: sleep, sample intervals,
 * watch the control connection for the server giving up. */
static int run_test(struct client *c, struct ioc_err *err)
{
	const struct net_client_opts *o = c->o;
	uint64_t t0 = clock_ns();
	uint64_t end = t0 + (uint64_t)o->params.duration * 1000000000ull;
	uint64_t step = (uint64_t)(o->interval_s * 1e9);
	uint64_t next = step ? t0 + step : end, last_ns = t0;
	uint64_t *last_bytes = calloc(c->n, sizeof(uint64_t));
	int rc = 0;

	if (!last_bytes)
		return err_set(err, ENOMEM, "out of memory");
	for (;;) {
		uint64_t now = clock_ns();
		if (o->stop && atomic_load(o->stop))
			break;
		if (step && now >= next) {
			if (record_interval(c, t0, &last_ns, last_bytes) == 0 &&
			    o->on_interval)
				o->on_interval(o->arg, c->r, c->r->nr_intervals - 1);
			next += step;
			continue;
		}
		if (now >= end)
			break;
		if (net_pool_all_done(c->pool)) {
			rc = err_set(err, ECONNRESET,
				     "the server closed every data connection");
			break;
		}
		uint64_t wake = next < end ? next : end;
		int ms = net_ms_left(wake);
		struct pollfd pf = {c->ctrl, POLLIN, 0};
		if (ms > 200)
			ms = 200; /* notice a stop request soon */
		int pn = poll(&pf, 1, ms);
		if (pn > 0) {
			int st;
			int e = net_recv_state(c->ctrl, &st, c->timeout);
			rc = err_set(err, e ? -e : EPROTO,
				     "the server ended the test early (%s)",
				     e ? "connection closed" : net_state_name(st));
			break;
		}
	}
	/* the last partial interval, so the intervals add up to the test */
	if (!rc && step && clock_ns() - last_ns > step / 10)
		if (record_interval(c, t0, &last_ns, last_bytes) == 0 &&
		    o->on_interval)
			o->on_interval(o->arg, c->r, c->r->nr_intervals - 1);
	free(last_bytes);
	return rc;
}

/* Before TEST_END, give what this end wrote a moment to reach the
 * server (nothing left unsent or unacknowledged): a server that stops
 * reading at TEST_END, as iperf3's does, would otherwise not count data
 * still in flight. The test's time is already taken; bounded. */
static void wait_acked(struct client *c)
{
	uint64_t deadline = clock_ns() + NET_ACK_WAIT_MS * 1000000ull;

	for (unsigned i = 0; i < c->n; i++) {
		int q = 0;
		if (!c->streams[i].sender || c->streams[i].fd < 0)
			continue;
		while (ioctl(c->streams[i].fd, SIOCOUTQ, &q) == 0 && q > 0 &&
		       clock_ns() < deadline)
			usleep(1000);
	}
}

/* Between TEST_END and the server's answer, keep reading the streams the
 * server sends on, as iperf3's client does: the server sends until it
 * reads TEST_END and counts all of it, and a sender blocked on a full
 * socket buffer would otherwise hold up the results. The pool is stopped;
 * bytes read here still count. Bounded by the control timeout. */
static void drain_until_ctrl(struct client *c)
{
	uint64_t deadline = clock_ns() + (uint64_t)c->timeout * 1000000ull;
	struct pollfd *pf = calloc(c->n + 1, sizeof(*pf));
	char *buf = malloc(NET_DRAIN_BUF);
	unsigned np = 1;

	if (!pf || !buf)
		goto out;
	pf[0] = (struct pollfd){c->ctrl, POLLIN, 0};
	for (unsigned i = 0; i < c->n; i++)
		if (!c->streams[i].sender && c->streams[i].fd >= 0)
			pf[np++] = (struct pollfd){c->streams[i].fd, POLLIN, 0};
	if (np == 1)
		goto out;
	while (clock_ns() < deadline) {
		if (poll(pf, np, net_ms_left(deadline)) <= 0 || pf[0].revents)
			break;
		for (unsigned k = 1; k < np; k++) {
			if (!(pf[k].revents & POLLIN)) {
				if (pf[k].revents)
					pf[k].fd = -1; /* closed or failed */
				continue;
			}
			ssize_t n = recv(pf[k].fd, buf, NET_DRAIN_BUF, MSG_DONTWAIT);
			if (n <= 0) {
				pf[k].fd = -1;
				continue;
			}
			for (unsigned i = 0; i < c->n; i++)
				if (c->streams[i].fd == pf[k].fd)
					c->streams[i].bytes += (uint64_t)n;
		}
	}
out:
	free(pf);
	free(buf);
}

static int exchange(struct client *c, double user_s, double sys_s,
		    struct ioc_err *err)
{
	struct net_exchange mine, peer;
	json_object *j = NULL;
	int rc;

	wait_acked(c);
	if ((rc = net_send_state(c->ctrl, NET_TEST_END, c->timeout)))
		return err_set(err, -rc, "sending TEST_END: %s", strerror(-rc));
	drain_until_ctrl(c);
	if ((rc = expect_state(c, NET_EXCHANGE_RESULTS, c->timeout, err)))
		return rc;
	rc = net_result_build(c->r, c->streams, c->n, true, user_s, sys_s, NULL);
	if (rc)
		return err_set(err, -rc, "out of memory");
	if (net_result_exchange(c->r, &mine))
		return err_set(err, ENOMEM, "out of memory");
	j = net_exchange_to_json(&mine);
	net_exchange_free(&mine);
	if (!j)
		return err_set(err, ENOMEM, "out of memory");
	rc = net_send_json(c->ctrl, j, c->timeout, err);
	json_object_put(j);
	if (rc)
		return rc;
	rc = net_recv_json(c->ctrl, NET_CLIENT_JSON_MAX, c->timeout, &j, err);
	if (rc) {
		err_prefix(err, "the server's results");
		return rc;
	}
	rc = net_exchange_from_json(j, c->n * 2 + 16, &peer, err);
	json_object_put(j);
	if (rc) {
		err_prefix(err, "the server's results");
		return rc;
	}
	rc = net_result_build(c->r, c->streams, c->n, true, user_s, sys_s,
			      &peer);
	net_exchange_free(&peer);
	if (rc)
		return err_set(err, -rc, "out of memory");
	if ((rc = expect_state(c, NET_DISPLAY_RESULTS, c->timeout, err)))
		return rc;
	rc = net_send_state(c->ctrl, NET_IPERF_DONE, c->timeout);
	if (rc)
		return err_set(err, -rc, "sending IPERF_DONE: %s", strerror(-rc));
	return 0;
}

static void fill_identity(struct client *c)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct net_result *r = c->r;

	snprintf(r->role, sizeof(r->role), "client");
	if (getsockname(c->ctrl, (struct sockaddr *)&ss, &sl) == 0)
		net_addr_str(&ss, r->local_addr, sizeof(r->local_addr));
	sl = sizeof(ss);
	if (getpeername(c->ctrl, (struct sockaddr *)&ss, &sl) == 0)
		net_addr_str(&ss, r->peer_addr, sizeof(r->peer_addr));
	r->params = c->o->params;
	memset(r->params.secret, 0, sizeof(r->params.secret));
	r->zerocopy = c->o->zerocopy;
	memcpy(r->cookie, c->cookie, sizeof(r->cookie));
	snprintf(r->asked_host, sizeof(r->asked_host), "%s", c->o->host);
	net_result_socket_facts(r, c->ctrl, c->n ? c->streams[0].fd : -1);
}

int net_client_run(const struct net_client_opts *o, struct net_result *r,
		   struct ioc_err *err)
{
	struct client c = {.o = o, .r = r, .ctrl = -1};
	struct net_client_opts oo;
	struct net_pool_opts po;
	double u0, s0, u1, s1, pu = 0, ps = 0;
	json_object *j;
	int rc;

	memset(r, 0, sizeof(*r));
	if ((rc = net_client_check(o, err)))
		return rc;
	oo = *o;
	if (!oo.port)
		oo.port = NET_DEFAULT_PORT;
	c.o = &oo;
	c.timeout = o->timeout_ms > 0 ? o->timeout_ms : 10000;
	if (net_cookie_make(c.cookie))
		return err_set(err, EIO, "no randomness for the cookie");
	u0 = thread_cpu_s(&s0);

	rc = net_connect(oo.host, oo.port, c.timeout, NULL, &c.ctrl, err);
	if (rc)
		goto out;
	if ((rc = net_write_full(c.ctrl, c.cookie, NET_COOKIE_SIZE, c.timeout))) {
		err_set(err, -rc, "sending the cookie: %s", strerror(-rc));
		goto out;
	}
	if ((rc = expect_state(&c, NET_PARAM_EXCHANGE, c.timeout, err)))
		goto out;
	j = net_params_to_json(&oo.params, "iochar " IOCHAR_VERSION);
	if (!j) {
		rc = err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	rc = net_send_json(c.ctrl, j, c.timeout, err);
	json_object_put(j);
	if (rc)
		goto out;
	if ((rc = expect_state(&c, NET_CREATE_STREAMS, c.timeout, err)))
		goto out;
	if ((rc = open_streams(&c, err)))
		goto out;
	if ((rc = expect_state(&c, NET_TEST_START, c.timeout, err)) ||
	    (rc = expect_state(&c, NET_TEST_RUNNING, c.timeout, err)))
		goto out;
	fill_identity(&c);
	po = (struct net_pool_opts){.threads = oo.threads,
				    .len = oo.params.len,
				    .zerocopy = oo.zerocopy,
				    .rate_bps = oo.params.bandwidth};
	if ((rc = net_pool_start(&c.pool, c.streams, c.n, &po, err)))
		goto out;
	r->threads = net_pool_threads(c.pool);
	/* the streams' ids and roles, for interval reports during the test */
	if ((rc = net_result_build(r, c.streams, c.n, true, 0, 0, NULL))) {
		err_set(err, -rc, "out of memory");
		goto out;
	}
	u0 = thread_cpu_s(&s0);
	net_result_host_cpu_begin(r);
	rc = run_test(&c, err);
	net_pool_stop(c.pool, true);
	net_result_host_cpu_end(r);
	net_pool_cpu(c.pool, &pu, &ps);
	u1 = thread_cpu_s(&s1);
	if (rc)
		goto out;
	rc = exchange(&c, pu + u1 - u0, ps + s1 - s0, err);
out:
	net_pool_free(c.pool);
	for (unsigned i = 0; c.streams && i < c.n; i++)
		if (c.streams[i].fd >= 0)
			close(c.streams[i].fd);
	free(c.streams);
	if (c.ctrl >= 0)
		close(c.ctrl);
	if (rc)
		net_result_free(r);
	return rc;
}
