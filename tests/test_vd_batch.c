/* test_vd_batch.c - a RAID virtual drive hands the host's submission and
 * completion discipline (iodepth_batch_submit, iodepth_batch_complete_min
 * and _max) down to its member engine (issue 23): a RAID 0 VD over four
 * files asks the kernel for what fio asks when it runs the same job on
 * the four files directly (fio has no RAID; a 4k read inside a 64k strip
 * is one member I/O, so the two are the same I/O stream).
 *
 * Both run under `strace -f` and the calls are compared as
 * tests/test_fio_batch.c does: the most common number of I/Os per
 * submission (io_uring_enter's to_submit, io_submit's nr), of completions
 * waited for (min_complete, io_getevents' min_nr) and, for libaio, taken
 * at most (nr). Before, the VD submitted a whole depth at once and waited
 * for one completion at a time whatever the job said. SKIP without fio or
 * strace.
 */
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
#define MEMBER_MB 16
#define HMAX 65

struct disc {
	unsigned sub[HMAX], wait[HMAX], rmax[HMAX];
};

static void count(unsigned *h, unsigned v)
{
	h[v < HMAX ? v : HMAX - 1]++;
}

static unsigned mode(const unsigned *h, double *share)
{
	unsigned best = 0, all = 0;
	for (unsigned v = 0; v < HMAX; v++) {
		all += h[v];
		if (h[v] > h[best])
			best = v;
	}
	*share = all ? (double)h[best] / all : 0;
	return best;
}

static void parse_line(const char *line, struct disc *d)
{
	const char *p;
	unsigned a = 0, b = 0;

	if ((p = strstr(line, "io_uring_enter(")) &&
	    sscanf(p, "io_uring_enter(%*[^,], %u, %u", &a, &b) == 2) {
		if (a)
			count(d->sub, a);
		if (b)
			count(d->wait, b);
	} else if ((p = strstr(line, "io_submit(")) &&
		   sscanf(p, "io_submit(%*[^,], %u", &a) == 1) {
		count(d->sub, a);
	} else if ((p = strstr(line, "io_getevents(")) &&
		   sscanf(p, "io_getevents(%*[^,], %u, %u", &a, &b) == 2) {
		count(d->wait, a);
		count(d->rmax, b);
	}
}

/* opts (fio's words) with fio on the members, or iochar on a RAID 0 VD
 * over them, under strace; the calls into d. */
static void traced(const char *dir, bool vd, const char *opts, struct disc *d)
{
	char cmd[8192], members[2048], path[4200], line[1024];
	const char *tool = vd ? "vd" : "fio";

	snprintf(members, sizeof(members), "%s/m0:%s/m1:%s/m2:%s/m3", dir, dir, dir, dir);
	if (vd)
		snprintf(cmd, sizeof(cmd), "'%s' run --force --vd=raid0,strip=64k,members=%s",
			 tc_iochar, members);
	else
		snprintf(cmd, sizeof(cmd), "fio --output-format=json --thread --name=j "
			 "--filename=%s --size=%um", members, 4 * MEMBER_MB);
	memset(d, 0, sizeof(*d));
	int rc = tc_sh("cd '%s' && %stimeout 60 strace -f -qq -o '%s/%s.trace' "
		       "-e trace=io_uring_enter,io_submit,io_getevents %s --rw=randread "
		       "--bs=4k --direct=1 --norandommap --randrepeat=0 --number_ios=%u %s "
		       ">'%s/%s.out' 2>'%s/%s.err'",
		       dir, vd ? TC_UNDER_STRACE : "", dir, tool, cmd, NR_IOS, opts, dir,
		       tool, dir, tool);
	if (rc) {
		tc_sh("cat '%s/%s.err' >&2", dir, tool);
		fail_msg("%s %s: exit %d", tool, opts, rc);
	}
	snprintf(path, sizeof(path), "%s/%s.trace", dir, tool);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		parse_line(line, d);
	fclose(f);
}

static void same_mode(const char *what, const char *opts, const unsigned *hf,
		      const unsigned *hv, double min_share)
{
	double sf, sv;
	unsigned mf = mode(hf, &sf), mv = mode(hv, &sv);

	print_message("  %-60s %-9s fio %u (%.0f%%)  vd %u (%.0f%%)\n", opts, what, mf,
		      100 * sf, mv, 100 * sv);
	if (mf != mv || sf < min_share || sv < min_share)
		fail_msg("%s: %s: fio on the members mostly %u (%.0f%% of calls), "
			 "the VD %u (%.0f%%)", opts, what, mf, 100 * sf, mv, 100 * sv);
}

/* io_uring_enter's min_complete: how often fio finds a completion
 * already in the ring before it waits is timing (it then waits for 3 of
 * 4: in up to half the calls with two jobs on a loaded machine), so the
 * VD's usual wait must be one fio makes often (>= 20 % of its calls).
 * io_getevents' min_nr is the tool's alone and compared exactly. */
static void common_wait(const char *opts, const unsigned *hf, const unsigned *hv)
{
	double sv, all = 0;
	unsigned mv = mode(hv, &sv);

	for (unsigned i = 0; i < HMAX; i++)
		all += hf[i];
	double sf = all ? hf[mv] / all : 0;
	print_message("  %-60s %-9s vd %u (%.0f%%), fio waits so in %.0f%%\n", opts, "wait",
		      mv, 100 * sv, 100 * sf);
	if (sv < 0.8 || sf < 0.2)
		fail_msg("%s: wait: the VD mostly %u (%.0f%%), fio %.0f%% of its calls",
			 opts, mv, 100 * sv, 100 * sf);
}

static int setup(void **state)
{
	char path[4200];
	if (tc_setup(state))
		return -1;
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/m%d", (char *)*state, i);
		make_file(path, (uint64_t)MEMBER_MB << 20);
	}
	return 0;
}

/* Batches of 4 submitted, 4 waited for, 4 taken at most; one job and
 * two (each its own member ring). */
static void test_batch_through_vd(void **state)
{
	static const char *const cases[] = {
		"--ioengine=io_uring --iodepth=16",
		"--ioengine=libaio --iodepth=16",
		"--ioengine=io_uring --iodepth=16 --numjobs=2",
	};
	struct disc f, v;
	char opts[512];

	tc_skip_without_tools();
	for (unsigned c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		snprintf(opts, sizeof(opts), "%s --iodepth_batch_submit=4 "
			 "--iodepth_batch_complete_min=4 --iodepth_batch_complete_max=4",
			 cases[c]);
		traced(*state, false, opts, &f);
		traced(*state, true, opts, &v);
		same_mode("submit", cases[c], f.sub, v.sub, 0.8);
		if (strstr(cases[c], "io_uring"))
			common_wait(cases[c], f.wait, v.wait);
		else
			same_mode("wait", cases[c], f.wait, v.wait, 0.8);
		if (strstr(cases[c], "libaio"))
			same_mode("reap max", cases[c], f.rmax, v.rmax, 0.8);
	}
}

/* fio's defaults (a fio-style command line): one I/O per submission, as
 * fio on the members. */
static void test_fio_defaults_through_vd(void **state)
{
	struct disc f, v;
	const char *opts = "--ioengine=libaio --iodepth=8";

	tc_skip_without_tools();
	traced(*state, false, opts, &f);
	traced(*state, true, opts, &v);
	same_mode("submit", opts, f.sub, v.sub, 0.8);
	same_mode("reap max", opts, f.rmax, v.rmax, 0.8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_through_vd),
		cmocka_unit_test(test_fio_defaults_through_vd),
	};
	return cmocka_run_group_tests(tests, setup, tc_teardown);
}
