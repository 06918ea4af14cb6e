/* test_report_hosts.c - runs over many hosts (MPI) in report and compare,
 * on hand-made result files whose per-host figures are known: the reader
 * takes hosts[] (run JSON) and per_host[] (plan points) with a lost host
 * and a failed one, and refuses damaged entries naming the member; the
 * report has a per-host table per workload whose rows are the hosts'
 * figures and whose total is the sum of their I/Os, and one-host results
 * have no such section; compare adds a row per host matched by name,
 * hosts on one side only listed as missing. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "report/compare.h"
#include "report/results_read.h"
#include "report_fixture.h"

struct host_spec {
	const char *host;
	unsigned rank;
	uint64_t ios;              /* in 1 s: IOPS = ios */
	bool lost;
	const char *error;         /* NULL: none */
	int64_t start_offset_ns;
};

/* A direction block of ios I/Os of 4 KiB in 1 s with mean latency lat
 * and p99 3 x lat. */
static void dir_json(FILE *f, const char *key, uint64_t ios, double lat)
{
	fprintf(f, "\"%s\": {\"ios\": %llu, \"bytes\": %llu, \"iops\": %llu.0, "
		   "\"bw_bytes\": %llu.0, \"lat_ns\": {\"mean\": %.1f, \"stdev\": 1.0, "
		   "\"min\": 10, \"max\": 900000, \"p50\": %.0f, \"p90\": %.0f, \"p95\": %.0f, "
		   "\"p99\": %.0f, \"p99_9\": %.0f, \"p99_99\": %.0f}}",
		key, (unsigned long long)ios, (unsigned long long)ios * 4096,
		(unsigned long long)ios, (unsigned long long)ios * 4096, lat, lat, lat * 2,
		lat * 2.5, lat * 3, lat * 4, lat * 5);
}

/* A host's mean latency: 1 µs per rank + 1, so each row is told apart. */
static double host_lat(const struct host_spec *h)
{
	return 1000.0 * (h->rank + 1);
}

static uint64_t total_ios(const struct host_spec *h, unsigned n)
{
	uint64_t sum = 0;
	for (unsigned i = 0; i < n; i++)
		sum += h[i].ios;
	return sum;
}

/* `iochar run --output-format=json` of a run over the hosts h[0..n). */
static char *run_json(const struct host_spec *h, unsigned n, uint64_t skew)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	uint64_t all = total_ios(h, n);
	fputs("{\"iochar_version\": \"0.1.0\", \"format_version\": 1, \"options\": [{"
	      "\"name\": \"job0\", \"filename\": \"/tmp/f\", \"files\": [\"/tmp/f\"], "
	      "\"size\": 1048576, \"bs\": 4096, \"rw\": \"randread\", \"rwmixread\": 100, "
	      "\"iodepth\": 4, \"numjobs\": 1, \"runtime_ns\": 1000000000, "
	      "\"ioengine\": \"psync\"}], \"elapsed_ns\": 1000000000, \"partial\": false, ", f);
	dir_json(f, "read", all, 2500);
	fputs(", ", f);
	dir_json(f, "write", 0, 0);
	fputs(", ", f);
	dir_json(f, "total", all, 2500);
	fprintf(f, ", \"start_skew_ns\": %llu, \"hosts\": [", (unsigned long long)skew);
	for (unsigned i = 0; i < n; i++) {
		fprintf(f, "%s{\"host\": \"%s\", \"rank\": %u, \"lost\": %s, \"error\": ",
			i ? ", " : "", h[i].host, h[i].rank, h[i].lost ? "true" : "false");
		if (h[i].error)
			fprintf(f, "\"%s\"", h[i].error);
		else
			fputs("null", f);
		fprintf(f, ", \"elapsed_ns\": 1000000000, \"start_offset_ns\": %lld, "
			   "\"clock_offset_ns\": -5000, \"clock_error_ns\": 300, \"cpu_usr_ns\": 1, "
			   "\"cpu_sys_ns\": 2, ",
			(long long)h[i].start_offset_ns);
		dir_json(f, "read", h[i].ios, host_lat(&h[i]));
		fputs(", ", f);
		dir_json(f, "write", 0, 0);
		fputs(", ", f);
		dir_json(f, "total", h[i].ios, host_lat(&h[i]));
		fputs("}", f);
	}
	fputs("]}\n", f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* A point of a plan step with per_host[] (host, rank, total). */
static void point_json(FILE *f, const struct host_spec *h, unsigned n, unsigned qd)
{
	uint64_t all = total_ios(h, n);
	fprintf(f, "{\"iodepth\": %u, \"numjobs\": 1, \"rate_iops\": 0, \"elapsed_ns\": 1000000000, "
		   "\"partial\": false, \"inside\": true, ", qd);
	dir_json(f, "read", all, 2500);
	fputs(", ", f);
	dir_json(f, "write", 0, 0);
	fputs(", ", f);
	dir_json(f, "total", all, 2500);
	fputs(", \"per_target\": [], \"start_skew_ns\": 4000, \"per_host\": [", f);
	for (unsigned i = 0; i < n; i++) {
		fprintf(f, "%s{\"host\": \"%s\", \"rank\": %u, ", i ? ", " : "", h[i].host,
			h[i].rank);
		dir_json(f, "total", h[i].ios, host_lat(&h[i]));
		fputs("}", f);
	}
	fputs("], \"intervals\": []}", f);
}

static const char step_options[] =
	"\"options\": {\"name\": \"%s\", \"files\": [\"/tmp/f\"], \"size\": 1048576, "
	"\"bs\": 4096, \"rw\": \"randread\", \"rwmixread\": 100, \"iodepth\": 1, "
	"\"numjobs\": 1, \"runtime_ns\": 1000000000, \"ioengine\": \"psync\"}, ";

/* results.json of a plan over the hosts h: a fixed step "fix" and a
 * search "srch" whose best (iodepth 4) is its second probe. */
static char *plan_json(const struct host_spec *h, unsigned n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	fputs("{\"iochar_version\": \"0.1.0\", \"format_version\": 1, \"plan\": \"cluster\", "
	      "\"source\": \"\", \"complete\": true, \"nr_steps\": 2, \"steps\": [", f);
	fputs("{\"index\": 0, \"label\": \"fix\", \"mode\": \"fixed\", ", f);
	fprintf(f, step_options, "fix");
	fputs("\"sets\": [{\"targets\": [\"/tmp/f\"], \"done\": true, \"fixed\": ", f);
	point_json(f, h, n, 1);
	fputs("}]}, {\"index\": 1, \"label\": \"srch\", \"mode\": \"search\", "
	      "\"latency_limit_ns\": 1000000, \"latency_stat\": \"mean\", ", f);
	fprintf(f, step_options, "srch");
	fputs("\"sets\": [{\"targets\": [\"/tmp/f\"], \"done\": true, \"points\": [", f);
	struct host_spec half[8];
	for (unsigned i = 0; i < n && i < 8; i++) {
		half[i] = h[i];
		half[i].ios /= 2;
	}
	point_json(f, half, n, 1);
	fputs(", ", f);
	point_json(f, h, n, 4);
	fputs("], \"best\": ", f);
	point_json(f, h, n, 4);
	fputs("}]}]}\n", f);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char p[4400];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fixture_write(p, text, strlen(text));
}

/* Four hosts: two fine, one lost, one whose target failed. */
static const struct host_spec cluster_a[] = {
	{"node-a", 0, 1000, false, NULL, 0},
	{"node-b", 1, 2000, false, NULL, 4000},
	{"node-c", 2, 0, true, "no answer for 10 s", 0},
	{"node-d", 3, 1500, false, "/tmp/f: Input/output error", -250},
};
/* The same cluster later: node-a faster, node-c and node-d gone, node-e new. */
static const struct host_spec cluster_b[] = {
	{"node-a", 0, 1100, false, NULL, 0},
	{"node-b", 1, 2000, false, NULL, 100},
	{"node-e", 2, 900, false, NULL, 50},
};
/* Three ranks on one machine: told apart by rank. */
static const struct host_spec one_machine[] = {
	{"vm", 0, 300, false, NULL, 0},
	{"vm", 1, 400, false, NULL, 0},
	{"vm", 2, 500, false, NULL, 0},
};

static void test_parse_run_hosts(void **state)
{
	struct ioc_err err = {0};
	struct rs_set s;
	char *text = run_json(cluster_a, 4, 4000);

	assert_int_equal(results_read_text(text, strlen(text), "a.json", &s, &err), 0);
	const struct rs_point *p = &s.steps[0].sets[0].points[0];
	assert_int_equal(p->nr_hosts, 4);
	assert_int_equal(p->start_skew_ns, 4000);
	assert_int_equal(p->total.ios, 4500);
	for (unsigned i = 0; i < 4; i++) {
		const struct rs_host *h = &p->hosts[i];
		assert_string_equal(h->host, cluster_a[i].host);
		assert_string_equal(h->label, cluster_a[i].host); /* names unique */
		assert_int_equal(h->rank, i);
		assert_true(h->detail);
		assert_int_equal(h->lost, cluster_a[i].lost);
		assert_int_equal(h->total.ios, cluster_a[i].ios);
		assert_int_equal(h->start_offset_ns, cluster_a[i].start_offset_ns);
		assert_true(fabs(h->total.lat.mean - host_lat(&cluster_a[i])) < 1e-6);
		if (cluster_a[i].error)
			assert_string_equal(h->error, cluster_a[i].error);
		else
			assert_null(h->error);
	}
	rs_set_free(&s);
	free(text);

	/* one machine: labels carry the rank */
	text = run_json(one_machine, 3, 0);
	assert_int_equal(results_read_text(text, strlen(text), "v.json", &s, &err), 0);
	p = &s.steps[0].sets[0].points[0];
	assert_int_equal(p->nr_hosts, 3);
	assert_string_equal(p->hosts[2].label, "vm rank 2");
	rs_set_free(&s);
	free(text);
}

static void test_parse_plan_per_host(void **state)
{
	struct ioc_err err = {0};
	struct rs_set s;
	char *text = plan_json(cluster_b, 3);

	assert_int_equal(results_read_text(text, strlen(text), "results.json", &s, &err), 0);
	assert_int_equal(s.nr_steps, 2);
	const struct rs_point *fix = rs_tset_headline(&s.steps[0], &s.steps[0].sets[0]);
	const struct rs_point *best = rs_tset_headline(&s.steps[1], &s.steps[1].sets[0]);
	assert_non_null(fix);
	assert_non_null(best);
	assert_int_equal(best->iodepth, 4);
	assert_int_equal(fix->nr_hosts, 3);
	assert_int_equal(best->nr_hosts, 3);
	assert_int_equal(s.steps[1].sets[0].points[0].hosts[1].total.ios, 1000); /* the probe's */
	assert_int_equal(fix->start_skew_ns, 4000);
	for (unsigned i = 0; i < 3; i++) {
		assert_string_equal(best->hosts[i].host, cluster_b[i].host);
		assert_int_equal(best->hosts[i].total.ios, cluster_b[i].ios);
		assert_false(best->hosts[i].detail); /* per_host: the total only */
	}
	rs_set_free(&s);
	free(text);
}

/* text with the first occurrence of from replaced by to must be refused
 * with a message holding want. */
static void expect_bad(const char *text, const char *from, const char *to, const char *want)
{
	const char *at = strstr(text, from);
	assert_non_null(at);
	char *bad = NULL;
	assert_true(asprintf(&bad, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from)) > 0);
	struct ioc_err err = {0};
	struct rs_set s;
	int ret = results_read_text(bad, strlen(bad), "x.json", &s, &err);
	rs_set_free(&s);
	free(bad);
	assert_int_equal(ret, -EINVAL);
	assert_true(err.usage);
	if (!strstr(err.msg, want))
		fail_msg("\"%s\" does not say \"%s\"", err.msg, want);
}

static void test_parse_refuses_bad_hosts(void **state)
{
	char *run = run_json(cluster_a, 4, 4000);
	expect_bad(run, "\"hosts\": [", "\"hosts\": 3, \"x\": [", "x.json: hosts: expected an array");
	expect_bad(run, "\"rank\": 1,", "\"rnk\": 1,", "x.json: hosts[1].rank: missing");
	expect_bad(run, "\"rank\": 2,", "\"rank\": 1,", "x.json: hosts[2].rank: given twice");
	expect_bad(run, "\"lost\": true", "\"lost\": 1", "hosts[2].lost: expected true or false");
	expect_bad(run, "\"error\": \"no answer", "\"error\": 7, \"e\": \"no answer",
		   "hosts[2].error: expected a string");
	expect_bad(run, "\"start_offset_ns\": -250", "\"start_offset_ns\": \"-250\"",
		   "hosts[3].start_offset_ns: expected an integer");
	expect_bad(run, "\"start_skew_ns\": 4000", "\"start_skew_ns\": -1",
		   "x.json: start_skew_ns: negative");
	expect_bad(run, "\"host\": \"node-a\"", "\"host\": null", "hosts[0].host: missing");
	free(run);

	char *plan = plan_json(cluster_b, 3);
	expect_bad(plan, "\"per_host\": [{", "\"per_host\": [7, {",
		   "steps[0].sets[0].fixed.per_host[0]: expected an object");
	expect_bad(plan, "{\"host\": \"node-b\", \"rank\": 1, \"total\": {\"ios\": 2000,",
		   "{\"host\": \"node-b\", \"rank\": 1, \"total\": {\"ios\": \"2000\",",
		   "steps[0].sets[0].fixed.per_host[1].total.ios: expected an integer");
	free(plan);
}

/* The <tr ...> row of the per-host table holding key (up to </tr>). */
static char *row_with(const char *html, const char *key)
{
	const char *k = strstr(html, key);
	if (!k)
		fail_msg("no %s in the report", key);
	const char *b = k;
	while (b > html && strncmp(b, "<tr", 3))
		b--;
	const char *e = strstr(k, "</tr>");
	assert_non_null(e);
	return strndup(b, (size_t)(e - b));
}

static void expect_row(const char *html, const char *key, const char *const *cells)
{
	char *row = row_with(html, key);
	for (; *cells; cells++)
		if (!strstr(row, *cells))
			fail_msg("row %s lacks %s: %s", key, *cells, row);
	free(row);
}

static char *report_of(const char *dir, const char *in, const char *out)
{
	struct proc_out po;
	char p[4400];
	run_iochar(&po, dir, 0, ARGS("report", in, "-o", out));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/%s", dir, out);
	return fixture_slurp(p, NULL);
}

static void test_report_host_table(void **state)
{
	const char *dir = *state;
	char *text = run_json(cluster_a, 4, 4000);
	write_file(dir, "a.json", text);
	free(text);
	char *html = report_of(dir, "a.json", "a.html");

	expect_has(html, "<li><a href=\"#hosts\">Per host</a></li>");
	expect_has(html, "<section id=\"hosts\"><h2>Per host</h2>");
	expect_has(html, "<table class=\"hosts\" data-hosts=\"4\" data-skew-ns=\"4000\">");
	expect_has(html, "4 hosts, start skew 4.00 \xc2\xb5s; <strong class=\"bad\">2 lost or failed");
	/* each host's row: its I/Os, IOPS, MB/s, share, mean and p99 latency,
	 * start offset, status */
	expect_row(html, "data-rank=\"0\" data-ios=\"1000\"",
		   ARGS("<td>node-a</td>", ">1,000<", ">1,000<", ">4.10 MB/s<", "22.2 %",
			">1.00 \xc2\xb5s<", ">3.00 \xc2\xb5s<", "<td>ok</td>"));
	expect_row(html, "data-rank=\"1\" data-ios=\"2000\"",
		   ARGS("<td>node-b</td>", ">2,000<", ">8.19 MB/s<", "44.4 %",
			">2.00 \xc2\xb5s<", ">6.00 \xc2\xb5s<", ">4.00 \xc2\xb5s<", "<td>ok</td>"));
	expect_row(html, "data-rank=\"2\" data-ios=\"0\"",
		   ARGS("<tr class=\"host failed\"", "<td>node-c</td>",
			"<td class=\"bad\">lost: no answer for 10 s</td>"));
	expect_row(html, "data-rank=\"3\" data-ios=\"1500\"",
		   ARGS("<td>node-d</td>", ">1,500<", "33.3 %", ">-250 ns<",
			"<td class=\"bad\">error: /tmp/f: Input/output error</td>"));
	/* the total: every I/O, the sum of the hosts' */
	char *tot = row_with(html, "<tr class=\"total\"");
	unsigned long long ios = 0;
	assert_int_equal(sscanf(tot, "<tr class=\"total\" data-ios=\"%llu\"", &ios), 1);
	assert_int_equal(ios, total_ios(cluster_a, 4));
	expect_has(tot, ">4,500<");
	expect_has(tot, "skew 4.00 \xc2\xb5s");
	expect_has(tot, ">partial<");
	free(tot);
	free(html);

	/* a plan: a table per workload, the search at its best point */
	text = plan_json(one_machine, 3);
	char p[4400];
	snprintf(p, sizeof(p), "%s/plan", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	write_file(dir, "plan/results.json", text);
	free(text);
	html = report_of(dir, "plan", "p.html");
	expect_has(html, "<h4>plan: fix</h4><p>3 hosts, start skew 4.00 \xc2\xb5s</p>");
	expect_has(html, "<h4>plan: srch</h4><p>3 hosts, start skew 4.00 \xc2\xb5s; at the best "
			 "point, 4 \xc3\x97 1</p>");
	expect_row(html, "data-rank=\"2\" data-ios=\"500\"", ARGS("<td>vm</td>", ">500<", "41.7 %"));
	assert_null(strstr(html, "<th>status</th>")); /* per_host has no status */
	free(html);
}

static void test_one_host_unchanged(void **state)
{
	const char *dir = *state;
	static const struct synth_workload w[] = {{"steady", 1000, 0.01, 4}};
	fixture_synthetic(dir, "one", w, 1);
	char *html = report_of(dir, "one", "one.html");
	assert_null(strstr(html, "id=\"hosts\""));
	assert_null(strstr(html, "#hosts"));
	assert_null(strstr(html, "table.hosts"));
	free(html);
}

#define WL "job0 (randread 4K)"

static void test_compare_hosts(void **state)
{
	const char *dir = *state;
	struct proc_out po;
	char *text = run_json(cluster_a, 4, 4000);
	write_file(dir, "a.json", text);
	free(text);
	text = run_json(cluster_b, 3, 150);
	write_file(dir, "b.json", text);
	free(text);

	run_iochar(&po, dir, 0, ARGS("compare", "a.json", "b.json", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *root = parse_json(&po);
	json_object *ws = jget(root, "workloads");
	/* the total, then a row per host of either side in first-seen order */
	static const char *const order[] = {WL, WL " @ node-a", WL " @ node-b", WL " @ node-c",
					    WL " @ node-d", WL " @ node-e"};
	assert_int_equal(json_object_array_length(ws), 6);
	for (unsigned i = 0; i < 6; i++)
		assert_string_equal(json_object_get_string(
					    jget(json_object_array_get_idx(ws, i), "workload")),
				    order[i]);
	/* totals as before: 4500 -> 4000 IOPS */
	assert_true(fabs(jget_double(compare_value(root, WL, 1), "diff_pct") - (4000.0 / 4500 - 1) * 100) < 1e-2);
	assert_string_equal(json_object_get_string(jget(compare_workload(root, WL " @ node-a"), "host")),
			    "node-a");
	/* hosts: plain ratios, no series for a verdict */
	assert_true(fabs(jget_double(compare_value(root, WL " @ node-a", 0), "value") - 1000) < 1e-6);
	assert_true(fabs(jget_double(compare_value(root, WL " @ node-a", 1), "diff_pct") - 10) < 1e-6);
	assert_true(fabs(jget_double(compare_value(root, WL " @ node-b", 1), "diff_pct")) < 1e-6);
	assert_string_equal(compare_verdict(root, WL " @ node-a", 0), "reference");
	assert_string_equal(compare_verdict(root, WL " @ node-a", 1), "unknown");
	assert_true(fabs(jget_double(compare_value(root, WL " @ node-a", 1), "latency_ns") - 1000) < 1e-6);
	/* one side only */
	assert_string_equal(compare_verdict(root, WL " @ node-d", 1), "missing");
	assert_string_equal(compare_verdict(root, WL " @ node-e", 0), "missing");
	assert_string_equal(compare_verdict(root, WL " @ node-e", 1), "reference");
	/* the lost host: no value */
	json_object *lost = compare_value(root, WL " @ node-c", 0);
	assert_true(json_object_get_boolean(jget(lost, "lost")));
	assert_null(json_object_object_get(lost, "value"));
	json_object_put(root);
	proc_out_free(&po);

	run_iochar(&po, dir, 0, ARGS("compare", "a.json", "b.json"));
	expect_exit(&po, 0);
	expect_has(po.out, "  @ node-a ");
	expect_has(po.out, "+10.0 %");
	expect_has(po.out, WL " @ node-d only in a");
	expect_has(po.out, WL " @ node-e only in b");
	expect_has(po.out, "lost");
	proc_out_free(&po);

	run_iochar(&po, dir, 0, ARGS("compare", "a.json", "b.json", "--output-format=csv"));
	expect_exit(&po, 0);
	assert_int_equal(count_lines(po.out), 1 + 6 * 2);
	expect_has(po.out, WL " @ node-a,b,iops,1100.000,");
	proc_out_free(&po);

	/* the report's comparison has them beneath the total */
	char *html = report_of(dir, "a.json", "a.html");
	free(html);
	run_iochar(&po, dir, 0, ARGS("report", "a.json", "b.json", "-o", "ab.html"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	char p[4400];
	snprintf(p, sizeof(p), "%s/ab.html", dir);
	html = fixture_slurp(p, NULL);
	expect_has(html, "<tr class=\"host\"><td>@ node-a</td>");
	expect_has(html, "<td class=\"missing\">missing</td>");
	expect_has(html, "<td class=\"num\">lost</td>");
	/* the bar chart keeps one category, the workload, not its hosts: a
	 * bar and a latency mark per set */
	expect_has(html, "data-chart=\"bars\" data-points=\"4\"");
	free(html);
}

static void test_compare_cluster_with_one_host(void **state)
{
	struct ioc_err err = {0};
	struct rs_set s[2];
	/* a plan step named as the run's job: a run is matched by its job
	 * name (compare.h), not by its label WL */
	static const struct synth_workload w[] = {{"job0", 4000, 0.01, 4}};
	const char *dir = *state;
	char *text = run_json(cluster_a, 4, 4000);

	assert_int_equal(results_read_text(text, strlen(text), "a.json", &s[0], &err), 0);
	free(text);
	fixture_synthetic(dir, "one", w, 1);
	char p[4400];
	snprintf(p, sizeof(p), "%s/one", dir);
	assert_int_equal(results_read(p, &s[1], &err), 0);
	struct cmp_table t;
	assert_int_equal(compare_build(s, 2, &t), 0);
	/* only one side ran over many hosts: the totals alone */
	assert_int_equal(t.nr_rows, 1);
	assert_null(t.rows[0].host);
	compare_free(&t);
	/* a cluster against itself: a row per host, none significant */
	struct rs_set same[2] = {s[0], s[0]};
	assert_int_equal(compare_build(same, 2, &t), 0);
	assert_int_equal(t.nr_rows, 5);
	for (unsigned r = 1; r < 5; r++) {
		assert_string_equal(t.rows[r].host, cluster_a[r - 1].host);
		assert_int_equal(t.rows[r].v[1].verdict, CMP_UNKNOWN);
	}
	compare_free(&t);
	/* as a side of two repeats: the hosts' per-run totals are judged */
	struct rs_set three[3] = {s[0], s[0], s[0]};
	static const unsigned runs[2] = {2, 1};
	assert_int_equal(compare_build_sides(three, runs, 2, &t), 0);
	assert_int_equal(t.nr_rows, 5);
	for (unsigned r = 1; r < 5; r++) {
		assert_int_equal(t.rows[r].v[0].nr_runs, cluster_a[r - 1].lost ? 0 : 2);
		if (cluster_a[r - 1].lost)
			continue;
		assert_int_equal(t.rows[r].v[1].rule, CMP_RULE_RUNS_ONE_SIDED);
		assert_int_equal(t.rows[r].v[1].verdict, CMP_WITHIN_NOISE);
	}
	compare_free(&t);
	rs_set_free(&s[0]);
	rs_set_free(&s[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_run_hosts),
		cmocka_unit_test(test_parse_plan_per_host),
		cmocka_unit_test(test_parse_refuses_bad_hosts),
		cmocka_unit_test_setup_teardown(test_report_host_table, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_one_host_unchanged, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_compare_hosts, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_compare_cluster_with_one_host, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
