/* test_fio_trim.c - fio 3.33's trims (rw=trim, randtrim, trimwrite,
 * randtrimwrite) and iochar's do the same, checked against fio itself in
 * the same test:
 *   - on a loop device this test attaches (over a /dev/shm file: loop
 *     discards), filled with a pattern before each tool's run: the same
 *     jobs (psync, then libaio and io_uring at depth 4; bs=R,W,T's trim
 *     size, T or as fio fills it in) give the same
 *     total_ios and io_bytes per direction in both JSON documents, and
 *     leave the same map of zeroed 4 KiB blocks (trimmed ranges read back
 *     as zeros; trimwrite's are written again), which is not vacuous:
 *     the trimmed region is zero, the rest still holds the pattern; fio's
 *     iops log (log_offset=1) has the same lines, trims as ddir 2; with a
 *     filesystem on it, the destructive-write guard refuses a trim;
 *     trimwrite's number_ios and loops count as fio's;
 *     randtrimwrite with an offset, where fio 3.33 writes past the region
 *     and stops, writes each trimmed block in iochar, announced at start;
 *   - ioengine=falloc, rw=randtrim on a regular file (fio's
 *     examples/falloc.fio's punch-hole job): the same counts and the same
 *     bytes of the file afterwards (the punched region zero, its blocks
 *     freed); the text shows a trim line and a TRIM group line in both;
 *     iochar's own JSON members and CSV rows carry the trims;
 *   - psync on a regular file: BLKDISCARD fails with ENOTTY, and both
 *     end the job with error 25 and exit 1, the failed trim counted as
 *     one I/O of no bytes;
 *   - refusals: --readonly refuses a trim job (fio fails, iochar exits 2
 *     with one line naming rw=trim), the file unchanged; trims with verify
 *     are refused with exit 2 before anything is touched, and so are
 *     trimwrite with bs=R,W,T where T is not W (randtrimwrite writes
 *     the T bytes it trimmed, as fio), and trims
 *     on a RAID VD (--vd), its members not created.
 * SKIP without fio, or (the loop device) without root. */
/* cmocka.h needs these first, in this order */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#define _GNU_SOURCE
#include <fcntl.h>
#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fio_side.h"
#include "harness.h"


static char *slurp(const char *path, size_t *len);

#define DEV_SIZE (4u << 20)
#define BLK 4096u
#define NR_BLK (DEV_SIZE / BLK)

/* Write make_file's pattern over the first len bytes of path. */
static void fill_pattern(const char *path, uint64_t len)
{
	static char buf[65536];
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 7 + 1);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	for (uint64_t off = 0; off < len; off += sizeof(buf))
		assert_int_equal(pwrite(fd, buf, sizeof(buf), (off_t)off), (ssize_t)sizeof(buf));
	assert_int_equal(fsync(fd), 0);
	close(fd);
}

/* One flag per 4 KiB block of path's first len bytes: all zero. */
static void zero_map(const char *path, uint64_t len, bool *map)
{
	static char buf[BLK];
	static const char zero[BLK];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	for (uint64_t b = 0; b < len / BLK; b++) {
		assert_int_equal(pread(fd, buf, BLK, (off_t)(b * BLK)), (ssize_t)BLK);
		map[b] = memcmp(buf, zero, BLK) == 0;
	}
	close(fd);
}

/* jobs[0].<d>.<key> of doc. */
static int64_t job_num(json_object *doc, const char *d, const char *key)
{
	json_object *jobs, *dd, *v;
	assert_true(json_object_object_get_ex(doc, "jobs", &jobs));
	json_object *j = json_object_array_get_idx(jobs, 0);
	assert_non_null(j);
	if (!d)
		return json_object_object_get_ex(j, key, &v) ? json_object_get_int64(v) : -1;
	assert_true(json_object_object_get_ex(j, d, &dd));
	assert_true(json_object_object_get_ex(dd, key, &v));
	return json_object_get_int64(v);
}

/* Both documents count the same I/Os and bytes in every direction; the
 * trims total want_trim bytes. */
static void same_counts(json_object *f, json_object *i, const char *what,
			int64_t want_trim)
{
	static const char *const dirs[] = {"read", "write", "trim"};
	for (int d = 0; d < 3; d++) {
		int64_t fn = job_num(f, dirs[d], "total_ios"), in = job_num(i, dirs[d], "total_ios");
		int64_t fb = job_num(f, dirs[d], "io_bytes"), ib = job_num(i, dirs[d], "io_bytes");
		if (fn != in || fb != ib)
			fail_msg("%s %s: fio %lld I/Os %lld bytes, iochar %lld I/Os %lld bytes",
				 what, dirs[d], (long long)fn, (long long)fb,
				 (long long)in, (long long)ib);
	}
	assert_int_equal(job_num(f, "trim", "io_bytes"), want_trim);
}

/* Run opts with tool in dir/sub on a target filled with the pattern
 * first; its document, exit 0 required. */
static json_object *run_filled(const char *tool, const char *dir, const char *sub,
			       const char *target, const char *opts)
{
	fill_pattern(target, DEV_SIZE);
	int rc = side_run(tool, dir, sub, opts);
	if (rc != 0)
		fail_msg("%s exited %d: see %s/%s/err.txt", tool, rc, dir, sub);
	json_object *o = side_json(dir, sub);
	assert_non_null(o);
	return o;
}

struct loop_case {
	const char *rw, *engine;
	unsigned depth;
	bool writes; /* trimwrite: the trimmed blocks written again */
	unsigned off_mib; /* the region's start */
	const char *bs;   /* NULL: 64k */
	unsigned trims;   /* how many (0: 16) */
};

static void loop_one(const char *dir, const char *dev, const struct loop_case *c)
{
	char opts[1024], sub[64];
	static bool fmap[NR_BLK], imap[NR_BLK];
	/* 1 MiB in 64 KiB trims: blocks 256 * off_mib on */
	snprintf(opts, sizeof(opts),
		 "--name=t --filename=%s --rw=%s --bs=%s --size=1m --offset=%um "
		 "--ioengine=%s --iodepth=%u", dev, c->rw, c->bs ? c->bs : "64k",
		 c->off_mib, c->engine, c->depth);
	snprintf(sub, sizeof(sub), "fio-%s-%s", c->rw, c->engine);
	json_object *f = run_filled("fio", dir, sub, dev, opts);
	zero_map(dev, DEV_SIZE, fmap);
	snprintf(sub, sizeof(sub), "ioc-%s-%s", c->rw, c->engine);
	json_object *i = run_filled("iochar", dir, sub, dev, opts);
	zero_map(dev, DEV_SIZE, imap);
	char what[128];
	snprintf(what, sizeof(what), "rw=%s ioengine=%s bs=%s", c->rw, c->engine,
		 c->bs ? c->bs : "64k");
	same_counts(f, i, what, 1 << 20);
	assert_int_equal(job_num(i, "trim", "total_ios"), c->trims ? c->trims : 16);
	for (unsigned b = 0; b < NR_BLK; b++) {
		if (fmap[b] != imap[b])
			fail_msg("%s: block %u zero in %s only", what, b,
				 fmap[b] ? "fio's" : "iochar's");
		unsigned lo = 256 * c->off_mib;
		bool trimmed = b >= lo && b < lo + 256 && !c->writes;
		if (imap[b] != trimmed)
			fail_msg("%s: block %u is %szero", what, b, imap[b] ? "" : "not ");
	}
	json_object_put(f);
	json_object_put(i);
}

/* (ddir, bs, offset) of a log line, for sorting */
static int cmp_line(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;
	for (int c = 2; c < 5; c++)
		if (x[c] != y[c])
			return x[c] < y[c] ? -1 : 1;
	return 0;
}

/* fio's iops log of trimwrite (log_offset=1: a line per I/O): the same
 * lines in both, by direction (2: trims), size and offset. */
static void loop_logs(const char *dir, const char *dev)
{
	char opts[1024], sub[16], path[4200];
	struct side_log l[2];
	for (int k = 0; k < 2; k++) {
		snprintf(opts, sizeof(opts),
			 "--name=t --filename=%s --rw=trimwrite --bs=64k --size=512k "
			 "--write_iops_log=x --log_offset=1", dev);
		snprintf(sub, sizeof(sub), "%s-log", k ? "ioc" : "fio");
		json_object_put(run_filled(k ? "iochar" : "fio", dir, sub, dev, opts));
		snprintf(path, sizeof(path), "%s/%s/x_iops.1.log", dir, sub);
		assert_true(side_log_read(path, &l[k]));
		assert_true(l[k].cols >= 5);
		qsort(l[k].v, l[k].n, sizeof(l[k].v[0]), cmp_line);
	}
	assert_int_equal(l[0].n, 16); /* 8 trims, 8 writes */
	assert_int_equal(l[0].n, l[1].n);
	for (size_t i = 0; i < l[0].n; i++)
		for (int c = 2; c < 5; c++)
			if (l[0].v[i][c] != l[1].v[i][c])
				fail_msg("iops log line %zu column %d: fio %llu, iochar %llu", i, c,
					 (unsigned long long)l[0].v[i][c], (unsigned long long)l[1].v[i][c]);
	assert_int_equal(l[1].v[0][2], 1);  /* writes first (ddir 1) ... */
	assert_int_equal(l[1].v[15][2], 2); /* ... then the trims */
	side_log_free(&l[0]);
	side_log_free(&l[1]);
}

/* trimwrite's limits, as fio counts them: number_ios counts the trims
 * (each then written; io_size alike), loops repeats both. */
static void trimwrite_limits(const char *dir, const char *dev)
{
	static const char *const extra[] = {"--number_ios=8", "--loops=2"};
	static const int64_t want[] = {8, 32};
	char opts[1024], sub[32];
	for (int k = 0; k < 2; k++) {
		snprintf(opts, sizeof(opts), "--name=t --filename=%s --rw=trimwrite "
			 "--bs=64k --size=1m %s", dev, extra[k]);
		snprintf(sub, sizeof(sub), "fio-lim%d", k);
		json_object *f = run_filled("fio", dir, sub, dev, opts);
		snprintf(sub, sizeof(sub), "ioc-lim%d", k);
		json_object *i = run_filled("iochar", dir, sub, dev, opts);
		same_counts(f, i, extra[k], want[k] << 16);
		assert_int_equal(job_num(i, "write", "total_ios"), want[k]);
		json_object_put(f);
		json_object_put(i);
	}
}

/* randtrimwrite with an offset: fio 3.33 writes past the region and
 * stops after one trim (no writes); iochar writes each trimmed block, and
 * says so at run start. */
static void randtrimwrite_offset(const char *dir, const char *dev)
{
	char opts[1024];
	static bool map[NR_BLK];
	snprintf(opts, sizeof(opts), "--name=t --filename=%s --rw=randtrimwrite "
		 "--bs=64k --size=1m --offset=1m", dev);
	json_object *f = run_filled("fio", dir, "fio-rtw-off", dev, opts);
	assert_int_equal(job_num(f, "write", "total_ios"), 0); /* fio's */
	json_object *i = run_filled("iochar", dir, "ioc-rtw-off", dev, opts);
	assert_int_equal(job_num(i, "trim", "total_ios"), 16);
	assert_int_equal(job_num(i, "write", "total_ios"), 16);
	zero_map(dev, DEV_SIZE, map);
	for (unsigned b = 0; b < NR_BLK; b++)
		assert_false(map[b]);
	/* said in the JSON; stderr as silent as fio's */
	expect_note(i, "differs from fio here: rw=randtrimwrite with an offset");
	char path[4200];
	size_t n;
	snprintf(path, sizeof(path), "%s/ioc-rtw-off/err.txt", dir);
	char *t = slurp(path, &n);
	if (n)
		fail_msg("iochar's stderr, where fio is silent: %s", t);
	free(t);
	json_object_put(f);
	json_object_put(i);
}

/* The destructive-write guard covers trims: a device with a filesystem
 * is refused without --force, its bytes unchanged. */
static void guard_refuses(const char *dir, const char *dev)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "mkfs.ext4 -q -F '%s' >/dev/null 2>&1", dev);
	if (system(cmd) != 0) {
		print_message("note: no mkfs.ext4, the guard's trim case not run\n");
		return;
	}
	uint64_t h = file_hash(dev);
	char f[128];
	snprintf(f, sizeof(f), "--filename=%s", dev);
	struct proc_out po;
	run_iochar(&po, dir, 0, ARGS("run", "--name=t", f, "--rw=trim", "--bs=64k", "--size=1m"));
	expect_exit(&po, 2);
	expect_has(po.err, "found an ext4 filesystem");
	assert_int_equal(count_lines(po.err), 1);
	proc_out_free(&po);
	assert_int_equal(file_hash(dev), h);
}

static void test_loop_device(void **state)
{
	struct scratch *s = *state;
	side_need_fio();
	if (!is_root()) {
		print_message("SKIP: attaching a loop device needs root\n");
		skip();
	}
	char backing[128];
	snprintf(backing, sizeof(backing), "/dev/shm/iochar-trim-%d.img", (int)getpid());
	bool ok = loop_attach(backing, DEV_SIZE, 512, s->dev, sizeof(s->dev));
	unlink(backing); /* the loop device holds it */
	if (!ok)
		skip();
	/* randtrimwrite at offset 0 only: fio 3.33 writes its blocks at
	 * offset + the trim's offset (io_u.c get_next_block), past the
	 * region, and ends the job after one trim (docs/fio-compat.md) */
	static const struct loop_case cases[] = {
		{"trim", "psync", 1, false, 1, NULL, 0},
		{"randtrim", "psync", 1, false, 1, NULL, 0},
		{"trimwrite", "psync", 1, true, 1, NULL, 0},
		{"randtrimwrite", "psync", 1, true, 0, NULL, 0},
		{"randtrim", "libaio", 4, false, 1, NULL, 0},
		{"trimwrite", "io_uring", 4, true, 2, NULL, 0},
		/* bs=R,W,T: trims of T; "R,W," leaves T fio's default, 4k */
		{"trim", "psync", 1, false, 1, "8k,32k,64k", 16},
		{"trim", "psync", 1, false, 2, "16k,32k,", 256},
		/* randtrimwrite writes what it trimmed, T bytes (fio's
		 * t/jobs/t0023.fio); without the random map, whose T other
		 * than W fio ends early (docs/fio-compat.md) */
		{"randtrimwrite", "psync", 1, true, 0,
		 "16k,16k,64k --norandommap=1", 0},
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		loop_one(s->dir, s->dev, &cases[k]);
	trimwrite_limits(s->dir, s->dev);
	randtrimwrite_offset(s->dir, s->dev);
	loop_logs(s->dir, s->dev);
	guard_refuses(s->dir, s->dev);
}

/* dir/sub/out.json from its first '{': fio prints a job's error line
 * ("fio: pid=...") on stdout too, before the document. */
static json_object *json_after_noise(const char *dir, const char *sub)
{
	char path[4200];
	size_t n;
	snprintf(path, sizeof(path), "%s/%s/out.json", dir, sub);
	char *t = slurp(path, &n);
	t[n] = '\0';
	char *brace = strchr(t, '{');
	assert_non_null(brace);
	json_object *o = json_tokener_parse(brace);
	free(t);
	assert_non_null(o);
	return o;
}

/* path's bytes (file_slurp), which must be there. */
static char *slurp(const char *path, size_t *len)
{
	char *b = file_slurp(path, len);
	assert_non_null(b);
	return b;
}

static void test_falloc_punch(void **state)
{
	struct scratch *s = *state;
	side_need_fio();
	char opts[8800], ff[4200], fi[4200];
	snprintf(ff, sizeof(ff), "%s/fio.dat", s->dir);
	snprintf(fi, sizeof(fi), "%s/ioc.dat", s->dir);
	make_file(ff, DEV_SIZE);
	make_file(fi, DEV_SIZE);
	struct stat s0;
	assert_int_equal(stat(fi, &s0), 0);
	/* falloc.fio's punch-hole job, bounded by size */
	const char *job = "--name=punch --ioengine=falloc --rw=randtrim --bs=4k "
			  "--size=1m --offset=2m --iodepth=1";
	snprintf(opts, sizeof(opts), "%s --filename=%s", job, ff);
	int rf = side_run("fio", s->dir, "fio", opts);
	snprintf(opts, sizeof(opts), "%s --filename=%s --force", job, fi);
	int ri = side_run("iochar", s->dir, "iochar", opts);
	assert_int_equal(rf, 0);
	assert_int_equal(ri, 0);
	json_object *f = side_json(s->dir, "fio"), *i = side_json(s->dir, "iochar");
	assert_non_null(f);
	assert_non_null(i);
	same_counts(f, i, "falloc randtrim", 1 << 20);
	/* iochar's own members: trim beside read and write */
	assert_int_equal(jget_u64(i, "trim.ios"), 256);
	assert_int_equal(jget_u64(i, "trim.bytes"), 1 << 20);
	assert_int_equal(jget_u64(i, "total.ios"), 256);
	assert_int_equal(jget_u64(i, "write.ios"), 0);
	size_t lf, li;
	char *bf = slurp(ff, &lf), *bi = slurp(fi, &li);
	assert_int_equal(lf, DEV_SIZE);
	assert_int_equal(li, DEV_SIZE);
	assert_memory_equal(bf, bi, DEV_SIZE);
	static const char zero[1 << 20];
	assert_memory_equal(bi + (2 << 20), zero, 1 << 20); /* the holes */
	assert_memory_not_equal(bi + (1 << 20), zero, 1 << 20);
	struct stat sf, si;
	assert_int_equal(stat(ff, &sf), 0);
	assert_int_equal(stat(fi, &si), 0);
	assert_int_equal(sf.st_blocks, si.st_blocks);
	/* blocks were freed (how many the filesystem keeps around a hole
	 * is its own: once more than 3 of 4 MiB in CI, the same in both) */
	assert_true(si.st_blocks < s0.st_blocks);
	free(bf);
	free(bi);
	json_object_put(f);
	json_object_put(i);

	/* the text: a trim line and a TRIM group line in both, no read or
	 * write line */
	for (int k = 0; k < 2; k++) {
		char cmd[9000], out[4300];
		snprintf(out, sizeof(out), "%s/%s.txt", s->dir, k ? "ioc" : "fio");
		/* paced: a run of 0 ms has no group line in iochar (fio
		 * rounds it up to 1 ms) */
		snprintf(cmd, sizeof(cmd), "timeout 60 %s%s %s --rate_iops=4000 "
			 "--filename=%s%s > '%s' 2>&1",
			 k ? iochar_path() : "fio", k ? " run" : "", job, k ? fi : ff,
			 k ? " --force" : "", out);
		assert_int_equal(system(cmd), 0);
		size_t n;
		char *t = slurp(out, &n);
		t[n] = '\0';
		expect_has(t, "  trim: IOPS=");
		expect_has(t, "\n   TRIM: bw=");
		assert_null(strstr(t, "read: IOPS="));
		assert_null(strstr(t, "write: IOPS="));
		free(t);
	}

	/* the CSV: a trim row before the total */
	struct proc_out po;
	snprintf(opts, sizeof(opts), "--filename=%s", fi);
	run_iochar(&po, s->dir, 0,
		   ARGS("run", "--name=punch", opts, "--ioengine=falloc", "--rw=randtrim",
			"--bs=4k", "--size=1m", "--offset=2m", "--force",
			"--output-format=csv"));
	expect_exit(&po, 0);
	expect_has(po.out, "\ntotal,,,trim,256,1048576,");
	expect_has(po.out, "\nworker,punch,0,trim,256,1048576,");
	proc_out_free(&po);
}

static void test_regular_file_enotty(void **state)
{
	struct scratch *s = *state;
	side_need_fio();
	char opts[4600], path[4200];
	for (int k = 0; k < 2; k++) {
		const char *tool = k ? "iochar" : "fio";
		snprintf(path, sizeof(path), "%s/%s.dat", s->dir, tool);
		make_file(path, 1 << 20);
		snprintf(opts, sizeof(opts), "--name=t --filename=%s --rw=trim --bs=64k "
			 "--size=1m --ioengine=psync%s", path, k ? " --force" : "");
		int rc = side_run(tool, s->dir, tool, opts);
		assert_int_equal(rc, 1);
		json_object *o = json_after_noise(s->dir, tool);
		assert_int_equal(job_num(o, NULL, "error"), 25); /* ENOTTY */
		/* the failed trim counts as an I/O, none of its bytes */
		assert_int_equal(job_num(o, "trim", "total_ios"), 1);
		assert_int_equal(job_num(o, "trim", "io_bytes"), 0);
		json_object_put(o);
	}
	char err[4200];
	snprintf(err, sizeof(err), "%s/iochar/err.txt", s->dir);
	size_t n;
	char *t = slurp(err, &n);
	t[n] = '\0';
	expect_has(t, "trim of 65536 bytes at offset 0");
	expect_has(t, "Inappropriate ioctl for device");
	free(t);
}

static void test_refusals(void **state)
{
	struct scratch *s = *state;
	side_need_fio();
	char path[4200], opts[4600];
	snprintf(path, sizeof(path), "%s/keep.dat", s->dir);
	make_file(path, 1 << 20);
	uint64_t h = file_hash(path);
	snprintf(opts, sizeof(opts), "--readonly --name=t --filename=%s --rw=trim "
		 "--bs=64k --size=1m --ioengine=falloc", path);
	assert_int_not_equal(side_run("fio", s->dir, "fio", opts), 0);
	assert_int_equal(side_run("iochar", s->dir, "iochar", opts), 2);
	assert_int_equal(file_hash(path), h);
	char err[4200];
	snprintf(err, sizeof(err), "%s/iochar/err.txt", s->dir);
	size_t n;
	char *t = slurp(err, &n);
	t[n] = '\0';
	expect_has(t, "rw=trim trims, and --readonly refuses");
	assert_int_equal(count_lines(t), 1);
	free(t);

	struct proc_out po;
	run_iochar(&po, s->dir, 0,
		   ARGS("run", "--name=t", "--filename=keep.dat", "--rw=randtrim",
			"--bs=64k", "--size=1m", "--ioengine=falloc", "--verify=md5",
			"--force"));
	expect_exit(&po, 2);
	expect_has(po.err, "rw=randtrim with verify");
	assert_int_equal(count_lines(po.err), 1);
	proc_out_free(&po);
	assert_int_equal(file_hash(path), h);

	/* trimwrite trims and writes the same blocks: T other than W refused */
	run_iochar(&po, s->dir, 0,
		   ARGS("run", "--name=t", "--filename=keep.dat", "--rw=trimwrite",
			"--bs=4k,8k,16k", "--size=1m", "--ioengine=falloc", "--force"));
	expect_exit(&po, 2);
	expect_has(po.err, "rw=trimwrite with bs=R,W,T where T (16384) is not W (8192)");
	assert_int_equal(count_lines(po.err), 1);
	proc_out_free(&po);
	assert_int_equal(file_hash(path), h);

	/* a RAID VD maps no trims: refused, its members not created */
	char vd[9000];
	snprintf(vd, sizeof(vd), "--vd=raid1,strip=64k,members=%s/m0:%s/m1", s->dir, s->dir);
	run_iochar(&po, s->dir, 0,
		   ARGS("run", vd, "--rw=trim", "--bs=64k", "--size=4m", "--runtime=1"));
	expect_exit(&po, 2);
	expect_has(po.err, "rw=trim on --vd: a RAID VD does not map trims");
	assert_int_equal(count_lines(po.err), 1);
	proc_out_free(&po);
	snprintf(vd, sizeof(vd), "%s/m0", s->dir);
	assert_false(file_exists(vd));
}

static int setup(void **state)
{
	return scratch_setup(state, sizeof(struct scratch));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_loop_device, setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_falloc_punch, setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_regular_file_enotty, setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_refusals, setup, scratch_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
