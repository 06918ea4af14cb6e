/* test_fio_cmdline.c - fio 3.33's own command-line options (issue 35),
 * each given to the real fio and to iochar run as fio in the same test:
 * exit statuses and what each prints compared (the layout loosely: the
 * same information per line, not the same bytes). Jobs use the null
 * engine; the commands run in a /dev/shm directory of their own. SKIP
 * without fio.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "harness.h"
#include "fio_side.h"

/* One command's result: exit status, stdout, stderr (owned). */
struct res {
	int rc;
	char *out, *err;
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int c;

	assert_non_null(m);
	while (f && (c = fgetc(f)) != EOF)
		fputc(c, m);
	if (f)
		fclose(f);
	fclose(m);
	return buf;
}

/* Run "PROG ARGS" (prog "fio", or iochar run) in dir by the shell. */
static void run(struct res *r, const char *dir, bool fio, const char *args)
{
	char cmd[16384], o[4200], e[4200];
	char ioc[4096];

	if (!realpath(iochar_path(), ioc))
		fail_msg("%s: %s", iochar_path(), strerror(errno));
	snprintf(o, sizeof(o), "%s/out.txt", dir);
	snprintf(e, sizeof(e), "%s/err.txt", dir);
	snprintf(cmd, sizeof(cmd), "cd '%s' && timeout 60 %s%s %s >'%s' 2>'%s'",
		 dir, fio ? "fio" : ioc, fio ? "" : " run", args, o, e);
	int st = system(cmd);
	r->rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	r->out = slurp(o);
	r->err = slurp(e);
}

static void res_free(struct res *r)
{
	free(r->out);
	free(r->err);
}

static void both(const char *dir, const char *args, struct res *f,
		 struct res *i)
{
	run(f, dir, true, args);
	run(i, dir, false, args);
}

/* args through fio and iochar: the same exit status, and want in both
 * outputs. */
static void both_have(const char *dir, const char *args, const char *want)
{
	struct res f, i;

	both(dir, args, &f, &i);
	assert_int_equal(i.rc, f.rc);
	expect_has(f.out, want);
	expect_has(i.out, want);
	res_free(&f);
	res_free(&i);
}

/* 1. --version: fio's "fio-3.33" from `iochar run` and from iochar named
 * fio; `iochar --version` and the JSON keep iochar's. */
static void test_version(void **state)
{
	const char *dir = *state;
	struct res f, i;
	char cmd[8192], ioc[4096];

	side_need_fio();
	both(dir, "--version", &f, &i);
	assert_int_equal(f.rc, 0);
	assert_int_equal(i.rc, f.rc);
	assert_string_equal(i.out, f.out); /* "fio-3.33\n" */
	assert_string_equal(i.err, "");
	res_free(&i);

	/* a link named fio is iochar run */
	assert_non_null(realpath(iochar_path(), ioc));
	snprintf(cmd, sizeof(cmd), "ln -s '%s' '%s/fio' && '%s/fio' --version "
		 ">'%s/out.txt'", ioc, dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/out.txt", dir);
	i.out = slurp(cmd);
	assert_string_equal(i.out, f.out);
	free(i.out);
	res_free(&f);

	struct proc_out po;
	run_iochar(&po, NULL, 0, ARGS("--version"));
	expect_exit(&po, 0);
	expect_has(po.out, "iochar ");
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("run", "--name=v", "--ioengine=null",
				     "--size=64k", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *doc = parse_json(&po);
	expect_has(json_object_get_string(jget(doc, "fio version")), "iochar");
	json_object_put(doc);
	proc_out_free(&po);
}

static unsigned terse_lines(const char *out)
{
	unsigned n = 0;

	for (const char *l = out; l && *l; l = strchr(l, '\n'), l += !!l)
		n += !strncmp(l, "3;", 2);
	return n;
}

/* 2. options accepted (as fio accepts them), the job still runs as
 * without them: the same number of jobs, empty stderr. */
static void test_accepted(void **state)
{
	static const char *const opts[] = {
		"--max-jobs=1", "--terse-version=3", "--eta-newline=1",
		/* no live line without a terminal: nothing on stderr */
		"--warnings-fatal", "--alloc-size=1024", "--aux-path=/tmp",
		"--debug=parse,io",
	};
	const char *dir = *state;
	char args[512];

	side_need_fio();
	for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
		struct res f, i;

		snprintf(args, sizeof(args), "%s --name=a --ioengine=null "
			 "--size=64k --numjobs=2 --minimal", opts[k]);
		both(dir, args, &f, &i);
		if (f.rc || i.rc)
			fail_msg("%s: fio %d, iochar %d: %s", opts[k], f.rc,
				 i.rc, i.err);
		/* --max-jobs=1 caps nothing in fio 3.33: two terse lines
		 * (--debug traces beside them on stdout, in both) */
		assert_int_equal(terse_lines(i.out), 2);
		assert_int_equal(terse_lines(f.out), 2);
		assert_string_equal(f.err, "");
		assert_string_equal(i.err, "");
		res_free(&f);
		res_free(&i);
	}
}

/* --max-jobs=1 with a job file of 3 jobs, 2 clones each: fio 3.33 runs
 * all 6 (its cap is its pool's size); so does iochar. */
static void test_max_jobs_file(void **state)
{
	const char *dir = *state;
	char path[4200];
	struct res f, i;

	side_need_fio();
	snprintf(path, sizeof(path), "%s/j.fio", dir);
	FILE *jf = fopen(path, "we");
	assert_non_null(jf);
	fputs("[global]\nioengine=null\nsize=64k\nnumjobs=2\n[a]\n[b]\n[c]\n", jf);
	fclose(jf);
	both(dir, "--max-jobs=1 --minimal j.fio", &f, &i);
	assert_int_equal(f.rc, 0);
	assert_int_equal(i.rc, f.rc);
	assert_int_equal(count_lines(f.out), 6);
	assert_int_equal(count_lines(i.out), 6);
	assert_string_equal(i.err, "");
	res_free(&f);
	res_free(&i);
}

/* Bad values: fio fails on these (a debug mask it lacks it names and
 * goes on, exit 0); iochar refuses each with one line naming it, exit 2
 * (docs/fio-compat.md). */
static void test_bad_values(void **state)
{
	static const char *const bad[][2] = {
		{"--terse-version=7", "terse-version=7"},
		{"--debug=nosuch", "nosuch"},
		{"--eta-newline=x", "eta-newline=x"},
	};
	const char *dir = *state;
	char args[256];

	side_need_fio();
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		struct res f, i;

		snprintf(args, sizeof(args), "%s --name=a --ioengine=null "
			 "--size=64k", bad[k][0]);
		both(dir, args, &f, &i);
		if (strcmp(bad[k][0], "--debug=nosuch"))
			assert_int_not_equal(f.rc, 0);
		else
			expect_has(f.err, "debug mask nosuch not found");
		assert_int_equal(i.rc, 2);
		assert_int_equal(count_lines(i.err), 1);
		expect_has(i.err, bad[k][1]);
		res_free(&f);
		res_free(&i);
	}
	/* a terse version fio has but iochar does not write */
	expect_usage_line(ARGS("run", "--terse-version=4", "--name=a",
			       "--ioengine=null"), "version 3 only");
}

/* 3. --cmdhelp: the option's name, help, alias and default lines;
 * unknown: "No such command", exit 0 as fio; all: a line per option. */
static void test_cmdhelp(void **state)
{
	const char *dir = *state;
	struct res f, i;

	side_need_fio();
	both(dir, "--cmdhelp=bs", &f, &i);
	assert_int_equal(i.rc, f.rc);
	static const char *const lines[] = {"                  bs: ",
					    "               alias: blocksize",
					    "                type: ",
					    "             default: "};
	for (size_t k = 0; k < 4; k++) {
		expect_has(f.out, lines[k]);
		expect_has(i.out, lines[k]);
	}
	res_free(&f);
	res_free(&i);

	both(dir, "--cmdhelp=nosuch", &f, &i);
	assert_int_equal(i.rc, f.rc);
	expect_has(f.err, "No such command: nosuch");
	assert_string_equal(i.err, "No such command: nosuch\n");
	res_free(&f);
	res_free(&i);

	both(dir, "--cmdhelp=all", &f, &i);
	assert_int_equal(i.rc, f.rc);
	expect_has(f.out, "\nname                    : ");
	expect_has(i.out, "\nrw                      : ");
	expect_has(i.out, "\nmax-jobs                : ");
	assert_true(count_lines(i.out) > 100);
	res_free(&f);
	res_free(&i);
}

/* --enghelp: the engine list, an engine's option lines, one option; an
 * unknown engine exit 1 as fio. */
static void test_enghelp(void **state)
{
	const char *dir = *state;
	struct res f, i;

	side_need_fio();
	both_have(dir, "--enghelp", "Available IO engines:\n");
	both_have(dir, "--enghelp", "\tlibaio\n");
	both_have(dir, "--enghelp=io_uring", "hipri                   : ");
	both_have(dir, "--enghelp=io_uring,hipri", "               hipri: ");

	both(dir, "--enghelp=nosuch", &f, &i);
	assert_int_equal(f.rc, 1);
	assert_int_equal(i.rc, f.rc);
	expect_has(f.out, "IO engine nosuch not found");
	expect_has(i.out, "IO engine nosuch not found");
	res_free(&f);
	res_free(&i);
}

/* 4. --crctest: a "name:\t... MiB/sec" line per digest asked for. */
static void test_crctest(void **state)
{
	const char *dir = *state;
	struct res f, i;
	double fmb, imb;

	side_need_fio();
	both(dir, "--crctest=md5,crc32c", &f, &i);
	assert_int_equal(f.rc, 0);
	assert_int_equal(i.rc, f.rc);
	assert_int_equal(count_lines(i.out), 2);
	assert_int_equal(sscanf(f.out, "md5:\t\t%lf MiB/sec", &fmb), 1);
	assert_int_equal(sscanf(i.out, "md5:\t\t%lf MiB/sec", &imb), 1);
	printf("md5: fio %.2f MiB/s, iochar %.2f MiB/s\n", fmb, imb);
	assert_true(imb > 0 && fmb > 0);
	expect_has(i.out, "\ncrc32c:\t\t");
	res_free(&f);
	res_free(&i);

	both(dir, "--crctest=nosuch", &f, &i);
	assert_int_not_equal(f.rc, 0);
	assert_int_equal(i.rc, 2);
	assert_int_equal(count_lines(i.err), 1);
	expect_has(i.err, "'nosuch'");
	res_free(&f);
	res_free(&i);
}

/* --debug=help: fio's categories, the same list. */
static void test_debug_help(void **state)
{
	const char *dir = *state;
	struct res f, i;

	side_need_fio();
	both(dir, "--debug=help", &f, &i);
	assert_int_equal(i.rc, f.rc);
	/* fio ends the list without a newline */
	assert_int_equal(strncmp(i.out, f.out, strlen(f.out)), 0);
	res_free(&f);
	res_free(&i);
}

/* Check dir's agg-*_bw.log as --bandwidth-log left them: with samples
 * (each "msec, KiB/s, dir, 0, 0", reads and writes near want KiB/s,
 * trims 0) or, when want is 0, empty. */
static void check_agg_logs(const char *dir, const char *who, unsigned want)
{
	static const char *const names[] = {"agg-read_bw.log",
					    "agg-write_bw.log", "agg-trim_bw.log"};
	char path[4200];

	for (int d = 0; d < 3; d++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[d]);
		struct stat sb;
		if (stat(path, &sb))
			fail_msg("%s: no %s", who, names[d]);
		char *text = slurp(path);
		unsigned lines = 0;
		for (char *p = text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
			unsigned long ms, bw;
			int dd, a, b;
			assert_int_equal(sscanf(p, "%lu, %lu, %d, %d, %d", &ms, &bw, &dd, &a, &b), 5);
			assert_int_equal(dd, d);
			printf("%s %s: %lu ms %lu KiB/s\n", who, names[d], ms, bw);
			if (d == 2)
				assert_int_equal(bw, 0);
			else
				assert_true(bw > want * 7 / 10 && bw < want * 13 / 10);
			lines++;
		}
		assert_true(want ? lines >= 1 : lines == 0);
		free(text);
		unlink(path);
	}
}

/* --bandwidth-log: fio's three files of the aggregate bandwidth, sampled
 * with the ETA line (--eta=always), empty without it. Two jobs at 1 MiB/s
 * each way: about 2048 KiB/s per direction. */
static void test_bandwidth_log(void **state)
{
	const char *dir = *state;
	const char *job = "--name=a --ioengine=null --size=4m --rw=randrw "
			  "--time_based --runtime=3 --numjobs=2 --rate=1m";
	char args[512];
	struct res r;

	side_need_fio();
	snprintf(args, sizeof(args), "--bandwidth-log --eta=always %s "
		 "--output=res.txt", job);
	run(&r, dir, true, args);
	assert_int_equal(r.rc, 0);
	check_agg_logs(dir, "fio", 2048);
	res_free(&r);
	char res[4200];
	snprintf(res, sizeof(res), "%s/res.txt", dir);
	unlink(res);
	run(&r, dir, false, args);
	assert_int_equal(r.rc, 0);
	check_agg_logs(dir, "iochar", 2048);
	res_free(&r);

	snprintf(args, sizeof(args), "--bandwidth-log %s --minimal", job);
	for (int k = 0; k < 2; k++) {
		run(&r, dir, k == 0, args);
		assert_int_equal(r.rc, 0);
		check_agg_logs(dir, k == 0 ? "fio" : "iochar", 0);
		assert_string_equal(r.err, "");
		res_free(&r);
	}
}

/* --inflate-log: a log fio stored compressed (with and without
 * log_offset) printed as fio prints it, byte for byte; a file that is no
 * such log is refused naming it, exit 2 (fio: 1 or 253). */
static void test_inflate_log(void **state)
{
	const char *dir = *state;
	struct res f, i;

	side_need_fio();
	/* fio 3.33 once hung here (killed by run's timeout, 124) on a
	 * loaded machine: its compression threads, not the job; once more */
	for (int t = 0; t < 2; t++) {
		run(&f, dir, true, "--name=a --ioengine=null --size=1m --bs=4k "
		    "--write_lat_log=x --log_compression=16k "
		    "--log_store_compressed=1 --minimal");
		if (f.rc != 124 || t)
			break;
		res_free(&f);
	}
	assert_int_equal(f.rc, 0);
	res_free(&f);
	run(&f, dir, true, "--name=b --ioengine=null --size=1m --bs=4k "
	    "--write_bw_log=y --log_avg_msec=0 --log_offset=1 "
	    "--log_compression=16k --log_store_compressed=1 --minimal");
	assert_int_equal(f.rc, 0);
	res_free(&f);
	static const char *const logs[] = {"--inflate-log=x_clat.1.log.fz",
					   "--inflate-log=y_bw.1.log.fz"};
	for (int k = 0; k < 2; k++) {
		both(dir, logs[k], &f, &i);
		assert_int_equal(f.rc, 0);
		assert_int_equal(i.rc, 0);
		assert_true(count_lines(f.out) >= 256);
		assert_string_equal(i.out, f.out);
		assert_string_equal(i.err, "");
		res_free(&f);
		res_free(&i);
	}
	char path[4200];
	snprintf(path, sizeof(path), "%s/plain.log", dir);
	FILE *p = fopen(path, "we");
	assert_non_null(p);
	fputs("0, 1, 0, 4096, 0\n", p); /* a log fio did not compress */
	fclose(p);
	both(dir, "--inflate-log=plain.log", &f, &i);
	assert_int_not_equal(f.rc, 0);
	assert_int_equal(i.rc, 2);
	assert_int_equal(count_lines(i.err), 1);
	expect_has(i.err, "plain.log");
	res_free(&f);
	res_free(&i);
}

/* The read runtime (ms, terse v3's 9th field) of out's terse line. */
static unsigned long terse_runtime(const char *out)
{
	const char *p = strstr(out, "\n3;") ? strstr(out, "\n3;") + 1 : out;

	for (int k = 0; k < 8 && p; k++)
		p = strchr(p, ';') ? strchr(p, ';') + 1 : NULL;
	assert_non_null(p);
	return strtoul(p, NULL, 10);
}

/* --trigger-timeout and --trigger-file with --trigger: the 4 s job stops
 * at about 1 s, the command runs before the report, exit 0, stderr
 * silent, the file removed. */
static void test_trigger(void **state)
{
	const char *dir = *state;
	const char *job = "--trigger='echo TRIGGERED' --name=a --ioengine=null "
			  "--size=4m --time_based --runtime=4 --minimal";
	char args[512], tf[4200];

	side_need_fio();
	snprintf(tf, sizeof(tf), "%s/tf", dir);
	for (int k = 0; k < 4; k++) {
		bool fio = k % 2 == 0, file = k >= 2;
		struct res r;

		snprintf(args, sizeof(args), "%s %s",
			 file ? "--trigger-file=tf" : "--trigger-timeout=1", job);
		if (file) { /* the file appears a second into the run */
			char cmd[8400];
			snprintf(cmd, sizeof(cmd), "(sleep 1; touch '%s') &", tf);
			assert_int_equal(system(cmd), 0);
		}
		run(&r, dir, fio, args);
		printf("%s %s: rc %d, runtime %lu ms\n", fio ? "fio" : "iochar",
		       file ? "--trigger-file" : "--trigger-timeout", r.rc,
		       terse_runtime(r.out));
		assert_int_equal(r.rc, 0);
		assert_int_equal(strncmp(r.out, "TRIGGERED\n", 10), 0);
		assert_true(terse_runtime(r.out) < 2500);
		assert_string_equal(r.err, "");
		assert_int_not_equal(access(tf, F_OK), 0);
		res_free(&r);
	}
}

static unsigned count_char(const char *s, char c)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

/* --eta-newline=2 with --eta=always on a 5 s job: the ETA line (fio's on
 * stdout, iochar's live line on stderr) is ended by a newline at least
 * once instead of only redrawn with '\r'; without it iochar's is not. */
static void test_eta_newline(void **state)
{
	const char *dir = *state;
	const char *job = "--eta=always --name=a --ioengine=null --size=4m "
			  "--time_based --runtime=5 --output=res.txt";
	char args[512];
	struct res r;

	side_need_fio();
	snprintf(args, sizeof(args), "--eta-newline=2 %s", job);
	run(&r, dir, true, args);
	assert_int_equal(r.rc, 0);
	printf("fio: %u newlines, %u CRs in its ETA\n", count_char(r.out, '\n'),
	       count_char(r.out, '\r'));
	assert_true(count_char(r.out, '\n') >= 1);
	res_free(&r);
	char res[4200];
	snprintf(res, sizeof(res), "%s/res.txt", dir);
	unlink(res);
	run(&r, dir, false, args);
	assert_int_equal(r.rc, 0);
	printf("iochar: %u newlines, %u CRs in its live line\n",
	       count_char(r.err, '\n'), count_char(r.err, '\r'));
	assert_true(count_char(r.err, '\n') >= 1);
	res_free(&r);
	unlink(res);
	run(&r, dir, false, job);
	assert_int_equal(r.rc, 0);
	assert_int_equal(count_char(r.err, '\n'), 0);
	res_free(&r);
}

/* --aux-path: a write job stopped by its trigger leaves fio's verify
 * state file in the aux directory, not the current one, in fio and in
 * iochar; each reads the other's back from there (verify_state_load). */
static void test_aux_path(void **state)
{
	const char *dir = *state;
	const char *w = "--name=w --rw=write --verify=crc32c --verify_state_save=1 "
			"--size=16m --rate=1m --trigger-timeout=1 --minimal";
	const char *r = "--name=w --rw=read --verify=crc32c --verify_state_load=1 "
			"--size=16m --minimal";
	char args[512], path[4200];
	struct res x;

	side_need_fio();
	for (int k = 0; k < 2; k++) { /* fio, then iochar, writes */
		const char *sub = k ? "auxi" : "auxf";
		snprintf(path, sizeof(path), "%s/%s", dir, sub);
		assert_int_equal(mkdir(path, 0700), 0);
		snprintf(args, sizeof(args), "--aux-path=%s --filename=%s.dat %s",
			 sub, sub, w);
		run(&x, dir, k == 0, args);
		assert_int_equal(x.rc, 0);
		res_free(&x);
		snprintf(path, sizeof(path), "%s/%s/local-w-0-verify.state", dir, sub);
		if (access(path, F_OK))
			fail_msg("%s: no %s", k ? "iochar" : "fio", path);
		snprintf(path, sizeof(path), "%s/local-w-0-verify.state", dir);
		assert_int_not_equal(access(path, F_OK), 0);
	}
	for (int k = 0; k < 2; k++) { /* each reads the other's */
		const char *sub = k ? "auxf" : "auxi";
		snprintf(args, sizeof(args), "--aux-path=%s --filename=%s.dat %s",
			 sub, sub, r);
		run(&x, dir, k == 0, args);
		if (x.rc)
			fail_msg("%s reading %s: exit %d: %s", k ? "iochar" : "fio",
				 sub, x.rc, x.err);
		res_free(&x);
	}
}

/* 5. what is not implemented says so, exit 2, one line; fio has it
 * (its --help lists it). */
static void test_not_yet(void **state)
{
	static const char *const opts[] = {
		"idle-prof", "trigger-remote",
	};
	const char *dir = *state;
	struct res f, i;

	side_need_fio();
	run(&f, dir, true, "--help");
	for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
		char want[64], args[128];

		snprintf(want, sizeof(want), "  --%s", opts[k]);
		expect_has(f.out, want);
		snprintf(args, sizeof(args), "--%s=x --name=a --ioengine=null",
			 opts[k]);
		run(&i, dir, false, args);
		assert_int_equal(i.rc, 2);
		assert_int_equal(count_lines(i.err), 1);
		expect_has(i.err, opts[k]);
		expect_has(i.err, "not implemented in iochar yet");
		assert_null(strstr(i.err, "either"));
		res_free(&i);
	}
	res_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_version, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_accepted, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_max_jobs_file, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_bad_values, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_cmdhelp, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_enghelp, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_crctest, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_debug_help, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_bandwidth_log, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_inflate_log, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_trigger, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_eta_newline, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_aux_path, shmdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_not_yet, shmdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
