/* test_fio_groups.c - how the jobs of one run are sequenced and grouped,
 * checked against real fio 3.33 on the same job files (psync on small
 * files in a /dev/shm directory): stonewall, new_group, wait_for,
 * startdelay (and its range), loops, numjobs and group_reporting. Per
 * case: the same jobs[] entries (jobname, groupid, exact I/O counts) in
 * fio's JSON and in iochar's fio layout; the order, from fio's
 * exec_prerun/exec_postrun time stamps (`date +%s%N` in fio's cwd, the
 * only per-job times fio 3.33 writes) and from iochar's workers[]
 * start_ns/end_ns; fio's "Run status group" lines and terse groupids.
 * fio's own examples (waitfor.fio, tiobench-example.fio) are used with
 * their sizes made small. SKIP when fio is not installed
 * (scripts/deps.sh) or fio's examples are not unpacked. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define FIO_EXAMPLES "/var/cache/iochar/fio-3.33/examples"
#define MS 1000000ll

static char dir[64];

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)flag, (void)f;
	return remove(p);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/dev/shm/iochar-groups-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static bool have_fio(void)
{
	return system("command -v fio >/dev/null 2>&1") == 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = calloc(1, 1 << 16);
	assert_non_null(buf);
	size_t n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void spit(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/* text with every "@FILE@" replaced by path; owned by the caller. */
static char *with_file(const char *text, const char *path)
{
	size_t len = strlen(text) + 1, plen = strlen(path);
	for (const char *p = text; (p = strstr(p, "@FILE@")); p++)
		len += plen;
	char *out = malloc(len), *o = out;
	assert_non_null(out);
	for (const char *p = text; *p;) {
		if (!strncmp(p, "@FILE@", 6)) {
			memcpy(o, path, plen);
			o += plen;
			p += 6;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

/* Run job text through fio in dir, with exec_prerun/exec_postrun time
 * stamps added to its [global] section, in format fmt; the output's path
 * is written to out. */
static void run_fio(const char *job, const char *fmt, char *out, size_t len)
{
	char path[128], data[128], cmd[1024];
	const char *stamps = "[global]\nexec_prerun=date +%s%N\nexec_postrun=date +%s%N\n";
	const char *g = strstr(job, "[global]\n");
	assert_non_null(g);
	snprintf(data, sizeof(data), "%s/fio.dat", dir);
	char *text = with_file(job, data);
	size_t n = strlen(text) + strlen(stamps) + 1;
	char *full = malloc(n);
	assert_non_null(full);
	snprintf(full, n, "%.*s%s%s", (int)(g - job), text, stamps,
		 text + (g - job) + strlen("[global]\n"));
	snprintf(path, sizeof(path), "%s/fio.fio", dir);
	spit(path, full);
	snprintf(out, len, "%s/fio.%s", dir, fmt);
	snprintf(cmd, sizeof(cmd),
		 "cd %s && fio --output-format=%s --output=%s fio.fio >/dev/null 2>&1",
		 dir, fmt, out);
	assert_int_equal(system(cmd), 0);
	free(full);
	free(text);
}

static json_object *fio_json(const char *job)
{
	char out[128];
	run_fio(job, "json", out, sizeof(out));
	json_object *o = json_object_from_file(out);
	assert_non_null(o);
	return o;
}

/* iochar run on job text (its data file beside fio's), stdout in po. */
static void run_ioc(struct proc_out *po, const char *job, const char *fmt)
{
	char path[128], data[128], f[64];
	snprintf(data, sizeof(data), "%s/ioc.dat", dir);
	char *text = with_file(job, data);
	snprintf(path, sizeof(path), "%s/ioc.fio", dir);
	spit(path, text);
	free(text);
	snprintf(f, sizeof(f), "--output-format=%s", fmt);
	run_iochar(po, dir, 0, ARGS("run", path, f));
	expect_exit(po, 0);
}

static json_object *ioc_json(const char *job)
{
	struct proc_out po;
	run_ioc(&po, job, "json");
	json_object *o = parse_json(&po);
	proc_out_free(&po);
	return o;
}

/* fio's time stamp of job name's last exec_prerun/exec_postrun, ns. */
static long long stamp(const char *name, const char *when)
{
	char path[192];
	snprintf(path, sizeof(path), "%s/%s.%s.txt", dir, name, when);
	char *t = slurp(path);
	if (!t)
		fail_msg("fio wrote no %s", path);
	long long v = atoll(t);
	free(t);
	assert_true(v > 0);
	return v;
}

/* The same jobs[] entries: names, groupids and exact I/O counts. fio
 * 3.33 ends its list with an empty entry (no jobname, groupid -1 as
 * unsigned) when group_reporting merged a job into the entry of the job
 * before it; that one is not compared. */
static void same_entries(json_object *f, json_object *i)
{
	json_object *fj = jget(f, "jobs"), *ij = jget(i, "jobs");
	size_t n = json_object_array_length(fj);
	json_object *tail = n ? json_object_array_get_idx(fj, n - 1) : NULL;
	if (tail && !json_object_object_get_ex(tail, "jobname", NULL))
		n--;
	if (json_object_array_length(ij) != n)
		fail_msg("fio reports %zu entries, iochar %zu", n,
			 json_object_array_length(ij));
	for (size_t k = 0; k < n; k++) {
		json_object *a = json_object_array_get_idx(fj, k);
		json_object *b = json_object_array_get_idx(ij, k);
		assert_string_equal(json_object_get_string(jget(a, "jobname")),
				    json_object_get_string(jget(b, "jobname")));
		assert_int_equal(jget_u64(a, "groupid"), jget_u64(b, "groupid"));
		assert_int_equal(jget_u64(a, "read.total_ios"), jget_u64(b, "read.total_ios"));
		assert_int_equal(jget_u64(a, "write.total_ios"), jget_u64(b, "write.total_ios"));
		/* the start-order options fio lists in "job options" */
		static const char *const keys[] = {"loops", "wait_for", "startdelay"};
		json_object *fo = jget(a, "job options"), *io = jget(b, "job options"), *v;
		for (unsigned q = 0; q < 3; q++) {
			if (!json_object_object_get_ex(fo, keys[q], &v))
				continue;
			json_object *iv;
			if (!json_object_object_get_ex(io, keys[q], &iv))
				fail_msg("iochar's job options lack %s", keys[q]);
			assert_string_equal(json_object_get_string(v), json_object_get_string(iv));
		}
	}
}

/* iochar's groups[]: one per fio groupid, each with the I/O fio's
 * entries of that group did, summed. */
static void same_groups(json_object *f, json_object *i)
{
	uint64_t ios[16][2] = {{0}};
	unsigned groups = 0;
	json_object *fj = jget(f, "jobs"), *v;
	for (size_t k = 0; k < json_object_array_length(fj); k++) {
		json_object *a = json_object_array_get_idx(fj, k);
		if (!json_object_object_get_ex(a, "jobname", &v))
			continue; /* fio's empty trailing entry */
		uint64_t g = jget_u64(a, "groupid");
		assert_true(g < 16);
		ios[g][0] += jget_u64(a, "read.total_ios");
		ios[g][1] += jget_u64(a, "write.total_ios");
		groups = g + 1 > groups ? (unsigned)g + 1 : groups;
	}
	json_object *ig = jget(i, "groups");
	assert_int_equal(json_object_array_length(ig), groups);
	for (unsigned g = 0; g < groups; g++) {
		json_object *x = json_object_array_get_idx(ig, g);
		assert_int_equal(jget_u64(x, "groupid"), g);
		assert_int_equal(jget_u64(x, "read.ios"), ios[g][0]);
		assert_int_equal(jget_u64(x, "write.ios"), ios[g][1]);
	}
}

/* iochar's workers of job name: the earliest start and latest end, ns
 * since the run's start. */
static void ioc_span(json_object *i, const char *name, long long *start, long long *end)
{
	json_object *w = jget(i, "workers");
	*start = -1;
	*end = -1;
	for (size_t k = 0; k < json_object_array_length(w); k++) {
		json_object *x = json_object_array_get_idx(w, k);
		if (strcmp(json_object_get_string(jget(x, "name")), name))
			continue;
		long long s = (long long)jget_u64(x, "start_ns");
		long long e = (long long)jget_u64(x, "end_ns");
		if (*start < 0 || s < *start)
			*start = s;
		if (e > *end)
			*end = e;
	}
	if (*start < 0)
		fail_msg("iochar has no worker of job %s", name);
}

/* Job later started only after job earlier ended, in both tools. */
static void after(json_object *i, const char *earlier, const char *later)
{
	long long es, ee, ls, le;
	assert_true(stamp(later, "prerun") >= stamp(earlier, "postrun"));
	ioc_span(i, earlier, &es, &ee);
	ioc_span(i, later, &ls, &le);
	if (ls < ee)
		fail_msg("iochar started %s at %lld ns, before %s ended at %lld ns",
			 later, ls, earlier, ee);
}

static const char seq_job[] =
	"[global]\nioengine=psync\nbs=4k\nsize=1m\nfilename=@FILE@\n"
	"[a]\nrw=write\nstonewall\n"     /* a first stonewall: still group 0 */
	"[b]\nrw=read\nstonewall\n"      /* group 1, after a */
	"[c]\nrw=read\nloops=3\nnew_group\n" /* group 2, beside b */
	"[d]\nrw=randread\nwait_for=c\nstartdelay=300ms-600ms\n"; /* group 2, after c */

static void test_stonewall_wait_for_loops(void **state)
{
	(void)state;
	if (!have_fio())
		skip();
	json_object *f = fio_json(seq_job), *i = ioc_json(seq_job);
	same_entries(f, i);
	same_groups(f, i);
	static const unsigned groups[] = {0, 1, 2, 2};
	for (unsigned k = 0; k < 4; k++)
		assert_int_equal(jget_u64(json_object_array_get_idx(jget(i, "jobs"), k),
					  "groupid"), groups[k]);
	/* loops=3 over 1m of 4k blocks: exactly three passes */
	assert_int_equal(jget_u64(json_object_array_get_idx(jget(i, "jobs"), 2),
				  "read.total_ios"), 3 * 256);
	after(i, "a", "b");
	after(i, "a", "c"); /* new_group alone does not wait, the stonewall before it did */
	after(i, "c", "d");
	/* startdelay counts from the run's start (fio: from its genesis) */
	long long s, e;
	ioc_span(i, "d", &s, &e);
	assert_true(s >= 300 * MS);
	assert_true(s <= 600 * MS + 500 * MS); /* drawn in the range; late by at most a look */
	assert_true(stamp("d", "prerun") - stamp("a", "prerun") >= 300 * MS - 50 * MS);
	json_object_put(f);
	json_object_put(i);
}

/* fio's start pass skips a job whose startdelay is not over, so a
 * stonewall behind it does not wait for it: b runs first, then a. */
static void test_delay_before_stonewall(void **state)
{
	static const char job[] =
		"[global]\nioengine=psync\nbs=4k\nsize=256k\nfilename=@FILE@\n"
		"[a]\nrw=read\nstartdelay=500ms\n"
		"[b]\nrw=read\nstonewall\n";
	(void)state;
	if (!have_fio())
		skip();
	json_object *f = fio_json(job), *i = ioc_json(job);
	same_entries(f, i);
	same_groups(f, i);
	after(i, "b", "a");
	long long s, e;
	ioc_span(i, "a", &s, &e);
	assert_true(s >= 500 * MS);
	json_object_put(f);
	json_object_put(i);
}

/* fio's examples/NAME with the substitutions that make it small and
 * local (pairs of from, to; NULL ends), or NULL when it is not there. */
static char *example(const char *name, const char *const *subst)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/%s", FIO_EXAMPLES, name);
	char *t = slurp(path);
	for (; t && subst[0]; subst += 2) {
		char *p = strstr(t, subst[0]);
		assert_non_null(p);
		size_t a = strlen(subst[0]), b = strlen(subst[1]);
		memmove(p + b, p + a, strlen(p + a) + 1);
		memcpy(p, subst[1], b);
	}
	return t;
}

/* examples/waitfor.fio: four groups of 4 clones chained by wait_for,
 * group_reporting: one entry per group, the clones' I/O summed. */
static void test_waitfor_example(void **state)
{
	static const char *const subst[] = {
		"threads=1\n", "ioengine=psync\n",
		"filename=/tmp/data\n", "filename=@FILE@\n",
		"filesize=128m\n", "size=1m\n",
		"runtime=10\n", "", "runtime=10\n", "",
		"runtime=10\n", "", "runtime=10\n", "", NULL,
	};
	(void)state;
	char *job = example("waitfor.fio", subst);
	if (!have_fio() || !job)
		skip();
	json_object *f = fio_json(job), *i = ioc_json(job);
	same_entries(f, i);
	same_groups(f, i);
	json_object *ij = jget(i, "jobs");
	assert_int_equal(json_object_array_length(ij), 4);
	/* 4 clones x 1m: 128k writes, then 4k random reads, ... */
	assert_int_equal(jget_u64(json_object_array_get_idx(ij, 0), "write.total_ios"), 4 * 8);
	assert_int_equal(jget_u64(json_object_array_get_idx(ij, 1), "read.total_ios"), 4 * 256);
	assert_int_equal(jget_u64(json_object_array_get_idx(ij, 2), "write.total_ios"), 4 * 256);
	after(i, "writers", "readers");
	after(i, "readers", "writers2");
	after(i, "writers2", "readers2");
	json_object_put(f);
	json_object_put(i);
	free(job);
}

/* Lines of text starting with prefix. */
static unsigned count_prefix(const char *text, const char *prefix)
{
	unsigned n = 0;
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		n += !strncmp(p, prefix, strlen(prefix));
	return n;
}

/* The groupid (4th field, one digit here) of each terse line, as a
 * string into ids. */
static void terse_groups(const char *text, char *ids, size_t len)
{
	size_t at = 0;
	for (const char *p = text; p && *p && at + 2 < len;) {
		if (!strncmp(p, "3;", 2)) {
			const char *q = p;
			for (int k = 0; k < 3 && q; k++)
				q = strchr(q, ';'), q = q ? q + 1 : NULL;
			assert_non_null(q);
			ids[at++] = *q;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	ids[at] = '\0';
}

/* examples/tiobench-example.fio: four jobs of 4 clones behind stonewalls,
 * without group_reporting: one entry per clone, four groups; the text's
 * group lines and the terse groupids as fio's. */
static void test_tiobench_example(void **state)
{
	static const char *const subst[] = {
		"direct=1\n", "ioengine=psync\nfilename=@FILE@\n",
		"size=512m\n", "size=256k\n",
		"bsrange=4k-4k\n", "bs=4k\n",
		"timeout=60\n", "", NULL,
	};
	char out[128];
	struct proc_out po;
	(void)state;
	char *job = example("tiobench-example.fio", subst);
	if (!have_fio() || !job)
		skip();
	json_object *f = fio_json(job), *i = ioc_json(job);
	same_entries(f, i);
	same_groups(f, i);
	assert_int_equal(json_object_array_length(jget(i, "jobs")), 16);
	after(i, "f1", "f2");
	after(i, "f2", "f3");
	after(i, "f3", "f4");
	json_object_put(f);
	json_object_put(i);
	/* the normal output: a "Run status group N" line per group */
	run_fio(job, "normal", out, sizeof(out));
	char *fn = slurp(out);
	assert_non_null(fn);
	run_ioc(&po, job, "normal");
	assert_int_equal(count_prefix(po.out, "Run status group "), 4);
	assert_int_equal(count_prefix(fn, "Run status group "), 4);
	expect_has(po.out, "Run status group 3 (all jobs):");
	expect_has(fn, "Run status group 3 (all jobs):");
	proc_out_free(&po);
	free(fn);
	/* terse: the groupid of each line */
	char fids[64], iids[64];
	run_fio(job, "terse", out, sizeof(out));
	fn = slurp(out);
	assert_non_null(fn);
	run_ioc(&po, job, "terse");
	terse_groups(fn, fids, sizeof(fids));
	terse_groups(po.out, iids, sizeof(iids));
	assert_string_equal(fids, "0000111122223333");
	assert_string_equal(iids, fids);
	proc_out_free(&po);
	free(fn);
	free(job);
}

/* group_reporting as fio's stat.c merges: a worker of a group_reporting
 * job joins the entry before it when that is of its group, even the last
 * clone of a job without group_reporting; a new group starts an entry. */
static void test_group_reporting_joins(void **state)
{
	static const char job[] =
		"[global]\nioengine=psync\nbs=4k\nsize=512k\nfilename=@FILE@\n"
		"[a]\nrw=write\nnumjobs=2\n"
		"[b]\nrw=read\nnumjobs=2\ngroup_reporting\n"
		"[c]\nrw=read\nnew_group\ngroup_reporting\n";
	(void)state;
	if (!have_fio())
		skip();
	json_object *f = fio_json(job), *i = ioc_json(job);
	same_entries(f, i);
	same_groups(f, i);
	json_object *ij = jget(i, "jobs");
	assert_int_equal(json_object_array_length(ij), 3);
	/* a's second clone and b's two: 128 writes and 2 x 128 reads */
	assert_int_equal(jget_u64(json_object_array_get_idx(ij, 1), "write.total_ios"), 128);
	assert_int_equal(jget_u64(json_object_array_get_idx(ij, 1), "read.total_ios"), 256);
	json_object_put(f);
	json_object_put(i);
}

/* A job waiting for a job not defined before it: fio refuses the file,
 * iochar too, with one line naming the job, exit 2, nothing written. */
static void test_wait_for_unknown(void **state)
{
	static const char job[] =
		"[global]\nioengine=psync\nbs=4k\nsize=256k\nfilename=@FILE@\n"
		"[x]\nrw=write\nwait_for=y\n"
		"[y]\nrw=write\n";
	char path[128], data[128], cmd[512];
	struct proc_out po;
	(void)state;
	if (!have_fio())
		skip();
	snprintf(data, sizeof(data), "%s/fio.dat", dir);
	char *text = with_file(job, data);
	snprintf(path, sizeof(path), "%s/bad.fio", dir);
	spit(path, text);
	free(text);
	snprintf(cmd, sizeof(cmd), "cd %s && fio bad.fio >/dev/null 2>&1", dir);
	assert_int_not_equal(system(cmd), 0);
	snprintf(data, sizeof(data), "%s/ioc.dat", dir);
	text = with_file(job, data);
	spit(path, text);
	free(text);
	run_iochar(&po, dir, 0, ARGS("run", path));
	expect_exit(&po, 2);
	expect_has(po.err, "job x: wait_for=y");
	assert_int_equal(count_lines(po.err), 1);
	assert_false(file_exists(data));
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_stonewall_wait_for_loops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_delay_before_stonewall, setup, teardown),
		cmocka_unit_test_setup_teardown(test_waitfor_example, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tiobench_example, setup, teardown),
		cmocka_unit_test_setup_teardown(test_group_reporting_joins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wait_for_unknown, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
