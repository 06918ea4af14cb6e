/* sysbench.c - sysbench's OLTP scripts against the private MariaDB:
 * `prepare` loads --tables of --table-size rows, `run` reports every
 * second (--report-interval=1) and the 99th percentile (--percentile=99),
 * and its text is read line by line: the "[ Ns ]" lines are the per-second
 * series, the statistics block the run's figures. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/bench.h"

static char sysbench_path[256];

static int sb_probe(struct app_bench_cfg *c, struct ioc_err *err)
{
	char out[256];

	if (!app_find_tool("sysbench", NULL, sysbench_path, sizeof(sysbench_path)))
		return err_set(err, ENOENT, "app: sysbench is needed (Debian: apt-get install sysbench)");
	char *argv[] = {sysbench_path, "--version", NULL};
	app_output(argv, APP_AS_SELF, out, sizeof(out));
	const char *v = strchr(out, ' ');
	snprintf(c->version, sizeof(c->version), "%s", v ? v + 1 : "?");
	c->version[strcspn(c->version, " \n")] = '\0';
	return 0;
}

/* About 270 bytes a row with its secondary index in InnoDB (sysbench's
 * sbtest rows: an int, a 120-byte and a 60-byte char, and k's index; 273
 * measured on 4 x 50000 rows); the real size is measured after the load. */
static uint64_t sb_estimate(const struct app_bench_cfg *c)
{
	return (uint64_t)c->tables * c->table_size * 270;
}

/* argv of sysbench for command cmd ("prepare", "run") into a (strings in
 * s), the common options first. */
static void sb_argv(const struct app_bench_cfg *c, const char *cmd, unsigned threads,
		    unsigned secs, char s[][300], char **a)
{
	unsigned n = 0, k = 0;

	a[k++] = sysbench_path;
	snprintf(s[n], 300, "oltp_%s", c->workload);
	a[k++] = s[n++];
	a[k++] = "--db-driver=mysql";
	snprintf(s[n], 300, "--mysql-socket=%s/mariadb.sock", c->db->sockdir);
	a[k++] = s[n++];
	a[k++] = "--mysql-user=root";
	a[k++] = "--mysql-db=sbtest";
	snprintf(s[n], 300, "--tables=%u", c->tables);
	a[k++] = s[n++];
	snprintf(s[n], 300, "--table-size=%llu", (unsigned long long)c->table_size);
	a[k++] = s[n++];
	snprintf(s[n], 300, "--threads=%u", threads);
	a[k++] = s[n++];
	if (secs) {
		snprintf(s[n], 300, "--time=%u", secs);
		a[k++] = s[n++];
		a[k++] = "--events=0";
		a[k++] = "--report-interval=1";
		a[k++] = "--percentile=99";
		a[k++] = "--histogram=off";
	}
	a[k++] = (char *)cmd;
	a[k] = NULL;
}

static void join_argv(char *const *a, char *out, size_t size)
{
	out[0] = '\0';
	for (unsigned i = 0; a[i]; i++) {
		size_t len = strlen(out);
		snprintf(out + len, size - len, "%s%s", i ? " " : "", a[i]);
	}
}

static int sb_prepare(struct app_bench_cfg *c, atomic_bool *stop, struct ioc_err *err)
{
	char s[12][300], *a[24], log[1100], tail[600];
	unsigned threads = c->tables < 8 ? c->tables : 8;

	sb_argv(c, "prepare", threads ? threads : 1, 0, s, a);
	snprintf(log, sizeof(log), "%s/sysbench-prepare.out", c->outdir);
	int rc = app_run_ticking(a, log, APP_AS_SELF, 24 * 3600 * 1000u, stop, c->progress);
	if (rc) {
		app_log_tail(log, tail, sizeof(tail));
		return err_set(err, rc < 0 ? rc : -EIO, "app: sysbench prepare failed "
			       "(status %d): %s", rc, tail);
	}
	return 0;
}

static pid_t sb_start(struct app_bench_cfg *c, unsigned threads, unsigned secs,
		      const char *log)
{
	char s[12][300], *a[24];

	sb_argv(c, "run", threads, secs, s, a);
	join_argv(a, c->argv, sizeof(c->argv));
	return app_spawn(a, log, APP_AS_SELF);
}

/* "[ 3s ] thds: 2 tps: 285.84 qps: 5727.71 (r/w/o: ...) lat (ms,99%): 5.57
 * err/s: 0.00 reconn/s: 0.00" into p's series. */
static void sb_second(const char *line, struct app_point *p)
{
	const char *tps = strstr(line, " tps: "), *qps = strstr(line, " qps: ");
	const char *lat = strstr(line, "%): ");

	if (!tps || !qps || p->nsec >= APP_MAX_SECONDS)
		return;
	struct app_second *s = &p->sec[p->nsec++];
	s->tps = strtod(tps + 6, NULL);
	s->qps = strtod(qps + 6, NULL);
	s->lat_p99_ms = lat ? strtod(lat + 4, NULL) : 0;
}

/* The number after "key:" in line, if line holds key; true if it does. */
static bool sb_value(const char *line, const char *key, double *v)
{
	const char *k = strstr(line, key);

	if (!k)
		return false;
	*v = strtod(k + strlen(key), NULL);
	return true;
}

/* "transactions:   2870   (286.88 per sec.)": the rate in brackets. */
static bool sb_rate(const char *line, const char *key, double *v)
{
	const char *k = strstr(line, key), *b;

	if (!k || !(b = strchr(k, '(')))
		return false;
	*v = strtod(b + 1, NULL);
	return true;
}

static int sb_parse(const struct app_bench_cfg *c, const char *log, struct app_point *p,
		    struct ioc_err *err)
{
	FILE *f = fopen(log, "r");
	char line[1024];
	double v, avg = -1, p99 = -1, total = 0, tps = -1;

	(void)c;
	if (!f)
		return err_set(err, errno, "app: %s: %s", log, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '[')
			sb_second(line, p);
		else if (sb_rate(line, "transactions:", &v))
			tps = v;
		else if (sb_rate(line, "queries:", &v))
			p->qps = v;
		else if (sb_value(line, "ignored errors:", &v))
			p->errors = (uint64_t)v;
		else if (sb_value(line, "reconnects:", &v))
			p->reconnects = (uint64_t)v;
		else if (sb_value(line, "total time:", &v))
			total = v;
		else if (sb_value(line, "avg:", &v))
			avg = v;
		else if (sb_value(line, "99th percentile:", &v))
			p99 = v;
	}
	fclose(f);
	if (tps < 0 || avg < 0 || p99 < 0) {
		char tail[600];
		app_log_tail(log, tail, sizeof(tail));
		return err_set(err, EIO, "app: sysbench printed no statistics: %s", tail);
	}
	p->tps = tps;
	p->lat_avg_ms = avg;
	p->lat_p99_ms = p99;
	p->seconds = total;
	return 0;
}

const struct app_bench_ops app_sysbench = {
	.tool = "sysbench",
	.db = &app_db_mariadb,
	.probe = sb_probe,
	.estimate = sb_estimate,
	.prepare = sb_prepare,
	.start = sb_start,
	.parse = sb_parse,
};
