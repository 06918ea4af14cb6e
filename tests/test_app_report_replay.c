/* test_app_report_replay.c - `iochar report DIR --replay=RUN.json`: an
 * application run whose 8-thread point left a blktrace dump (built here
 * record by record in the binary format `iochar capture` writes: queue
 * and completion events of 16K reads and 4K/8K writes), replayed by a
 * real `iochar run --read_iolog=DIR/trace-T8.bin` onto a file; the
 * report's "replayed against original" table shows the point's device
 * figures and trace summary beside the run JSON's figures, and the
 * replay keeps the trace's read share and mean size. A replay of no
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
#include <sys/stat.h>

#include "base/blktrace.h"
#include "harness.h"
#include "report_fixture.h"

#define NR_IOS 240
#define DEV ((7u << 20) | 9u) /* 7:9, a loop device: never opened (redirected) */
#define QUEUE (BLKTRACE_TA_QUEUE | BLKTRACE_ACT(BLKTRACE_TC_QUEUE))
#define COMPLETE (BLKTRACE_TA_COMPLETE | BLKTRACE_ACT(BLKTRACE_TC_COMPLETE))

struct made {
	unsigned reads, n4k, n8k, n16k;
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

static json_object *size_entry(uint64_t bytes, unsigned n)
{
	json_object *e = json_object_new_object();
	json_object_object_add(e, "bytes", json_object_new_int64((int64_t)bytes));
	json_object_object_add(e, "share", json_object_new_double((double)n / NR_IOS));
	return e;
}

/* DIR/app: the fixture run whose 8-thread point has the trace made. */
static void make_app(const char *dir, struct made *m)
{
	char p[4400];
	snprintf(p, sizeof(p), "%s/app", dir);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/app/trace-T8.bin", dir);
	make_trace(p, m);
	json_object *o = json_object_from_file("tests/fixtures/app/a/results.json");
	assert_non_null(o);
	json_object *pt = json_object_array_get_idx(jget(o, "points"), 3);
	json_object *sum = json_object_new_object(), *sizes = json_object_new_array();
	json_object_object_add(sum, "ios", json_object_new_int(NR_IOS));
	json_object_object_add(sum, "read_share", json_object_new_double((double)m->reads / NR_IOS));
	json_object_object_add(sum, "bytes", json_object_new_int64((int64_t)m->bytes));
	json_object_array_add(sizes, size_entry(16384, m->n16k));
	json_object_array_add(sizes, size_entry(8192, m->n8k));
	json_object_array_add(sizes, size_entry(4096, m->n4k));
	json_object_object_add(sum, "sizes", sizes);
	json_object_object_add(pt, "trace_summary", sum);
	snprintf(p, sizeof(p), "%s/app/results.json", dir);
	assert_int_equal(json_object_to_file(p, o), 0);
	json_object_put(o);
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

static void test_replayed_against_original(void **state)
{
	const char *dir = *state;
	char p[4400], o1[64], o2[64];
	struct made m;
	make_app(dir, &m);
	snprintf(p, sizeof(p), "%s/tgt", dir);
	make_file(p, 64 << 20);
	json_object *run = run_json(dir, "replay.json",
				    ARGS("run", "--name=replay", "--read_iolog=app/trace-T8.bin",
					 "--replay_redirect=tgt", "--force", "--ioengine=psync", "--iodepth=1",
					 "--replay_no_stall=1", "--output-format=json"));
	uint64_t rd = jget_u64(run, "read.ios"), wr = jget_u64(run, "write.ios");
	/* the replay issued the trace's I/Os: its read share and mean size
	 * are the trace's */
	assert_int_equal(rd + wr, NR_IOS);
	assert_int_equal(rd, m.reads);
	assert_int_equal(jget_u64(run, "read.bytes") + jget_u64(run, "write.bytes"), m.bytes);

	char *html = fixture_report_html(dir, "r.html", ARGS("app", "--replay=replay.json"));
	expect_has(html, "<h4>Replayed against original: the trace at 8 threads</h4>");
	snprintf(o1, sizeof(o1), "%.0f", jget_double(run, "total.iops"));
	expect_row(html, "IOPS", "3000", o1); /* the fixture's 2100 + 900 */
	snprintf(o1, sizeof(o1), "%.1f", (double)m.reads / NR_IOS * 100);
	expect_row(html, "read share (%)", o1, o1);
	snprintf(o1, sizeof(o1), "%.1f", (double)m.bytes / NR_IOS / 1024);
	expect_row(html, "mean I/O size (KiB)", o1, o1);
	/* await weighted by IOPS: (0.21 x 2100 + 0.43 x 900) / 3000 */
	snprintf(o2, sizeof(o2), "%.3f", jget_double(run, "total.lat_ns.mean") / 1e6);
	expect_row(html, "mean latency (ms)", "0.276", o2);
	snprintf(o1, sizeof(o1), "16K %.0f %%, 8K %.0f %%, 4K %.0f %%", m.n16k * 100.0 / NR_IOS,
		 m.n8k * 100.0 / NR_IOS, m.n4k * 100.0 / NR_IOS);
	expect_has(html, o1);
	free(html);
	json_object_put(run);
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
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}
