/* pgbench.c - pgbench against the private PostgreSQL: `-i -s SCALE`
 * loads the data set; a run is `-c T -j T -T S -P 1 -r -l`. pgbench
 * prints no percentile, so the p99 (and the per-second TPS and p99) come
 * from its per-transaction log (-l: one line a transaction, its latency
 * in microseconds and when it ended), the 99th percentile by nearest rank
 * over every transaction; TPS and the average are pgbench's own summary.
 * QPS is TPS times the statements of the script (the -r list). The logs
 * are removed once read. */
#define _GNU_SOURCE
#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/bench.h"
#include "app/pgbench_log.h"

static char pgbench_path[300];

static int pgb_probe(struct app_bench_cfg *c, struct ioc_err *err)
{
	char out[256];

	snprintf(pgbench_path, sizeof(pgbench_path), "%s/pgbench", c->db->bindir);
	if (!c->db->bindir[0] || !app_find_tool("pgbench", c->db->bindir, pgbench_path,
						 sizeof(pgbench_path)))
		return err_set(err, ENOENT, "app: pgbench is needed (Debian: apt-get install "
			       "postgresql-contrib)");
	char *argv[] = {pgbench_path, "--version", NULL};
	app_output(argv, APP_AS_SELF, out, sizeof(out));
	const char *v = strstr(out, ") "); /* "pgbench (PostgreSQL) 15.18 (Debian ...)" */
	snprintf(c->version, sizeof(c->version), "%.63s", v ? v + 2 : out);
	c->version[strcspn(c->version, " \n")] = '\0';
	return 0;
}

/* pgbench's documentation: scale 1 is 100,000 accounts, about 15 MiB. */
static uint64_t pgb_estimate(const struct app_bench_cfg *c)
{
	return (uint64_t)c->scale * (15ull << 20);
}

/* The connection options into a from k on; the next free index. */
static unsigned pgb_conn(const struct app_bench_cfg *c, char *port, char **a, unsigned k)
{
	snprintf(port, 16, "%u", c->db->port);
	a[k++] = "-h";
	a[k++] = (char *)c->db->sockdir;
	a[k++] = "-p";
	a[k++] = port;
	a[k++] = "-U";
	a[k++] = "postgres";
	return k;
}

static int pgb_prepare(struct app_bench_cfg *c, atomic_bool *stop, struct ioc_err *err)
{
	char scale[16], port[16], log[1100], tail[600], *a[16];
	unsigned k = 0;

	snprintf(scale, sizeof(scale), "%u", c->scale);
	a[k++] = pgbench_path;
	a[k++] = "-i";
	a[k++] = "-q";
	a[k++] = "-s";
	a[k++] = scale;
	k = pgb_conn(c, port, a, k);
	a[k++] = "postgres";
	a[k] = NULL;
	snprintf(log, sizeof(log), "%s/pgbench-init.out", c->outdir);
	int rc = app_run_ticking(a, log, APP_AS_SELF, 24 * 3600 * 1000u, stop, c->progress);
	if (rc) {
		app_log_tail(log, tail, sizeof(tail));
		return err_set(err, rc < 0 ? rc : -EIO, "app: pgbench -i failed (status %d): %s",
			       rc, tail);
	}
	return 0;
}

static void log_prefix(const struct app_bench_cfg *c, unsigned threads, char *out, size_t size)
{
	snprintf(out, size, "%s/pgbench-T%u-log", c->outdir, threads);
}

static pid_t pgb_start(struct app_bench_cfg *c, unsigned threads, unsigned secs,
		       const char *log)
{
	char t[16], s[16], b[64], port[16], prefix[1100], pre_arg[1200], *a[32];
	unsigned k = 0;

	snprintf(t, sizeof(t), "%u", threads);
	snprintf(s, sizeof(s), "%u", secs);
	snprintf(b, sizeof(b), "--builtin=%s", c->workload);
	log_prefix(c, threads, prefix, sizeof(prefix));
	snprintf(pre_arg, sizeof(pre_arg), "--log-prefix=%s", prefix);
	char *fixed[] = {pgbench_path, b, "-c", t, "-j", t, "-T", s, "-P", "1", "-r", "-l",
			 pre_arg};
	for (; k < sizeof(fixed) / sizeof(fixed[0]); k++)
		a[k] = fixed[k];
	k = pgb_conn(c, port, a, k);
	a[k++] = "postgres";
	a[k] = NULL;
	c->argv[0] = '\0';
	for (unsigned i = 0; a[i]; i++)
		snprintf(c->argv + strlen(c->argv), sizeof(c->argv) - strlen(c->argv), "%s%s",
			 i ? " " : "", a[i]);
	return app_spawn(a, log, APP_AS_SELF);
}

/* The summary's figures: tps, latency average, failed, duration and the
 * statements the -r list shows. */
static int pgb_summary(const char *log, struct app_point *p, unsigned *stmts)
{
	FILE *f = fopen(log, "r");
	char line[1024];
	bool in_list = false, tps = false, avg = false;
	const char *v;

	if (!f)
		return -errno;
	*stmts = 0;
	while (fgets(line, sizeof(line), f)) {
		if ((v = strstr(line, "tps = ")) && !strncmp(line, "tps", 3))
			tps = (p->tps = strtod(v + 6, NULL)) >= 0;
		else if ((v = strstr(line, "latency average = ")))
			avg = (p->lat_avg_ms = strtod(v + 18, NULL)) >= 0;
		else if ((v = strstr(line, "number of failed transactions: ")))
			p->errors = strtoull(v + 31, NULL, 10);
		else if ((v = strstr(line, "duration: ")) && !strncmp(line, "duration", 8))
			p->seconds = strtod(v + 10, NULL);
		else if (strstr(line, "statement latencies in milliseconds"))
			in_list = true;
		else if (in_list && line[0] == ' ')
			*stmts += !strchr(line, '\\'); /* \set lines are pgbench's own */
		else
			in_list = false;
	}
	fclose(f);
	return tps && avg ? 0 : -EIO;
}

static int pgb_parse(const struct app_bench_cfg *c, const char *log, struct app_point *p,
		     struct ioc_err *err)
{
	char prefix[1100], tail[600];
	unsigned stmts = 0;

	if (pgb_summary(log, p, &stmts)) {
		app_log_tail(log, tail, sizeof(tail));
		return err_set(err, EIO, "app: pgbench printed no summary: %s", tail);
	}
	p->qps = p->tps * stmts;
	log_prefix(c, p->threads, prefix, sizeof(prefix));
	int ret = pgbench_log_read(prefix, p, err);
	pgbench_log_remove(prefix);
	return ret;
}

const struct app_bench_ops app_pgbench = {
	.tool = "pgbench",
	.db = &app_db_postgresql,
	.probe = pgb_probe,
	.estimate = pgb_estimate,
	.prepare = pgb_prepare,
	.start = pgb_start,
	.parse = pgb_parse,
};
