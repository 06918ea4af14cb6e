/* net_mesh.c - `iochar net mesh`: every host pair's TCP throughput over
 * MPI (docs/net.md, "net mesh"). Each rank serves tests on the address
 * MPI knows for its host; the ranks of one ordered pair at a time run one
 * test (client -> server) while every other rank waits (dist_pairs), or
 * with --ring every rank sends to the next at once. Rank 0 gathers the
 * rows and prints the matrix. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cli/units.h"
#include "cmd/cmd.h"
#include "cmd/signals.h"
#include "dist/dist.h"
#include "inventory/environment.h"
#include "net/mesh.h"
#include "net/mesh_csv.h"
#include "net/net_client.h"
#include "net/server.h"
#include "util/clock.h"

enum { OPT_RING = 256, OPT_OUT, OPT_TIMEOUT, OPT_FORMAT, OPT_FORCE };

struct mesh_cli {
	struct net_params params;
	bool ring, json, csv, help;
	const char *out_dir, *bind;
	bool force; /* --force: --out's results.json over any file */
	unsigned port_base;   /* 0: any free port; else rank r uses base + r */
	unsigned timeout_ms;  /* each control step of a test */
};

/* Where a rank's server listens, sent to its client over MPI. */
struct mesh_where {
	int32_t ok;
	char addr[64];
	uint16_t port;
};

struct mesh_ctx {
	struct dist *d;
	const struct mesh_cli *c;
	char addr[64];                /* this rank's address, numeric */
	struct net_mesh_cell *row;    /* this rank's cells, by server rank */
	const atomic_bool *stop;
};

static void help(FILE *f)
{
	fprintf(f,
		"usage: mpirun -np N iochar net mesh [OPTIONS]\n\n"
		"Measures TCP throughput between every pair of ranks, one ordered\n"
		"pair at a time (the others idle), or with --ring each rank to the\n"
		"next, all at once. Rank 0 prints the matrix.\n\n"
		"  -t, --time S          seconds per test (10)\n"
		"  -P, --parallel N      parallel streams per test (1; 1 to 128)\n"
		"  -l, --len SIZE        bytes per write (128K)\n"
		"      --ring            rank r -> r + 1 mod N, all at once\n"
		"  -B, --bind ADDR       address every rank serves on (default: the\n"
		"                        address of the host name MPI reports)\n"
		"  -p, --port N          rank r serves on port N + r (0 = any free)\n"
		"  -J, --json            JSON output\n"
		"      --output-format F text, json (as -J) or csv: one row per\n"
		"                        pair (columns: docs/net.md)\n"
		"      --out DIR         write DIR/results.json too (never over a file\n"
		"                        iochar did not write, unless --force)\n"
		"      --timeout MS      bound on each control step (10000)\n");
}

static int parse(int argc, char **argv, struct mesh_cli *c, struct ioc_err *err)
{
	static const struct option lo[] = {
		{"time", 1, 0, 't'},     {"parallel", 1, 0, 'P'},
		{"len", 1, 0, 'l'},      {"ring", 0, 0, OPT_RING},
		{"bind", 1, 0, 'B'},     {"port", 1, 0, 'p'},
		{"json", 0, 0, 'J'},     {"out", 1, 0, OPT_OUT},
		{"force", 0, 0, OPT_FORCE},
		{"timeout", 1, 0, OPT_TIMEOUT}, {"help", 0, 0, 'h'},
		{"output-format", 1, 0, OPT_FORMAT},
		{0, 0, 0, 0},
	};
	uint64_t v;
	int ch, rc = 0;

	net_params_default(&c->params);
	c->timeout_ms = 10000;
	optind = 1;
	opterr = 0;
	while (!rc && (ch = getopt_long(argc, argv, "t:P:l:B:p:Jh", lo, NULL)) != -1) {
		switch (ch) {
		case 't':
			rc = units_parse_uint("-t", optarg, 1, 86400, &v, err);
			c->params.duration = (unsigned)v;
			break;
		case 'P':
			rc = units_parse_uint("-P", optarg, 1, 128, &v, err);
			c->params.parallel = (unsigned)v;
			break;
		case 'l':
			rc = units_parse_size("-l", optarg, &v, err);
			if (!rc && (v < 1 || v > (1u << 30)))
				rc = err_usage(err, ERANGE, "-l %s: must be 1 B to 1 GiB", optarg);
			c->params.len = (uint32_t)v;
			break;
		case OPT_RING: c->ring = true; break;
		case 'B': c->bind = optarg; break;
		case 'p':
			rc = units_parse_uint("--port", optarg, 0, 65535, &v, err);
			c->port_base = (unsigned)v;
			break;
		case 'J': c->json = true; c->csv = false; break;
		case OPT_FORMAT:
			c->json = !strcmp(optarg, "json");
			c->csv = !strcmp(optarg, "csv");
			if (!c->json && !c->csv && strcmp(optarg, "text"))
				rc = err_usage(err, EINVAL,
					       "--output-format=%s: text, json or csv",
					       optarg);
			break;
		case OPT_OUT: c->out_dir = optarg; break;
		case OPT_FORCE: c->force = true; break;
		case OPT_TIMEOUT:
			rc = units_parse_uint("--timeout", optarg, 100, 600000, &v, err);
			c->timeout_ms = (unsigned)v;
			break;
		case 'h': c->help = true; return 0;
		default:
			rc = err_usage(err, EINVAL, "net mesh: unknown option '%s'",
				       argv[optind - 1]);
		}
	}
	if (!rc && optind != argc)
		rc = err_usage(err, EINVAL, "net mesh: unexpected '%s'", argv[optind]);
	return rc;
}

/* This rank's address: -B as given, else the host name MPI reported,
 * resolved (the first address), so every server is reachable where MPI
 * says the host is. */
static int local_addr(const struct mesh_ctx *x, char *out, size_t len,
		      struct ioc_err *err)
{
	const char *name = x->c->bind ? x->c->bind : dist_host(x->d, dist_rank(x->d));
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
	const struct mesh_cli *c = x->c;
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
	       !(x->stop && atomic_load(x->stop)))
		clock_sleep_until(clock_ns() + 5000000);
	came = atomic_load(&s->done);
	atomic_store(&s->stop, true);
	if (s->th)
		pthread_join(s->th, NULL);
	if (!came && x->stop && atomic_load(x->stop))
		return err_set(err, EINTR, "stopped by a signal");
	if (!came && wait_ns)
		return err_set(err, ETIMEDOUT, "server on %s port %u: no test from rank %d (%s) in time",
			       x->addr, atomic_load(&s->port), peer, dist_host(x->d, peer));
	return 0;
}

/* How long one pair may take, beyond its seconds of data. */
static uint64_t pair_ns(const struct mesh_cli *c)
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
		.stop = x->stop,
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
	if (x->stop && atomic_load(x->stop))
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

/* Rank 0: the matrix from every rank's row, printed and written. */
static int report(struct mesh_ctx *x, struct net_mesh_cell *all, struct ioc_err *err)
{
	struct net_mesh m = {
		.size = dist_size(x->d),
		.ring = x->c->ring,
		.params = x->c->params,
		.cells = all,
	};
	struct environment env = {0};
	int rc = 0;

	m.hosts = calloc((size_t)m.size, sizeof(*m.hosts));
	if (!m.hosts)
		return err_set(err, ENOMEM, "out of memory");
	for (int r = 0; r < m.size; r++)
		snprintf(m.hosts[r], sizeof(m.hosts[r]), "%s", dist_host(x->d, r));
	environment_collect(&env, NULL, 0);
	if (x->c->json) {
		struct jw w;
		jw_init(&w, stdout, 2);
		net_mesh_json(&w, &m, &env);
		rc = jw_finish(&w);
		if (rc)
			err_set(err, -rc, "stdout: %s", strerror(-rc));
	} else if (x->c->csv) {
		net_mesh_csv(stdout, &m);
	} else {
		net_mesh_text(stdout, &m);
	}
	fflush(stdout);
	if (!rc && x->c->out_dir)
		rc = net_mesh_write_dir(x->c->out_dir, x->c->force, &m, &env, err);
	environment_free(&env);
	free(m.hosts);
	return rc;
}

static int sweep(struct mesh_ctx *x, struct ioc_err *err)
{
	struct dist *d = x->d;
	size_t row_len = (size_t)dist_size(d) * sizeof(*x->row);
	struct net_mesh_cell *all = NULL;
	int rc;

	x->row = calloc(1, row_len);
	if (dist_is_root(d))
		all = calloc((size_t)dist_size(d), row_len);
	if (!x->row || (dist_is_root(d) && !all)) {
		free(x->row);
		free(all);
		return err_set(err, ENOMEM, "out of memory");
	}
	if (x->c->ring)
		rc = ring_all(x, err);
	else
		rc = dist_pairs(d, false, pair_ns(x->c), pair_fn, x, err);
	if (!rc)
		rc = dist_gather(d, x->row, row_len, all, err);
	if (!rc && dist_is_root(d))
		rc = report(x, all, err);
	free(x->row);
	free(all);
	return rc;
}

int cmd_net_mesh(int argc, char **argv)
{
	struct mesh_cli c = {0};
	struct ioc_err err = {0}, local = {0};
	struct mesh_ctx x = {.c = &c};
	struct dist *d = NULL;
	unsigned ranks;
	int rc = parse(argc, argv, &c, &local);

	if (c.help) {
		const char *r = getenv("OMPI_COMM_WORLD_RANK");
		if (!r || !strcmp(r, "0"))
			help(stdout);
		return 0;
	}
	if (!dist_launched(&ranks)) {
		fprintf(stderr, "iochar: net mesh needs mpirun: mpirun -np N iochar net mesh "
				"(N >= 2, with the MPI build of iochar)\n");
		return EXIT_USAGE;
	}
	int ret = dist_start(&d, &err);
	if (ret || !d) {
		if (ret && err.msg[0])
			fprintf(stderr, "iochar: %s\n", err.msg);
		else if (!ret)
			fprintf(stderr, "iochar: net mesh needs mpirun with 2 or more ranks "
					"(and the MPI build of iochar)\n");
		return ret && !err.usage ? 1 : EXIT_USAGE;
	}
	x.d = d;
	if (!rc && dist_size(d) < 2)
		rc = err_usage(&local, EINVAL, "net mesh needs 2 or more ranks (mpirun -np N, N >= 2)");
	if (!rc)
		rc = local_addr(&x, x.addr, sizeof(x.addr), &local);
	if (!rc && c.out_dir && dist_is_root(d)) /* rank 0 writes it */
		rc = net_out_check(c.out_dir, c.force, &local);
	char what[256];
	snprintf(what, sizeof(what), "net mesh ring=%d t=%u P=%u l=%u port=%u timeout=%u",
		 c.ring, c.params.duration, c.params.parallel, c.params.len,
		 c.port_base, c.timeout_ms);
	ret = dist_agree(d, what, rc, &local, &err);
	if (!ret) {
		x.stop = signals_catch();
		ret = sweep(&x, &err);
	}
	int status = 0;
	if (ret) {
		if (dist_is_root(d))
			fprintf(stderr, "iochar: net mesh: %s\n", err.msg);
		status = ret == -EINTR ? EXIT_SIGNAL : err.usage ? EXIT_USAGE : 1;
	}
	return dist_finish(d, status);
}
