/* test_fio_batch.c - fio's submission/completion discipline (issue 23):
 * iodepth_batch_submit, iodepth_batch_complete_min/_max and iodepth_low
 * do in iochar what they do in fio 3.33.
 *
 * The same direct randread job runs through fio and iochar under
 * `strace -f -e trace=io_uring_enter,io_submit,io_getevents`, and what the
 * calls asked is compared: how many I/Os each submission handed over
 * (io_uring_enter's to_submit, io_submit's nr), how many completions a
 * reaping call waited for and took at most (io_uring_enter's
 * min_complete, io_getevents' min_nr and nr), and how many I/Os went out
 * between two reaping calls (iodepth_low's bursts). Timing decides some
 * calls in both tools (a reap that found completions in the ring makes
 * no call), so the comparison is of the most common value and its share,
 * not of every call. io_uring's ring_setup (iochar's own) is checked in
 * the flags io_uring_setup was given. SKIP without fio or strace.
 */
/* cmocka.h needs these first, in this order */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "trace_compare.h"

#define NR_IOS 2000
#define FILE_MB 64
#define HMAX 65 /* values 0..64 counted, larger in the last */

/* What one traced run asked of the kernel. */
struct disc {
	unsigned sub[HMAX];   /* submissions by I/Os handed over (> 0) */
	unsigned wait[HMAX];  /* reaping calls by completions waited for */
	unsigned rmax[HMAX];  /* libaio's reaping calls by nr (at most) */
	unsigned burst[HMAX]; /* libaio: I/Os submitted between two reaps */
	unsigned nr_sub, nr_wait, nr_burst;
	unsigned long submitted;
};

static void count(unsigned *h, unsigned v)
{
	h[v < HMAX ? v : HMAX - 1]++;
}

/* The most common value of h, and in *share its part of all. */
static unsigned mode(const unsigned *h, double *share)
{
	unsigned best = 0, all = 0;

	for (unsigned v = 0; v < HMAX; v++) {
		all += h[v];
		if (h[v] > h[best])
			best = v;
	}
	if (share)
		*share = all ? (double)h[best] / all : 0;
	return best;
}

/* One line of an strace -f trace into d. A reap ends a burst. */
static void parse_line(const char *line, struct disc *d, unsigned *burst)
{
	const char *p;
	unsigned a = 0, b = 0;

	if ((p = strstr(line, "io_uring_enter(")) &&
	    sscanf(p, "io_uring_enter(%*[^,], %u, %u", &a, &b) == 2) {
		if (a) {
			count(d->sub, a);
			d->nr_sub++;
			d->submitted += a;
		}
		if (b) {
			count(d->wait, b);
			d->nr_wait++;
		}
	} else if ((p = strstr(line, "io_submit(")) &&
		   sscanf(p, "io_submit(%*[^,], %u", &a) == 1) {
		count(d->sub, a);
		d->nr_sub++;
		d->submitted += a;
		*burst += a;
	} else if ((p = strstr(line, "io_getevents(")) &&
		   sscanf(p, "io_getevents(%*[^,], %u, %u", &a, &b) == 2) {
		count(d->wait, a);
		count(d->rmax, b);
		d->nr_wait++;
		if (*burst) {
			count(d->burst, *burst);
			d->nr_burst++;
			*burst = 0;
		}
	}
}

/* Run opts (fio's --key=value words, after the common job) with tool
 * ("fio" or "iochar") under strace; what it asked into d. */
static void traced(const char *dir, const char *tool, const char *opts,
		   struct disc *d)
{
	char cmd[4200];
	const char *common = "--name=j --rw=randread --bs=4k --direct=1 "
			     "--size=64m --norandommap --randrepeat=0";
	bool fio = strcmp(tool, "fio") == 0;

	memset(d, 0, sizeof(*d));
	if (fio)
		snprintf(cmd, sizeof(cmd), "fio --output-format=json --thread");
	else
		snprintf(cmd, sizeof(cmd), "'%s' run --force", tc_iochar);
	int rc = tc_sh("cd '%s' && %stimeout 60 strace -f -qq -o '%s/%s.trace' "
		       "-e trace=io_uring_enter,io_submit,io_getevents %s %s "
		       "--filename=%s/data --number_ios=%u %s >'%s/%s.out' "
		       "2>'%s/%s.err'",
		       dir, fio ? "" : TC_UNDER_STRACE, dir, tool, cmd, common,
		       dir, NR_IOS, opts, dir, tool, dir, tool);
	if (rc) {
		tc_sh("cat '%s/%s.err' >&2", dir, tool);
		fail_msg("%s %s: exit %d", tool, opts, rc);
	}
	char path[4096], line[1024];
	snprintf(path, sizeof(path), "%s/%s.trace", dir, tool);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	unsigned burst = 0;
	while (fgets(line, sizeof(line), f))
		parse_line(line, d, &burst);
	fclose(f);
}

static void both(const char *dir, const char *opts, struct disc *fio,
		 struct disc *ioc)
{
	traced(dir, "fio", opts, fio);
	traced(dir, "iochar", opts, ioc);
	/* every I/O went out once, in both (the last depth's worth may be
	 * left over when the count is reached) */
	assert_true(fio->submitted >= NR_IOS && ioc->submitted >= NR_IOS);
	assert_true(fio->submitted <= NR_IOS + 64 && ioc->submitted <= NR_IOS + 64);
}

/* h's most common value is the same in both, and at least min_share of
 * each tool's calls. */
static void same_mode(const char *what, const char *opts, const unsigned *hf,
		      const unsigned *hi, double min_share)
{
	double sf, si;
	unsigned mf = mode(hf, &sf), mi = mode(hi, &si);

	print_message("  %-40s %-9s fio %u (%.0f%%)  iochar %u (%.0f%%)\n", opts,
		      what, mf, 100 * sf, mi, 100 * si);
	if (mf != mi || sf < min_share || si < min_share)
		fail_msg("%s: %s: fio's most common is %u (%.0f%% of calls), "
			 "iochar's %u (%.0f%%)",
			 opts, what, mf, 100 * sf, mi, 100 * si);
}

static int setup(void **state)
{
	if (tc_setup(state))
		return -1;
	char path[4096];
	snprintf(path, sizeof(path), "%s/data", (char *)*state);
	make_file(path, FILE_MB << 20);
	return 0;
}

/* A fio-style job gets fio's defaults: one I/O per submission. */
static void test_fio_defaults(void **state)
{
	static const char *const engines[] = {"libaio", "io_uring"};
	struct disc f, i;
	char opts[256];

	tc_skip_without_tools();
	for (unsigned e = 0; e < 2; e++) {
		snprintf(opts, sizeof(opts), "--ioengine=%s --iodepth=8", engines[e]);
		both(*state, opts, &f, &i);
		same_mode("submit", opts, f.sub, i.sub, 0.9);
		if (e == 0) /* libaio: one completion at most per reap */
			same_mode("reap max", opts, f.rmax, i.rmax, 0.9);
	}
}

/* iodepth_batch_submit=4 with 4 completions waited for and taken at
 * most: every submission and every wait is 4. */
static void test_batch_submit_complete(void **state)
{
	static const char *const engines[] = {"libaio", "io_uring"};
	struct disc f, i;
	char opts[256];

	tc_skip_without_tools();
	for (unsigned e = 0; e < 2; e++) {
		snprintf(opts, sizeof(opts),
			 "--ioengine=%s --iodepth=16 --iodepth_batch_submit=4 "
			 "--iodepth_batch_complete_min=4 "
			 "--iodepth_batch_complete_max=4", engines[e]);
		both(*state, opts, &f, &i);
		same_mode("submit", opts, f.sub, i.sub, 0.8);
		same_mode("wait", opts, f.wait, i.wait, 0.8);
		if (e == 0)
			same_mode("reap max", opts, f.rmax, i.rmax, 0.8);
	}
	/* the aliases, and a max below the min taken as the min */
	both(*state, "--ioengine=libaio --iodepth=16 --iodepth_batch=8 "
		     "--iodepth_batch_complete=8 --iodepth_batch_complete_max=2",
	     &f, &i);
	same_mode("submit", "aliases, max<min", f.sub, i.sub, 0.8);
	same_mode("reap max", "aliases, max<min", f.rmax, i.rmax, 0.8);
}

/* iodepth_low=4 at depth 16: once full, reap down to 4 in flight, then
 * queue 12 (fio splits some submissions at its ring's wrap: the burst
 * between two reaps is what it means). libaio: every reap is a call. */
static void test_iodepth_low(void **state)
{
	const char *opts = "--ioengine=libaio --iodepth=16 "
			   "--iodepth_batch_submit=16 --iodepth_low=4";
	struct disc f, i;

	tc_skip_without_tools();
	both(*state, opts, &f, &i);
	same_mode("burst", opts, f.burst, i.burst, 0.8);
}

/* iodepth_batch_complete_min=0: reaping polls (waits for none). */
static void test_poll(void **state)
{
	const char *opts = "--ioengine=libaio --iodepth=8 "
			   "--iodepth_batch_complete_min=0";
	struct disc f, i;

	tc_skip_without_tools();
	both(*state, opts, &f, &i);
	same_mode("wait", opts, f.wait, i.wait, 0.8);
}

/* Bad values are refused before anything runs, naming the option (a job
 * file's FILE:LINE, every culprit), exit 2. */
static void test_bad_values(void **state)
{
	struct proc_out po;
	char job[4096], data[4096];

	snprintf(data, sizeof(data), "--filename=%s/data", (char *)*state);
	run_iochar(&po, NULL, 0, ARGS("run", "--name=j", data,
				      "--iodepth_batch_submit=x"));
	expect_exit(&po, 2);
	expect_has(po.err, "iodepth_batch_submit");
	proc_out_free(&po);
	run_iochar(&po, NULL, 0, ARGS("run", "--name=j", data,
				      "--ioengine=io_uring", "--ring_setup=fast"));
	expect_exit(&po, 2);
	expect_has(po.err, "ring_setup");
	proc_out_free(&po);
	snprintf(job, sizeof(job), "%s/bad.fio", (char *)*state);
	FILE *f = fopen(job, "w");
	assert_non_null(f);
	fprintf(f, "[j]\nfilename=%s/data\niodepth_low=-1\n"
		   "iodepth_batch_complete_max=many\n", (char *)*state);
	fclose(f);
	run_iochar(&po, NULL, 0, ARGS("run", job));
	expect_exit(&po, 2);
	expect_has(po.err, "bad.fio:3");
	expect_has(po.err, "bad.fio:4");
	proc_out_free(&po);
}

/* The task-work flags (kernel ABI, include/uapi/linux/io_uring.h) */
#define SETUP_COOP_TASKRUN (1u << 8)
#define SETUP_SINGLE_ISSUER (1u << 12)
#define SETUP_DEFER_TASKRUN (1u << 13)
#define SETUP_TASK_FLAGS                                                       \
	(SETUP_COOP_TASKRUN | SETUP_SINGLE_ISSUER | SETUP_DEFER_TASKRUN)

/* The flags of the last io_uring_setup in the strace -X raw trace at
 * path (the job's ring: the engine probe's comes first); -1: none. */
static long last_setup_flags(const char *path)
{
	char line[2048];
	long flags = -1;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "io_uring_setup(");
		if (p && (p = strstr(p, "flags=")))
			flags = strtol(p + 6, NULL, 0);
	}
	fclose(f);
	return flags;
}

/* ring_setup=V sets up the ring V names (io_uring_setup's flags). */
static void test_ring_setup(void **state)
{
	static const struct {
		const char *value;
		unsigned flags;
	} cases[] = {
		{"defer_taskrun", SETUP_SINGLE_ISSUER | SETUP_DEFER_TASKRUN},
		{"coop_single", SETUP_SINGLE_ISSUER | SETUP_COOP_TASKRUN},
		{"coop_taskrun", SETUP_COOP_TASKRUN},
		{"single_issuer", SETUP_SINGLE_ISSUER},
		{"none", 0},
	};
	const char *dir = *state;
	char path[4096];

	tc_skip_without_tools();
	snprintf(path, sizeof(path), "%s/setup.trace", dir);
	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		int rc = tc_sh("cd '%s' && " TC_UNDER_STRACE "timeout 60 strace -X raw "
			       "-f -qq -o '%s' -e trace=io_uring_setup '%s' run "
			       "--name=j --filename=%s/data --direct=1 "
			       "--rw=randread --ioengine=io_uring --iodepth=4 "
			       "--number_ios=64 --ring_setup=%s >/dev/null "
			       "2>'%s/setup.err'",
			       dir, path, tc_iochar, dir, cases[c].value, dir);
		if (rc && tc_sh("grep -q 'refused that ring' '%s/setup.err'", dir) == 0) {
			print_message("  ring_setup=%s: this kernel refuses it (said so)\n",
				      cases[c].value);
			continue;
		}
		assert_int_equal(rc, 0);
		long flags = last_setup_flags(path);
		print_message("  ring_setup=%-14s io_uring_setup flags 0x%lx\n",
			      cases[c].value, flags);
		assert_true(flags >= 0);
		assert_int_equal((unsigned)flags & SETUP_TASK_FLAGS, cases[c].flags);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_fio_defaults, setup, tc_teardown),
	    cmocka_unit_test_setup_teardown(test_batch_submit_complete, setup,
					    tc_teardown),
	    cmocka_unit_test_setup_teardown(test_iodepth_low, setup, tc_teardown),
	    cmocka_unit_test_setup_teardown(test_poll, setup, tc_teardown),
	    cmocka_unit_test_setup_teardown(test_bad_values, setup, tc_teardown),
	    cmocka_unit_test_setup_teardown(test_ring_setup, setup, tc_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
