/* bench.c - the BENCH names of `iochar app` and their workloads. */
#include "app/bench.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const oltp_wl[] = {"read_write", "read_only", "write_only",
				      "point_select", NULL};
static const char *const read_wl[] = {"read_only", "point_select", NULL};
static const char *const write_wl[] = {"write_only", NULL};
/* pgbench's built-in scripts (-b) */
static const char *const pg_wl[] = {"tpcb-like", "select-only", "simple-update", NULL};

static const struct app_bench benches[] = {
	{"sysbench-oltp", &app_sysbench, oltp_wl},
	{"sysbench-read", &app_sysbench, read_wl},
	{"sysbench-write", &app_sysbench, write_wl},
	{"pgbench", &app_pgbench, pg_wl},
};

const struct app_bench *app_bench_find(const char *name)
{
	for (size_t i = 0; i < sizeof(benches) / sizeof(benches[0]); i++)
		if (!strcmp(benches[i].name, name))
			return &benches[i];
	return NULL;
}

const char *app_bench_names(void)
{
	return "sysbench-oltp, sysbench-read, sysbench-write, pgbench";
}

bool app_bench_has_workload(const struct app_bench *b, const char *w)
{
	for (const char *const *k = b->workloads; *k; k++)
		if (!strcmp(*k, w))
			return true;
	return false;
}

int app_parse_threads(const char *key, const char *s, unsigned *out, unsigned *n,
		      struct ioc_err *err)
{
	char buf[512], *end;

	snprintf(buf, sizeof(buf), "%s", s);
	*n = 0;
	for (char *save, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		errno = 0;
		unsigned long v = strtoul(t, &end, 10);
		if (errno || end == t || *end || v < 1 || v > 4096 || t[0] == '-')
			return err_usage(err, EINVAL, "%s=%s: '%s' is no thread count "
					 "(1 to 4096)", key, s, t);
		if (*n == APP_MAX_POINTS)
			return err_usage(err, E2BIG, "%s=%s: at most %d points", key, s,
					 APP_MAX_POINTS);
		if (*n && v <= out[*n - 1])
			return err_usage(err, EINVAL, "%s=%s: give the counts rising", key, s);
		out[(*n)++] = (unsigned)v;
	}
	if (!*n)
		return err_usage(err, EINVAL, "%s=%s: no thread count", key, s);
	return 0;
}
