/* test_iolog.c - fio's iologs (write_iolog, read_iolog and the replay_*
 * options), each against fio 3.33 in the same test: fio writes a log that
 * iochar replays, iochar writes one that fio replays, and what each tool
 * issued is compared I/O by I/O (iochar's own write_iolog; fio 3.33
 * writes none while replaying, so its side is its per-I/O latency log
 * with log_offset=1, in issue order at iodepth 1). The options change
 * both tools' I/Os (redirect, scale, align) and times (no_stall,
 * time_scale) alike; a bad log is refused naming every bad line, before
 * any file is made. SKIP without fio.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fio_side.h"
#include "harness.h"

#define MAX_OPS 8192

struct op {
	char file[256];
	int dir; /* 0 read, 1 write */
	uint64_t off, len;
};

struct ops {
	size_t n;
	struct op *v;
};

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void sub_dir(char *out, size_t size, const char *dir, const char *sub)
{
	snprintf(out, size, "%s/%s", dir, sub);
	mkdir(out, 0755);
}

/* The read/write lines of a version 3 iolog (what both tools write). */
static void iolog_ops(const char *path, struct ops *o)
{
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("%s: missing", path);
	char line[1024], name[256], act[32];
	unsigned long long t, off, len;
	o->v = calloc(MAX_OPS, sizeof(*o->v));
	o->n = 0;
	assert_non_null(fgets(line, sizeof(line), f));
	assert_string_equal(line, "fio version 3 iolog\n");
	while (fgets(line, sizeof(line), f) && o->n < MAX_OPS) {
		if (sscanf(line, "%llu %255s %31s %llu %llu", &t, name, act, &off, &len) != 5)
			continue;
		struct op *p = &o->v[o->n++];
		const char *base = strrchr(name, '/');
		snprintf(p->file, sizeof(p->file), "%s", base ? base + 1 : name);
		p->dir = !strcmp(act, "trim") ? 2 : !strcmp(act, "write");
		p->off = off;
		p->len = len;
	}
	fclose(f);
}

/* fio's latency log with log_offset=1: "time, lat, ddir, bs, offset, prio". */
static void lat_ops(const char *path, struct ops *o)
{
	struct side_log l;
	if (!side_log_read(path, &l))
		fail_msg("%s: missing", path);
	assert_int_equal(l.cols, 6);
	o->v = calloc(l.n + 1, sizeof(*o->v));
	o->n = l.n;
	for (size_t i = 0; i < l.n; i++) {
		o->v[i].dir = (int)l.v[i][2];
		o->v[i].len = l.v[i][3];
		o->v[i].off = l.v[i][4];
	}
	side_log_free(&l);
}

/* Both sequences alike I/O by I/O (files too when with_files). */
static void same_ops(const struct ops *a, const struct ops *b, bool with_files,
		     const char *what)
{
	if (a->n != b->n)
		fail_msg("%s: %zu I/Os against %zu", what, a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct op *x = &a->v[i], *y = &b->v[i];
		if (x->dir != y->dir || x->off != y->off || x->len != y->len ||
		    (with_files && strcmp(x->file, y->file)))
			fail_msg("%s: I/O %zu: %s %d %" PRIu64 " %" PRIu64 " against %s %d %"
				 PRIu64 " %" PRIu64, what, i, x->file, x->dir, x->off,
				 x->len, y->file, y->dir, y->off, y->len);
	}
}

static void run_ok(const char *tool, const char *dir, const char *sub, const char *opts)
{
	int rc = side_run(tool, dir, sub, opts);
	if (rc)
		fail_msg("%s exit %d for %s (see %s/%s/err.txt)", tool, rc, opts, dir, sub);
}

/* fio writes the log of a random mixed job over two files; iochar
 * replays it and its own write_iolog holds the same I/Os in order. */
static void test_fio_log_replayed_by_iochar(void **state)
{
	const char *dir = *state;
	char p[4200], q[4200];
	side_need_fio();
	run_ok("fio", dir, "fio", "--name=a --filename=d1:d2 --size=2M --rw=randrw "
	       "--bsrange=4k-16k --number_ios=300 --ioengine=psync --write_iolog=w.log");
	run_ok("iochar", dir, "iochar", "--name=r --read_iolog=../fio/w.log "
	       "--replay_no_stall=1 --ioengine=psync --write_iolog=w.log");
	struct ops f, i;
	snprintf(p, sizeof(p), "%s/fio/w.log", dir);
	snprintf(q, sizeof(q), "%s/iochar/w.log", dir);
	iolog_ops(p, &f);
	iolog_ops(q, &i);
	assert_true(f.n >= 100); /* fio ends at size= before number_ios */
	same_ops(&f, &i, true, "fio's log, iochar's replay");
	bool two = false;
	for (size_t k = 0; k < f.n; k++)
		two |= strcmp(f.v[k].file, f.v[0].file) != 0;
	assert_true(two); /* both files were used */
	free(f.v);
	free(i.v);
}

/* iochar writes the log; fio replays it and issues the same I/Os; so
 * does iochar, whose log of its replay is the same as the first. */
static void test_iochar_log_replayed_by_fio(void **state)
{
	const char *dir = *state;
	char p[4200];
	side_need_fio();
	run_ok("iochar", dir, "a", "--name=a --filename=d1 --size=1M --rw=randrw "
	       "--bsrange=4k-16k --number_ios=300 --ioengine=psync --write_iolog=w.log");
	sub_dir(p, sizeof(p), dir, "fio");
	snprintf(p, sizeof(p), "%s/fio/d1", dir);
	make_file(p, 1 << 20);
	run_ok("fio", dir, "fio", "--name=b --read_iolog=../a/w.log --replay_no_stall=1 "
	       "--ioengine=psync --write_lat_log=x --log_offset=1");
	run_ok("iochar", dir, "b", "--name=b --read_iolog=../a/w.log --replay_no_stall=1 "
	       "--ioengine=psync --write_iolog=w.log");
	struct ops a, f, b;
	snprintf(p, sizeof(p), "%s/a/w.log", dir);
	iolog_ops(p, &a);
	snprintf(p, sizeof(p), "%s/fio/x_lat.1.log", dir);
	lat_ops(p, &f);
	snprintf(p, sizeof(p), "%s/b/w.log", dir);
	iolog_ops(p, &b);
	assert_true(a.n >= 100);
	same_ops(&a, &f, false, "iochar's log, fio's replay");
	same_ops(&a, &b, true, "iochar's log, iochar's replay");
	free(a.v);
	free(f.v);
	free(b.v);
}

/* replay_redirect, replay_scale and replay_align change fio's and
 * iochar's replay of one log the same way. */
static void test_replay_options_as_fio(void **state)
{
	const char *dir = *state;
	char p[4200];
	side_need_fio();
	run_ok("fio", dir, "src", "--name=a --filename=d1:d2 --size=2M --rw=randrw "
	       "--bsrange=4k-16k --number_ios=200 --ioengine=psync --write_iolog=w.log");
	sub_dir(p, sizeof(p), dir, "fio");
	snprintf(p, sizeof(p), "%s/fio/other", dir);
	make_file(p, 1 << 20);
	const char *opts = "--name=b --read_iolog=../src/w.log --replay_no_stall=1 "
			   "--replay_redirect=other --replay_scale=3 --replay_align=8k "
			   "--ioengine=psync --write_lat_log=x --log_offset=1 --write_iolog=w.log";
	run_ok("fio", dir, "fio", opts);
	run_ok("iochar", dir, "iochar", opts);
	struct ops src, f, i;
	snprintf(p, sizeof(p), "%s/src/w.log", dir);
	iolog_ops(p, &src);
	snprintf(p, sizeof(p), "%s/fio/x_lat.1.log", dir);
	lat_ops(p, &f);
	snprintf(p, sizeof(p), "%s/iochar/w.log", dir);
	iolog_ops(p, &i);
	same_ops(&f, &i, false, "fio's and iochar's replay with redirect, scale, align");
	size_t moved = 0;
	for (size_t k = 0; k < i.n; k++) {
		assert_string_equal(i.v[k].file, "other");
		moved += i.v[k].off != src.v[k].off;
		assert_int_equal(i.v[k].off % 8192, 0);
	}
	assert_true(moved > i.n / 2); /* the options did change the offsets */
	free(src.v);
	free(f.v);
	free(i.v);
}

/* A log of 21 reads 10 ms apart (200 ms): both tools take its time,
 * none with replay_no_stall, half with replay_time_scale=200. */
static void timed_log(const char *path)
{
	char text[4096];
	int n = snprintf(text, sizeof(text), "fio version 3 iolog\n1 t add\n2 t open\n");
	for (int k = 0; k <= 20; k++)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "%d t read %d 4096\n",
			      1000 + 10000 * k, 4096 * k);
	snprintf(text + n, sizeof(text) - (size_t)n, "201500 t close\n");
	put_file(path, text);
}

/* fio's layout: jobs[0].job_runtime, ms. */
static double job0_runtime(json_object *doc)
{
	json_object *jobs = jget(doc, "jobs");
	assert_non_null(jobs);
	return jget_double(json_object_array_get_idx(jobs, 0), "job_runtime");
}

static void replay_times(const char *dir, const char *extra, double *fio_ms,
			 double *iochar_ms, json_object **ij)
{
	char opts[1024], sub[4200], p[4300];
	static int round;
	snprintf(sub, sizeof(sub), "%s/r%d", dir, ++round);
	mkdir(sub, 0755);
	sub_dir(p, sizeof(p), sub, "fio");
	snprintf(p, sizeof(p), "%s/fio/t", sub);
	make_file(p, 1 << 20);
	snprintf(opts, sizeof(opts), "--name=b --read_iolog=%s/timed.log --ioengine=psync %s",
		 dir, extra);
	json_object *f;
	side_run_both_json(sub, opts, &f, ij);
	*fio_ms = job0_runtime(f);
	*iochar_ms = job0_runtime(*ij);
	json_object_put(f);
	print_message("%s: fio %.0f ms, iochar %.0f ms\n", extra, *fio_ms, *iochar_ms);
}

static void test_replay_timing_as_fio(void **state)
{
	const char *dir = *state;
	char p[4200];
	double f, i;
	json_object *ij;
	side_need_fio();
	snprintf(p, sizeof(p), "%s/timed.log", dir);
	timed_log(p);
	replay_times(dir, "", &f, &i, &ij);
	assert_true(f >= 185 && f < 600);
	assert_true(i >= 185 && i < 600);
	/* every read's lateness against the log's schedule is recorded */
	assert_int_equal(jget_u64(ij, "read.ios"), 21);
	assert_true(jget_u64(ij, "read.lag.max") > 0);
	json_object_put(ij);
	replay_times(dir, "--replay_no_stall=1", &f, &i, &ij);
	assert_true(f < 120 && i < 120);
	json_object_put(ij);
	replay_times(dir, "--replay_time_scale=200", &f, &i, &ij);
	assert_true(f >= 90 && f < 350);
	assert_true(i >= 90 && i < 350);
	json_object_put(ij);
}

/* A replay that cannot keep its log's schedule (16 MiB reads due 1 us
 * apart) says so, and its lag is in the JSON. iochar's own report. */
static void test_replay_behind_says_so(void **state)
{
	const char *dir = *state;
	char log[4200], text[4096];
	snprintf(log, sizeof(log), "%s/fast.log", dir);
	int n = snprintf(text, sizeof(text), "fio version 3 iolog\n1 t add\n2 t open\n");
	for (int k = 0; k < 12; k++)
		n += snprintf(text + n, sizeof(text) - (size_t)n, "%d t read %d 16777216\n",
			      10 + k, 16777216 * (k % 2));
	put_file(log, text);
	char arg[4300];
	snprintf(arg, sizeof(arg), "--read_iolog=%s", log);
	const char *args[] = {"run", "--name=b", arg, "--ioengine=psync", NULL};
	struct proc_out po;
	run_iochar(&po, dir, 0, args);
	expect_exit(&po, 0);
	expect_has(po.out, "replay: behind: could not keep up with the log's schedule");
	proc_out_free(&po);
	const char *jargs[] = {"run", "--name=b", arg, "--ioengine=psync",
			       "--output-format=json", NULL};
	run_iochar(&po, dir, 0, jargs);
	expect_exit(&po, 0);
	json_object *j = parse_json(&po);
	/* a note: in the JSON, on stderr only when shown */
	expect_note(j, "the replay fell behind read_iolog=");
	assert_string_equal(po.err, "");
	assert_true(jget_u64(j, "read.lag.p99") > 1000000);
	/* the replay member: timed, behind, how many late */
	json_object *rp = json_object_array_get_idx(jget(j, "replay"), 0);
	assert_non_null(rp);
	assert_string_equal(json_object_get_string(jget(rp, "verdict")), "behind");
	assert_true(json_object_get_boolean(jget(rp, "timed")));
	assert_int_equal(jget_u64(rp, "ios_timed"), 12);
	assert_true(jget_u64(rp, "ios_behind") >= 6);
	assert_true(jget_u64(rp, "lag.p99") > 1000000);
	json_object_put(j);
	proc_out_free(&po);
}

/* Two clones append to one write_iolog (as fio's do): the log, version
 * line twice, replays the same in fio (which skips the second as a bad
 * line) and iochar. */
static void test_appended_log_as_fio(void **state)
{
	const char *dir = *state;
	char p[4200];
	side_need_fio();
	run_ok("iochar", dir, "a", "--name=a --filename=d1 --size=256k --rw=randrw "
	       "--numjobs=2 --ioengine=psync --write_iolog=w.log");
	sub_dir(p, sizeof(p), dir, "fio");
	snprintf(p, sizeof(p), "%s/fio/d1", dir);
	make_file(p, 1 << 20);
	const char *opts = "--name=b --read_iolog=../a/w.log --replay_no_stall=1 "
			   "--ioengine=psync --write_lat_log=x --log_offset=1 --write_iolog=w.log";
	run_ok("fio", dir, "fio", opts);
	run_ok("iochar", dir, "b", opts);
	struct ops f, b;
	snprintf(p, sizeof(p), "%s/fio/x_lat.1.log", dir);
	lat_ops(p, &f);
	snprintf(p, sizeof(p), "%s/b/w.log", dir);
	iolog_ops(p, &b);
	assert_int_equal(b.n, 128); /* both clones' 64 */
	same_ops(&f, &b, false, "an appended log, by fio and iochar");
	free(f.v);
	free(b.v);
}

/* Trim lines: fio 3.33's read_iolog drops them ("bad ddir: 2"), iochar
 * replays them (falloc: a punched hole); the rest alike in both. */
static void test_trim_lines(void **state)
{
	const char *dir = *state;
	char p[4200], opts[4400];
	side_need_fio();
	snprintf(p, sizeof(p), "%s/trim.log", dir);
	put_file(p, "fio version 3 iolog\n1 t add\n2 t open\n10 t write 0 65536\n"
		    "20 t trim 4096 8192\n30 t write 65536 4096\n40 t trim 0 4096\n"
		    "50 t read 8192 4096\n60 t close\n");
	sub_dir(p, sizeof(p), dir, "fio");
	snprintf(p, sizeof(p), "%s/fio/t", dir);
	make_file(p, 1 << 20);
	snprintf(opts, sizeof(opts), "--name=b --read_iolog=%s/trim.log --ioengine=falloc "
		 "--write_lat_log=x --log_offset=1 --write_iolog=w.log", dir);
	run_ok("fio", dir, "fio", opts);
	run_ok("iochar", dir, "iochar", opts);
	struct ops f, i;
	snprintf(p, sizeof(p), "%s/fio/x_lat.1.log", dir);
	lat_ops(p, &f);
	snprintf(p, sizeof(p), "%s/iochar/w.log", dir);
	iolog_ops(p, &i);
	assert_int_equal(f.n, 3);
	assert_int_equal(i.n, 5);
	assert_int_equal(i.v[1].dir, 2);
	assert_int_equal(i.v[1].off, 4096);
	assert_int_equal(i.v[1].len, 8192);
	assert_int_equal(i.v[3].dir, 2);
	struct ops rest = {0, calloc(8, sizeof(struct op))};
	for (size_t k = 0; k < i.n; k++)
		if (i.v[k].dir != 2)
			rest.v[rest.n++] = i.v[k];
	same_ops(&f, &rest, false, "a log with trims, without them");
	free(f.v);
	free(i.v);
	free(rest.v);
}

/* A sync line keeps its time too: write, sync at 100 ms, write at 200 ms
 * (fio's latency log shows no sync, but the second write as late). */
static void test_timed_sync_as_fio(void **state)
{
	const char *dir = *state;
	char p[4200], opts[4400];
	side_need_fio();
	snprintf(p, sizeof(p), "%s/sync.log", dir);
	put_file(p, "fio version 3 iolog\n1 t add\n2 t open\n10 t write 0 4096\n"
		    "100000 t sync 0 0\n200000 t write 4096 4096\n200010 t close\n");
	sub_dir(p, sizeof(p), dir, "fio");
	snprintf(p, sizeof(p), "%s/fio/t", dir);
	make_file(p, 1 << 20);
	snprintf(opts, sizeof(opts), "--name=b --read_iolog=%s/sync.log --ioengine=psync "
		 "--write_lat_log=x --log_offset=1 --write_iolog=w.log", dir);
	int rf, ri;
	side_run_both(dir, opts, &rf, &ri);
	assert_int_equal(rf, 0);
	assert_int_equal(ri, 0);
	struct side_log l;
	snprintf(p, sizeof(p), "%s/fio/x_lat.1.log", dir);
	assert_true(side_log_read(p, &l));
	assert_int_equal(l.n, 2);
	assert_true(l.v[1][0] >= 190); /* ms */
	side_log_free(&l);
	snprintf(p, sizeof(p), "%s/iochar/w.log", dir);
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	char line[512], name[256], act[32];
	unsigned long long t, sync_us = 0, write2_us = 0, off, len;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llu %255s %31s %llu %llu", &t, name, act, &off, &len) == 5) {
			if (!strcmp(act, "sync"))
				sync_us = t;
			else if (off == 4096)
				write2_us = t;
		}
	fclose(f);
	print_message("iochar: sync at %llu us, second write at %llu us\n", sync_us, write2_us);
	assert_true(sync_us >= 95000 && sync_us < 190000);
	assert_true(write2_us >= 190000);
}

/* len bytes of text (NUL bytes kept) into path. */
static void write_bytes_to(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* Bad lines: every one named FILE:LINE, exit 2, nothing made. */
static void test_bad_lines_refused(void **state)
{
	const char *dir = *state;
	char log[4200], target[4200];
	snprintf(log, sizeof(log), "%s/bad.log", dir);
	snprintf(target, sizeof(target), "%s/never", dir);
	char text[40000];
	snprintf(text, sizeof(text),
		 "fio version 3 iolog\n"
		 "1 %s add\n"
		 "x %s read 0 4096\n"              /* 3: time not a number */
		 "3 %s write 0 4096\n"
		 "4 %s frobnicate 0 4096\n"        /* 5: action */
		 "5 %s read -1 4096\n"             /* 6: negative */
		 "6 %s/other read 0 4096\n"        /* 7: file not added */
		 "7 %s read 0\n"                   /* 8: fields */
		 "8 %s read 0 0\n",                /* 9: no bytes */
		 target, target, target, target, target, dir, target, target);
	put_file(log, text);
	char arg[4300];
	snprintf(arg, sizeof(arg), "--read_iolog=%s", log);
	const char *args[] = {"run", "--name=b", arg, "--ioengine=psync", NULL};
	struct proc_out po;
	run_iochar(&po, dir, 0, args);
	expect_exit(&po, 2);
	const char *lines[] = {":3:", ":5:", ":6:", ":7:", ":8:", ":9:"};
	for (unsigned k = 0; k < 6; k++) {
		char want[4300];
		snprintf(want, sizeof(want), "%s%s", log, lines[k]);
		expect_has(po.err, want);
	}
	assert_null(strstr(po.err, ":4:"));
	assert_false(file_exists(target));
	proc_out_free(&po);
	/* a good log, with what a replay cannot do yet */
	snprintf(text, sizeof(text), "fio version 3 iolog\n1 %s add\n2 %s write 0 4096\n",
		 target, target);
	put_file(log, text);
	const char *vargs[] = {"run", "--name=b", arg, "--verify=crc32c", NULL};
	run_iochar(&po, dir, 0, vargs);
	expect_exit(&po, 2);
	expect_has(po.err, "read_iolog= with verify=");
	assert_false(file_exists(target));
	proc_out_free(&po);
	/* NUL bytes (issue 37's H9 for iologs): "line longer than 4095
	 * bytes" was said of a line holding one, and a line starting with
	 * one was dropped unread, its I/O never replayed */
	snprintf(text, sizeof(text), "fio version 3 iolog\n1 %s add\n2 %s write 0 4096@\n"
		 "@3 %s write 4096 4096\n", target, target, target);
	size_t tlen = strlen(text);
	for (size_t k = 0; k < tlen; k++)
		if (text[k] == '@')
			text[k] = '\0'; /* the end of line 3, the start of 4 */
	write_bytes_to(log, text, tlen);
	run_iochar(&po, dir, 0, args);
	expect_exit(&po, 2);
	char nul3[4400], nul4[4400];
	snprintf(nul3, sizeof(nul3), "%s:3: NUL byte at column %zu; an iolog is text", log,
		 strlen("2 ") + strlen(target) + strlen(" write 0 4096") + 1);
	snprintf(nul4, sizeof(nul4), "%s:4: NUL byte at column 1; an iolog is text", log);
	expect_has(po.err, nul3);
	expect_has(po.err, nul4);
	assert_null(strstr(po.err, "longer than"));
	assert_false(file_exists(target));
	proc_out_free(&po);
	/* the version line too: "fio version 3 iolog" then a NUL was taken */
	write_bytes_to(log, "fio version 3 iolog\0\n", 21);
	run_iochar(&po, dir, 0, args);
	expect_exit(&po, 2);
	snprintf(nul3, sizeof(nul3), "%s:1: a NUL byte in the version line", log);
	expect_has(po.err, nul3);
	proc_out_free(&po);
	/* a line too long is said so, and the next line is still read */
	int at = snprintf(text, sizeof(text), "fio version 3 iolog\n1 %s add\n2 %s write 0 ",
			  target, target);
	memset(text + at, '7', 5000);
	snprintf(text + at + 5000, sizeof(text) - (size_t)at - 5000, "\nx %s read 0 4096\n",
		 target);
	put_file(log, text);
	run_iochar(&po, dir, 0, args);
	expect_exit(&po, 2);
	snprintf(nul3, sizeof(nul3), "%s:3: line longer than 4095 bytes", log);
	snprintf(nul4, sizeof(nul4), "%s:4: time 'x'", log);
	expect_has(po.err, nul3);
	expect_has(po.err, nul4);
	proc_out_free(&po);
	/* not an iolog at all: named at line 1 */
	put_file(log, "fio version 1 iolog\n");
	run_iochar(&po, dir, 0, args);
	expect_exit(&po, 2);
	char want[4300];
	snprintf(want, sizeof(want), "%s:1:", log);
	expect_has(po.err, want);
	proc_out_free(&po);
}

/* fio's version 2 log (no times): the same I/Os from both tools. */
static void test_v2_log_as_fio(void **state)
{
	const char *dir = *state;
	char p[4200];
	side_need_fio();
	snprintf(p, sizeof(p), "%s/v2.log", dir);
	put_file(p, "fio version 2 iolog\nt add\nt open\n"
		    "t write 8192 4096\nt read 0 8192\nt sync 0 0\nt write 65536 16384\n"
		    "t read 131072 4096\nt datasync 0 0\nt read 8192 4096\nt close\n");
	sub_dir(p, sizeof(p), dir, "fio");
	snprintf(p, sizeof(p), "%s/fio/t", dir);
	make_file(p, 1 << 20);
	char opts[4400];
	snprintf(opts, sizeof(opts), "--name=b --read_iolog=%s/v2.log --ioengine=psync "
		 "--write_lat_log=x --log_offset=1 --write_iolog=w.log", dir);
	run_ok("fio", dir, "fio", opts);
	run_ok("iochar", dir, "iochar", opts);
	struct ops f, i;
	snprintf(p, sizeof(p), "%s/fio/x_lat.1.log", dir);
	lat_ops(p, &f);
	snprintf(p, sizeof(p), "%s/iochar/w.log", dir);
	iolog_ops(p, &i);
	/* iochar's log also holds the two syncs; fio's latency log not */
	struct ops io = {0, calloc(i.n + 1, sizeof(struct op))};
	size_t syncs = 0;
	FILE *fl;
	snprintf(p, sizeof(p), "%s/iochar/w.log", dir);
	assert_non_null(fl = fopen(p, "r"));
	char line[512];
	while (fgets(line, sizeof(line), fl))
		syncs += strstr(line, " sync 0 0") || strstr(line, " datasync 0 0");
	fclose(fl);
	assert_int_equal(syncs, 2);
	for (size_t k = 0; k < i.n; k++)
		if (i.v[k].len)
			io.v[io.n++] = i.v[k];
	same_ops(&f, &io, false, "a v2 log replayed by fio and iochar");
	assert_int_equal(io.n, 5);
	free(f.v);
	free(i.v);
	free(io.v);
}

/* replay_skip on a text log: iochar leaves out the lines fio 3.34 and
 * later skip (fio commit ff6131af); fio 3.33 skips only in block traces,
 * so its side is its whole replay less the skipped kinds. */
static void test_replay_skip_as_fio(void **state)
{
	const char *dir = *state;
	char p[4200];
	side_need_fio();
	run_ok("fio", dir, "src", "--name=a --filename=d1 --size=1M --rw=randrw --fsync=9 "
	       "--bsrange=4k-16k --number_ios=200 --ioengine=psync --write_iolog=w.log");
	static const char *const skips[] = {"read", "write,sync", "trim,read"};
	for (int k = 0; k < 3; k++) {
		char sub[24], isub[24], opts[512];
		snprintf(sub, sizeof(sub), "fio%d", k);
		snprintf(isub, sizeof(isub), "iochar%d", k);
		sub_dir(p, sizeof(p), dir, sub);
		snprintf(p, sizeof(p), "%s/%s/d1", dir, sub);
		make_file(p, 1 << 20);
		snprintf(opts, sizeof(opts), "--name=b --read_iolog=../src/w.log "
			 "--replay_no_stall=1 --replay_skip=%s --ioengine=psync "
			 "--write_lat_log=x --log_offset=1", skips[k]);
		run_ok("fio", dir, sub, opts);
		strcat(opts, " --write_iolog=w.log");
		run_ok("iochar", dir, isub, opts);
		struct ops f, i;
		snprintf(p, sizeof(p), "%s/%s/x_lat.1.log", dir, sub);
		lat_ops(p, &f);
		snprintf(p, sizeof(p), "%s/%s/w.log", dir, isub);
		iolog_ops(p, &i);
		int kept = k == 1 ? 0 : 1; /* the direction left */
		size_t left = 0;
		for (size_t n = 0; n < f.n; n++)
			if (f.v[n].dir == kept)
				f.v[left++] = f.v[n];
		assert_true(left < f.n);
		f.n = left;
		char *log = file_slurp(p, NULL);
		assert_int_equal(strstr(log, " sync ") != NULL, k != 1);
		free(log);
		left = 0; /* fio's latency log has no syncs */
		for (size_t n = 0; n < i.n; n++)
			if (i.v[n].len)
				i.v[left++] = i.v[n];
		i.n = left;
		same_ops(&f, &i, false, skips[k]);
		assert_true(i.n >= 40);
		for (size_t n = 0; n < i.n; n++)
			assert_int_equal(i.v[n].dir, kept);
		free(f.v);
		free(i.v);
	}
}

/* A log of n I/Os over three files, 20 us apart. */
static void big_log(const char *path, unsigned n, const char *last_line)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("fio version 3 iolog\n", f);
	for (int k = 0; k < 3; k++)
		fprintf(f, "1 f%d add\n2 f%d open\n", k, k);
	uint64_t x = 99;
	for (unsigned k = 0; k < n; k++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		static const char *const acts[] = {"read", "write", "read", "write", "sync"};
		const char *act = acts[(x >> 33) % 5];
		unsigned file = (unsigned)((x >> 40) % 3);
		if (!strcmp(act, "sync"))
			fprintf(f, "%u f%u sync 0 0\n", 10 + 20 * k, file);
		else
			fprintf(f, "%u f%u %s %llu %u\n", 10 + 20 * k, file, act,
				(unsigned long long)((x >> 20) % 512) * 4096, 4096u << ((x >> 50) % 3));
	}
	fputs(last_line, f);
	fclose(f);
}

/* read_iolog_chunked: a log of 5000 I/Os (five chunks) replays I/O by I/O
 * as when read whole, and as fio's chunked replay; timed, it keeps the
 * log's schedule across chunks (100 ms). A bad last line is refused
 * before any file is made, chunked or not. */
static void test_chunked_as_whole(void **state)
{
	const char *dir = *state;
	char p[4200], opts[4400];
	side_need_fio();
	snprintf(p, sizeof(p), "%s/big.log", dir);
	big_log(p, 5000, "");
	struct ops w, c, f;
	for (int chunked = 0; chunked < 2; chunked++) {
		snprintf(opts, sizeof(opts), "--name=b --read_iolog=%s/big.log --replay_no_stall=1 "
			 "--ioengine=psync --read_iolog_chunked=%d --write_iolog=w.log", dir, chunked);
		run_ok("iochar", dir, chunked ? "chunked" : "whole", opts);
	}
	snprintf(p, sizeof(p), "%s/whole/w.log", dir);
	iolog_ops(p, &w);
	snprintf(p, sizeof(p), "%s/chunked/w.log", dir);
	iolog_ops(p, &c);
	assert_true(w.n > 3000);
	same_ops(&w, &c, true, "a 5000-I/O log whole and chunked");
	sub_dir(p, sizeof(p), dir, "fio");
	for (int k = 0; k < 3; k++) {
		snprintf(p, sizeof(p), "%s/fio/f%d", dir, k);
		make_file(p, 4 << 20);
	}
	snprintf(opts, sizeof(opts), "--name=b --read_iolog=%s/big.log --replay_no_stall=1 "
		 "--ioengine=psync --read_iolog_chunked=1 --write_lat_log=x --log_offset=1", dir);
	run_ok("fio", dir, "fio", opts);
	snprintf(p, sizeof(p), "%s/fio/x_lat.1.log", dir);
	lat_ops(p, &f);
	size_t data = 0; /* fio's latency log has no syncs */
	for (size_t k = 0; k < c.n; k++)
		if (c.v[k].len)
			c.v[data++] = c.v[k];
	c.n = data;
	same_ops(&f, &c, false, "fio's chunked replay and iochar's");
	free(w.v);
	free(c.v);
	free(f.v);
	/* timed: 5000 I/Os 20 us apart are 100 ms of log */
	struct proc_out po;
	char arg[4300];
	snprintf(arg, sizeof(arg), "--read_iolog=%s/big.log", dir);
	run_iochar(&po, dir, 0, ARGS("run", "--name=b", arg, "--ioengine=null",
				     "--read_iolog_chunked=1", "--output-format=json"));
	expect_exit(&po, 0);
	json_object *j = parse_json(&po);
	double ms = (double)jget_u64(j, "elapsed_ns") / 1e6;
	print_message("chunked timed replay: %.1f ms\n", ms);
	assert_true(ms >= 99 && ms < 1000);
	json_object *rp = json_object_array_get_idx(jget(j, "replay"), 0);
	assert_true(json_object_get_boolean(jget(rp, "timed")));
	json_object_put(j);
	proc_out_free(&po);
	/* a bad line after the last chunk: refused before anything is made */
	snprintf(p, sizeof(p), "%s/bad.log", dir);
	big_log(p, 4100, "9999999 f1 write 4096\n");
	snprintf(arg, sizeof(arg), "--read_iolog=%s/bad.log", dir);
	sub_dir(p, sizeof(p), dir, "bad");
	snprintf(p, sizeof(p), "%s/bad", dir);
	for (int chunked = 0; chunked < 2; chunked++) {
		run_iochar(&po, p, 0, ARGS("run", "--name=b", arg, "--ioengine=psync",
					   chunked ? "--read_iolog_chunked=1" : "--replay_no_stall=1"));
		expect_exit(&po, 2);
		expect_has(po.err, "bad.log:4108: expected 'USEC FILE ACTION [OFFSET LENGTH]'");
		proc_out_free(&po);
		char f0[4400];
		snprintf(f0, sizeof(f0), "%s/f0", p);
		assert_false(file_exists(f0));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fio_log_replayed_by_iochar, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_iochar_log_replayed_by_fio, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_replay_options_as_fio, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_replay_timing_as_fio, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_timed_sync_as_fio, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_trim_lines, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_appended_log_as_fio, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_replay_behind_says_so, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_bad_lines_refused, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_v2_log_as_fio, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_replay_skip_as_fio, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_chunked_as_whole, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
