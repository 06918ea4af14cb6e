/* test_fio_logz.c - log_compression and log_store_compressed against fio
 * 3.33 itself, the same 1 MiB of 4 KiB random reads through both:
 *   - log_store_compressed=1 (with log_compression=4k, and without it):
 *     the same FILE.fz names as fio's; each of iochar's files inflates,
 *     with fio --inflate-log and with iochar's, to the same text, one line
 *     per I/O (256) in the latency logs, as fio's files do; with 4k
 *     chunks iochar's file holds several zlib streams (fio's format);
 *   - log_offset=1, log_prio=1: the lines fio inflates from iochar's
 *     file have the offset and the 0x priority columns, as from fio's;
 *   - log_compression alone: the text logs, as fio writes them;
 *   - log_compression=512 (below fio's 1k): refused by both, iochar in
 *     one line naming it, exit 2; log_store_compressed with
 *     write_hist_log: refused by iochar (docs/fio-compat.md).
 * Every run: exit 0 and nothing on stderr. SKIP when fio is missing.
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
#include <sys/wait.h>
#include <zlib.h>

#include "fio_side.h"
#include "harness.h"

#define JOB "--name=j --filename=data --size=1m --bs=4k --rw=randread --write_lat_log=x "

/* Run tool with args in dir/sub (made, emptied of logs first). */
static void run(const char *dir, const char *tool, const char *args)
{
	char cmd[8192];
	bool fio = !strcmp(tool, "fio");
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/%s' && cd '%s/%s' && rm -f x_* && timeout 60 %s%s %s "
		 "--output-format=json > out.json 2> err.txt",
		 dir, tool, dir, tool, fio ? "fio" : iochar_path(), fio ? "" : " run", args);
	int st = system(cmd);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail_msg("%s %s: exit %d", tool, args, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	char path[4300];
	snprintf(path, sizeof(path), "%s/%s/err.txt", dir, tool);
	char *err = file_slurp(path, NULL);
	assert_non_null(err);
	if (err[0])
		fail_msg("%s %s: stderr: %s", tool, args, err);
	free(err);
}

/* What reader ("fio" or iochar) prints for --inflate-log=path (malloc'd). */
static char *inflated(const char *reader, const char *path)
{
	char cmd[8192], out[4300];
	bool fio = !strcmp(reader, "fio");
	snprintf(out, sizeof(out), "%s.txt", path);
	snprintf(cmd, sizeof(cmd), "timeout 60 %s%s --inflate-log='%s' > '%s' 2>/dev/null",
		 fio ? "fio" : iochar_path(), fio ? "" : " run", path, out);
	assert_true(system(cmd) != -1);
	char *t = file_slurp(out, NULL);
	assert_non_null(t);
	return t;
}

/* How many zlib streams the file at path holds back to back. */
static unsigned streams(const char *path)
{
	size_t len;
	unsigned char *in = (unsigned char *)file_slurp(path, &len);
	unsigned char out[65536];
	unsigned n = 0;
	z_stream z = {0};
	assert_non_null(in);
	assert_int_equal(inflateInit(&z), Z_OK);
	z.next_in = in;
	z.avail_in = (uInt)len;
	while (z.avail_in) {
		z.next_out = out;
		z.avail_out = sizeof(out);
		int r = inflate(&z, Z_NO_FLUSH);
		if (r == Z_STREAM_END) {
			n++;
			inflateReset(&z);
		} else if (r != Z_OK) {
			break;
		}
	}
	inflateEnd(&z);
	free(in);
	return n;
}

/* The number of ", "-separated columns of the first line of t. */
static unsigned columns(const char *t)
{
	unsigned c = 1;
	for (; *t && *t != '\n'; t++)
		c += *t == ',';
	return c;
}

/* args through both; the .fz files alike and readable by both readers:
 * returns the columns of the lat log's lines. */
static unsigned same_fz(const char *dir, const char *args, unsigned min_streams)
{
	run(dir, "fio", args);
	run(dir, "iochar", args);
	char sub[4300];
	snprintf(sub, sizeof(sub), "%s/fio", dir);
	char *lf = side_listing(sub, ".fz");
	snprintf(sub, sizeof(sub), "%s/iochar", dir);
	char *li = side_listing(sub, ".fz");
	assert_string_equal(li, lf);
	expect_has(li, "x_lat.1.log.fz");
	free(lf);
	free(li);
	unsigned cols = 0;
	static const char *const logs[] = {"x_lat.1.log.fz", "x_clat.1.log.fz"};
	for (size_t k = 0; k < 2; k++) {
		char pf[4400], pi[4400];
		snprintf(pf, sizeof(pf), "%s/fio/%s", dir, logs[k]);
		snprintf(pi, sizeof(pi), "%s/iochar/%s", dir, logs[k]);
		char *by_fio = inflated("fio", pi), *by_ioc = inflated("iochar", pi);
		char *fio_own = inflated("fio", pf);
		assert_string_equal(by_ioc, by_fio);
		if (count_lines(by_fio) != 256 || count_lines(fio_own) != 256)
			fail_msg("%s %s: %u lines from iochar's, %u from fio's", args, logs[k],
				 count_lines(by_fio), count_lines(fio_own));
		assert_int_equal(columns(by_fio), columns(fio_own));
		cols = columns(by_fio);
		if (streams(pi) < min_streams)
			fail_msg("%s: %u zlib streams, not at least %u", pi, streams(pi),
				 min_streams);
		free(by_fio);
		free(by_ioc);
		free(fio_own);
	}
	return cols;
}

static void test_store(void **state)
{
	side_need_fio();
	assert_int_equal(same_fz(*state, JOB "--log_compression=4k --log_store_compressed=1", 2),
			 5);
	assert_int_equal(same_fz(*state, JOB "--log_store_compressed=1", 1), 5);
	assert_int_equal(same_fz(*state, JOB "--log_compression=4k --log_store_compressed=1 "
				 "--log_offset=1 --log_prio=1", 2), 6);
	char path[4300];
	snprintf(path, sizeof(path), "%s/iochar/x_lat.1.log.fz", (const char *)*state);
	char *t = inflated("fio", path);
	expect_has(t, ", 0x");
	free(t);
}

static void test_text(void **state)
{
	side_need_fio();
	run(*state, "fio", JOB "--log_compression=4k");
	run(*state, "iochar", JOB "--log_compression=4k");
	char sub[4300];
	snprintf(sub, sizeof(sub), "%s/fio", (const char *)*state);
	char *lf = side_listing(sub, ".log");
	snprintf(sub, sizeof(sub), "%s/iochar", (const char *)*state);
	char *li = side_listing(sub, ".log");
	assert_string_equal(li, lf);
	expect_has(li, "x_lat.1.log");
	free(lf);
	free(li);
	snprintf(sub, sizeof(sub), "%s/iochar/x_lat.1.log", (const char *)*state);
	char *t = file_slurp(sub, NULL);
	assert_non_null(t);
	assert_int_equal(count_lines(t), 256);
	free(t);
}

static void test_refused(void **state)
{
	struct proc_out po;
	side_need_fio();
	char cmd[4400];
	snprintf(cmd, sizeof(cmd), "cd '%s' && fio " JOB "--log_compression=512 >/dev/null 2>&1",
		 (const char *)*state);
	assert_int_not_equal(system(cmd), 0);
	static const char *const a1[] = {"run", "--name=j", "--filename=data", "--size=1m",
					 "--write_lat_log=x", "--log_compression=512", NULL};
	run_iochar(&po, *state, 0, a1);
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, "log_compression=512");
	proc_out_free(&po);
	static const char *const a2[] = {"run", "--name=j", "--filename=data", "--size=1m",
					 "--write_hist_log=x", "--log_hist_msec=10",
					 "--log_store_compressed=1", NULL};
	run_iochar(&po, *state, 0, a2);
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, "log_store_compressed");
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_store, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_text, tmpdir_setup, tmpdir_teardown),
	    cmocka_unit_test_setup_teardown(test_refused, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
