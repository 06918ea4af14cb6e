/* test_fio_status.c - `--status-interval=T`, fio's full report every T
 * while jobs run, checked against fio 3.33 on the same time_based job run
 * through both at once: with json, a sequence of JSON documents (as many
 * as fio's, within one: the last period may or may not fit before the
 * end), each with fio's layout, their cumulative figures (I/Os, runtime)
 * growing from one to the next, the last one the final report; with
 * normal, the report's group lines as often as fio's; and a T under 1 ms
 * refused, as fio refuses it. SKIP when fio is not installed. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio_side.h"
#include "harness.h"

#define MAX_DOCS 16

/* A paced job (little CPU for two tools at once on a loaded machine),
 * its end half a period from a report, so that both make two before the
 * final one (fio's clock starts before its setup, iochar's too). */
#define JOB "--name=s --filename=f.dat --size=1m --rw=randread --bs=4k " \
	    "--ioengine=psync --rate_iops=500 --time_based --runtime=2500ms " \
	    "--status-interval=1"

/* The JSON documents one after another in dir/sub/out.json into docs;
 * fails on anything else between them. Returns how many. */
static unsigned documents(const char *dir, const char *sub, json_object **docs)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s/out.json", dir, sub);
	char *text = file_slurp(path, NULL);
	assert_non_null(text);
	unsigned n = 0;
	const char *p = text;
	json_tokener *tok = json_tokener_new();
	while (n < MAX_DOCS) {
		p += strspn(p, " \t\r\n");
		if (!*p)
			break;
		json_tokener_reset(tok);
		json_object *o = json_tokener_parse_ex(tok, p, (int)strlen(p));
		if (!o)
			fail_msg("%s: not a JSON document at offset %ld", path, (long)(p - text));
		docs[n++] = o;
		p += json_tokener_get_parse_end(tok);
	}
	json_tokener_free(tok);
	free(text);
	return n;
}

/* Each document fio's layout, its I/Os and run time never less than the
 * one before, more at the end than at the first. */
static void cumulative(json_object **docs, unsigned n, const char *who)
{
	uint64_t ios = 0, rt = 0;
	for (unsigned k = 0; k < n; k++) {
		json_object *j = json_object_array_get_idx(jget(docs[k], "jobs"), 0);
		assert_non_null(j);
		(void)jget(docs[k], "fio version");
		(void)jget(docs[k], "disk_util");
		uint64_t i = jget_u64(j, "read.total_ios"), r = jget_u64(j, "job_runtime");
		printf("%s report %u: read.total_ios %llu, job_runtime %llu ms\n", who, k + 1,
		       (unsigned long long)i, (unsigned long long)r);
		assert_true(i >= ios);
		assert_true(r >= rt);
		ios = i;
		rt = r;
	}
	uint64_t first = jget_u64(json_object_array_get_idx(jget(docs[0], "jobs"), 0),
				  "read.total_ios");
	assert_true(ios > first);
	/* the last is the final report: 2.5 s at 500 IOPS */
	assert_true(rt >= 2400 && rt <= 3000);
	assert_true(ios >= 800 && ios <= 1400);
}

static void test_json_sequence(void **state)
{
	const char *dir = *state;
	json_object *f[MAX_DOCS], *i[MAX_DOCS];
	int rf, ri;
	side_need_fio();
	side_run_both(dir, JOB, &rf, &ri);
	assert_int_equal(rf, 0);
	assert_int_equal(ri, 0);
	unsigned nf = documents(dir, "fio", f), ni = documents(dir, "iochar", i);
	printf("documents: fio %u, iochar %u\n", nf, ni);
	assert_true(nf >= 3 && ni >= 3); /* at 1 and 2 s at least, then the final */
	assert_true(ni + 1 >= nf && ni <= nf + 1);
	cumulative(f, nf, "fio");
	cumulative(i, ni, "iochar");
	for (unsigned k = 0; k < nf; k++)
		json_object_put(f[k]);
	for (unsigned k = 0; k < ni; k++)
		json_object_put(i[k]);
}

/* How many times needle occurs in the file dir/sub/out.txt. */
static unsigned occurrences(const char *dir, const char *sub, const char *needle)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s/out.txt", dir, sub);
	char *text = file_slurp(path, NULL);
	assert_non_null(text);
	unsigned n = 0;
	for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	free(text);
	return n;
}

/* The normal output: the whole report, group lines included, each time. */
static void test_normal_reports(void **state)
{
	const char *dir = *state;
	char cmd[16384];
	char *bin = realpath(iochar_path(), NULL);
	side_need_fio();
	assert_non_null(bin);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%1$s/fio' '%1$s/iochar'; "
		 "(cd '%1$s/fio' && timeout 60 fio " JOB " > out.txt 2>&1) & "
		 "(cd '%1$s/iochar' && timeout 60 %2$s run " JOB " > out.txt 2>&1) & wait",
		 dir, bin);
	free(bin);
	assert_int_equal(system(cmd), 0);
	unsigned nf = occurrences(dir, "fio", "Run status group 0 (all jobs):");
	unsigned ni = occurrences(dir, "iochar", "Run status group 0 (all jobs):");
	printf("normal reports: fio %u, iochar %u\n", nf, ni);
	assert_true(nf >= 3 && ni >= 3);
	assert_true(ni + 1 >= nf && ni <= nf + 1);
}

/* Under a millisecond (0 too): fio refuses it ("status interval too
 * small"), so does iochar, naming the option, before anything runs. */
static void test_too_small(void **state)
{
	const char *dir = *state;
	char cmd[4400];
	struct proc_out po;
	side_need_fio();
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && timeout 30 fio --name=x --filename=tiny.dat --size=4k "
		 "--status-interval=0 >/dev/null 2>&1", dir);
	int rc = system(cmd);
	assert_true(rc != 0); /* fio refuses it */
	run_iochar(&po, dir, 0, ARGS("run", "--name=x", "--filename=tiny2.dat", "--size=4k",
				     "--status-interval=0"));
	expect_exit(&po, 2);
	expect_has(po.err, "--status-interval=0");
	snprintf(cmd, sizeof(cmd), "%s/tiny2.dat", dir);
	assert_false(file_exists(cmd));
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_json_sequence, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_normal_reports, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_too_small, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
