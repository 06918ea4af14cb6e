/* test_fio_misc.c - job options that blocked one fio example each
 * (issue 14, fix-opts), against fio 3.33 itself:
 *   - gtod_reduce (examples/null.fio): both run the same I/Os and report
 *     bandwidth and IOPS, and fio's layout has no latency (clat, lat N 0,
 *     no percentiles) and no bw/iops samples, as fio's.
 *   - exitall, exit_what (examples/exitwhat.fio): a short job's end stops
 *     a 10 s time-based one of its group in both (its runtime within
 *     0.5 s of the short one's, fio's likewise); exit_what=all stops the
 *     job behind a stonewall before it starts (0 I/Os in both),
 *     exit_what=stonewall lets it run its I/Os after (the same count).
 *   - fill_device (examples/surface-scan.fio) on an 8 MiB tmpfs of the
 *     test's own: both write until ENOSPC and end without error, the file
 *     as large, the same bytes and I/Os counted (fio counts the writes
 *     that failed, none of their bytes), psync and libaio at depth 4; a
 *     job that reads is refused in one line naming fill_device.
 *   - a bare write_bw_log / write_iops_log (examples/disk-zone-profile.fio):
 *     the same log files, named after each job, as fio's.
 *   - zonemode=strided, zonesize, zonerange, zoneskip (disk-zone-profile):
 *     the same set of offsets as fio's (its iops log with log_offset),
 *     wrapping past the file's end, a zone shorter and longer than
 *     zonesize, psync and libaio; zonesize without zonemode refused as
 *     fio refuses it, a random strided job refused (iochar strides
 *     sequential jobs only).
 *   - prio, prioclass: the same ioprio_set calls under strace (none when
 *     neither is set), and the same priority column in the lat/bw/iops
 *     logs (log_prio=1: 0x%04x; 0: whether it is real-time).
 *   - cmdprio_percentage, cmdprio_class, cmdprio on libaio and io_uring
 *     (examples/cmdprio-percentage.fio): in both lat logs, about that
 *     share of I/Os (12..28 % of 1024 for 20 %) carry the cmdprio value,
 *     the rest the job's prioclass, and nothing else; cmdprio_bssplit
 *     (examples/cmdprio-bssplit.fio's advanced form): of the 4k I/Os a
 *     quarter at 1/1 and the rest at 3/2, every 16k one at the job's
 *     prioclass/prio, in both (shares within 10 points of fio's).
 * SKIP when fio is missing, or (prio) strace is, or (fill_device) a tmpfs cannot be mounted.
 */
/* cmocka.h needs these first, in this order */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fio_side.h"
#include "harness.h"

/* The number at PATH of jobs[0] of doc. */
static double job0(json_object *doc, const char *path)
{
	json_object *jobs = jget(doc, "jobs");
	assert_non_null(jobs);
	return jget_double(json_object_array_get_idx(jobs, 0), path);
}

/* null.fio's job: the same I/Os; gtod_reduce leaves latency and samples
 * out of both reports, bandwidth and IOPS in. */
static void test_gtod_reduce(void **state)
{
	static const char *const zero[] = {
	    "read.clat_ns.N", "read.lat_ns.N", "read.slat_ns.N",
	    "read.bw_samples", "read.iops_samples", "read.bw_mean",
	    "latency_us.2", "latency_ns.2",
	};
	const char *dir = *state;
	json_object *f, *i;

	side_need_fio();
	side_run_both_json(dir, "--name=null --ioengine=null --size=16m --bs=4k "
		      "--rw=randread --norandommap --gtod_reduce=1", &f, &i);
	assert_int_equal(job0(f, "read.total_ios"), 4096);
	assert_int_equal(job0(i, "read.total_ios"), 4096);
	assert_true(job0(f, "read.iops") > 0 && job0(i, "read.iops") > 0);
	for (size_t k = 0; k < sizeof(zero) / sizeof(zero[0]); k++) {
		if (job0(f, zero[k]) != 0)
			fail_msg("fio's %s is %g", zero[k], job0(f, zero[k]));
		if (job0(i, zero[k]) != 0)
			fail_msg("iochar's %s is %g, fio's 0", zero[k], job0(i, zero[k]));
	}
	json_object_put(f);
	json_object_put(i);
}

/* The entry of jobs[] of doc named name. */
static json_object *entry(json_object *doc, const char *name)
{
	json_object *jobs = jget(doc, "jobs");
	for (size_t k = 0; jobs && k < json_object_array_length(jobs); k++) {
		json_object *e = json_object_array_get_idx(jobs, k), *n;
		if (json_object_object_get_ex(e, "jobname", &n) &&
		    !strcmp(json_object_get_string(n), name))
			return e;
	}
	fail_msg("no job %s", name);
	return NULL;
}

/* Write text to dir/name; the path into path (room for 4200). */
static void write_job(const char *dir, const char *name, const char *text,
		      char *path)
{
	snprintf(path, 4200, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* exitall, in a job file (fio's command line prints its job lines before
 * a later --output-format): the long job ends with the short one, and
 * the job after the stonewall runs or not as exit_what says, in both. */
static void test_exitall(void **state)
{
	static const struct {
		const char *what;
		unsigned next_ios;
	} cases[] = {{"group", 50}, {"stonewall", 50}, {"all", 0}};
	const char *dir = *state;
	char text[1024], path[4200];

	side_need_fio();
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		json_object *doc[2];
		snprintf(text, sizeof(text),
			 "[global]\nfilename=data\nsize=4m\nbs=4k\n"
			 "ioengine=psync\nexitall=1\n"
			 "[short]\nrw=read\nnumber_ios=100\nthinktime=2ms\n"
			 "exit_what=%s\n"
			 "[long]\nrw=randread\ntime_based\nruntime=10s\n"
			 "[next]\nstonewall\nrw=read\nnumber_ios=50\n",
			 cases[c].what);
		write_job(dir, "exit.fio", text, path);
		side_run_both_json(dir, path, &doc[0], &doc[1]);
		for (int t = 0; t < 2; t++) {
			const char *tool = t ? "iochar" : "fio";
			double s = jget_double(entry(doc[t], "short"), "job_runtime");
			double l = jget_double(entry(doc[t], "long"), "job_runtime");
			double n = jget_double(entry(doc[t], "next"), "read.total_ios");
			if (l > s + 500 || l < 100)
				fail_msg("%s, exit_what=%s: long ran %g ms, short %g ms",
					 tool, cases[c].what, l, s);
			if (n != cases[c].next_ios)
				fail_msg("%s, exit_what=%s: next did %g I/Os, not %u",
					 tool, cases[c].what, n, cases[c].next_ios);
			json_object_put(doc[t]);
		}
	}
}

/* A bare log key in [global]: each job's logs carry its own name. */
static void test_bare_log(void **state)
{
	const char *dir = *state;
	char path[4200], sub[4300];
	json_object *f, *i;

	side_need_fio();
	write_job(dir, "logs.fio",
		  "[global]\nfilename=data\nsize=256k\nbs=4k\n"
		  "write_bw_log\nwrite_iops_log\n"
		  "[first]\nrw=read\n[second]\nrw=write\n", path);
	side_run_both_json(dir, path, &f, &i);
	snprintf(sub, sizeof(sub), "%s/fio", dir);
	char *lf = side_listing(sub, ".log");
	snprintf(sub, sizeof(sub), "%s/iochar", dir);
	char *li = side_listing(sub, ".log");
	expect_has(lf, "first_bw.1.log");
	expect_has(lf, "second_iops.2.log");
	assert_string_equal(li, lf);
	free(lf);
	free(li);
	json_object_put(f);
	json_object_put(i);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The offsets (column 5) of dir/sub/z_iops.1.log, sorted, into *out
 * (malloc'd); how many. */
static size_t log_offsets(const char *dir, const char *sub, uint64_t **out)
{
	char path[4300];
	struct side_log l;
	snprintf(path, sizeof(path), "%s/%s/z_iops.1.log", dir, sub);
	assert_true(side_log_read(path, &l));
	assert_true(l.cols >= 5); /* fio 3.33 adds the priority */
	*out = calloc(l.n ? l.n : 1, sizeof(**out));
	assert_non_null(*out);
	for (size_t k = 0; k < l.n; k++)
		(*out)[k] = l.v[k][4];
	qsort(*out, l.n, sizeof(**out), cmp_u64);
	size_t n = l.n;
	side_log_free(&l);
	return n;
}

/* Strided zones: the offsets fio's run used, and no other. */
static void test_zones(void **state)
{
	static const char *const cases[] = {
	    "--rw=read --size=1m --zonesize=64k --zoneskip=192k",
	    "--rw=read --size=512k --zonesize=64k --zonerange=32k --zoneskip=100k",
	    "--rw=write --size=512k --zonesize=48k --zonerange=64k --zoneskip=16k",
	    "--rw=write --size=256k --zonesize=64k --zoneskip=128k "
	    "--ioengine=libaio --iodepth=4",
	};
	const char *dir = *state;
	char opts[512];
	int rf, ri;

	side_need_fio();
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		snprintf(opts, sizeof(opts), "--name=z --filename=data --filesize=1m "
			 "--bs=16k --zonemode=strided --write_iops_log=z --log_offset=1 %s",
			 cases[c]);
		side_run_both(dir, opts, &rf, &ri);
		if (rf || ri)
			fail_msg("%s: fio exit %d, iochar exit %d", opts, rf, ri);
		uint64_t *f, *i;
		size_t nf = log_offsets(dir, "fio", &f), ni = log_offsets(dir, "iochar", &i);
		assert_true(nf > 8);
		assert_int_equal(ni, nf);
		for (size_t k = 0; k < nf; k++)
			if (f[k] != i[k])
				fail_msg("%s: offset %zu: fio %llu, iochar %llu", opts, k,
					 (unsigned long long)f[k], (unsigned long long)i[k]);
		free(f);
		free(i);
	}
	/* fio refuses zonesize without zonemode; iochar too, and a random
	 * strided job of a skewed distribution (random ones: test_fio_zones) */
	assert_int_not_equal(side_run("fio", dir, "fio", "--name=z --filename=data "
				      "--size=1m --zonesize=64k"), 0);
	assert_int_equal(side_run("iochar", dir, "iochar", "--name=z --filename=data "
				  "--size=1m --zonesize=64k"), 2);
	assert_int_equal(side_run("iochar", dir, "iochar", "--name=z --filename=data "
				  "--size=1m --zonemode=strided --zonesize=64k --rw=randread "
				  "--random_distribution=zipf:1.2"), 2);
}

/* The ioprio_set calls tool made running opts in dir/sub, normalized
 * (no pid), one per line; malloc'd. */
static char *prio_calls(const char *dir, const char *sub, const char *tool,
			const char *opts)
{
	char cmd[8192], path[4300];
	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	mkdir(path, 0755);
	snprintf(cmd, sizeof(cmd),
		 /* LeakSanitizer cannot run under ptrace: leaks are checked
		  * by the untraced runs */
		 "cd '%s' && ASAN_OPTIONS=\"$ASAN_OPTIONS:detect_leaks=0\" "
		 "timeout 60 strace -f -qq -e trace=ioprio_set -e signal=none "
		 "-o trace %s%s %s >/dev/null 2>&1 && sed 's/^[0-9]* *//' trace > calls",
		 path, strcmp(tool, "fio") ? iochar_path() : "fio",
		 strcmp(tool, "fio") ? " run" : "", opts);
	if (system(cmd) != 0)
		fail_msg("%s under strace failed: %s", tool, opts);
	snprintf(path, sizeof(path), "%s/%s/calls", dir, sub);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *buf = calloc(1, 8192);
	assert_non_null(buf);
	size_t n = fread(buf, 1, 8191, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The last column of the first line of dir/sub/name. */
static void first_prio(const char *dir, const char *sub, const char *name,
		       char *out, size_t cap)
{
	char path[4300], line[256];
	snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, name);
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("no %s", path);
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	const char *c = strrchr(line, ',');
	c = c ? c + 2 : line;
	if (strlen(c) >= cap)
		fail_msg("%s: a long last column", path);
	memcpy(out, c, strlen(c) + 1);
}

static void test_prio(void **state)
{
	static const struct {
		const char *opts;
		unsigned calls; /* fio's: the test's own sanity check */
	} cases[] = {
	    {"--prioclass=2 --prio=5 --log_prio=1", 1},
	    {"--prio=3 --log_prio=1", 1},
	    {"--prioclass=1 --prio=4", 1},
	    {"--log_prio=1", 0},
	};
	static const char *const logs[] = {"l_lat.1.log", "l_clat.1.log", "b_bw.1.log", "i_iops.1.log"};
	const char *dir = *state;
	char opts[512];

	side_need_fio();
	if (system("command -v strace >/dev/null 2>&1")) {
		print_message("SKIP: strace is not installed\n");
		skip();
	}
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		snprintf(opts, sizeof(opts), "--name=p --filename=data --size=64k "
			 "--ioengine=libaio --write_lat_log=l --write_bw_log=b "
			 "--write_iops_log=i %s", cases[c].opts);
		char *f = prio_calls(dir, "fio", "fio", opts);
		char *i = prio_calls(dir, "iochar", "iochar", opts);
		assert_int_equal(count_lines(f), cases[c].calls);
		assert_string_equal(i, f);
		free(f);
		free(i);
		for (size_t k = 0; k < sizeof(logs) / sizeof(logs[0]); k++) {
			char pf[64], pi[64];
			first_prio(dir, "fio", logs[k], pf, sizeof(pf));
			first_prio(dir, "iochar", logs[k], pi, sizeof(pi));
			if (strcmp(pf, pi))
				fail_msg("%s: %s: priority fio %s, iochar %s", opts,
					 logs[k], pf, pi);
		}
	}
}

/* Lines of dir/sub/l_lat.1.log whose priority is want, and all lines. */
static unsigned count_prio(const char *dir, const char *sub, unsigned want,
			   unsigned *all)
{
	char path[4300];
	snprintf(path, sizeof(path), "%s/%s/l_lat.1.log", dir, sub);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char line[256];
	unsigned n = 0, hit = 0;
	while (fgets(line, sizeof(line), f) && n < 100000) {
		const char *c = strrchr(line, ',');
		n++;
		if (c && strtoul(c + 1, NULL, 16) == want)
			hit++;
	}
	fclose(f);
	*all = n;
	return hit;
}

/* Of dir/sub/l_lat.1.log's lines of block size bs, how many have
 * priority prio; all of that size into *all. */
static unsigned count_bs_prio(const char *dir, const char *sub, unsigned bs,
			      unsigned prio, unsigned *all)
{
	char path[4300], line[256];
	unsigned n = 0, hit = 0;
	snprintf(path, sizeof(path), "%s/%s/l_lat.1.log", dir, sub);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) && n < 100000) {
		unsigned long t, v, d, b;
		unsigned p;
		if (sscanf(line, "%lu, %lu, %lu, %lu, %x", &t, &v, &d, &b, &p) != 5 || b != bs)
			continue;
		n++;
		hit += p == prio;
	}
	fclose(f);
	*all = n;
	return hit;
}

static void test_cmdprio_bssplit(void **state)
{
	static const struct {
		unsigned bs, prio, pct;
	} want[] = {{4096, 0x2001, 25}, {4096, 0x6002, 75}, {16384, 0x4007, 100}};
	const char *dir = *state;
	int rf, ri;

	side_need_fio();
	side_run_both(dir, "--name=p --filename=data --size=8m --rw=randread "
		      "--ioengine=libaio --iodepth=8 --bssplit=4k/40:16k/60 "
		      "--cmdprio_bssplit=4k/25/1/1:4k/75/3/2:16k/0 --prioclass=2 "
		      "--prio=7 --write_lat_log=l --log_prio=1", &rf, &ri);
	if (rf || ri)
		fail_msg("fio exit %d, iochar exit %d", rf, ri);
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		double share[2];
		for (int t = 0; t < 2; t++) {
			unsigned all, hit = count_bs_prio(dir, t ? "iochar" : "fio",
							  want[k].bs, want[k].prio, &all);
			assert_true(all > 100);
			share[t] = 100.0 * hit / all;
			if (share[t] < want[k].pct - 10.0 || share[t] > want[k].pct + 10.0)
				fail_msg("%s: %u-byte I/Os at 0x%04x: %.0f %%, not about %u %%",
					 t ? "iochar" : "fio", want[k].bs, want[k].prio,
					 share[t], want[k].pct);
		}
	}
}

static void test_cmdprio(void **state)
{
	static const char *const engines[] = {"libaio", "io_uring"};
	const char *dir = *state;
	char opts[512];
	int rf, ri;

	side_need_fio();
	for (size_t e = 0; e < 2; e++) {
		snprintf(opts, sizeof(opts), "--name=p --filename=data --size=4m "
			 "--bs=4k --rw=randread --ioengine=%s --iodepth=8 "
			 "--prioclass=3 --cmdprio_percentage=20 --cmdprio_class=1 "
			 "--cmdprio=0 --write_lat_log=l --log_prio=1", engines[e]);
		side_run_both(dir, opts, &rf, &ri);
		if (rf || ri)
			fail_msg("%s: fio exit %d, iochar exit %d", engines[e], rf, ri);
		for (int t = 0; t < 2; t++) {
			const char *sub = t ? "iochar" : "fio";
			unsigned all, all2;
			unsigned rt = count_prio(dir, sub, 0x2000, &all);
			unsigned idle = count_prio(dir, sub, 0x6000, &all2);
			assert_int_equal(all, 1024);
			if (rt < 123 || rt > 287)
				fail_msg("%s, %s: %u of %u I/Os at cmdprio's priority",
					 engines[e], sub, rt, all);
			if (rt + idle != all)
				fail_msg("%s, %s: %u I/Os at neither priority", engines[e],
					 sub, all - rt - idle);
		}
	}
}

struct fill_fixture {
	struct scratch sc; /* first: scratch_setup/teardown serve it */
};

static int fill_setup(void **state)
{
	return scratch_setup(state, sizeof(struct fill_fixture));
}

/* Run tool with opts in mnt (the only thing there), its JSON to out
 * outside; the file it wrote's size into *size, then removed. The exit
 * status. */
static int fill_run(const char *tool, const char *mnt, const char *out,
		    const char *opts, off_t *size)
{
	char cmd[8192], path[4300];
	struct stat st;

	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && timeout 60 %s%s --name=w --filename=d.dat %s "
		 "--output-format=json > '%s' 2>/dev/null", mnt,
		 strcmp(tool, "fio") ? iochar_path() : "fio",
		 strcmp(tool, "fio") ? " run" : "", opts, out);
	int rc = system(cmd);
	snprintf(path, sizeof(path), "%s/d.dat", mnt);
	*size = stat(path, &st) ? -1 : st.st_size;
	unlink(path);
	return rc == -1 ? -1 : WEXITSTATUS(rc);
}

/* fill_device on a small tmpfs: both fill it, end well and count alike. */
static void test_fill_device(void **state)
{
	static const char *const jobs[] = {
	    "--rw=write --bs=64k --fill_device=1",
	    "--rw=write --bs=64k --fill_fs=1 --ioengine=libaio --iodepth=4",
	};
	struct fill_fixture *f = *state;
	char out[2][4300];
	off_t size[2];

	side_need_fio();
	if (!is_root() || !scratch_mount(&f->sc, "mnt", "tmpfs", "tmpfs", "size=8m")) {
		print_message("SKIP: cannot mount a tmpfs (needs root)\n");
		skip();
	}
	for (size_t k = 0; k < sizeof(jobs) / sizeof(jobs[0]); k++) {
		json_object *doc[2];
		for (int t = 0; t < 2; t++) {
			snprintf(out[t], sizeof(out[t]), "%s/%s.json", f->sc.dir, t ? "ioc" : "fio");
			int rc = fill_run(t ? "iochar" : "fio", f->sc.mnt, out[t], jobs[k], &size[t]);
			if (rc)
				fail_msg("%s: %s exit %d", jobs[k], t ? "iochar" : "fio", rc);
			doc[t] = json_object_from_file(out[t]);
			assert_non_null(doc[t]);
		}
		assert_int_equal(size[0], 8 << 20);
		assert_int_equal(size[1], size[0]);
		static const char *const same[] = {"error", "write.io_bytes", "write.total_ios"};
		for (size_t m = 0; m < 3; m++)
			if (job0(doc[0], same[m]) != job0(doc[1], same[m]))
				fail_msg("%s: %s fio %g, iochar %g", jobs[k], same[m],
					 job0(doc[0], same[m]), job0(doc[1], same[m]));
		assert_int_equal(job0(doc[1], "write.io_bytes"), 8 << 20);
		json_object_put(doc[0]);
		json_object_put(doc[1]);
	}
	/* a read job: refused, one line naming the option, nothing made */
	snprintf(out[1], sizeof(out[1]), "%s/read.json", f->sc.dir);
	assert_int_equal(fill_run("iochar", f->sc.mnt, out[1],
				  "--rw=read --size=1m --fill_device=1", &size[1]), 2);
	assert_int_equal(size[1], -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_gtod_reduce, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_exitall, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_fill_device, fill_setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_bare_log, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_zones, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_prio, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_cmdprio, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_cmdprio_bssplit, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
