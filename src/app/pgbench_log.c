/* pgbench_log.c - see pgbench_log.h. */
#define _GNU_SOURCE
#include "app/pgbench_log.h"

#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct txn {
	long long sec;
	double lat_ms;
};

struct txns {
	struct txn *v;
	size_t n, cap;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int by_sec(const void *a, const void *b)
{
	const struct txn *x = a, *y = b;
	return (x->sec > y->sec) - (x->sec < y->sec);
}

double app_quantile(double *v, size_t n, double q)
{
	if (!n)
		return 0.0;
	qsort(v, n, sizeof(*v), cmp_double);
	size_t rank = (size_t)ceil(q * (double)n);
	return v[rank ? rank - 1 : 0];
}

static int push(struct txns *t, long long sec, double lat_ms)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 4096;
		struct txn *v = realloc(t->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		t->v = v;
		t->cap = cap;
	}
	t->v[t->n++] = (struct txn){sec, lat_ms};
	return 0;
}

/* One log file's lines into t. */
static int read_one(const char *path, struct txns *t)
{
	FILE *f = fopen(path, "r");
	char line[512], lat[32];
	long long client, no, script, epoch, usec;
	int ret = 0;

	if (!f)
		return -errno;
	while (!ret && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lld %lld %31s %lld %lld %lld", &client, &no, lat, &script,
			   &epoch, &usec) != 6)
			continue;
		char *end;
		double us = strtod(lat, &end);
		if (!*end) /* not "failed" or "skipped": pgbench's summary counts those */
			ret = push(t, epoch, us / 1000.0);
	}
	fclose(f);
	return ret;
}

/* Per second of the run (from the first transaction's second): TPS and
 * p99. t->v sorted by second. */
static void per_second(struct txns *t, struct app_point *p, double *scratch)
{
	long long first = t->v[0].sec;

	p->nsec = 0;
	for (size_t i = 0; i < t->n;) {
		size_t j = i, n = 0;
		while (j < t->n && t->v[j].sec == t->v[i].sec)
			scratch[n++] = t->v[j++].lat_ms;
		long long s = t->v[i].sec - first;
		while (p->nsec < s && p->nsec < APP_MAX_SECONDS) /* a second without one */
			p->sec[p->nsec++] = (struct app_second){0};
		if (p->nsec < APP_MAX_SECONDS)
			p->sec[p->nsec++] = (struct app_second){
				.tps = (double)n, .qps = 0,
				.lat_p99_ms = app_quantile(scratch, n, 0.99)};
		i = j;
	}
}

int pgbench_log_read(const char *prefix, struct app_point *p, struct ioc_err *err)
{
	char pattern[1200];
	struct txns t = {0};
	glob_t g;
	int ret = 0;

	snprintf(pattern, sizeof(pattern), "%s.*", prefix);
	if (glob(pattern, 0, NULL, &g))
		return err_set(err, ENOENT, "app: pgbench wrote no transaction log (%s)", pattern);
	for (size_t i = 0; !ret && i < g.gl_pathc; i++)
		ret = read_one(g.gl_pathv[i], &t);
	globfree(&g);
	double *lat = t.n ? malloc(t.n * sizeof(*lat)) : NULL;
	if (!ret && !t.n)
		ret = err_set(err, EIO, "app: pgbench's log holds no transaction");
	else if (!ret && !lat)
		ret = err_set(err, ENOMEM, "app: out of memory");
	else if (ret)
		err_set(err, ret, "app: pgbench's log: %s", strerror(-ret));
	if (!ret) {
		qsort(t.v, t.n, sizeof(*t.v), by_sec);
		per_second(&t, p, lat);
		double qps_per_txn = p->tps > 0 ? p->qps / p->tps : 0;
		for (unsigned s = 0; s < p->nsec; s++)
			p->sec[s].qps = p->sec[s].tps * qps_per_txn;
		for (size_t i = 0; i < t.n; i++)
			lat[i] = t.v[i].lat_ms;
		p->lat_p99_ms = app_quantile(lat, t.n, 0.99);
	}
	free(lat);
	free(t.v);
	return ret;
}

void pgbench_log_remove(const char *prefix)
{
	char pattern[1200];
	glob_t g;

	snprintf(pattern, sizeof(pattern), "%s.*", prefix);
	if (glob(pattern, 0, NULL, &g))
		return;
	for (size_t i = 0; i < g.gl_pathc; i++)
		unlink(g.gl_pathv[i]);
	globfree(&g);
}
