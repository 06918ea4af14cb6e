/* test_terse.c - `--output-format=terse`, fio's terse version 3: iochar's
 * line read with fio's own documented field list (HOWTO.rst's v3 short
 * names, from Debian's fio package) has every field up to the disk
 * utilization, each of the kind fio writes (integers, %f figures,
 * "P%=V" percentiles, "x%" shares);
 * its IOPS, bandwidth and KiB agree with the JSON of the same run (written
 * by the same command: "terse,json", fio's order); and real fio's line
 * for the same job has as many fields, plus its disk utilization
 * sections. Combined formats: each once, in fio's order. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define MAX_FIELDS 256
#define IOCHAR_FIELDS 121 /* v3 without the disk utilization */
#define DISK_FIELDS 9     /* one disk's section */

/* Split line (modified) at ';' into at most MAX_FIELDS fields. */
static unsigned split(char *line, char **f)
{
	unsigned n = 0;
	line[strcspn(line, "\n")] = '\0';
	for (char *p = line; n < MAX_FIELDS; p++) {
		f[n++] = p;
		p += strcspn(p, ";");
		if (!*p)
			break;
		*p = '\0';
	}
	return n;
}

/* fio's documented v3 field names; NULL when the HOWTO is not installed. */
static char *fio_names(void)
{
	FILE *p = popen("zcat /usr/share/doc/fio/HOWTO.rst.gz 2>/dev/null | "
			"grep -m1 '^ *terse_version_3;' | tr -d ' '", "r");
	char *line = NULL;
	size_t len = 0;
	if (!p)
		return NULL;
	if (getline(&line, &len, p) <= 0) {
		free(line);
		line = NULL;
	}
	pclose(p);
	return line;
}

static bool matches(const char *re, const char *s)
{
	regex_t r;
	assert_int_equal(regcomp(&r, re, REG_EXTENDED | REG_NOSUB), 0);
	bool ok = regexec(&r, s, 0, NULL, 0) == 0;
	regfree(&r);
	return ok;
}

/* The kind of field fio writes under name. */
static const char *kind(const char *name)
{
	size_t n = strlen(name);
	if (!strcmp(name, "fio_version") || !strcmp(name, "jobname") ||
	    !strcmp(name, "disk_name"))
		return ".";
	if (!strcmp(name, "disk_util"))
		return "^[0-9]+\\.[0-9]{2}%$"; /* fio's %3.2f%% */
	if (!strncmp(name, "iodepth_", 8))
		return "^[0-9]+\\.[0-9]%$"; /* fio's %3.1f%% */
	if (strstr(name, "_pct") && name[n - 1] >= '0' && name[n - 1] <= '9' &&
	    !strstr(name, "agg"))
		return "^[0-9]+(\\.[0-9]+)?%=[0-9]+$";
	if (!strncmp(name, "cpu_user", 8) || !strncmp(name, "cpu_sys", 7) ||
	    strstr(name, "_agg_pct") || !strncmp(name, "lat_", 4))
		return "^[0-9]+\\.[0-9]+%$";
	if (strstr(name, "_mean") || strstr(name, "_dev"))
		return "^[0-9]+\\.[0-9]+$";
	return "^[0-9]+$";
}

static long field_of(char **f, char **names, unsigned nr, const char *name)
{
	for (unsigned i = 0; i < nr; i++)
		if (!strcmp(names[i], name))
			return atol(f[i]);
	fail_msg("fio's list has no %s", name);
	return 0;
}

static void agree(double terse, double json, const char *what)
{
	if (fabs(terse - json) > fmax(1, json * 0.01))
		fail_msg("%s: terse %f, JSON %f", what, terse, json);
}

static void test_terse_fields(void **state)
{
	const char *dir = *state;
	char fn[4300], *f[MAX_FIELDS], *names[MAX_FIELDS];
	struct proc_out po;

	snprintf(fn, sizeof(fn), "--filename=%s/t.dat", dir);
	run_iochar(&po, dir, 0, ARGS("run", "--name=t", fn, "--size=4m", "--rw=randrw",
				     "--ioengine=psync", "--runtime=1", "--time_based",
				     "--output-format=terse,json"));
	expect_exit(&po, 0);
	char *nl = strchr(po.out, '\n');
	assert_non_null(nl);
	assert_true(nl[1] == '{'); /* fio's order: the terse line, then the JSON */
	json_object *doc = json_tokener_parse(nl + 1);
	assert_non_null(doc);
	*nl = '\0';
	unsigned nr = split(po.out, f);
	/* t.dat's disk (the tmpdir is on a real one): one section each */
	size_t nr_disks = json_object_array_length(jget(doc, "disk_util"));
	assert_int_equal(nr, IOCHAR_FIELDS + DISK_FIELDS * nr_disks);
	assert_string_equal(f[0], "3");
	assert_string_equal(f[2], "t");

	char *list = fio_names();
	if (list) {
		unsigned nn = split(list, names);
		assert_int_equal(nn, IOCHAR_FIELDS + DISK_FIELDS);
		for (unsigned i = 0; i < nn && i < nr; i++)
			if (!matches(kind(names[i]), f[i]))
				fail_msg("field %u (%s) is \"%s\"", i + 1, names[i], f[i]);
		json_object *j = json_object_array_get_idx(jget(doc, "jobs"), 0);
		agree(field_of(f, names, nr, "read_iops"), jget_double(j, "read.iops"), "read_iops");
		agree(field_of(f, names, nr, "write_iops"), jget_double(j, "write.iops"), "write_iops");
		agree(field_of(f, names, nr, "read_bandwidth_kb"), jget_double(j, "read.bw"), "read bw");
		agree(field_of(f, names, nr, "write_bandwidth_kb"), jget_double(j, "write.bw"), "write bw");
		assert_int_equal(field_of(f, names, nr, "read_kb"), jget_u64(j, "read.io_kbytes"));
		assert_int_equal(field_of(f, names, nr, "cpu_csw"), jget_u64(j, "ctx"));
		free(list);
	}
	json_object_put(doc);
	proc_out_free(&po);
}

/* Real fio's line for the same job: as many fields, plus its disks. */
static void test_same_count_as_fio(void **state)
{
	const char *dir = *state;
	char cmd[8192], line[65536], *f[MAX_FIELDS], fn[4300];
	struct proc_out po;

	if (system("command -v fio >/dev/null 2>&1"))
		skip();
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && fio --name=t --filename=f.dat --size=4m --rw=randread "
		 "--ioengine=psync --output-format=terse", dir);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(line, sizeof(line), p));
	pclose(p);
	unsigned fio_nr = split(line, f);
	assert_true(fio_nr >= IOCHAR_FIELDS);
	assert_int_equal((fio_nr - IOCHAR_FIELDS) % DISK_FIELDS, 0);

	snprintf(fn, sizeof(fn), "--filename=%s/i.dat", dir);
	run_iochar(&po, dir, 0, ARGS("run", "--name=t", fn, "--size=4m", "--rw=randread",
				     "--ioengine=psync", "--output-format=terse"));
	expect_exit(&po, 0);
	assert_int_equal(count_lines(po.out), 1);
	/* the same directory, the same disks: as many sections as fio's */
	assert_int_equal(split(po.out, f), fio_nr);
	/* the same size-bounded job: the same KiB read */
	assert_string_equal(f[5], "4096");
	proc_out_free(&po);
}

/* One line per job (numjobs=2: two); each format once, in fio's order. */
static void test_combined(void **state)
{
	(void)state;
	struct proc_out po;
	run_iochar(&po, NULL, 0, ARGS("run", "--ioengine=null", "--size=1m", "--numjobs=2",
				      "--output-format=normal,terse,json,terse"));
	expect_exit(&po, 0);
	assert_true(!strncmp(po.out, "3;", 2));
	char *second = strchr(po.out, '\n') + 1;
	assert_true(!strncmp(second, "3;", 2));
	char *json = strchr(second, '\n') + 1;
	assert_true(json[0] == '{');
	assert_null(strstr(json + 1, "\n3;")); /* terse once */
	char *end = strstr(json, "\n}\n");
	assert_non_null(end);
	assert_null(strstr(end + 3, "\"fio version\"")); /* json once */
	assert_true(strlen(end + 3) > 0);                 /* then normal */
	proc_out_free(&po);

	/* --minimal: fio's alias of terse */
	run_iochar(&po, NULL, 0, ARGS("run", "--ioengine=null", "--size=1m", "--minimal"));
	expect_exit(&po, 0);
	assert_int_equal(count_lines(po.out), 1);
	assert_true(!strncmp(po.out, "3;fio-3.33 (iochar ", 19));
	proc_out_free(&po);

	run_iochar(&po, NULL, 0, ARGS("run", "--ioengine=null", "--size=1m",
				      "--output-format=json,"));
	expect_exit(&po, 2);
	expect_has(po.err, "--output-format=json,: unknown format");
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_terse_fields, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_same_count_as_fio, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test(test_combined),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
