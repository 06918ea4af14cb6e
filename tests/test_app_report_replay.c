/* test_app_report_replay.c - `iochar report DIR --replay=RUN.json`: an
 * application run whose 8-thread point left a blktrace dump (built here
 * record by record in the binary format `iochar capture` writes: queue
 * and completion events of 16K reads and 4K/8K writes), replayed by a
 * real `iochar run --read_iolog=DIR/trace-T8.bin` onto a file; the
 * report's "replayed against original" table shows the point's device
 * figures and trace summary beside the run JSON's figures, and the
 * replay keeps the trace's read share and mean size. The same with a
 * trace `iochar capture` took of a loop device while a 70:30 mix of 16K
 * and 4K direct I/O ran on it, replayed onto a second loop device (SKIP
 * without root, blktrace or loop devices). A replay of no
 * trace of the run, or a run that replays nothing, is refused (exit 2,
 * nothing written). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/blktrace.h"
#include "harness.h"
#include "report_fixture.h"

#define NR_IOS 240
#define DEV ((7u << 20) | 9u) /* 7:9, a loop device: never opened (redirected) */
#define QUEUE (BLKTRACE_TA_QUEUE | BLKTRACE_ACT(BLKTRACE_TC_QUEUE))
#define COMPLETE (BLKTRACE_TA_COMPLETE | BLKTRACE_ACT(BLKTRACE_TC_COMPLETE))

struct made {
	unsigned ios, reads, n4k, n8k, n16k;
	uint64_t bytes;
};

static void put(FILE *f, uint32_t *seq, uint64_t ns, uint64_t sector, uint32_t bytes,
		uint32_t action)
{
	struct blktrace_rec r = {
		.magic = BLKTRACE_MAGIC | BLKTRACE_VERSION, .sequence = (*seq)++, .time = ns,
		.sector = sector, .bytes = bytes, .action = action, .pid = 99, .device = DEV,
	};
	unsigned char b[BLKTRACE_RECORD];
	blktrace_encode(&r, false, b);
	assert_int_equal(fwrite(b, 1, sizeof(b), f), sizeof(b));
}

/* NR_IOS I/Os 20 us apart: two in three 16K reads, the rest 4K and 8K
 * writes; what was made in *m. */
static void make_trace(const char *path, struct made *m)
{
	FILE *f = fopen(path, "wb");
	uint32_t seq = 0;
	uint64_t x = 42;
	assert_non_null(f);
	memset(m, 0, sizeof(*m));
	m->ios = NR_IOS;
	for (unsigned k = 0; k < NR_IOS; k++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		bool rd = (x >> 33) % 3 != 0;
		uint32_t bytes = rd ? 16384 : (x >> 40) % 2 ? 8192 : 4096;
		uint32_t dir = BLKTRACE_ACT(rd ? BLKTRACE_TC_READ : BLKTRACE_TC_WRITE);
		uint64_t sector = ((x >> 20) % 4096) * 32;
		uint64_t ns = 1000000 + k * 20000ull;
		put(f, &seq, ns, sector, bytes, QUEUE | dir);
		put(f, &seq, ns + 150000, sector, bytes, COMPLETE | dir);
		m->reads += rd;
		m->n16k += bytes == 16384;
		m->n8k += bytes == 8192;
		m->n4k += bytes == 4096;
		m->bytes += bytes;
	}
	fclose(f);
}

static json_object *size_entry(uint64_t bytes, unsigned n, unsigned ios)
{
	json_object *e = json_object_new_object();
	json_object_object_add(e, "bytes", json_object_new_int64((int64_t)bytes));
	json_object_object_add(e, "share", json_object_new_double((double)n / ios));
	return e;
}

/* What a trace holds, read as iochar replays it. */
static void trace_made(const char *path, struct made *m)
{
	struct iolog log;
	struct iolog_replay_opts o = {.redirect = "x", .time_scale = 100};
	struct ioc_err err = {0};
	bool swap;
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	assert_true(blktrace_is(f, &swap));
	if (blktrace_read(&log, f, path, &o, swap, &err))
		fail_msg("%s: %s", path, err.msg);
	fclose(f);
	memset(m, 0, sizeof(*m));
	for (size_t i = 0; i < log.nr; i++) {
		const struct iolog_entry *e = &log.e[i];
		if (e->op != IOLOG_READ && e->op != IOLOG_WRITE)
			continue;
		m->ios++;
		m->reads += e->op == IOLOG_READ;
		m->n16k += e->len == 16384;
		m->n8k += e->len == 8192;
		m->n4k += e->len == 4096;
		m->bytes += e->len;
	}
	iolog_free(&log);
}

/* DIR/app: the fixture run whose 8-thread point has the trace made
 * (built here, or with captured the one at that path). */
static void make_app_of(const char *dir, struct made *m, const char *captured)
{
	char p[4400];
	snprintf(p, sizeof(p), "%s/app", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/app/trace-T8.bin", dir);
	if (captured) {
		assert_int_equal(rename(captured, p), 0);
		trace_made(p, m);
	} else {
		make_trace(p, m);
	}
	json_object *o = json_object_from_file("tests/fixtures/app/a/results.json");
	assert_non_null(o);
	json_object *pt = json_object_array_get_idx(jget(o, "points"), 3);
	json_object *sum = json_object_new_object(), *sizes = json_object_new_array();
	json_object_object_add(sum, "ios", json_object_new_int((int)m->ios));
	json_object_object_add(sum, "read_share", json_object_new_double((double)m->reads / m->ios));
	json_object_object_add(sum, "bytes", json_object_new_int64((int64_t)m->bytes));
	json_object_array_add(sizes, size_entry(16384, m->n16k, m->ios));
	json_object_array_add(sizes, size_entry(8192, m->n8k, m->ios));
	json_object_array_add(sizes, size_entry(4096, m->n4k, m->ios));
	json_object_object_add(sum, "sizes", sizes);
	json_object_object_add(pt, "trace_summary", sum);
	snprintf(p, sizeof(p), "%s/app/results.json", dir);
	assert_int_equal(json_object_to_file(p, o), 0);
	json_object_put(o);
}

static void make_app(const char *dir, struct made *m)
{
	make_app_of(dir, m, NULL);
}

/* `iochar run` of args in dir, its JSON into dir/name; the document. */
static json_object *run_json(const char *dir, const char *name, const char *const *args)
{
	struct proc_out po;
	char p[4400];
	run_iochar(&po, dir, 0, args);
	expect_exit(&po, 0);
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	fixture_write(p, po.out, strlen(po.out));
	json_object *o = parse_json(&po);
	proc_out_free(&po);
	return o;
}

static void expect_row(const char *html, const char *what, const char *orig, const char *rep)
{
	char want[512];
	snprintf(want, sizeof(want),
		 "<tr><th>%s</th><td class=\"num\">%s</td><td class=\"num\">%s</td>", what, orig,
		 rep);
	expect_has(html, want);
}

/* DIR/app's trace replayed onto target (--replay_redirect), then the
 * report's table: the replay's figures beside the original's. */
static void check_replay(const char *dir, const struct made *m, const char *target)
{
	char redirect[256], o1[64], o2[64];
	snprintf(redirect, sizeof(redirect), "--replay_redirect=%s", target);
	json_object *run = run_json(dir, "replay.json",
				    ARGS("run", "--name=replay", "--read_iolog=app/trace-T8.bin",
					 redirect, "--force", "--ioengine=psync", "--iodepth=1",
					 "--direct=1", "--replay_no_stall=1", "--output-format=json"));
	uint64_t rd = jget_u64(run, "read.ios"), wr = jget_u64(run, "write.ios");
	/* the replay issued the trace's I/Os: its read share and mean size
	 * are the trace's */
	assert_int_equal(rd + wr, m->ios);
	assert_int_equal(rd, m->reads);
	assert_int_equal(jget_u64(run, "read.bytes") + jget_u64(run, "write.bytes"), m->bytes);

	char *html = fixture_report_html(dir, "r.html", ARGS("app", "--replay=replay.json"));
	expect_has(html, "<h4>Replayed against original: the trace at 8 threads</h4>");
	snprintf(o1, sizeof(o1), "%.0f", jget_double(run, "total.iops"));
	expect_row(html, "IOPS", "3000", o1); /* the fixture's 2100 + 900 */
	snprintf(o1, sizeof(o1), "%.1f", (double)m->reads / m->ios * 100);
	expect_row(html, "read share (%)", o1, o1);
	snprintf(o1, sizeof(o1), "%.1f", (double)m->bytes / m->ios / 1024);
	expect_row(html, "mean I/O size (KiB)", o1, o1);
	/* await weighted by IOPS: (0.21 x 2100 + 0.43 x 900) / 3000 */
	snprintf(o2, sizeof(o2), "%.3f", jget_double(run, "total.lat_ns.mean") / 1e6);
	expect_row(html, "mean latency (ms)", "0.276", o2);
	snprintf(o1, sizeof(o1), "16K %.0f %%, 8K %.0f %%, 4K %.0f %%",
		 m->n16k * 100.0 / m->ios, m->n8k * 100.0 / m->ios, m->n4k * 100.0 / m->ios);
	expect_has(html, o1);
	free(html);
	json_object_put(run);
}

static void test_replayed_against_original(void **state)
{
	const char *dir = *state;
	char p[4400];
	struct made m;
	make_app(dir, &m);
	snprintf(p, sizeof(p), "%s/tgt", dir);
	make_file(p, 64 << 20);
	check_replay(dir, &m, "tgt");
}

/* The loop devices of the captured test: detached in the teardown, also
 * after a failure. */
static char img[2][64], dev[2][64];

static bool have_tool(const char *name)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "PATH=$PATH:/usr/sbin:/sbin command -v %s >/dev/null", name);
	return system(cmd) == 0;
}

/* `iochar capture DEV --time=3s -o trace` started, stderr to errpath;
 * back once it says it is tracing (at most 10 s). */
static pid_t start_capture(const char *device, const char *trace, const char *errpath)
{
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		dup2(fd, 1);
		execl(iochar_path(), "iochar", "capture", device, "--time=3s", "-o", trace,
		      (char *)NULL);
		_exit(127);
	}
	assert_true(pid > 0);
	for (int t = 0; t < 1000; t++) {
		size_t len = 0;
		char *text = file_exists(errpath) ? file_slurp(errpath, &len) : NULL;
		bool tracing = text && strstr(text, "capture: tracing");
		free(text);
		if (tracing)
			return pid;
		if (waitpid(pid, NULL, WNOHANG) == pid)
			fail_msg("capture ended before tracing (see %s)", errpath);
		nanosleep(&(struct timespec){0, 10000000L}, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	fail_msg("capture did not start tracing in 10 s");
	return -1;
}

/* A 70:30 mix of 16K and 4K direct I/Os on a loop device, captured,
 * replayed onto another. */
static void test_captured_replayed(void **state)
{
	const char *dir = *state;
	char trace[4400], errp[4400], fn[128];
	struct proc_out po;
	int st;
	if (!is_root() || !have_tool("blktrace") || !have_tool("blkparse")) {
		print_message("SKIP: capture needs root and blktrace (Debian package blktrace)\n");
		skip();
	}
	for (int i = 0; i < 2; i++) {
		snprintf(img[i], sizeof(img[i]), "/dev/shm/iochar-appr-%d-%d.img", (int)getpid(), i);
		if (!loop_attach(img[i], 16 << 20, 512, dev[i], sizeof(dev[i])))
			skip();
	}
	snprintf(trace, sizeof(trace), "%s/captured.bin", dir);
	snprintf(errp, sizeof(errp), "%s/capture.txt", dir);
	pid_t pid = start_capture(dev[0], trace, errp);
	snprintf(fn, sizeof(fn), "--filename=%s", dev[0]);
	run_iochar(&po, dir, 0, ARGS("run", "--name=w", fn, "--rw=randrw", "--rwmixread=70",
				     "--bssplit=16k/60:4k/40", "--number_ios=300", "--size=8m",
				     "--direct=1", "--ioengine=psync", "--force"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail_msg("capture failed (see %s)", errp);
	struct made m;
	make_app_of(dir, &m, trace);
	assert_true(m.ios >= 300); /* the workload's, and any probe of the device */
	assert_true(m.n16k > 0 && m.n4k > 0);
	check_replay(dir, &m, dev[1]);
}

static int teardown(void **state)
{
	for (int i = 0; i < 2; i++) {
		if (dev[i][0])
			loop_detach(dev[i]);
		if (img[i][0])
			unlink(img[i]);
	}
	return tmpdir_teardown(state);
}

static void refused(const char *dir, const char *replay, const char *want)
{
	struct proc_out po;
	char arg[256], out[4400];
	snprintf(arg, sizeof(arg), "--replay=%s", replay);
	run_iochar(&po, dir, 0, ARGS("report", "app", arg, "-o", "no.html"));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, want);
	snprintf(out, sizeof(out), "%s/no.html", dir);
	assert_false(file_exists(out));
	proc_out_free(&po);
}

static void test_replay_refused(void **state)
{
	const char *dir = *state;
	char p[4400];
	struct made m;
	make_app(dir, &m);
	snprintf(p, sizeof(p), "%s/other-T8.bin", dir);
	make_trace(p, &m);
	snprintf(p, sizeof(p), "%s/tgt", dir);
	make_file(p, 64 << 20);
	json_object_put(run_json(dir, "other.json",
				 ARGS("run", "--name=o", "--read_iolog=other-T8.bin",
				      "--replay_redirect=tgt", "--force", "--ioengine=psync",
				      "--replay_no_stall=1", "--output-format=json")));
	refused(dir, "other.json", "--replay=other.json: replays no trace of the application runs");
	json_object_put(run_json(dir, "plain.json",
				 ARGS("run", "--name=p", "--filename=tgt", "--force", "--rw=read", "--bs=64k",
				      "--size=1m", "--ioengine=psync", "--output-format=json")));
	refused(dir, "plain.json", "--replay=plain.json: replays no trace");
	refused(dir, "missing.json", "missing.json");
	struct proc_out po;
	run_iochar(&po, dir, 0, ARGS("compare", "app", "app", "--replay=other.json"));
	expect_exit(&po, 2);
	expect_has(po.err, "--replay: the report's");
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replayed_against_original),
		cmocka_unit_test(test_replay_refused),
		cmocka_unit_test(test_captured_replayed),
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, teardown);
}
