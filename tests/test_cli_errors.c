/* test_cli_errors.c - every bad input gets one line on stderr naming the
 * culprit, exit status 2, and no side effect: no target created or
 * changed, no output file written. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

struct fixture {
	struct scratch sc;   /* first: the directory, a filesystem mounted */
	char target[4200];   /* a path that must stay untouched */
	char output[4200];   /* an --output path that must not appear */
	char out_opt[4300];
	char fn_opt[4300];
};

static int setup(void **state)
{
	if (scratch_setup(state, sizeof(struct fixture)))
		return -1;
	struct fixture *f = *state;
	snprintf(f->target, sizeof(f->target), "%s/target.dat", f->sc.dir);
	snprintf(f->output, sizeof(f->output), "%s/out.json", f->sc.dir);
	snprintf(f->out_opt, sizeof(f->out_opt), "--output=%s", f->output);
	snprintf(f->fn_opt, sizeof(f->fn_opt), "--filename=%s", f->target);
	return 0;
}

/* Run args (plus --output) and check: status 2, one stderr line containing
 * every `needles` word, nothing on stdout, target and output absent. */
static void expect_usage_error(struct fixture *f, const char *const *args,
			       const char *const *needles)
{
	const char *argv[40];
	int n = 0;
	for (const char *const *a = args; *a; a++)
		argv[n++] = *a;
	argv[n++] = f->out_opt;
	argv[n] = NULL;
	struct proc_out po;
	run_iochar(&po, f->sc.dir, 0, argv);
	if (po.status != 2 || count_lines(po.err) != 1)
		fail_msg("%s: status %d, stderr (%u lines):\n%s", args[1], po.status,
			 count_lines(po.err), po.err);
	for (const char *const *w = needles; *w; w++)
		if (!strstr(po.err, *w))
			fail_msg("error for %s does not name '%s': %s", args[1], *w, po.err);
	assert_string_equal(po.out, "");
	assert_false(file_exists(f->target));
	assert_false(file_exists(f->output));
	char scratch[4300];
	snprintf(scratch, sizeof(scratch), "%s/iochar-data", f->sc.dir);
	assert_false(file_exists(scratch));
	proc_out_free(&po);
}

static void test_unknown_option(void **state)
{
	struct fixture *f = *state;
	expect_usage_error(f, ARGS("run", f->fn_opt, "--size=1m", "--blocksizee=4k"),
			   ARGS("blocksizee"));
}

/* fio's guess for a misspelled command-line option ("Did you mean X?"),
 * or "" when it has none. */
static void fio_guess(const char *typo, char *out, size_t len)
{
	char cmd[256], line[512];
	snprintf(cmd, sizeof(cmd), "fio --name=x --%s=1 2>&1", typo);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	out[0] = '\0';
	while (fgets(line, sizeof(line), p))
		if (sscanf(line, "Did you mean %127[^?]?", out) == 1)
			break;
	pclose(p);
}

/* A misspelled option gets fio's "did you mean": the same guess as fio
 * 3.33's own command line (nearest by edit distance, names and aliases,
 * none when too far), in the one line of the error; exit 2. */
static void test_did_you_mean_as_fio(void **state)
{
	struct fixture *f = *state;
	static const char *const typos[] = {"ioengnie", "iodpeth", "runtiem", "blocksizee",
					    "numjbos", "rwmixred", "filenme", "direckt", "bsize"};
	if (system("command -v fio >/dev/null 2>&1")) {
		printf("SKIP: fio is not installed (scripts/deps.sh installs it)\n");
		return;
	}
	for (size_t i = 0; i < sizeof(typos) / sizeof(typos[0]); i++) {
		char fio[128], opt[64], want[192];
		fio_guess(typos[i], fio, sizeof(fio));
		assert_true(fio[0]); /* each has one in fio */
		snprintf(opt, sizeof(opt), "--%s=1", typos[i]);
		snprintf(want, sizeof(want), "did you mean %s?", fio);
		expect_usage_error(f, ARGS("run", f->fn_opt, "--size=1m", opt),
				   ARGS(typos[i], want));
	}
	/* nothing near: no guess */
	struct proc_out po;
	run_iochar(&po, f->sc.dir, 0, ARGS("run", "--zzzzqqqq=1"));
	expect_exit(&po, 2);
	assert_null(strstr(po.err, "did you mean"));
	proc_out_free(&po);
	/* a command's own options too */
	run_iochar(&po, f->sc.dir, 0, ARGS("compare", "--outptu=x", "a", "b"));
	expect_exit(&po, 2);
	expect_has(po.err, "--outptu=x: unknown option (did you mean --output?)");
	assert_int_equal(count_lines(po.err), 1);
	proc_out_free(&po);
}

static void test_bad_values(void **state)
{
	struct fixture *f = *state;
	expect_usage_error(f, ARGS("run", f->fn_opt, "--size=1m", "--bs=0"), ARGS("bs"));
	expect_usage_error(f, ARGS("run", f->fn_opt, "--size=1m", "--iodepth=0"), ARGS("iodepth"));
	expect_usage_error(f, ARGS("run", f->fn_opt, "--size=1m", "--rwmixread=150"),
			   ARGS("rwmixread"));
	expect_usage_error(f, ARGS("run", f->fn_opt, "--size=1m", "--runtime=-5"), ARGS("runtime"));
	expect_usage_error(f, ARGS("run", f->fn_opt, "--size=1m", "--rw=sideways"), ARGS("rw"));
	expect_usage_error(f, ARGS("run", f->fn_opt, "--size=1m", "--bs=4q"), ARGS("bs"));
	expect_usage_error(f, ARGS("run", f->fn_opt, "--size=1m", "--ioengine=windowsaio"),
			   ARGS("ioengine"));
	expect_usage_error(f, ARGS("run", f->fn_opt, "--size=1m", "--output-format=xml"),
			   ARGS("output-format"));
	expect_usage_error(f, ARGS("run", f->fn_opt, "--size=1m",
				   "--random_distribution=zipf:0"),
			   ARGS("random_distribution"));
	expect_usage_error(f, ARGS("run", f->fn_opt, "--size=1k", "--bs=4k"), ARGS("bs"));
}

static void test_missing_target(void **state)
{
	struct fixture *f = *state;
	/* reading a file that does not exist, with no size to create it */
	expect_usage_error(f, ARGS("run", f->fn_opt, "--rw=read"), ARGS(f->target));
	/* a directory that cannot be made (fio makes missing ones: a file
	 * stands where one would go) */
	char opt[4400];
	snprintf(opt, sizeof(opt), "%s/plain.dat", f->sc.dir);
	make_file(opt, 4096);
	snprintf(opt, sizeof(opt), "--filename=%s/plain.dat/sub/f", f->sc.dir);
	expect_usage_error(f, ARGS("run", opt, "--size=1m"), ARGS("plain.dat/sub/f"));
	/* a directory is not a target */
	snprintf(opt, sizeof(opt), "--filename=%s", f->sc.dir);
	expect_usage_error(f, ARGS("run", opt, "--size=1m"), ARGS("directory"));
}

/* direct=1 where the filesystem has no O_DIRECT (ramfs) is found while
 * validating, before the file is created and written (it used to be found
 * after a 1 MiB pre-write, labelled "partial run (interrupted)"). */
static void test_direct_unsupported_found_first(void **state)
{
	struct fixture *f = *state;
	if (!is_root())
		skip(); /* mounting a ramfs needs root */
	if (!scratch_mount(&f->sc, "ram", "ramfs", "ramfs", NULL))
		skip();
	snprintf(f->target, sizeof(f->target), "%s/ram/t.dat", f->sc.dir);
	snprintf(f->fn_opt, sizeof(f->fn_opt), "--filename=%s", f->target);
	const char *const want[] = {f->target, "direct=1", NULL};
	expect_usage_error(f, ARGS("run", f->fn_opt, "--size=1m", "--direct=1"), want);
	expect_usage_error(f, ARGS("run", f->fn_opt, "--size=1m", "--direct=1",
				   "--rw=write"), want);
	/* an existing file there is refused alike, and left as it was */
	make_file(f->target, 1 << 20);
	uint64_t before = file_hash(f->target);
	struct proc_out po;
	run_iochar(&po, f->sc.dir, 0, ARGS("run", f->fn_opt, "--direct=1", "--rw=read"));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, "direct=1");
	assert_true(file_hash(f->target) == before);
	proc_out_free(&po);
}

/* Run iochar ARGS in f->sc.dir from sh with ulimit -n set first (limits,
 * e.g. "ulimit -Sn 100"); its exit status; stderr in f->sc.dir/err. */
static int run_limited(struct fixture *f, const char *limits, const char *args)
{
	char cmd[9000], bin[4096];
	assert_non_null(realpath(iochar_path(), bin));
	snprintf(cmd, sizeof(cmd), "cd '%s' && %s && exec '%s' %s >/dev/null 2>err",
		 f->sc.dir, limits, bin, args);
	int st = system(cmd);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

/* More workers than open files allow: refused before the file is created
 * (it used to be written, then every worker failed with "Too many open
 * files" and the run was called interrupted). Up to the hard limit the
 * soft one is raised and the run goes ahead. */
static void test_open_file_limit(void **state)
{
	struct fixture *f = *state;
	char args[4500], path[4300];
	snprintf(args, sizeof(args), "run --ioengine=psync '%s' --size=1m --numjobs=200 "
		 "--runtime=100ms", f->fn_opt);
	assert_int_equal(run_limited(f, "ulimit -Sn 100 && ulimit -Hn 100", args), 2);
	snprintf(path, sizeof(path), "%s/err", f->sc.dir);
	FILE *e = fopen(path, "re");
	assert_non_null(e);
	char line[600] = "", more[8];
	assert_non_null(fgets(line, sizeof(line), e));
	assert_null(fgets(more, sizeof(more), e)); /* one line */
	fclose(e);
	expect_has(line, "200 workers");
	expect_has(line, "open files");
	expect_has(line, "ulimit -n");
	assert_false(file_exists(f->target));
	assert_int_equal(run_limited(f, "ulimit -Sn 100", args), 0);
	assert_true(file_exists(f->target));
}

static void test_job_file_error_names_file_and_line(void **state)
{
	struct fixture *f = *state;
	char path[4300], opt_target[4400];
	snprintf(path, sizeof(path), "%s/bad.fio", f->sc.dir);
	FILE *jf = fopen(path, "w");
	assert_non_null(jf);
	fprintf(jf, "; a job file\n[global]\nbs=4k\nsize=1m\n\n[job1]\nfilename=%s\niodepth=zero\n",
		f->target);
	fclose(jf);
	(void)opt_target;
	expect_usage_error(f, ARGS("run", path), ARGS("bad.fio:8", "iodepth"));
	jf = fopen(path, "w");
	fprintf(jf, "[global]\nbs=4k\n[job1]\nfilename=%s\nsize=1m\nnot_an_option=1\n", f->target);
	fclose(jf);
	expect_usage_error(f, ARGS("run", path), ARGS("bad.fio:6", "not_an_option"));
	expect_usage_error(f, ARGS("run", "/nonexistent/job.fio"), ARGS("/nonexistent/job.fio"));
}

static void test_size_larger_than_device(void **state)
{
	struct fixture *f = *state;
	if (!is_root()) {
		printf("SKIP: size larger than a device needs root for a loop device\n");
		skip();
	}
	char backing[4300], dev[64], opt[128];
	snprintf(backing, sizeof(backing), "%s/loop.img", f->sc.dir);
	if (!loop_attach(backing, 16 << 20, 512, dev, sizeof(dev)))
		skip();
	uint64_t before = file_hash(backing);
	snprintf(opt, sizeof(opt), "--filename=%s", dev);
	expect_usage_error(f, ARGS("run", opt, "--size=32m", "--rw=write"), ARGS("size", dev));
	loop_detach(dev);
	assert_true(file_hash(backing) == before);
}

static void test_direct_unaligned_bs_on_4k_device(void **state)
{
	struct fixture *f = *state;
	if (!is_root()) {
		printf("SKIP: a 4K-sector loop device needs root\n");
		skip();
	}
	char backing[4300], dev[64], opt[128];
	snprintf(backing, sizeof(backing), "%s/loop4k.img", f->sc.dir);
	if (!loop_attach(backing, 16 << 20, 4096, dev, sizeof(dev)))
		skip();
	snprintf(opt, sizeof(opt), "--filename=%s", dev);
	expect_usage_error(f, ARGS("run", opt, "--direct=1", "--bs=3k", "--rw=randread"),
			   ARGS("bs", "4096", dev));
	loop_detach(dev);
}

/* The machine's io_uring switch as it was, put back by the teardown
 * even when the test failed (a failed check must not leave io_uring off
 * for everything else on the machine); -1: untouched. */
static int io_uring_knob_old = -1;

static int io_uring_teardown(void **state)
{
	if (io_uring_knob_old >= 0) {
		FILE *k = fopen("/proc/sys/kernel/io_uring_disabled", "w");
		if (k) {
			fprintf(k, "%d\n", io_uring_knob_old);
			fclose(k);
		}
		io_uring_knob_old = -1;
	}
	return scratch_teardown(state);
}

static void test_io_uring_disabled(void **state)
{
	struct fixture *f = *state;
	const char *knob = "/proc/sys/kernel/io_uring_disabled";
	FILE *k = fopen(knob, "r+");
	if (!k || !is_root()) {
		printf("SKIP: cannot switch io_uring off here (%s needs root)\n", knob);
		if (k)
			fclose(k);
		skip();
	}
	int old = 0;
	if (fscanf(k, "%d", &old) != 1)
		old = 0;
	fclose(k);
	io_uring_knob_old = old;
	k = fopen(knob, "w");
	fprintf(k, "2\n");
	fclose(k);
	expect_usage_error(f, ARGS("run", f->fn_opt, "--size=1m", "--ioengine=io_uring"),
			   ARGS("io_uring"));
}

/* --output may name neither the journal, a target nor the I/O log,
 * however spelled (issue 37 H10: --journal=X --output=X renamed the
 * results over the journal; --write_iolog=L --output=L over the log): one line naming both, exit 2, nothing written. Run in the
 * fixture's directory, so the relative spellings are its files. */
static void test_output_not_journal_or_target(void **state)
{
	struct fixture *f = *state;
	static const char *const outs[] = {"--output=J", "--output=./J",
					   "--output=sub/../J"};
	char sub[4300];

	snprintf(sub, sizeof(sub), "%s/sub", f->sc.dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	for (unsigned i = 0; i < 3; i++) {
		struct proc_out po;
		run_iochar(&po, f->sc.dir, 0,
			   ARGS("run", "--filename=target.dat", "--size=64k",
				"--rw=write", "--verify=1", "--journal=J",
				"--ioengine=psync", outs[i]));
		expect_exit(&po, 2);
		assert_int_equal(count_lines(po.err), 1);
		expect_has(po.err, outs[i]);
		expect_has(po.err, "also the journal of job job0 (journal=J)");
		proc_out_free(&po);
		assert_false(file_exists(f->target));
		char j[4300];
		snprintf(j, sizeof(j), "%s/J", f->sc.dir);
		assert_false(file_exists(j));
	}
	struct proc_out po;
	run_iochar(&po, f->sc.dir, 0,
		   ARGS("run", "--filename=target.dat", "--size=64k",
			"--rw=write", "--ioengine=psync",
			"--output=./target.dat"));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, "--output=./target.dat: also a target of job job0 "
			   "(filename=target.dat)");
	proc_out_free(&po);
	assert_false(file_exists(f->target));
	/* nor the run's I/O log: the results were renamed over it */
	run_iochar(&po, f->sc.dir, 0,
		   ARGS("run", "--filename=target.dat", "--size=64k", "--rw=write",
			"--ioengine=psync", "--write_iolog=L", "--output=sub/../L"));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, "--output=sub/../L: also the I/O log of job job0 (write_iolog=L)");
	proc_out_free(&po);
	assert_false(file_exists(f->target));
	char l[4300];
	snprintf(l, sizeof(l), "%s/L", f->sc.dir);
	assert_false(file_exists(l));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_did_you_mean_as_fio, setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_unknown_option, setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_output_not_journal_or_target, setup,
						scratch_teardown),
		cmocka_unit_test_setup_teardown(test_bad_values, setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_missing_target, setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_direct_unsupported_found_first, setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_open_file_limit, setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_job_file_error_names_file_and_line, setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_size_larger_than_device, setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_direct_unaligned_bs_on_4k_device, setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_io_uring_disabled, setup, io_uring_teardown),
	};
	return cmocka_run_group_tests_name("cli_errors", tests, NULL, NULL);
}
