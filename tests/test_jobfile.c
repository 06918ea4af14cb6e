/* test_jobfile.c - fio-style job files: sections, [global] inheritance,
 * comments, command-line overrides, and errors naming FILE:LINE. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h> /* after the four above, which it needs */

#include "cli/jobfile.h"
#include "cli/options.h"
#include "cli/run_config.h"

#define SEC 1000000000ull

struct tmpfile {
	char path[64];
};

/* Write len bytes of text to a fresh temporary file; the test removes it
 * with done(). */
static void write_tmp_n(struct tmpfile *t, const char *text, size_t len)
{
	int fd;

	snprintf(t->path, sizeof(t->path), "/tmp/iochar-jobfile-XXXXXX");
	fd = mkstemp(t->path);
	if (fd < 0)
		fail_msg("mkstemp: %s", strerror(errno));
	if (write(fd, text, len) != (ssize_t)len)
		fail_msg("write %s: %s", t->path, strerror(errno));
	close(fd);
}

static void write_tmp(struct tmpfile *t, const char *text)
{
	write_tmp_n(t, text, strlen(text));
}

static void done(struct tmpfile *t)
{
	unlink(t->path);
}

static void parse_ok(const char *text, struct job_spec **jobs, unsigned *nr)
{
	struct tmpfile t;
	struct ioc_err err = {0};

	write_tmp(&t, text);
	int ret = jobfile_parse(t.path, jobs, nr, &err);
	done(&t);
	if (ret)
		fail_msg("%s", err.msg);
}

/* Parse text, expecting code and a message "PATH:LINE: want..." (line 0:
 * "PATH: want..."). */
static void parse_bad_n(const char *text, size_t len, int code, unsigned line,
			const char *want)
{
	struct tmpfile t;
	struct ioc_err err = {0};
	struct job_spec *jobs = (struct job_spec *)&err; /* must stay */
	unsigned nr = 77;
	char prefix[96];

	write_tmp_n(&t, text, len);
	int ret = jobfile_parse(t.path, &jobs, &nr, &err);
	if (line)
		snprintf(prefix, sizeof(prefix), "%s:%u: ", t.path, line);
	else
		snprintf(prefix, sizeof(prefix), "%s: ", t.path);
	done(&t);
	assert_int_equal(ret, code);
	assert_int_equal(err.usage, 1);
	assert_ptr_equal(jobs, (struct job_spec *)&err);
	assert_int_equal(nr, 77);
	if (strncmp(err.msg, prefix, strlen(prefix)) != 0)
		fail_msg("message '%s' does not start with '%s'", err.msg,
			 prefix);
	if (!strstr(err.msg, want))
		fail_msg("message '%s' lacks '%s'", err.msg, want);
	/* nothing of the file reaches the terminal raw */
	for (const unsigned char *c = (const unsigned char *)err.msg; *c; c++)
		if (*c < 0x20 || *c == 0x7f || *c >= 0x80)
			fail_msg("message holds byte 0x%02x: %s", *c, err.msg);
}

static void parse_bad(const char *text, int code, unsigned line,
		      const char *want)
{
	parse_bad_n(text, strlen(text), code, line, want);
}

static void test_global_inheritance(void **state)
{
	struct job_spec *jobs;
	unsigned nr;

	(void)state;
	parse_ok("[global]\n"
		 "ioengine=null\n"
		 "bs=64k\n"
		 "size=1m\n"
		 "\n"
		 "[reader]\n"
		 "rw=randread\n"
		 "numjobs=2\n"
		 "\n"
		 "[writer]\n"
		 "rw=write\n"
		 "bs=8k\n",
		 &jobs, &nr);
	assert_int_equal(nr, 2);
	assert_string_equal(jobs[0].name, "reader");
	assert_string_equal(jobs[1].name, "writer");
	for (unsigned i = 0; i < nr; i++) {
		assert_string_equal(jobs[i].ioengine, "null");
		assert_int_equal(jobs[i].size, 1 << 20);
		assert_true(options_is_set(&jobs[i], "size"));
		/* untouched options keep fio's defaults */
		assert_int_equal(jobs[i].iodepth, 1);
		assert_false(options_is_set(&jobs[i], "iodepth"));
	}
	assert_int_equal(jobs[0].rw, RW_RANDREAD);
	assert_int_equal(jobs[0].bs, 65536);
	assert_int_equal(jobs[0].numjobs, 2);
	assert_int_equal(jobs[1].rw, RW_WRITE);
	assert_int_equal(jobs[1].bs, 8192);
	assert_int_equal(jobs[1].numjobs, 1);
	jobfile_free_jobs(jobs, nr);
}

/* A later [global] changes only the jobs after it; a job's own options
 * never leak into the next job. */
static void test_global_at_that_point(void **state)
{
	struct job_spec *jobs;
	unsigned nr;

	(void)state;
	parse_ok("[first]\n"
		 "iodepth=8\n"
		 "filename=/tmp/a:/tmp/b\n"
		 "[global]\n"
		 "bs=16k\n"
		 "[second]\n"
		 "[global]\n"
		 "bs=32k\n"
		 "direct=1\n"
		 "[third]\n"
		 "name=renamed\n",
		 &jobs, &nr);
	assert_int_equal(nr, 3);
	assert_string_equal(jobs[0].name, "first");
	assert_int_equal(jobs[0].iodepth, 8);
	assert_int_equal(jobs[0].bs, 4096);
	assert_int_equal(jobs[0].nr_files, 2);
	assert_string_equal(jobs[1].name, "second");
	assert_int_equal(jobs[1].iodepth, 1);
	assert_int_equal(jobs[1].bs, 16384);
	assert_int_equal(jobs[1].nr_files, 0);
	assert_false(jobs[1].direct);
	assert_string_equal(jobs[2].name, "renamed");
	assert_int_equal(jobs[2].bs, 32768);
	assert_true(jobs[2].direct);
	jobfile_free_jobs(jobs, nr);
}

/* Files each job owns its own copy of: freeing one leaves the others. */
static void test_inherited_filename_is_copied(void **state)
{
	struct job_spec *jobs;
	unsigned nr;

	(void)state;
	parse_ok("[global]\nfilename=/tmp/x:/tmp/y\n[a]\n[b]\n", &jobs, &nr);
	assert_int_equal(nr, 2);
	assert_ptr_not_equal(jobs[0].files[0], jobs[1].files[0]);
	assert_string_equal(jobs[1].files[1], "/tmp/y");
	jobfile_free_jobs(jobs, nr);
	jobfile_free_jobs(NULL, 0);
}

static void test_syntax(void **state)
{
	struct job_spec *jobs;
	unsigned nr;

	(void)state;
	parse_ok("; a comment\n"
		 "# another\n"
		 "   ; indented comment\n"
		 "\n"
		 "  [ global ]  \n"
		 "bs = 8k ; trailing comment\n"
		 "\tiodepth\t=\t4\t# tab separated\n"
		 "time_based\n"
		 "runtime=30 ;\n"
		 "Ramp-Time=2s\n"
		 "[job one]\r\n"
		 "filename=/tmp/a#b;c\r\n"
		 "direct\r\n"
		 "group_reporting\n"
		 "random_distribution=zipf:1.2\n",
		 &jobs, &nr);
	assert_int_equal(nr, 1);
	assert_string_equal(jobs[0].name, "job one");
	assert_int_equal(jobs[0].bs, 8192);
	assert_int_equal(jobs[0].iodepth, 4);
	assert_true(jobs[0].time_based);
	assert_int_equal(jobs[0].runtime_ns, 30 * SEC);
	assert_int_equal(jobs[0].ramp_ns, 2 * SEC);
	/* '#' and ';' inside a value (not after whitespace) are kept */
	assert_string_equal(jobs[0].filename, "/tmp/a#b;c");
	assert_true(jobs[0].direct);
	assert_int_equal(jobs[0].dist, DIST_ZIPF);
	jobfile_free_jobs(jobs, nr);

	/* no newline at the end of the last line */
	parse_ok("[j]\nbs=2k", &jobs, &nr);
	assert_int_equal(jobs[0].bs, 2048);
	jobfile_free_jobs(jobs, nr);
}

static void test_errors_name_file_and_line(void **state)
{
	(void)state;
	parse_bad("[global]\nbs=4k\n[job]\nfoo=1\n", -EINVAL, 4,
		  "unknown option 'foo'");
	parse_bad("[job]\ngtod_cpu=1\n", -EINVAL, 2,
		  "fio option 'gtod_cpu' is not supported by iochar");
	parse_bad("; comment\n[job]\nbs=0\n", -ERANGE, 3, "bs=0");
	parse_bad("[job]\n\n\niodepth=zero\n", -EINVAL, 4, "iodepth=zero");
	parse_bad("[job]\nrwmixread=150\n", -ERANGE, 2, "rwmixread=150");
	parse_bad("[job]\nruntime=-5\n", -EINVAL, 2, "runtime=-5");
	parse_bad("[job]\nbs\n", -EINVAL, 2, "option 'bs' needs a value");
	parse_bad("bs=4k\n[job]\n", -EINVAL, 1,
		  "option 'bs' outside a section");
	parse_bad("; comment\n\ntime_based\n", -EINVAL, 3,
		  "option 'time_based' outside a section");
	parse_bad("[global]\n[job\nbs=4k\n", -EINVAL, 2,
		  "unterminated section header '[job'");
	parse_bad("[]\n", -EINVAL, 1, "empty section name");
	parse_bad("[job]\n=4k\n", -EINVAL, 2, "missing option name");
	parse_bad("[job]\noutput-format=json\n", -EINVAL, 2,
		  "option 'output-format' is only valid on the command line");
	parse_bad("[job]\nioengine=solarisaio\n", -EINVAL, 2,
		  "ioengine=solarisaio: unknown engine");
	parse_bad(
	    "[xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
	    "xxxxxxxxxx]\n",
	    -ERANGE, 1, "too long");
}

/* A NUL byte used to cut the value silently (rw=read\0garbage ran as
 * read); control bytes and non-UTF-8 bytes were echoed raw. All are
 * refused at their line, named by value. */
static void test_binary_bytes(void **state)
{
	static const char nul[] = "[j]\nrw=read\0garbage\n";
	struct job_spec *jobs;
	unsigned nr;

	(void)state;
	parse_bad_n(nul, sizeof(nul) - 1, -EILSEQ, 2, "NUL byte at column 8");
	parse_bad("[j]\nrw=\033[2Jread\n", -EILSEQ, 2, "control byte 0x1b at column 4");
	parse_bad("[j]\nname=a\rb\n", -EILSEQ, 2, "control byte 0x0d");
	parse_bad("[j]\nrw=\x7fread\n", -EILSEQ, 2, "control byte 0x7f");
	parse_bad("[j]\nrw=\xc2\x9bread\n", -EILSEQ, 2, "control character U+009B");
	parse_bad("[j]\nrw=\xffread\n", -EILSEQ, 2, "byte 0xff at column 4 is not UTF-8");
	parse_bad("[j]\nname=\xc0\xafx\n", -EILSEQ, 2, "byte 0xc0"); /* overlong */
	parse_bad("[j]\nname=\xed\xa0\x80\n", -EILSEQ, 2, "byte 0xed"); /* surrogate */
	parse_bad("[j\x01]\n", -EILSEQ, 1, "control byte 0x01");
	/* text is fine: tabs, CRLF, UTF-8 */
	parse_ok("[caf\xc3\xa9]\r\n\trw = write\r\nname=\xe2\x82\xac\xf0\x9f\x92\xbe\r\n",
		 &jobs, &nr);
	assert_int_equal(nr, 1);
	assert_string_equal(jobs[0].name, "\xe2\x82\xac\xf0\x9f\x92\xbe");
	jobfile_free_jobs(jobs, nr);
}

/* At most 1024 jobs: 20,000 sections are one error at the 1025th, found
 * at once (such a file used to run for seconds into "Too many open
 * files"); 1024 parse. */
static void test_job_limit(void **state)
{
	size_t cap = 20000 * 12 + 1, len = 0;
	char *text = malloc(cap);
	struct job_spec *jobs;
	unsigned nr;
	struct timespec t0, t1;

	(void)state;
	assert_non_null(text);
	for (int i = 0; i < 20000; i++)
		len += (size_t)snprintf(text + len, cap - len, "[j%d]\n", i);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	parse_bad(text, -E2BIG, 1025, "more than 1024 jobs");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_true(t1.tv_sec - t0.tv_sec < 2);
	char *cut = strstr(text, "[j1024]");
	assert_non_null(cut);
	*cut = '\0';
	parse_ok(text, &jobs, &nr);
	assert_int_equal(nr, 1024);
	jobfile_free_jobs(jobs, nr);
	free(text);
}

static void test_no_jobs(void **state)
{
	(void)state;
	parse_bad("", -EINVAL, 0, "no jobs");
	parse_bad("; only comments\n\n# here\n", -EINVAL, 0, "no jobs");
	parse_bad("[global]\nbs=4k\n", -EINVAL, 0, "no jobs");
}

static void test_unreadable(void **state)
{
	struct ioc_err err = {0};
	struct job_spec *jobs = NULL;
	unsigned nr = 0;

	(void)state;
	assert_int_equal(
	    jobfile_parse("/nonexistent/job.fio", &jobs, &nr, &err), -ENOENT);
	assert_int_equal(err.usage, 1);
	assert_string_equal(err.msg, "/nonexistent/job.fio: cannot read job "
				     "file: No such file or directory");
	assert_null(jobs);

	memset(&err, 0, sizeof(err));
	assert_int_equal(jobfile_parse("/tmp", &jobs, &nr, &err), -EISDIR);
	assert_string_equal(err.msg,
			    "/tmp: cannot read job file: Is a directory");
	assert_null(jobs);
}

/* The same parser from memory: origin stands for the path in messages. */
static void test_parse_text(void **state)
{
	struct ioc_err err = {0};
	struct job_spec *jobs = NULL;
	unsigned nr = 0;

	(void)state;
	assert_int_equal(jobfile_parse_text("[global]\nbs=8k\n[a]\n[b]\n"
					    "rw=write\n",
					    "inline", &jobs, &nr, &err),
			 0);
	assert_string_equal(err.msg, "");
	assert_int_equal(nr, 2);
	assert_string_equal(jobs[1].name, "b");
	assert_int_equal(jobs[1].bs, 8192);
	assert_int_equal(jobs[1].rw, RW_WRITE);
	jobfile_free_jobs(jobs, nr);

	jobs = NULL;
	nr = 0;
	assert_int_equal(jobfile_parse_text("[a]\nbs=4q\n", "inline", &jobs,
					    &nr, &err),
			 -EINVAL);
	assert_int_equal(err.usage, 1);
	assert_true(strncmp(err.msg, "inline:2: bs=4q: ", 17) == 0);
	assert_null(jobs);

	memset(&err, 0, sizeof(err));
	assert_int_equal(
	    jobfile_parse_text("; nothing\n", "inline", &jobs, &nr, &err),
	    -EINVAL);
	assert_true(strncmp(err.msg, "inline: no jobs", 15) == 0);
	assert_null(jobs);
}

/* ---- with the command line ---- */

#define ARGV(...) ((char *[]){"run", __VA_ARGS__})
#define ARGC(...) ((int)(sizeof(ARGV(__VA_ARGS__)) / sizeof(char *)))
#define PARSE(cfg, err, ...)                                                   \
	run_config_parse(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), cfg, err)

/* As fio's: the command line's options (wherever they stand, without
 * --name) are global, under the file's [global] and sections
 * (test_fio_parse.c checks it against fio itself). */
static void test_cli_options_are_global(void **state)
{
	struct tmpfile t;
	struct run_config cfg;
	struct ioc_err err = {0};

	(void)state;
	write_tmp(&t, "[global]\nioengine=null\nbs=64k\nsize=1m\n"
		      "[a]\nrw=read\niodepth=8\n[b]\nrw=write\n");
	int ret = PARSE(&cfg, &err, t.path, "--bs=16k", "--output-format=json",
			"--numjobs", "3");
	done(&t);
	if (ret)
		fail_msg("%s", err.msg);
	assert_int_equal(cfg.nr_jobs, 2);
	assert_int_equal(cfg.format, OUTPUT_JSON);
	assert_false(cfg.scratch);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(cfg.jobs[i].bs, 65536); /* the file's [global] */
		assert_int_equal(cfg.jobs[i].numjobs, 3);
		assert_int_equal(cfg.jobs[i].size, 1 << 20);
		assert_string_equal(cfg.jobs[i].ioengine, "null");
	}
	assert_int_equal(cfg.jobs[0].rw, RW_READ);
	assert_int_equal(cfg.jobs[0].iodepth, 8);
	assert_int_equal(cfg.jobs[1].rw, RW_WRITE);
	assert_int_equal(cfg.jobs[1].iodepth, 1);
	run_config_free(&cfg);
}

/* A job file without filenames gets fio's defaults and file names, never
 * the scratch presets. */
static void test_jobfile_fio_defaults(void **state)
{
	struct tmpfile t;
	struct run_config cfg;
	struct ioc_err err = {0};

	(void)state;
	write_tmp(&t, "[global]\niodepth=8\nsize=1m\n[a]\nrw=randwrite\n[b]\n");
	int ret = PARSE(&cfg, &err, t.path);
	done(&t);
	if (ret)
		fail_msg("%s", err.msg);
	assert_false(cfg.scratch);
	assert_true(cfg.fio_defaults);
	assert_int_equal(cfg.nr_jobs, 2);
	assert_string_equal(cfg.jobs[0].files[0], "a.0.0");
	assert_string_equal(cfg.jobs[1].files[0], "b.0.0");
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(cfg.jobs[i].nr_files, 1);
		assert_int_equal(cfg.jobs[i].iodepth, 8);
		assert_false(cfg.jobs[i].direct);
		assert_false(cfg.jobs[i].time_based);
		assert_string_equal(cfg.jobs[i].ioengine, "psync");
	}
	assert_int_equal(cfg.jobs[0].rw, RW_RANDWRITE);
	assert_int_equal(cfg.jobs[1].rw, RW_READ);
	run_config_free(&cfg);
}

/* run_config_parse of "run FILE [opt]" with FILE holding text; the file is
 * removed before returning. path gets its name, for messages. */
static int parse_cli_file(const char *text, const char *opt,
			  struct ioc_err *err, char *path, size_t len)
{
	struct tmpfile t;
	struct run_config cfg;
	char *argv[] = {"run", t.path, (char *)opt};
	int ret;

	write_tmp(&t, text);
	snprintf(path, len, "%s", t.path);
	memset(err, 0, sizeof(*err));
	ret = run_config_parse(opt ? 3 : 2, argv, &cfg, err);
	done(&t);
	if (ret == 0)
		run_config_free(&cfg);
	else
		assert_null(cfg.jobs);
	return ret;
}

static void test_jobfile_cli_errors(void **state)
{
	struct ioc_err err;
	char path[64], want[128];

	(void)state;
	/* the file's errors keep their FILE:LINE through run_config_parse */
	assert_int_equal(
	    parse_cli_file("[job]\nfilename=/tmp/x\niodepth=zero\n", NULL, &err,
			   path, sizeof(path)),
	    -EINVAL);
	snprintf(want, sizeof(want), "%s:3: iodepth=zero", path);
	assert_int_equal(strncmp(err.msg, want, strlen(want)), 0);
	assert_int_equal(err.usage, 1);

	/* --name with a job file is one more job, as fio's */
	assert_int_equal(parse_cli_file("[job]\nfilename=/tmp/x\n", "--name=x",
					&err, path, sizeof(path)),
			 0);

	/* a bad command-line override names the option */
	assert_int_equal(parse_cli_file("[job]\nfilename=/tmp/x\n", "--bs=0",
					&err, path, sizeof(path)),
			 -ERANGE);
	assert_non_null(strstr(err.msg, "bs=0"));

	/* some jobs name files and one does not: fio's name for it */
	assert_int_equal(parse_cli_file("[a]\nfilename=/tmp/x\n[b]\n", NULL,
					&err, path, sizeof(path)),
			 0);

	/* a cross-option check names the job */
	assert_int_equal(
	    parse_cli_file("[small]\nfilename=/tmp/x\nsize=1k\nbs=4k\n", NULL,
			   &err, path, sizeof(path)),
	    -EINVAL);
	assert_non_null(strstr(err.msg, "job 'small': size=1k is smaller "
					"than bs=4k"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_global_inheritance),
	    cmocka_unit_test(test_global_at_that_point),
	    cmocka_unit_test(test_inherited_filename_is_copied),
	    cmocka_unit_test(test_syntax),
	    cmocka_unit_test(test_errors_name_file_and_line),
	    cmocka_unit_test(test_binary_bytes),
	    cmocka_unit_test(test_job_limit),
	    cmocka_unit_test(test_no_jobs),
	    cmocka_unit_test(test_unreadable),
	    cmocka_unit_test(test_parse_text),
	    cmocka_unit_test(test_cli_options_are_global),
	    cmocka_unit_test(test_jobfile_fio_defaults),
	    cmocka_unit_test(test_jobfile_cli_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
