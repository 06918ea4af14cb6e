/* test_fio_pct.c - fio's percentile options (clat_percentiles,
 * lat_percentiles, slat_percentiles, percentile_list) checked against
 * fio 3.33 on the same job through both at once: which latency blocks
 * carry "percentile" (and, with json+, "bins"), with the same keys in the
 * same (ascending) order; the terse line's percentile fields; and a bad
 * list refused (fio warns and keeps the good values). SKIP when fio is not installed. */
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

#define JOB "--name=p --filename=f.dat --size=2m --rw=randread --bs=4k --direct=1 " \
	    "--ioengine=libaio --iodepth=4 "

/* The keys of block.member of jobs[0].read, joined by ','; "-" when absent. */
static void keys_of(json_object *doc, const char *block, const char *member, char *out,
		    size_t len)
{
	json_object *r = jget(json_object_array_get_idx(jget(doc, "jobs"), 0), "read");
	json_object *b = jget(r, block), *m = NULL;
	snprintf(out, len, "-");
	if (!json_object_object_get_ex(b, member, &m))
		return;
	out[0] = '\0';
	json_object_object_foreach(m, k, v)
	{
		(void)v;
		size_t n = strlen(out);
		snprintf(out + n, len - n, "%s%s", n ? "," : "", k);
	}
}

/* opts through both at once with json+ (side_run's json would win over
 * an --output-format in opts), into dir/fp and dir/ip. */
static void run_plus(const char *dir, const char *opts, json_object **f, json_object **i)
{
	char cmd[16384];
	char *bin = realpath(iochar_path(), NULL);
	assert_non_null(bin);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%1$s/fp' '%1$s/ip'; "
		 "(cd '%1$s/fp' && timeout 60 fio %3$s --output-format=json+ > out.json 2>err) & "
		 "(cd '%1$s/ip' && timeout 60 %2$s run %3$s --output-format=json+ > out.json "
		 "2>err) & wait", dir, bin, opts);
	free(bin);
	assert_int_equal(system(cmd), 0);
	*f = side_json(dir, "fp");
	*i = side_json(dir, "ip");
	assert_non_null(*f);
	assert_non_null(*i);
}

/* For each block, the same percentile keys (or none) in both; for
 * "bins", json+, bins in the same blocks. */
static void same_blocks(const char *dir, const char *opts, const char *member)
{
	static const char *const blocks[] = {"slat_ns", "clat_ns", "lat_ns"};
	json_object *f, *i;
	char a[65536], b[65536];
	if (!strcmp(member, "bins"))
		run_plus(dir, opts, &f, &i);
	else
		side_run_both_json(dir, opts, &f, &i);
	for (unsigned k = 0; k < 3; k++) {
		keys_of(f, blocks[k], member, a, sizeof(a));
		keys_of(i, blocks[k], member, b, sizeof(b));
		printf("%s.%s: fio %.60s%s, iochar %.60s%s\n", blocks[k], member, a,
		       strlen(a) > 60 ? "..." : "", b, strlen(b) > 60 ? "..." : "");
		if (!strcmp(member, "bins")) /* bucket names are each tool's own */
			assert_int_equal(!strcmp(a, "-"), !strcmp(b, "-"));
		else
			assert_string_equal(a, b);
	}
	json_object_put(f);
	json_object_put(i);
}

static void test_list_and_blocks(void **state)
{
	side_need_fio();
	same_blocks(*state, JOB "--percentile_list=99.9:50:1 --lat_percentiles=1 "
				"--slat_percentiles=1", "percentile");
}

static void test_defaults_and_off(void **state)
{
	side_need_fio();
	same_blocks(*state, JOB, "percentile");
	same_blocks(*state, JOB "--clat_percentiles=0", "percentile");
}

static void test_jsonplus_bins_follow(void **state)
{
	side_need_fio();
	same_blocks(*state, JOB "--lat_percentiles=1", "bins");
}

/* The terse line's percentile fields: fio's "P%=V" names in both. */
static void test_terse_fields(void **state)
{
	const char *dir = *state;
	char cmd[8192], fl[65536], il[65536];
	side_need_fio();
	char *bin = realpath(iochar_path(), NULL);
	assert_non_null(bin);
	const char *tools[2] = {"fio", bin};
	char *lines[2] = {fl, il};
	for (int t = 0; t < 2; t++) {
		snprintf(cmd, sizeof(cmd),
			 "cd '%s' && timeout 60 %s%s " JOB "--percentile_list=50:99 "
			 "--lat_percentiles=1 --output-format=terse 2>/dev/null", dir, tools[t],
			 t ? " run" : "");
		FILE *p = popen(cmd, "r");
		assert_non_null(p);
		assert_non_null(fgets(lines[t], 65536, p));
		pclose(p);
	}
	free(bin);
	/* read's 20 percentile fields start after 3+4+4+4 fields (version,
	 * fio, name, group, error; KiB, bw, iops, runtime; slat; clat) */
	char *ff[200], *fi[200];
	unsigned nf = 0, ni = 0;
	for (char *s = strtok(fl, ";"); s && nf < 200; s = strtok(NULL, ";"))
		ff[nf++] = s;
	for (char *s = strtok(il, ";"); s && ni < 200; s = strtok(NULL, ";"))
		fi[ni++] = s;
	assert_true(nf > 40 && ni > 40);
	for (unsigned k = 17; k < 17 + 20; k++) {
		char *ef = strchr(ff[k], '='), *ei = strchr(fi[k], '=');
		assert_non_null(ef);
		assert_non_null(ei);
		*ef = *ei = '\0';
		assert_string_equal(ff[k], fi[k]);
	}
	printf("terse: %s, %s, %s ... in both\n", ff[17], ff[18], ff[19]);
}

/* Out of range: fio says so and keeps the others (it fails only when
 * none is left); iochar refuses it, exit 2 naming the option (a bad input
 * is an error, docs/output.md). */
static void test_bad_list(void **state)
{
	const char *dir = *state;
	char cmd[4400];
	struct proc_out po;
	side_need_fio();
	snprintf(cmd, sizeof(cmd), "cd '%s' && timeout 30 fio --name=x --filename=b.dat "
		 "--size=4k --percentile_list=50:101 2>&1 >/dev/null | grep -q 'out of range'",
		 dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "cd '%s' && timeout 30 fio --name=x --filename=b.dat "
		 "--size=4k --percentile_list=101 >/dev/null 2>&1", dir);
	assert_true(system(cmd) != 0);
	run_iochar(&po, dir, 0, ARGS("run", "--name=x", "--filename=b2.dat", "--size=4k",
				     "--percentile_list=50:101"));
	expect_exit(&po, 2);
	expect_has(po.err, "percentile_list=50:101");
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_list_and_blocks, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_defaults_and_off, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_jsonplus_bins_follow, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_terse_fields, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_bad_list, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
