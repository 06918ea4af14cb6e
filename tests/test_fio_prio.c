/* test_fio_prio.c - fio's latency per I/O priority ("prios" in a
 * direction of its JSON) against fio 3.33 itself, the same job through
 * both, libaio and io_uring, at depth 4 over 1 MiB:
 *   - cmdprio_percentage=30, cmdprio_class=3: read's prios are the same
 *     (prioclass, prio) list in the same order as fio's (the job's own
 *     0/0 first), each entry fio's members (clat_ns with fio's keys), their
 *     N adding up to the direction's I/Os, the cmdprio share 15..45 %.
 *   - prioclass=2, prio=4 with cmdprio_class=3, cmdprio=1 on randrw:
 *     read's and write's lists as fio's (2/4, then 3/1).
 *   - cmdprio_bssplit with two classes of its own: fio's three entries in
 *     fio's order.
 *   - lat_percentiles=1: the entries carry lat_ns; json+: their bins.
 *   - unified_rw_reporting=both: mixed carries the merged list too;
 *     group_reporting over numjobs=2: one list of both clones' I/Os.
 *   - without cmdprio (prioclass alone, libaio): no prios, as fio.
 *   - normal output: a "clat prio 3/0" line exactly when fio prints one.
 * Every run: exit 0 and nothing on stderr in both.
 * And the priorities the I/Os carry:
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
 * SKIP when fio is missing, or (ioprio_set) strace is.
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

#include "fio_side.h"
#include "harness.h"

#define JOB "--name=j --filename=data --size=1m --iodepth=4 "

/* What a direction's prios say, as "C/L:KEY:KEYS;..." (KEY the latency
 * block's name, KEYS its sorted members), and the sum of their N. */
static void prios_of(json_object *dir, char *out, size_t len, uint64_t *n_sum)
{
	json_object *prios;
	out[0] = 0;
	*n_sum = 0;
	if (!json_object_object_get_ex(dir, "prios", &prios))
		return;
	for (size_t i = 0; i < json_object_array_length(prios); i++) {
		json_object *p = json_object_array_get_idx(prios, i), *lat = NULL;
		const char *key = json_object_object_get_ex(p, "lat_ns", &lat) ? "lat_ns" : "clat_ns";
		if (!lat)
			json_object_object_get_ex(p, "clat_ns", &lat);
		assert_non_null(lat);
		snprintf(out + strlen(out), len - strlen(out), "%s%llu/%llu:%s:", i ? ";" : "",
			 (unsigned long long)jget_u64(p, "prioclass"),
			 (unsigned long long)jget_u64(p, "prio"), key);
		static const char *const members[] = {"N", "bins", "max", "mean",
						      "min", "percentile", "stddev"};
		for (size_t m = 0; m < sizeof(members) / sizeof(members[0]); m++)
			if (json_object_object_get_ex(lat, members[m], NULL))
				snprintf(out + strlen(out), len - strlen(out), "%s,", members[m]);
		*n_sum += jget_u64(lat, "N");
	}
}

/* Run opts through both; for each direction in dirs (","-separated),
 * its prios must read the same in both and count every I/O; returns
 * iochar's description of the first (into first, len bytes). */
static void same_prios(const char *dir, const char *opts, const char *dirs, char *first,
		       size_t len)
{
	json_object *f, *i;
	char df[1024], di[1024], list[64];

	side_run_both_json(dir, opts, &f, &i);
	for (int t = 0; t < 2; t++) {
		char path[4200];
		snprintf(path, sizeof(path), "%s/%s/err.txt", dir, t ? "iochar" : "fio");
		char *err = file_slurp(path, NULL);
		assert_non_null(err);
		if (err[0])
			fail_msg("%s %s: stderr: %s", t ? "iochar" : "fio", opts, err);
		free(err);
	}
	snprintf(list, sizeof(list), "%s", dirs);
	first[0] = 0;
	for (char *save = NULL, *d = strtok_r(list, ",", &save); d; d = strtok_r(NULL, ",", &save)) {
		json_object *jf = json_object_array_get_idx(jget(f, "jobs"), 0);
		json_object *ji = json_object_array_get_idx(jget(i, "jobs"), 0);
		uint64_t nf, ni;
		prios_of(jget(jf, d), df, sizeof(df), &nf);
		prios_of(jget(ji, d), di, sizeof(di), &ni);
		if (strcmp(df, di))
			fail_msg("%s, %s.prios: fio %s, iochar %s", opts, d, df, di);
		char key[64];
		snprintf(key, sizeof(key), "%s.total_ios", d);
		if (df[0] && (nf != jget_u64(jf, key) || ni != jget_u64(ji, key)))
			fail_msg("%s, %s.prios: N sums fio %llu of %llu, iochar %llu of %llu", opts, d,
				 (unsigned long long)nf, (unsigned long long)jget_u64(jf, key),
				 (unsigned long long)ni, (unsigned long long)jget_u64(ji, key));
		if (!first[0])
			snprintf(first, len, "%s", di);
	}
	json_object_put(f);
	json_object_put(i);
}

static void test_percentage(void **state)
{
	static const char *const engines[] = {"libaio", "io_uring"};
	char opts[512], got[1024];
	side_need_fio();
	for (int e = 0; e < 2; e++) {
		snprintf(opts, sizeof(opts), JOB "--ioengine=%s --rw=randread --bs=4k "
			 "--cmdprio_percentage=30 --cmdprio_class=3", engines[e]);
		same_prios(*state, opts, "read,write", got, sizeof(got));
		expect_has(got, "0/0:clat_ns:");
		expect_has(got, ";3/0:clat_ns:");
		/* the share: iochar's own run, read again */
		json_object *i = side_json(*state, "iochar");
		json_object *p = jget(json_object_array_get_idx(jget(i, "jobs"), 0), "read.prios");
		double hi = (double)jget_u64(json_object_array_get_idx(p, 1), "clat_ns.N");
		if (hi < 0.15 * 256 || hi > 0.45 * 256)
			fail_msg("%s: %g of 256 I/Os at 3/0", engines[e], hi);
		json_object_put(i);
	}
}

static void test_job_prio_first(void **state)
{
	char got[1024];
	side_need_fio();
	same_prios(*state, JOB "--ioengine=libaio --rw=randrw --bs=4k --prioclass=2 --prio=4 "
		   "--cmdprio_percentage=50 --cmdprio_class=3 --cmdprio=1", "read,write", got,
		   sizeof(got));
	expect_has(got, "2/4:clat_ns:");
	expect_has(got, ";3/1:clat_ns:");
}

static void test_bssplit(void **state)
{
	char got[1024];
	side_need_fio();
	same_prios(*state, JOB "--ioengine=io_uring --rw=randread --bssplit=4k/50:16k/50 "
		   "--cmdprio_bssplit=4k/25/1/1:4k/25/3/2:16k/100/3/2", "read", got, sizeof(got));
	expect_has(got, "0/0:");
	expect_has(got, ";1/1:");
	expect_has(got, ";3/2:");
}

static void test_layouts(void **state)
{
	char got[1024];
	side_need_fio();
	same_prios(*state, JOB "--ioengine=libaio --rw=randread --bs=4k --cmdprio_percentage=30 "
		   "--cmdprio_class=3 --lat_percentiles=1", "read", got, sizeof(got));
	expect_has(got, "3/0:lat_ns:");
	same_prios(*state, JOB "--ioengine=libaio --rw=randread --bs=4k --cmdprio_percentage=30 "
		   "--cmdprio_class=3 --output-format=json+", "read", got, sizeof(got));
	expect_has(got, "3/0:clat_ns:N,bins,");
	same_prios(*state, JOB "--ioengine=libaio --rw=randrw --bs=4k --cmdprio_percentage=30 "
		   "--cmdprio_class=3 --unified_rw_reporting=both", "read,write,mixed", got,
		   sizeof(got));
	same_prios(*state, JOB "--ioengine=libaio --rw=randread --bs=4k --cmdprio_percentage=30 "
		   "--cmdprio_class=3 --numjobs=2 --group_reporting", "read", got, sizeof(got));
	expect_has(got, ";3/0:");
	same_prios(*state, JOB "--ioengine=libaio --rw=randread --bs=4k --prioclass=3", "read", got,
		   sizeof(got));
	assert_string_equal(got, "");
}

/* The normal output: fio's "clat prio C/L" lines, in both. */
static void test_normal(void **state)
{
	static const char *const opts =
	    JOB "--ioengine=libaio --rw=randread --bs=4k --cmdprio_percentage=30 "
		"--cmdprio_class=3 --output-format=normal";
	char cmd[8192], path[4300];
	side_need_fio();
	for (int t = 0; t < 2; t++) {
		bool fio = t == 0;
		snprintf(cmd, sizeof(cmd),
			 "mkdir -p '%s/n%d' && cd '%s/n%d' && timeout 60 %s%s %s > out.txt 2> err.txt",
			 (const char *)*state, t, (const char *)*state, t,
			 fio ? "fio" : iochar_path(), fio ? "" : " run", opts);
		assert_int_equal(system(cmd), 0);
		snprintf(path, sizeof(path), "%s/n%d/out.txt", (const char *)*state, t);
		char *out = file_slurp(path, NULL);
		assert_non_null(out);
		expect_has(out, "clat prio 0/0 (");
		expect_has(out, "clat prio 3/0 (");
		free(out);
		snprintf(path, sizeof(path), "%s/n%d/err.txt", (const char *)*state, t);
		char *err = file_slurp(path, NULL);
		assert_non_null(err);
		assert_string_equal(err, "");
		free(err);
	}
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

static void test_ioprio_set(void **state)
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

static void test_cmdprio_bssplit_log(void **state)
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

static void test_cmdprio_log(void **state)
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_percentage, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_job_prio_first, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_bssplit, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_layouts, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_normal, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_ioprio_set, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_cmdprio_log, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_cmdprio_bssplit_log, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
