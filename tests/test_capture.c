/* test_capture.c - `iochar capture`: a loop device's I/O recorded while a
 * known workload (200 direct 4k random writes, iochar's write_iolog says
 * which) runs on it, then the captured trace replayed by fio 3.33 and by
 * iochar onto a second loop device (replay_redirect): both issue the
 * workload's writes, in order, at its offsets and lengths, and the same
 * reads as each other (a probe of the device the workload tool makes
 * before writing is captured too). fio's side is its latency log with
 * log_offset=1 at iodepth 1, iochar's its write_iolog. Usage errors exit 2
 * and write nothing. SKIP without root, blktrace/blkparse, loop devices or
 * fio. The loop devices and files go in the teardown, also on failure.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fio_side.h"
#include "harness.h"

struct op {
	int dir; /* 0 read, 1 write, 2 trim */
	uint64_t off, len;
};

struct ops {
	size_t n;
	struct op v[4096];
};

struct fixture {
	char *dir;
	char img[2][256], dev[2][64];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	f->dir = tmpdir_make();
	for (int i = 0; i < 2; i++)
		snprintf(f->img[i], sizeof(f->img[i]), "/dev/shm/iochar-capture-%d-%d.img",
			 (int)getpid(), i);
	*state = f;
	return f->dir ? 0 : -1;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	for (int i = 0; i < 2; i++) {
		if (f->dev[i][0])
			loop_detach(f->dev[i]);
		unlink(f->img[i]);
	}
	tmpdir_remove(f->dir);
	free(f);
	return 0;
}

static bool have_tool(const char *name)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "PATH=$PATH:/usr/sbin:/sbin command -v %s >/dev/null", name);
	return system(cmd) == 0;
}

static void need_capture(struct fixture *f)
{
	if (!is_root()) {
		print_message("SKIP: capture needs root (blktrace, loop devices)\n");
		skip();
	}
	if (!have_tool("blktrace") || !have_tool("blkparse")) {
		print_message("SKIP: blktrace is not installed (Debian package blktrace)\n");
		skip();
	}
	for (int i = 0; i < 2; i++)
		if (!loop_attach(f->img[i], 8 << 20, 512, f->dev[i], sizeof(f->dev[i])))
			skip();
}

/* The read/write lines of a version 3 iolog. */
static void iolog_ops(const char *path, struct ops *o)
{
	FILE *f = fopen(path, "r");
	char line[1024], name[256], act[32];
	unsigned long long t, off, len;
	if (!f)
		fail_msg("%s: missing", path);
	o->n = 0;
	while (fgets(line, sizeof(line), f) && o->n < 4096) {
		if (sscanf(line, "%llu %255s %31s %llu %llu", &t, name, act, &off, &len) != 5)
			continue;
		o->v[o->n++] = (struct op){!strcmp(act, "trim") ? 2 : !strcmp(act, "write"),
					   off, len};
	}
	fclose(f);
}

/* fio's latency log with log_offset=1: "time, lat, ddir, bs, offset, prio". */
static void lat_ops(const char *path, struct ops *o)
{
	struct side_log l;
	if (!side_log_read(path, &l))
		fail_msg("%s: missing", path);
	o->n = 0;
	for (size_t i = 0; i < l.n && o->n < 4096; i++)
		o->v[o->n++] = (struct op){(int)l.v[i][2], l.v[i][4], l.v[i][3]};
	side_log_free(&l);
}

/* The I/Os of direction dir (-1: all) of a, in order, equal to b's. */
static void same_ops(const struct ops *a, const struct ops *b, int dir, const char *what)
{
	size_t i = 0, k = 0;
	for (;; i++, k++) {
		while (i < a->n && dir >= 0 && a->v[i].dir != dir)
			i++;
		while (k < b->n && dir >= 0 && b->v[k].dir != dir)
			k++;
		if (i == a->n || k == b->n)
			break;
		const struct op *x = &a->v[i], *y = &b->v[k];
		if (x->dir != y->dir || x->off != y->off || x->len != y->len)
			fail_msg("%s: I/O %zu: %d %" PRIu64 " %" PRIu64 " against %d %" PRIu64
				 " %" PRIu64, what, i, x->dir, x->off, x->len, y->dir, y->off, y->len);
	}
	if (i != a->n || k != b->n)
		fail_msg("%s: one side has more I/Os (%zu of %zu against %zu of %zu)", what, i,
			 a->n, k, b->n);
}

static void sleep_ms(int ms)
{
	nanosleep(&(struct timespec){ms / 1000, (ms % 1000) * 1000000L}, NULL);
}

/* Start `iochar capture DEV --time=3s -o trace` with stderr to
 * errpath; wait (at most 10 s) until it says it is tracing. */
static pid_t start_capture(const char *dev, const char *trace, const char *errpath)
{
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		dup2(fd, 1);
		execl(iochar_path(), "iochar", "capture", dev, "--time=3s", "-o", trace,
		      (char *)NULL);
		_exit(127);
	}
	assert_true(pid > 0);
	for (int t = 0; t < 10000; t += 10) {
		char buf[4096] = "";
		FILE *f = fopen(errpath, "r");
		if (f) {
			buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
			fclose(f);
		}
		if (strstr(buf, "capture: tracing"))
			return pid;
		if (waitpid(pid, NULL, WNOHANG) == pid)
			fail_msg("capture ended before tracing: %s", buf);
		sleep_ms(10);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	fail_msg("capture did not start tracing in 10 s");
	return -1;
}

static void run_ok(const char *tool, const char *dir, const char *sub, const char *opts)
{
	int rc = side_run(tool, dir, sub, opts);
	if (rc)
		fail_msg("%s exit %d for %s (see %s/%s/err.txt)", tool, rc, opts, dir, sub);
}

/* No per-CPU file is left next to the trace. */
static void no_leftovers(const char *dir)
{
	char cmd[4400];
	snprintf(cmd, sizeof(cmd), "ls '%s' | grep -q capture-", dir);
	assert_int_not_equal(system(cmd), 0);
}

/* A workload captured, then replayed by both tools: each issues it. */
static void test_captured_replayed_as_fio(void **state)
{
	struct fixture *f = *state;
	static struct ops w, fr, ir;
	char trace[4200], errp[4200], wlog[4200], opts[8192], p[4200];
	struct proc_out po;
	int st;

	side_need_fio();
	need_capture(f);
	snprintf(trace, sizeof(trace), "%s/t.bin", f->dir);
	snprintf(errp, sizeof(errp), "%s/capture.txt", f->dir);
	snprintf(wlog, sizeof(wlog), "--write_iolog=%s/w.log", f->dir);
	pid_t pid = start_capture(f->dev[0], trace, errp);
	char fn[128];
	snprintf(fn, sizeof(fn), "--filename=%s", f->dev[0]);
	run_iochar(&po, f->dir, 0, ARGS("run", "--name=w", fn, "--rw=randwrite", "--bs=4k",
					"--size=800k", "--offset=1m", "--direct=1",
					"--ioengine=psync", wlog));
	expect_exit(&po, 0);
	proc_out_free(&po);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	FILE *e = fopen(errp, "r");
	char text[8192] = "";
	text[fread(text, 1, sizeof(text) - 1, e)] = '\0';
	fclose(e);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail_msg("capture failed: %s", text);
	expect_has(text, "200 writes (819200 bytes)");
	no_leftovers(f->dir); /* the per-CPU files are gone */

	snprintf(opts, sizeof(opts), "--name=r --read_iolog=%s --ioengine=psync "
		 "--replay_redirect=%s --write_lat_log=x --log_offset=1 --write_iolog=w.log",
		 trace, f->dev[1]);
	run_ok("fio", f->dir, "fio", opts);
	run_ok("iochar", f->dir, "iochar", opts);
	snprintf(p, sizeof(p), "%s/w.log", f->dir);
	iolog_ops(p, &w);
	assert_int_equal(w.n, 200);
	snprintf(p, sizeof(p), "%s/fio/x_lat.1.log", f->dir);
	lat_ops(p, &fr);
	snprintf(p, sizeof(p), "%s/iochar/w.log", f->dir);
	iolog_ops(p, &ir);
	same_ops(&w, &fr, 1, "the workload's writes and fio's replay");
	same_ops(&w, &ir, 1, "the workload's writes and iochar's replay");
	same_ops(&fr, &ir, -1, "fio's and iochar's replay");
}

/* Bad input: exit 2, one line naming it, nothing written. */
static void test_usage_errors(void **state)
{
	struct fixture *f = *state;
	char out[4200];

	snprintf(out, sizeof(out), "%s/keep.txt", f->dir);
	FILE *k = fopen(out, "w");
	fputs("not a trace\n", k);
	fclose(k);
	expect_usage_line(ARGS("capture", "--time=1", "-o", "x"), "needs a block device");
	expect_usage_line(ARGS("capture", "/dev/null", "--time=1", "-o", "x"),
		     "/dev/null: not a block device");
	expect_usage_line(ARGS("capture", "/nonexistent", "--time=1", "-o", "x"),
		     "/nonexistent: No such file");
	expect_usage_line(ARGS("capture", "/dev/null", "--bogus"), "unknown option '--bogus'");
	expect_usage_line(ARGS("capture", "/dev/null", "--time=1.5s"), "--time=1.5s");
	if (is_root() && loop_attach(f->img[0], 1 << 20, 512, f->dev[0], sizeof(f->dev[0]))) {
		expect_usage_line(ARGS("capture", f->dev[0], "-o", "x"), "needs --time=T");
		expect_usage_line(ARGS("capture", f->dev[0], "--time=1"), "needs -o FILE");
		expect_usage_line(ARGS("capture", f->dev[0], f->dev[0], "--time=1", "-o", "x"),
			     "given twice");
		expect_usage_line(ARGS("capture", f->dev[0], "--time=1", "-o", out),
			     "exists and is no block trace");
		k = fopen(out, "r");
		char line[64] = "";
		assert_non_null(fgets(line, sizeof(line), k));
		fclose(k);
		assert_string_equal(line, "not a trace\n");
	}
	no_leftovers(f->dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_usage_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_captured_replayed_as_fio, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
