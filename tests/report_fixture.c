/* report_fixture.c - see report_fixture.h. */
#define _GNU_SOURCE
#include "report_fixture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"

static const char small_plan[] =
	"[global]\nioengine=null\nsize=4m\ntime_based\nruntime=300ms\n"
	"[fix]\nrw=randread\n"
	"[srch]\nmode=search\nrw=randwrite\nlatency_limit=1ms\nmax_iodepth=4\nmax_numjobs=1\n"
	"[crv]\nmode=curve\nrw=randread\npoints=50,100\n"
	"[seq]\nrw=read\nbs=1m\ntargets=scaling\n";

void fixture_write(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

char *fixture_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("%s: cannot open", path);
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);
	assert_non_null(m);
	char chunk[65536];
	size_t got;
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, got, m);
	fclose(f);
	fclose(m);
	if (len)
		*len = n;
	return buf;
}

void fixture_plan(const char *dir, const char *name)
{
	char plan[4200], fn[8500];
	struct proc_out po;

	snprintf(plan, sizeof(plan), "%s/small.ini", dir);
	fixture_write(plan, small_plan, strlen(small_plan));
	snprintf(fn, sizeof(fn), "--filename=%s/t1:%s/t2", dir, dir);
	run_iochar(&po, dir, 0, (const char *const[]){"plan", plan, fn, "--out", name, NULL});
	expect_exit(&po, 0);
	proc_out_free(&po);
}

static void dir_json(FILE *f, const char *key, double iops, double lat)
{
	fprintf(f, "\"%s\": {\"ios\": %.0f, \"bytes\": %.0f, \"iops\": %.3f, \"bw_bytes\": %.3f, "
		   "\"lat_ns\": {\"mean\": %.3f, \"stdev\": 1.0, \"min\": 10, \"max\": 900000, "
		   "\"p50\": %.0f, \"p90\": %.0f, \"p95\": %.0f, \"p99\": %.0f, \"p99_9\": %.0f, "
		   "\"p99_99\": %.0f}}",
		key, iops * 10, iops * 40960, iops, iops * 4096, lat, lat, lat * 1.5, lat * 2,
		lat * 3, lat * 5, lat * 9);
}

void fixture_synthetic(const char *dir, const char *name,
		       const struct synth_workload *w, unsigned n)
{
	fixture_synthetic_qd(dir, name, w, n, NULL);
}

void fixture_synthetic_qd(const char *dir, const char *name,
			  const struct synth_workload *w, unsigned n,
			  const unsigned *iodepth)
{
	char path[4400];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/%s/results.json", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"iochar_version\": \"0.1.0\", \"format_version\": 1, \"plan\": \"synthetic\", "
		   "\"source\": \"\", \"complete\": true, \"nr_steps\": %u, "
		   "\"environment\": {\"hostname\": \"synth\", \"cpus\": 4}, \"steps\": [",
		n);
	for (unsigned i = 0; i < n; i++) {
		unsigned qd = iodepth ? iodepth[i] : 8;
		fprintf(f, "%s{\"index\": %u, \"section\": \"%s\", \"label\": \"%s\", \"mode\": \"fixed\", "
			   "\"targets_use\": \"each\", \"latency_limit_ns\": 0, \"latency_stat\": \"mean\", "
			   "\"options\": {\"name\": \"%s\", \"filename\": null, \"files\": [\"/dev/null\"], "
			   "\"size\": 0, \"offset\": 0, \"bs\": 4096, \"rw\": \"randread\", "
			   "\"rwmixread\": 100, \"iodepth\": %u, \"numjobs\": 1, \"runtime_ns\": %u000000000, "
			   "\"ramp_ns\": 0, \"time_based\": true, \"ioengine\": \"null\", \"direct\": false, "
			   "\"rate_iops\": 0, \"rate_process\": \"linear\", "
			   "\"random_distribution\": \"uniform\", \"cpus_allowed\": null, \"randseed\": 1}, "
			   "\"partial\": false, \"error\": null, \"sets\": [{\"targets\": [\"/dev/null\"], "
			   "\"done\": true, \"fixed\": {\"iodepth\": %u, \"numjobs\": 1, \"rate_iops\": 0, "
			   "\"elapsed_ns\": %u000000000, \"partial\": false, \"inside\": true, "
			   "\"iops\": %.3f, \"bw_bytes\": %.3f, ",
			i ? ", " : "", i, w[i].label, w[i].label, w[i].label, qd, w[i].nr_iv, qd,
			w[i].nr_iv, w[i].mean, w[i].mean * 4096);
		dir_json(f, "read", w[i].mean, 50000);
		fputs(", ", f);
		dir_json(f, "write", 0, 0);
		fputs(", ", f);
		dir_json(f, "total", w[i].mean, 50000);
		fputs(", \"per_target\": [], \"intervals\": [", f);
		unsigned total = w[i].nr_iv >= 2 ? w[i].nr_iv + 1 : w[i].nr_iv;
		for (unsigned k = 0; k < total; k++) {
			/* the last: a sliver of a second, far off, left out by the rule */
			double v = k == w[i].nr_iv ? w[i].mean * 0.2
				   : w[i].mean * (1 + (k % 2 ? -w[i].cov : w[i].cov));
			fprintf(f, "%s{\"t_s\": %u, \"iops\": %.3f, \"lat_mean_ns\": 50000.0}",
				k ? ", " : "", k, v);
		}
		fputs("]}}]}", f);
	}
	fputs("]}\n", f);
	assert_int_equal(fclose(f), 0);
}

json_object *compare_workload(json_object *root, const char *key)
{
	json_object *w = jget(root, "workloads");
	for (size_t i = 0; i < json_object_array_length(w); i++) {
		json_object *e = json_object_array_get_idx(w, i);
		if (!strcmp(json_object_get_string(jget(e, "workload")), key))
			return e;
	}
	fail_msg("no workload %s", key);
	return NULL;
}

json_object *compare_value(json_object *root, const char *key, unsigned set)
{
	return json_object_array_get_idx(jget(compare_workload(root, key), "values"), set);
}

const char *compare_verdict(json_object *root, const char *key, unsigned set)
{
	return json_object_get_string(jget(compare_value(root, key, set), "verdict"));
}

char *fixture_report(const char *dir, const char *input)
{
	char p[4400];
	struct proc_out po;
	run_iochar(&po, dir, 0, ARGS("report", input, "-o", "r.html"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/r.html", dir);
	return fixture_slurp(p, NULL);
}

unsigned fixture_count(const char *text, const char *what)
{
	unsigned n = 0;
	for (const char *q = strstr(text, what); q; q = strstr(q + 1, what))
		n++;
	return n;
}

char *fixture_report_html(const char *dir, const char *out,
			  const char *const *args)
{
	const char *argv[32] = {"report"};
	size_t n = 1;
	struct proc_out po;
	char path[4400];

	for (; *args && n < 29; args++)
		argv[n++] = *args;
	argv[n++] = "-o";
	argv[n++] = out;
	argv[n] = NULL;
	run_iochar(&po, dir, 0, argv);
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(path, sizeof(path), "%s/%s", dir, out);
	return fixture_slurp(path, NULL);
}
