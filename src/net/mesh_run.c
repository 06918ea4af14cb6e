/* mesh_run.c - see mesh_run.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "dist/dist.h"
#include "net/mesh_run.h"
#include "net/net_client.h"
#include "net/server.h"
#include "util/clock.h"

/* Where a rank's server listens, sent to its client over MPI. */
struct mesh_where {
	int32_t ok;
	char addr[64];
	uint16_t port;
};

struct mesh_ctx {
	struct dist *d;
	const struct net_mesh_opts *c;
	char addr[64];                /* this rank's address, numeric */
	struct net_mesh_cell *row;    /* this rank's cells, by server rank */
};

int net_mesh_addr(struct dist *d, const struct net_mesh_opts *o, char *out,
		  size_t len, struct ioc_err *err)
{
	const char *name = o->bind ? o->bind : dist_host(d, dist_rank(d));
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *ai;
	int rc = getaddrinfo(name, NULL, &hints, &ai);

	if (rc)
		return err_usage(err, EADDRNOTAVAIL, "%s: cannot resolve: %s", name,
				 gai_strerror(rc));
	rc = getnameinfo(ai->ai_addr, ai->ai_addrlen, out, (socklen_t)len, NULL, 0,
			 NI_NUMERICHOST);
	freeaddrinfo(ai);
	if (rc)
		return err_usage(err, EADDRNOTAVAIL, "%s: %s", name, gai_strerror(rc));
	return 0;
}

/* One test's server on its own thread, until it served one test. */
struct serve {
	struct net_server_opts o;
	pthread_t th;
	atomic_bool stop, done;
	atomic_uint port;
	int ret;
	struct ioc_err err;
};

static void on_listen(void *arg, uint16_t port)
{
	atomic_store(&((struct serve *)arg)->port, port);
}

static void *serve_main(void *arg)
{
	struct serve *s = arg;
	s->ret = net_server_run(&s->o, &s->err);
	atomic_store(&s->done, true);
	return NULL;
}

/* Start serving; 0 once listening (s->port), else -errno naming the
 * address. s must then be ended by serve_end. */
static int serve_start(const struct mesh_ctx *x, struct serve *s, FILE *log,
		       struct ioc_err *err)
{
	const struct net_mesh_opts *c = x->c;
	uint64_t end = clock_ns() + (uint64_t)c->timeout_ms * 1000000ull;

	memset(s, 0, sizeof(*s));
	s->o.bind = x->addr;
	s->o.port = c->port_base ? (uint16_t)(c->port_base + (unsigned)dist_rank(x->d)) : 0;
	net_caps_default(&s->o.caps);
	if (s->o.caps.max_duration < c->params.duration + 1)
		s->o.caps.max_duration = c->params.duration + 1;
	s->o.caps.idle_ms = c->timeout_ms;
	s->o.max_total = 1;
	s->o.log = log;
	s->o.stop = &s->stop;
	s->o.on_listen = on_listen;
	s->o.listen_arg = s;
	if (pthread_create(&s->th, NULL, serve_main, s)) {
		atomic_store(&s->done, true);
		s->th = 0;
		return err_set(err, EAGAIN, "cannot start a server thread");
	}
	while (!atomic_load(&s->port) && !atomic_load(&s->done) && clock_ns() < end)
		clock_sleep_until(clock_ns() + 1000000);
	if (atomic_load(&s->port))
		return 0;
	if (atomic_load(&s->done) && s->ret)
		return err_set(err, -s->ret, "cannot serve on %s: %s", x->addr, s->err.msg);
	return err_set(err, ETIMEDOUT, "server on %s did not start listening", x->addr);
}

/* Wait for the server to have served its test, at most wait_ns; then
 * stop it. 0, or -errno when the test never came or was cut short. */
static int serve_end(const struct mesh_ctx *x, struct serve *s, int peer,
		     uint64_t wait_ns, struct ioc_err *err)
{
	uint64_t end = clock_ns() + wait_ns;
	bool came;

	while (!atomic_load(&s->done) && clock_ns() < end &&
	       !(x->c->stop && atomic_load(x->c->stop)))
		clock_sleep_until(clock_ns() + 5000000);
	came = atomic_load(&s->done);
	atomic_store(&s->stop, true);
	if (s->th)
		pthread_join(s->th, NULL);
	if (!came && x->c->stop && atomic_load(x->c->stop))
		return err_set(err, EINTR, "stopped by a signal");
	if (!came && wait_ns)
		return err_set(err, ETIMEDOUT, "server on %s port %u: no test from rank %d (%s) in time",
			       x->addr, atomic_load(&s->port), peer, dist_host(x->d, peer));
	return 0;
}

/* How long one pair may take, beyond its seconds of data. */
static uint64_t pair_ns(const struct net_mesh_opts *c)
{
	return ((uint64_t)c->params.duration + 5) * 1000000000ull +
	       2ull * c->timeout_ms * 1000000ull;
}

/* One test to the server at w; its figures into row[peer]. */
static int run_client(struct mesh_ctx *x, int peer, const struct mesh_where *w,
		      struct ioc_err *err)
{
	struct net_client_opts o = {
		.host = w->addr,
		.port = w->port,
		.params = x->c->params,
		.timeout_ms = (int)x->c->timeout_ms,
		.stop = x->c->stop,
	};
	struct net_result r;
	int rc;

	if (!w->ok)
		return err_set(err, EHOSTDOWN, "rank %d (%s): its server did not start",
			       peer, dist_host(x->d, peer));
	rc = net_client_run(&o, &r, err);
	if (rc) { /* name the peer too: it may be the one that died */
		err_prefix(err, "test to rank %d (%s) at %s port %u", peer,
			   dist_host(x->d, peer), w->addr, w->port);
		return rc;
	}
	net_mesh_cell_from(&x->row[peer], &r);
	snprintf(x->row[peer].server, sizeof(x->row[peer].server), "%s", w->addr);
	x->row[peer].port = w->port;
	net_result_free(&r);
	if (x->c->stop && atomic_load(x->c->stop))
		return err_set(err, EINTR, "stopped by a signal");
	return 0;
}

static FILE *quiet_log(void)
{
	return fopen("/dev/null", "we");
}

/* dist_pairs' callback: the server tells its client where it listens. */
static int pair_fn(void *arg, int peer, bool client, struct ioc_err *err)
{
	struct mesh_ctx *x = arg;
	struct mesh_where w;

	memset(&w, 0, sizeof(w)); /* padding too: it goes over MPI */

	if (client) {
		int rc = dist_recv(x->d, peer, &w, sizeof(w), err);
		w.addr[sizeof(w.addr) - 1] = '\0';
		return rc ? rc : run_client(x, peer, &w, err);
	}
	struct serve s;
	FILE *log = quiet_log();
	int rc = serve_start(x, &s, log, err);
	w.ok = !rc;
	snprintf(w.addr, sizeof(w.addr), "%s", x->addr);
	w.port = (uint16_t)atomic_load(&s.port);
	struct ioc_err e2 = {0};
	int src = dist_send(x->d, peer, &w, sizeof(w), &e2);
	if (!rc && src) {
		rc = src;
		*err = e2;
	}
	int erc = serve_end(x, &s, peer, rc ? 0 : pair_ns(x->c), rc ? &e2 : err);
	if (log)
		fclose(log);
	return rc ? rc : erc;
}

/* --ring: every rank serves its predecessor and sends to its successor,
 * all tests at once (started after a barrier). */
static int ring_all(struct mesh_ctx *x, struct ioc_err *err)
{
	struct dist *d = x->d;
	int n = dist_size(d), me = dist_rank(d);
	int next = (me + 1) % n, prev = (me + n - 1) % n;
	struct ioc_err none = {0}, local = {0}, e2 = {0};
	struct mesh_where w, peer;
	struct serve s;
	int rc = dist_sync(d, 0, 0, &none, err);

	memset(&w, 0, sizeof(w)); /* padding too: it goes over MPI */
	memset(&peer, 0, sizeof(peer));

	if (rc)
		return rc;
	FILE *log = quiet_log();
	int lrc = serve_start(x, &s, log, &local);
	w.ok = !lrc;
	snprintf(w.addr, sizeof(w.addr), "%s", x->addr);
	w.port = (uint16_t)atomic_load(&s.port);
	int src = dist_send(d, prev, &w, sizeof(w), &e2);
	if (!lrc && src) {
		lrc = src;
		local = e2;
	}
	if (!lrc)
		lrc = dist_recv(d, next, &peer, sizeof(peer), &local);
	peer.addr[sizeof(peer.addr) - 1] = '\0';
	if (!lrc && !peer.ok)
		lrc = err_set(&local, EHOSTDOWN, "rank %d (%s): its server did not start",
			      next, dist_host(d, next));
	/* every server listens and every client knows where: go together */
	rc = dist_sync(d, 0, lrc, &local, err);
	if (!rc) {
		lrc = run_client(x, next, &peer, &local);
		int erc = serve_end(x, &s, prev, lrc ? 0 : pair_ns(x->c), &e2);
		if (!lrc && erc) {
			lrc = erc;
			local = e2;
		}
		rc = dist_sync(d, pair_ns(x->c), lrc, &local, err);
	} else {
		serve_end(x, &s, prev, 0, &e2);
	}
	if (log)
		fclose(log);
	return rc;
}

/* Rank 0: the matrix from every rank's row. */
static int matrix(const struct mesh_ctx *x, struct net_mesh_cell *all,
		  struct net_mesh *m, struct ioc_err *err)
{
	m->size = dist_size(x->d);
	m->ring = x->c->ring;
	m->params = x->c->params;
	m->cells = all;
	m->hosts = calloc((size_t)m->size, sizeof(*m->hosts));
	if (!m->hosts)
		return err_set(err, ENOMEM, "out of memory");
	for (int r = 0; r < m->size; r++)
		snprintf(m->hosts[r], sizeof(m->hosts[r]), "%s",
			 dist_host(x->d, r));
	return 0;
}

int net_mesh_run(struct dist *d, const struct net_mesh_opts *o,
		 const char *addr, struct net_mesh *m, struct ioc_err *err)
{
	struct mesh_ctx x = {.d = d, .c = o};
	size_t row_len = (size_t)dist_size(d) * sizeof(*x.row);
	struct net_mesh_cell *all = NULL;
	int rc;

	memset(m, 0, sizeof(*m));
	snprintf(x.addr, sizeof(x.addr), "%s", addr);
	x.row = calloc(1, row_len);
	if (dist_is_root(d))
		all = calloc((size_t)dist_size(d), row_len);
	if (!x.row || (dist_is_root(d) && !all)) {
		free(x.row);
		free(all);
		return err_set(err, ENOMEM, "out of memory");
	}
	if (o->ring)
		rc = ring_all(&x, err);
	else
		rc = dist_pairs(d, false, pair_ns(o), pair_fn, &x, err);
	if (!rc)
		rc = dist_gather(d, x.row, row_len, all, err);
	if (!rc && dist_is_root(d))
		rc = matrix(&x, all, m, err);
	free(x.row);
	if (!m->cells)
		free(all);
	return rc;
}

void net_mesh_run_free(struct net_mesh *m)
{
	if (!m)
		return;
	free(m->cells);
	free(m->hosts);
	memset(m, 0, sizeof(*m));
}
