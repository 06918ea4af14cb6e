/* test_results_csv_lag.c - a plan's results.csv and step JSON say where a
 * point's latency counts from, and give a rate-limited point's lags and
 * service time: a curve's closed-loop maximum is "submit" with those
 * columns empty, its open-loop percentage "scheduled" with them filled,
 * the service mean no larger than the response mean it is part of (a
 * script reading lat_* of a curve could not tell response from service
 * before). A real null-engine curve. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

/* Field named name (a whole header column) of the CSV row line (no
 * quoted commas in these rows), copied into buf. */
static const char *field(const char *header, const char *line, const char *name, char *buf,
			 size_t len)
{
	size_t nl = strlen(name);
	unsigned n = 0;
	const char *h = header;
	while (!(!strncmp(h, name, nl) && (h[nl] == ',' || h[nl] == '\n'))) {
		h = strchr(h, ',');
		assert_non_null(h);
		h++;
		n++;
	}
	while (n--) {
		line = strchr(line, ',');
		assert_non_null(line);
		line++;
	}
	size_t k = strcspn(line, ",\n");
	assert_true(k < len);
	memcpy(buf, line, k);
	buf[k] = '\0';
	return buf;
}

/* The row whose point column is point (",point,total of 1," or the
 * target's own row): the first line holding ",point,". */
static const char *row(const char *csv, const char *point)
{
	char want[64];
	snprintf(want, sizeof(want), ",%s,", point);
	const char *r = strstr(csv, want);
	assert_non_null(r);
	while (r > csv && r[-1] != '\n')
		r--;
	return r;
}

/* Run iochar with argv (its results under res) and return res's
 * results.csv, printed for the log. */
static char *run_csv(const char *dir, const char *res, const char *const *argv)
{
	char p[4300];
	struct proc_out po;
	run_iochar(&po, dir, 0, argv);
	if (po.status != 0)
		fail_msg("exit %d: %s", po.status, po.err);
	proc_out_free(&po);
	snprintf(p, sizeof(p), "%s/results.csv", res);
	char *csv = file_slurp(p, NULL);
	assert_non_null(csv);
	print_message("%s", csv);
	return csv;
}

static void test_curve_origin_columns(void **state)
{
	const char *dir = *state;
	char res[4200], p[4300], b[64];
	snprintf(res, sizeof(res), "%s/res", dir);
	char *csv = run_csv(dir, res,
			    ARGS("curve", "--ioengine=null", "--size=64m", "--time_based",
				 "--runtime=1s", "--points=10", "--discipline=fixed", "--out", res));
	const char *h = csv;

	const char *max = row(csv, "max");
	assert_string_equal(field(h, max, "lat_origin", b, sizeof(b)), "submit");
	assert_string_equal(field(h, max, "lag_p99_us", b, sizeof(b)), "");
	assert_string_equal(field(h, max, "service_lat_mean_us", b, sizeof(b)), "");

	const char *pt = row(csv, "10%");
	assert_string_equal(field(h, pt, "lat_origin", b, sizeof(b)), "scheduled");
	double lag = strtod(field(h, pt, "lag_p99_us", b, sizeof(b)), NULL);
	double tool = strtod(field(h, pt, "tool_lag_p99_us", b, sizeof(b)), NULL);
	double svc = strtod(field(h, pt, "service_lat_mean_us", b, sizeof(b)), NULL);
	double svc99 = strtod(field(h, pt, "service_lat_p99_us", b, sizeof(b)), NULL);
	double resp = strtod(field(h, pt, "lat_mean_us", b, sizeof(b)), NULL);
	/* every figure given (an empty field reads as 0 and would pass) */
	static const char *const given[] = {"lag_p99_us", "tool_lag_p99_us", "service_lat_mean_us",
					    "service_lat_p99_us"};
	for (unsigned i = 0; i < sizeof(given) / sizeof(given[0]); i++)
		assert_string_not_equal(field(h, pt, given[i], b, sizeof(b)), "");
	/* null engine: its service time is tens of ns, all else is lag; the
	 * tool's lag is part of the lag, the service part of the response */
	assert_true(tool <= lag + 0.1);
	assert_true(svc <= resp + 0.1 && svc <= svc99 + 0.1);
	free(csv);

	/* the step JSON's points say the same */
	snprintf(p, sizeof(p), "%s/steps/000.json", res);
	char *js = file_slurp(p, NULL);
	assert_non_null(js);
	json_object *st = json_tokener_parse(js);
	assert_non_null(st);
	json_object *set = json_object_array_get_idx(jget(st, "sets"), 0);
	json_object *c0 = json_object_array_get_idx(jget(set, "curve"), 0);
	assert_string_equal(json_object_get_string(jget(set, "max.latency_origin")), "submit");
	assert_string_equal(json_object_get_string(jget(c0, "point.latency_origin")), "scheduled");
	json_object_put(st);
	free(js);
}

/* Two targets at once: each target's row gives the limit but no verdict
 * (it judged the summed point, whose directions are not kept per target:
 * a "yes" there was the total's, even for a slow target); the total row
 * has it. A direction with no I/O has an empty latency, not 0.0. */
static void test_per_target_rows_no_verdict(void **state)
{
	const char *dir = *state;
	char res[4200], fn[8500], b[64];
	snprintf(res, sizeof(res), "%s/res", dir);
	snprintf(fn, sizeof(fn), "--filename=%s/a:%s/b", dir, dir);
	char *csv = run_csv(dir, res,
			    ARGS("search", fn, "--size=4m", "--ioengine=psync", "--rw=randread",
				 "--time_based", "--runtime=200ms", "--latency_limit=1s",
				 "--max_iodepth=1", "--max_numjobs=2", "--targets=parallel",
				 "--discipline=fixed", "--out", res));
	unsigned targets = 0, totals = 0;
	for (const char *l = strchr(csv, '\n') + 1; *l; l = strchr(l, '\n') + 1) {
		bool total = !strncmp(field(csv, l, "target", b, sizeof(b)), "total of", 8);
		assert_string_equal(field(csv, l, "limit_us", b, sizeof(b)), "1000000.0");
		field(csv, l, "limit_met", b, sizeof(b));
		assert_string_equal(b, total ? "yes" : "");
		/* reads only: no write latency to give, not 0.0 */
		assert_string_equal(field(csv, l, "write_lat_mean_us", b, sizeof(b)), "");
		targets += !total;
		totals += total;
	}
	assert_true(targets >= 2 && totals >= 1);
	free(csv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_curve_origin_columns, shmdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_per_target_rows_no_verdict, shmdir_setup,
						tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
