/* test_output.c - the text, JSON and CSV emitters and the JSON writer.
 *
 * Builds a run_result by hand (one job, two clones, known latencies,
 * per-second intervals with a short last one), writes it in each format to
 * a memory stream and checks the figures against the raw stats: JSON is
 * parsed back with json-c, CSV with a small RFC 4180 reader.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/result.h"
#include "inventory/environment.h"
#include "base/json_writer.h"
#include "output/output.h"
#include "output/summary.h"

#define ELAPSED_NS                                                             \
	2500000000ull /* 2.5 s: the last interval is half a second             \
		       */
#define NR_READS0  20000u
#define NR_READS1  10000u
#define NR_WRITES1 5000u

/* Quote, newline, backslash, a control byte and a byte that is not UTF-8. */
static const char tricky_name[] = "we\"ird\nfi\\le\x01-\xff.dat";
static const char job_name[] = "mix,job \"a\"";

static void record_n(struct worker_stats *st, enum io_dir d, unsigned n,
		     uint64_t bs, uint64_t lat0, uint64_t step, unsigned mod)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t t = (uint64_t)i * ELAPSED_NS / n;
		assert_int_equal(
		    stats_record(st, d, bs, lat0 + (i % mod) * step, t), 0);
	}
}

/* The lag and service time of the I/Os record_n recorded, as a paced
 * worker does: a quarter of each latency is lag (half of it the tool's),
 * the rest service. */
static void record_paced_n(struct worker_stats *st, enum io_dir d, unsigned n,
			   uint64_t lat0, uint64_t step, unsigned mod)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t lat = lat0 + (i % mod) * step;
		stats_record_paced(st, d, lat / 4, lat / 8, lat - lat / 4);
	}
}

static void free_result(struct run_result *r)
{
	for (unsigned i = 0; i < r->nr_jobs; i++) {
		for (unsigned f = 0; f < r->jobs[i].nr_files; f++)
			free(r->jobs[i].files[f]);
		free(r->jobs[i].filename);
	}
	free(r->jobs);
	for (unsigned i = 0; i < r->nr_workers; i++)
		stats_free(&r->workers[i].stats);
	free(r->workers);
	stats_free(&r->total);
	free(r->env->targets);
	free(r->env);
	free(r);
}

static void fill_job(struct job_spec *j)
{
	memset(j, 0, sizeof(*j));
	snprintf(j->name, sizeof(j->name), "%s", job_name);
	j->filename = strdup(tricky_name);
	j->files[0] = strdup(tricky_name);
	assert_non_null(j->filename);
	assert_non_null(j->files[0]);
	j->nr_files = 1;
	j->size = 1ull << 30;
	j->offset = 4096;
	j->bs = 4096;
	j->rw = RW_RANDRW;
	j->rwmixread = 70;
	j->iodepth = 16;
	j->numjobs = 2;
	j->runtime_ns = ELAPSED_NS;
	j->ramp_ns = 1000000000ull;
	j->time_based = true;
	snprintf(j->ioengine, sizeof(j->ioengine), "null");
	j->direct = true;
	j->rate_iops = 12000;
	j->dist = DIST_ZIPF;
	j->zipf_theta = 1.2;
	j->cpus_set = true;
	CPU_ZERO(&j->cpus_allowed);
	CPU_SET(0, &j->cpus_allowed);
	CPU_SET(1, &j->cpus_allowed);
	CPU_SET(3, &j->cpus_allowed);
	j->randseed = 0xfeedfacecafebeefull;
}

static void fill_env(struct environment *e)
{
	snprintf(e->hostname, sizeof(e->hostname), "host1");
	snprintf(e->kernel, sizeof(e->kernel), "6.1.0-test");
	snprintf(e->machine, sizeof(e->machine), "x86_64");
	snprintf(e->cpu_model, sizeof(e->cpu_model), "Test CPU @ 3GHz");
	snprintf(e->iochar_version, sizeof(e->iochar_version), "9.9.9");
	e->cpus = 8;
	e->mem_bytes = 16ull << 30;
	e->targets = calloc(1, sizeof(*e->targets));
	assert_non_null(e->targets);
	e->nr_targets = 1;
	snprintf(e->targets[0].path, sizeof(e->targets[0].path), "%s",
		 tricky_name);
	snprintf(e->targets[0].device, sizeof(e->targets[0].device), "vda");
	snprintf(e->targets[0].fstype, sizeof(e->targets[0].fstype), "ext4");
	snprintf(e->targets[0].scheduler, sizeof(e->targets[0].scheduler),
		 "mq-deadline");
	e->targets[0].size = 123456789;
	e->targets[0].logical_block_size = 512;
}

/* One job, two clones: clone 0 only reads, clone 1 reads and writes and
 * failed. The struct is large (histograms): it lives on the heap. */
static struct run_result *make_result(bool partial, bool open_loop)
{
	struct run_result *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	r->jobs = calloc(1, sizeof(*r->jobs));
	r->workers = calloc(2, sizeof(*r->workers));
	assert_non_null(r->jobs);
	assert_non_null(r->workers);
	r->nr_jobs = 1;
	r->nr_workers = 2;
	fill_job(&r->jobs[0]);
	stats_init(&r->total);
	for (unsigned i = 0; i < 2; i++) {
		struct worker_result *w = &r->workers[i];
		w->job = 0;
		w->clone = i;
		w->elapsed_ns = ELAPSED_NS;
		stats_init(&w->stats);
	}
	/* reads: 10 us .. 109.9 us; writes: 1 ms .. 1.99 ms */
	record_n(&r->workers[0].stats, DIR_READ, NR_READS0, 4096, 10000, 100,
		 1000);
	record_n(&r->workers[1].stats, DIR_READ, NR_READS1, 4096, 20000, 100,
		 1000);
	record_n(&r->workers[1].stats, DIR_WRITE, NR_WRITES1, 4096, 1000000,
		 10000, 100);
	if (open_loop) {
		record_paced_n(&r->workers[0].stats, DIR_READ, NR_READS0, 10000, 100, 1000);
		record_paced_n(&r->workers[1].stats, DIR_READ, NR_READS1, 20000, 100, 1000);
		record_paced_n(&r->workers[1].stats, DIR_WRITE, NR_WRITES1, 1000000, 10000, 100);
	}
	r->workers[1].error = -EIO;
	snprintf(r->workers[1].error_msg, sizeof(r->workers[1].error_msg),
		 "write \"x\": I/O error");
	for (unsigned i = 0; i < 2; i++)
		assert_int_equal(stats_merge(&r->total, &r->workers[i].stats),
				 0);
	r->elapsed_ns = ELAPSED_NS;
	r->ramp_ns = 1000000000ull;
	r->cpu_usr_pct = 12.5;
	r->cpu_sys_pct = 30.25;
	r->cpu_usr_ns = 312500000;
	r->cpu_sys_ns = 756250000;
	r->partial = partial;
	r->open_loop = open_loop;
	r->start_unix_ms = 1700000000123;
	r->env = calloc(1, sizeof(*r->env));
	assert_non_null(r->env);
	fill_env(r->env);
	return r;
}

/* Emit r in fmt into a malloc'd string. */
static char *emit(const struct run_result *r, enum output_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(output_write(r, fmt, f), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	return buf;
}

static json_object *jget(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("missing key \"%s\"", key);
	return v;
}

static uint64_t jget_u64(json_object *o, const char *key)
{
	return json_object_get_uint64(jget(o, key));
}

static double jget_d(json_object *o, const char *key)
{
	return json_object_get_double(jget(o, key));
}

static const char *jget_s(json_object *o, const char *key)
{
	json_object *v = jget(o, key);

	assert_true(json_object_is_type(v, json_type_string));
	return json_object_get_string(v);
}

static void assert_close(double got, double want)
{
	/* The JSON and CSV print 3 decimals. */
	if (fabs(got - want) > 0.0006 + fabs(want) * 1e-12)
		fail_msg("got %.6f, want %.6f", got, want);
}

static json_object *parse_json(const struct run_result *r)
{
	char *text = emit(r, OUTPUT_JSON);
	json_object *root = json_tokener_parse(text);

	if (!root)
		fail_msg("output is not JSON:\n%s", text);
	free(text);
	assert_true(json_object_is_type(root, json_type_object));
	return root;
}

/* A latency-shaped block {mean, stdev, min, max, p50 .. p99_99} against
 * its histogram. */
static void check_lat_block(json_object *lat, const struct hist *h)
{
	assert_close(jget_d(lat, "mean"), hist_mean(h));
	assert_close(jget_d(lat, "stdev"), hist_stdev(h));
	assert_int_equal(jget_u64(lat, "min"), h->count ? h->min : 0);
	assert_int_equal(jget_u64(lat, "max"), h->count ? h->max : 0);
	for (unsigned i = 0; i < SUMMARY_NR_PCT; i++)
		assert_int_equal(jget_u64(lat, summary_pcts[i].key),
				 hist_percentile(h, summary_pcts[i].p));
}

/* The block {ios, bytes, iops, bw_bytes, lat_ns, lag[, service_latency]}
 * against the raw stats. */
static void check_dir_block(json_object *o, const struct dir_stats *ds,
			    uint64_t elapsed_ns)
{
	double secs = (double)elapsed_ns / 1e9;
	json_object *svc = NULL;

	assert_int_equal(jget_u64(o, "ios"), ds->ios);
	assert_int_equal(jget_u64(o, "bytes"), ds->bytes);
	assert_close(jget_d(o, "iops"), (double)ds->ios / secs);
	assert_close(jget_d(o, "bw_bytes"), (double)ds->bytes / secs);
	check_lat_block(jget(o, "lat_ns"), &ds->lat);
	check_lat_block(jget(o, "lag"), &ds->lag);
	check_lat_block(jget(o, "tool_lag"), &ds->tool_lag);
	/* the service time only where it is not lat_ns itself */
	assert_int_equal(json_object_object_get_ex(o, "service_latency", &svc),
			 ds->service.count != 0);
	if (svc)
		check_lat_block(svc, &ds->service);
}

/* read, write and total of a JSON object against a worker_stats. */
static void check_stats_blocks(json_object *o, const struct worker_stats *st,
			       uint64_t elapsed_ns)
{
	struct dir_stats *total = malloc(sizeof(*total));

	assert_non_null(total);
	stats_total(st, total);
	check_dir_block(jget(o, "read"), &st->dir[DIR_READ], elapsed_ns);
	check_dir_block(jget(o, "write"), &st->dir[DIR_WRITE], elapsed_ns);
	check_dir_block(jget(o, "total"), total, elapsed_ns);
	assert_int_equal(jget_u64(jget(o, "read"), "ios") +
			     jget_u64(jget(o, "write"), "ios"),
			 jget_u64(jget(o, "total"), "ios"));
	assert_int_equal(jget_u64(jget(o, "read"), "bytes") +
			     jget_u64(jget(o, "write"), "bytes"),
			 jget_u64(jget(o, "total"), "bytes"));
	free(total);
}

static void test_json_top_level(void **state)
{
	/* fio's layout first (output/json_fio.c), then iochar's own */
	static const char *const keys[] = {
	    "fio version", "timestamp", "timestamp_ms", "time", "jobs", "disk_util",
	    "iochar_version", "format_version", "start_unix_ms", "partial", "elapsed_ns",
	    "ramp_ns",	      "latency_origin", "tool_limited", "rate", "options", "read",
	    "write",	      "total",		"cpu",	   "intervals",
	    "workers",	      "groups",	      "environment",
	};
	struct run_result *r = make_result(true, true);
	json_object *root = parse_json(r);
	size_t n = 0;

	json_object_object_foreach(root, key, val)
	{
		(void)val;
		assert_true(n < sizeof(keys) / sizeof(keys[0]));
		assert_string_equal(key, keys[n]);
		n++;
	}
	assert_int_equal(n, sizeof(keys) / sizeof(keys[0]));
	assert_string_equal(jget_s(root, "iochar_version"), "9.9.9");
	assert_int_equal(json_object_get_int64(jget(root, "start_unix_ms")),
			 1700000000123);
	assert_true(json_object_get_boolean(jget(root, "partial")));
	assert_int_equal(jget_u64(root, "elapsed_ns"), ELAPSED_NS);
	assert_int_equal(jget_u64(root, "ramp_ns"), 1000000000ull);
	assert_string_equal(jget_s(root, "latency_origin"), "scheduled");
	assert_false(json_object_get_boolean(jget(root, "tool_limited")));
	assert_false(json_object_object_get_ex(root, "tool_limited_reason", NULL));
	/* the rate asked, 2 workers x rate_iops=12000, against the I/Os done */
	assert_string_equal(jget_s(jget(root, "rate"), "unit"), "IOPS");
	assert_true(jget_d(jget(root, "rate"), "asked") == 24000.0);
	assert_true(fabs(jget_d(jget(root, "rate"), "achieved") -
			 (NR_READS0 + NR_READS1 + NR_WRITES1) * 1e9 / (double)ELAPSED_NS) < 0.01);
	json_object_put(root);
	free_result(r);

	r = make_result(false, false);
	root = parse_json(r);
	assert_false(json_object_object_get_ex(root, "rate", NULL)); /* closed loop: none */
	assert_false(json_object_get_boolean(jget(root, "partial")));
	assert_string_equal(jget_s(root, "latency_origin"), "submit");
	json_object_put(root);
	free_result(r);
}

static void test_json_totals(void **state)
{
	struct run_result *r = make_result(false, false);
	json_object *root = parse_json(r);

	check_stats_blocks(root, &r->total, r->elapsed_ns);
	assert_int_equal(jget_u64(jget(root, "read"), "ios"),
			 NR_READS0 + NR_READS1);
	assert_close(jget_d(jget(root, "read"), "iops"), 12000.0);
	assert_close(jget_d(jget(root, "write"), "iops"), 2000.0);

	json_object *cpu = jget(root, "cpu");
	assert_close(jget_d(cpu, "usr_pct"), 12.5);
	assert_close(jget_d(cpu, "sys_pct"), 30.25);
	assert_int_equal(jget_u64(cpu, "usr_ns"), 312500000);
	assert_int_equal(jget_u64(cpu, "sys_ns"), 756250000);
	assert_close(jget_d(cpu, "ns_per_io"),
		     (312500000.0 + 756250000.0) /
			 (NR_READS0 + NR_READS1 + NR_WRITES1));
	json_object_put(root);
	free_result(r);
}

static void test_json_options(void **state)
{
	struct run_result *r = make_result(false, false);
	json_object *root = parse_json(r);
	json_object *opts = jget(root, "options");

	assert_int_equal(json_object_array_length(opts), 1);
	json_object *o = json_object_array_get_idx(opts, 0);
	assert_string_equal(jget_s(o, "name"), job_name);
	/* Escapes round-trip; the invalid byte becomes U+FFFD. */
	assert_string_equal(jget_s(o, "filename"),
			    "we\"ird\nfi\\le\x01-\xef\xbf\xbd.dat");
	json_object *files = jget(o, "files");
	assert_int_equal(json_object_array_length(files), 1);
	assert_string_equal(
	    json_object_get_string(json_object_array_get_idx(files, 0)),
	    "we\"ird\nfi\\le\x01-\xef\xbf\xbd.dat");
	assert_int_equal(jget_u64(o, "size"), 1ull << 30);
	assert_int_equal(jget_u64(o, "offset"), 4096);
	assert_int_equal(jget_u64(o, "bs"), 4096);
	assert_string_equal(jget_s(o, "rw"), "randrw");
	assert_int_equal(jget_u64(o, "rwmixread"), 70);
	assert_int_equal(jget_u64(o, "iodepth"), 16);
	assert_int_equal(jget_u64(o, "numjobs"), 2);
	assert_int_equal(jget_u64(o, "runtime_ns"), ELAPSED_NS);
	assert_int_equal(jget_u64(o, "ramp_ns"), 1000000000ull);
	assert_true(json_object_get_boolean(jget(o, "time_based")));
	assert_string_equal(jget_s(o, "ioengine"), "null");
	assert_true(json_object_get_boolean(jget(o, "direct")));
	assert_int_equal(jget_u64(o, "rate_iops"), 12000);
	assert_string_equal(jget_s(o, "random_distribution"), "zipf:1.2");
	assert_string_equal(jget_s(o, "cpus_allowed"), "0-1,3");
	/* Exact past 2^63: no detour through a double. */
	assert_true(jget_u64(o, "randseed") == 0xfeedfacecafebeefull);
	json_object_put(root);

	r->jobs[0].cpus_set = false;
	r->jobs[0].dist = DIST_UNIFORM;
	free(r->jobs[0].filename);
	r->jobs[0].filename = NULL;
	root = parse_json(r);
	o = json_object_array_get_idx(jget(root, "options"), 0);
	assert_true(
	    json_object_is_type(jget(o, "cpus_allowed"), json_type_null));
	assert_true(json_object_is_type(jget(o, "filename"), json_type_null));
	assert_string_equal(jget_s(o, "random_distribution"), "uniform");
	json_object_put(root);
	free_result(r);
}

static void test_json_intervals(void **state)
{
	struct run_result *r = make_result(false, false);
	json_object *root = parse_json(r);
	json_object *iv = jget(root, "intervals");
	uint64_t sum_ios = 0;

	assert_int_equal(json_object_array_length(iv), 3);
	for (unsigned i = 0; i < 3; i++) {
		json_object *o = json_object_array_get_idx(iv, i);
		const struct interval *raw = &r->total.intervals.v[i];
		double secs = i < 2 ? 1.0 : 0.5;

		assert_int_equal(jget_u64(o, "t_s"), i);
		assert_int_equal(jget_u64(o, "len_ns"), (uint64_t)(secs * 1e9));
		for (int d = 0; d < DIR_COUNT; d++) {
			json_object *b = jget(o, d ? "write" : "read");
			assert_int_equal(jget_u64(b, "ios"), raw->ios[d]);
			assert_int_equal(jget_u64(b, "bytes"), raw->bytes[d]);
			assert_close(jget_d(b, "iops"),
				     (double)raw->ios[d] / secs);
			assert_close(jget_d(b, "bw_bytes"),
				     (double)raw->bytes[d] / secs);
			assert_close(jget_d(b, "lat_mean_ns"),
				     (double)raw->lat_sum[d] /
					 (double)raw->ios[d]);
			assert_int_equal(jget_u64(b, "lat_max_ns"),
					 raw->lat_max[d]);
			sum_ios += raw->ios[d];
		}
	}
	/* The half-second tail runs at the same rate as the full seconds. */
	json_object *last = json_object_array_get_idx(iv, 2);
	assert_close(jget_d(jget(last, "read"), "iops"), 12000.0);
	assert_int_equal(sum_ios, NR_READS0 + NR_READS1 + NR_WRITES1);
	json_object_put(root);
	free_result(r);
}

static void test_json_workers_env(void **state)
{
	struct run_result *r = make_result(false, false);
	json_object *root = parse_json(r);
	json_object *ws = jget(root, "workers");

	assert_int_equal(json_object_array_length(ws), 2);
	for (unsigned i = 0; i < 2; i++) {
		json_object *w = json_object_array_get_idx(ws, i);
		assert_int_equal(jget_u64(w, "job"), 0);
		assert_int_equal(jget_u64(w, "clone"), i);
		assert_string_equal(jget_s(w, "name"), job_name);
		assert_int_equal(jget_u64(w, "elapsed_ns"), ELAPSED_NS);
		check_stats_blocks(w, &r->workers[i].stats, ELAPSED_NS);
	}
	json_object *w0 = json_object_array_get_idx(ws, 0);
	assert_true(json_object_is_type(jget(w0, "error"), json_type_null));
	/* clone 0 did no writes: every figure is 0, min included */
	json_object *lat = jget(jget(w0, "write"), "lat_ns");
	json_object_object_foreach(lat, key, val)
	{
		(void)key;
		assert_true(json_object_get_double(val) == 0.0);
	}
	assert_string_equal(jget_s(json_object_array_get_idx(ws, 1), "error"),
			    "write \"x\": I/O error");

	json_object *env = jget(root, "environment");
	assert_string_equal(jget_s(env, "hostname"), "host1");
	assert_string_equal(jget_s(env, "kernel"), "6.1.0-test");
	assert_string_equal(jget_s(env, "machine"), "x86_64");
	assert_string_equal(jget_s(env, "cpu_model"), "Test CPU @ 3GHz");
	assert_int_equal(jget_u64(env, "cpus"), 8);
	assert_int_equal(jget_u64(env, "mem_bytes"), 16ull << 30);
	json_object *t = json_object_array_get_idx(jget(env, "targets"), 0);
	assert_non_null(t);
	assert_string_equal(jget_s(t, "path"),
			    "we\"ird\nfi\\le\x01-\xef\xbf\xbd.dat");
	assert_false(json_object_get_boolean(jget(t, "is_block")));
	assert_string_equal(jget_s(t, "device"), "vda");
	assert_string_equal(jget_s(t, "model"), "");
	assert_string_equal(jget_s(t, "scheduler"), "mq-deadline");
	assert_string_equal(jget_s(t, "fstype"), "ext4");
	assert_int_equal(jget_u64(t, "size"), 123456789);
	assert_int_equal(jget_u64(t, "logical_block_size"), 512);
	assert_false(json_object_get_boolean(jget(t, "rotational")));
	json_object_put(root);
	free_result(r);
}

/* Split CSV text into rows of fields (RFC 4180 quoting). Returns the number
 * of rows; fields[row][col] are malloc'd. */
#define CSV_MAX_ROWS 32
#define CSV_MAX_COLS 64
struct csv {
	char *f[CSV_MAX_ROWS][CSV_MAX_COLS];
	unsigned cols[CSV_MAX_ROWS];
	unsigned rows;
};

static void csv_parse(const char *s, struct csv *c)
{
	char field[1024];
	size_t n = 0;
	bool quoted = false;

	memset(c, 0, sizeof(*c));
	for (; *s; s++) {
		if (quoted) {
			if (*s == '"' && s[1] == '"') {
				field[n++] = '"';
				s++;
			} else if (*s == '"') {
				quoted = false;
			} else {
				field[n++] = *s;
			}
		} else if (*s == '"') {
			quoted = true;
		} else if (*s == ',' || *s == '\n') {
			assert_true(c->rows < CSV_MAX_ROWS);
			assert_true(c->cols[c->rows] < CSV_MAX_COLS);
			c->f[c->rows][c->cols[c->rows]++] = strndup(field, n);
			n = 0;
			if (*s == '\n')
				c->rows++;
		} else {
			field[n++] = *s;
		}
		assert_true(n < sizeof(field));
	}
	assert_int_equal(n, 0); /* the last line ended */
	assert_false(quoted);
}

static void csv_free(struct csv *c)
{
	for (unsigned r = 0; r < CSV_MAX_ROWS; r++)
		for (unsigned i = 0; i < c->cols[r]; i++)
			free(c->f[r][i]);
}

/* Ten latency columns from f[at] against h, or all empty (!present). */
static void check_csv_lat(char **f, unsigned at, const struct hist *h,
			  bool present)
{
	if (!present) {
		for (unsigned i = 0; i < 4 + SUMMARY_NR_PCT; i++)
			assert_string_equal(f[at + i], "");
		return;
	}
	assert_close(strtod(f[at], NULL), hist_mean(h));
	assert_close(strtod(f[at + 1], NULL), hist_stdev(h));
	assert_int_equal(strtoull(f[at + 2], NULL, 10), h->count ? h->min : 0);
	assert_int_equal(strtoull(f[at + 3], NULL, 10), h->count ? h->max : 0);
	for (unsigned i = 0; i < SUMMARY_NR_PCT; i++)
		assert_int_equal(strtoull(f[at + 4 + i], NULL, 10),
				 hist_percentile(h, summary_pcts[i].p));
}

static void check_csv_row(struct csv *c, unsigned row, const char *scope,
			  const char *job, const char *clone, const char *dir,
			  const struct dir_stats *ds)
{
	char want[64];
	char **f = c->f[row];
	double secs = (double)ELAPSED_NS / 1e9;

	assert_int_equal(c->cols[row], 51);
	assert_string_equal(f[0], scope);
	assert_string_equal(f[1], job);
	assert_string_equal(f[2], clone);
	assert_string_equal(f[3], dir);
	assert_int_equal(strtoull(f[4], NULL, 10), ds->ios);
	assert_int_equal(strtoull(f[5], NULL, 10), ds->bytes);
	snprintf(want, sizeof(want), "%.3f", (double)ds->ios / secs);
	assert_string_equal(f[6], want);
	assert_close(strtod(f[7], NULL), (double)ds->bytes / secs);
	check_csv_lat(f, 8, &ds->lat, true);
	check_csv_lat(f, 18, &ds->lag, true);
	check_csv_lat(f, 28, &ds->tool_lag, true);
	check_csv_lat(f, 38, &ds->service, ds->service.count != 0);
}

static void test_csv(void **state)
{
	struct run_result *r = make_result(true, false);
	char *text = emit(r, OUTPUT_CSV);
	struct dir_stats *total = malloc(sizeof(*total));
	struct csv *c = malloc(sizeof(*c));

	assert_non_null(total);
	assert_non_null(c);
	csv_parse(text, c);
	assert_int_equal(c->rows, 1 + 3 + 2 * 3);
	assert_int_equal(c->cols[0], 51);
	assert_string_equal(c->f[0][0], "scope");
	assert_string_equal(c->f[0][48], "lat_origin");
	assert_string_equal(c->f[0][49], "tool_limited");
	assert_string_equal(c->f[0][50], "tool_limited_reason");
	assert_string_equal(c->f[0][17], "lat_p99_99_ns");
	assert_string_equal(c->f[0][18], "lag_mean_ns");
	assert_string_equal(c->f[0][28], "tool_lag_mean_ns");
	assert_string_equal(c->f[0][38], "service_lat_mean_ns");
	assert_string_equal(c->f[0][47], "service_lat_p99_99_ns");
	/* the job name holds a comma and quotes: it must have been quoted */
	assert_non_null(strstr(text, "\"mix,job \"\"a\"\"\""));

	stats_total(&r->total, total);
	check_csv_row(c, 1, "total", "", "", "read", &r->total.dir[DIR_READ]);
	check_csv_row(c, 2, "total", "", "", "write", &r->total.dir[DIR_WRITE]);
	check_csv_row(c, 3, "total", "", "", "total", total);
	/* closed loop: latency from submission; the verdict on total rows */
	for (unsigned row = 1; row < c->rows; row++) {
		assert_string_equal(c->f[row][48], "submit");
		assert_string_equal(c->f[row][49], row <= 3 ? "0" : "");
		assert_string_equal(c->f[row][50], "");
	}
	for (unsigned w = 0; w < 2; w++) {
		const struct worker_stats *st = &r->workers[w].stats;
		unsigned row = 4 + 3 * w;
		const char *clone = w ? "1" : "0";

		stats_total(st, total);
		check_csv_row(c, row, "worker", job_name, clone, "read",
			      &st->dir[DIR_READ]);
		check_csv_row(c, row + 1, "worker", job_name, clone, "write",
			      &st->dir[DIR_WRITE]);
		check_csv_row(c, row + 2, "worker", job_name, clone, "total",
			      total);
	}
	csv_free(c);
	free(c);
	free(total);
	free(text);
	free_result(r);
}

static void test_text(void **state)
{
	struct run_result *r = make_result(true, true);
	char *text = emit(r, OUTPUT_NORMAL);

	/* 30000 reads and 5000 writes of 4 KiB in 2.5 s */
	assert_non_null(strstr(text, "mix,job \"a\": rw=randrw, bs=4KiB, "
				     "ioengine=null, iodepth=16, numjobs=2\n"));
	assert_non_null(strstr(text, "  read: IOPS=12.0k, BW=46.9MiB/s "
				     "(49.2MB/s)(117MiB/2500msec)\n"));
	assert_non_null(strstr(text, "  write: IOPS=2000, BW=7.81MiB/s "
				     "(8.19MB/s)(19.5MiB/2500msec)\n"));
	assert_non_null(strstr(text, "    response lat (usec): min=10.0, max=120, "));
	assert_non_null(strstr(text, "    response lat (usec): min=1000, max=1990, "));
	assert_non_null(strstr(text, "lat percentiles (usec): 50th="));
	assert_non_null(strstr(text, "99.99th="));
	assert_non_null(
	    strstr(text, "error (clone 1): write \"x\": I/O error"));
	assert_non_null(strstr(text, "latency from scheduled issue time"));
	assert_non_null(strstr(text, "  cpu: usr=12.50%, sys=30.25%, "
				     "30536 ns per I/O\n"));
	/* a clone's error ended it: not called an interruption */
	assert_non_null(strstr(text, "partial run (stopped by an error, see above)\n"));
	free(text);
	for (unsigned i = 0; i < r->nr_workers; i++)
		r->workers[i].error = 0;
	text = emit(r, OUTPUT_NORMAL);
	assert_non_null(strstr(text, "partial run (interrupted)\n"));
	free(text);

	r->partial = false;
	r->open_loop = false;
	text = emit(r, OUTPUT_NORMAL);
	assert_null(strstr(text, "partial run"));
	assert_non_null(strstr(text, "latency from submission"));
	free(text);
	free_result(r);
}

/* A rate-limited run: lag and service time in every format, and the
 * tool-limited flag with its reason. */
static void test_paced(void **state)
{
	struct run_result *r = make_result(false, true);
	static const char reason[] = "read p99 tool lag 14 us is 12% of p99 latency 117 us";

	r->tool_limited = true;
	snprintf(r->tool_limited_reason, sizeof(r->tool_limited_reason), "%s", reason);
	json_object *root = parse_json(r);
	check_stats_blocks(root, &r->total, r->elapsed_ns);
	check_stats_blocks(json_object_array_get_idx(jget(root, "workers"), 1),
			   &r->workers[1].stats, ELAPSED_NS);
	assert_true(json_object_get_boolean(jget(root, "tool_limited")));
	assert_string_equal(jget_s(root, "tool_limited_reason"), reason);
	/* lag + service = latency, I/O by I/O, so the means add up */
	json_object *rd = jget(root, "read");
	assert_close(jget_d(jget(rd, "lag"), "mean") +
			     jget_d(jget(rd, "service_latency"), "mean"),
		     jget_d(jget(rd, "lat_ns"), "mean"));
	json_object_put(root);

	char *text = emit(r, OUTPUT_CSV);
	struct csv *c = malloc(sizeof(*c));
	assert_non_null(c);
	csv_parse(text, c);
	check_csv_row(c, 1, "total", "", "", "read", &r->total.dir[DIR_READ]);
	check_csv_row(c, 5, "worker", job_name, "0", "write",
		      &r->workers[0].stats.dir[DIR_WRITE]);
	check_csv_row(c, 8, "worker", job_name, "1", "write",
		      &r->workers[1].stats.dir[DIR_WRITE]);
	/* open loop: lat_* is the response time, and the run's verdict with
	 * its reason is on every total row, none on a worker's */
	for (unsigned row = 1; row < c->rows; row++) {
		assert_string_equal(c->f[row][48], "scheduled");
		assert_string_equal(c->f[row][49], row <= 3 ? "1" : "");
		assert_string_equal(c->f[row][50], row <= 3 ? reason : "");
	}
	csv_free(c);
	free(c);
	free(text);

	text = emit(r, OUTPUT_NORMAL);
	/* reads: latency 10 .. 119.9 us, a quarter of it lag; from the due
	 * time, so not called fio's plain "lat" */
	assert_non_null(strstr(text, "    response lat (usec): min=10.0, max=120, "));
	assert_null(strstr(text, "\n    lat ("));
	assert_non_null(strstr(text, "    service lat (usec): min=7.50, max=89.9, "));
	assert_non_null(strstr(text, "    issue lag (usec): min=2.50, max=30.0, "));
	assert_non_null(strstr(text, "    issue lag percentiles (usec): 50th="));
	assert_non_null(strstr(text, "    tool lag (nsec): min=1250, max=14987, "));
	assert_non_null(strstr(text, "  TOOL-LIMITED: read p99 tool lag 14 us"));
	free(text);
	r->tool_limited = false;
	r->tool_limited_reason[0] = '\0';
	text = emit(r, OUTPUT_NORMAL);
	assert_null(strstr(text, "TOOL-LIMITED"));
	free(text);
	free_result(r);
}

static void test_format_parse(void **state)
{
	enum output_format fmt = OUTPUT_CSV;

	assert_int_equal(output_format_parse("normal", &fmt), 0);
	assert_int_equal(fmt, OUTPUT_NORMAL);
	assert_int_equal(output_format_parse("json", &fmt), 0);
	assert_int_equal(fmt, OUTPUT_JSON);
	assert_int_equal(output_format_parse("csv", &fmt), 0);
	assert_int_equal(fmt, OUTPUT_CSV);
	assert_int_equal(output_format_parse("JSON", &fmt), -EINVAL);
	assert_int_equal(output_format_parse("", &fmt), -EINVAL);
	assert_int_equal(output_format_parse(NULL, &fmt), -EINVAL);
	assert_int_equal(fmt, OUTPUT_CSV);
	assert_string_equal(output_format_name(OUTPUT_JSON), "json");

	struct run_result *r = make_result(false, false);
	FILE *f = fopen("/dev/null", "w");
	assert_non_null(f);
	assert_int_equal(output_write(r, (enum output_format)42, f), -EINVAL);
	fclose(f);
	free_result(r);
}

/* Write with a writer into a string; returns jw_finish's result. */
static int jw_to_string(void (*fn)(struct jw *), unsigned indent, char **out)
{
	size_t len = 0;
	struct jw w;
	FILE *f = open_memstream(out, &len);

	assert_non_null(f);
	jw_init(&w, f, indent);
	fn(&w);
	int ret = jw_finish(&w);
	assert_int_equal(fclose(f), 0);
	return ret;
}

static void jw_values(struct jw *w)
{
	jw_object_begin(w);
	jw_kv_double(w, "nan", NAN);
	jw_kv_double(w, "inf", -INFINITY);
	jw_kv_double(w, "x", 1.5);
	jw_kv_double(w, "big", 1e300);
	jw_kv_uint(w, "u", UINT64_MAX);
	jw_kv_int(w, "i", INT64_MIN);
	jw_kv_string(w, "null", NULL);
	jw_kv_string(w, "ctl", "\b\f\r\t\x1f\x7f/");
	/* valid 2/3/4-byte sequences pass; overlong, surrogate, truncated
	 * and out-of-range ones do not */
	jw_kv_string(w, "utf8", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	jw_kv_string(w, "bad",
		     "\xc0\xaf|\xed\xa0\x80|\xf4\x90\x80\x80|\xe2\x82");
	jw_key(w, "arr");
	jw_array_begin(w);
	jw_array_begin(w);
	jw_array_end(w);
	jw_object_begin(w);
	jw_object_end(w);
	jw_bool(w, true);
	jw_null(w);
	jw_array_end(w);
	jw_key(w, "n");
	jw_string_n(w, "abcdef", 3);
	jw_object_end(w);
}

static void test_json_writer_values(void **state)
{
	char *text = NULL;

	assert_int_equal(jw_to_string(jw_values, 0, &text), 0);
	json_object *root = json_tokener_parse(text);
	if (!root)
		fail_msg("not JSON: %s", text);
	assert_non_null(strstr(text, "\"nan\":null,\"inf\":null,\"x\":1.500,"));
	assert_true(json_object_is_type(jget(root, "null"), json_type_null));
	assert_true(jget_u64(root, "u") == UINT64_MAX);
	assert_true(json_object_get_int64(jget(root, "i")) == INT64_MIN);
	assert_true(jget_d(root, "big") == 1e300);
	assert_non_null(strstr(text, "\"\\b\\f\\r\\t\\u001f\\u007f/\""));
	assert_string_equal(jget_s(root, "ctl"), "\b\f\r\t\x1f\x7f/");
	assert_string_equal(jget_s(root, "utf8"),
			    "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	/* every rejected byte is one U+FFFD; continuation bytes included */
	assert_non_null(strstr(text, "\"\\ufffd\\ufffd|\\ufffd\\ufffd\\ufffd|"
				     "\\ufffd\\ufffd\\ufffd\\ufffd|\\ufffd"
				     "\\ufffd\""));
	assert_string_equal(jget_s(root, "n"), "abc");
	assert_int_equal(json_object_array_length(jget(root, "arr")), 4);
	json_object_put(root);
	free(text);

	/* Indented output parses the same. */
	assert_int_equal(jw_to_string(jw_values, 2, &text), 0);
	root = json_tokener_parse(text);
	assert_non_null(root);
	assert_non_null(strstr(text, "{\n  \"nan\": null,\n"));
	json_object_put(root);
	free(text);
}

static void jw_unclosed(struct jw *w)
{
	jw_object_begin(w);
	jw_kv_uint(w, "a", 1);
}

static void jw_value_without_key(struct jw *w)
{
	jw_object_begin(w);
	jw_uint(w, 1);
	jw_object_end(w);
}

static void jw_key_in_array(struct jw *w)
{
	jw_array_begin(w);
	jw_key(w, "a");
	jw_array_end(w);
}

static void jw_mismatched(struct jw *w)
{
	jw_array_begin(w);
	jw_object_end(w);
}

static void jw_two_roots(struct jw *w)
{
	jw_uint(w, 1);
	jw_uint(w, 2);
}

static void jw_too_deep(struct jw *w)
{
	for (unsigned i = 0; i <= JW_MAX_DEPTH; i++)
		jw_array_begin(w);
	for (unsigned i = 0; i <= JW_MAX_DEPTH; i++)
		jw_array_end(w);
}

static void jw_empty(struct jw *w)
{
	(void)w;
}

static void test_json_writer_misuse(void **state)
{
	void (*const cases[])(struct jw *) = {
	    jw_unclosed,  jw_value_without_key, jw_key_in_array, jw_mismatched,
	    jw_two_roots, jw_too_deep,		jw_empty,
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *text = NULL;
		assert_int_equal(jw_to_string(cases[i], 0, &text), -EINVAL);
		free(text);
	}
}

static void test_write_error(void **state)
{
	struct run_result *r = make_result(false, false);
	FILE *f = fopen("/dev/full", "w");

	if (!f) {
		free_result(r);
		skip();
	}
	/* a write error surfaces as -errno, whichever format */
	assert_int_equal(output_write(r, OUTPUT_JSON, f), -ENOSPC);
	clearerr(f);
	assert_true(output_write(r, OUTPUT_CSV, f) < 0);
	clearerr(f);
	assert_true(output_write(r, OUTPUT_NORMAL, f) < 0);
	fclose(f);
	free_result(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_json_top_level),
	    cmocka_unit_test(test_json_totals),
	    cmocka_unit_test(test_json_options),
	    cmocka_unit_test(test_json_intervals),
	    cmocka_unit_test(test_json_workers_env),
	    cmocka_unit_test(test_csv),
	    cmocka_unit_test(test_text),
	    cmocka_unit_test(test_paced),
	    cmocka_unit_test(test_format_parse),
	    cmocka_unit_test(test_json_writer_values),
	    cmocka_unit_test(test_json_writer_misuse),
	    cmocka_unit_test(test_write_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
