/* test_status_line.c - the live status line's text, made from the
 * runner's ticks without running anything: its pieces fit the width by
 * priority, the mean and p99 latency are of the same window (the last
 * second's, not the run's so far), reads and writes are apart in mixed
 * work, and a run over many hosts says its figures are all the hosts'. The
 * line is read from what status_tick writes to fd 2 (a file here). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/status.h"
#include "cmd/status_line.h"
#include "stats/hist.h"
#include "util/text_width.h"

static void test_join_drops_the_least_needed_first(void **state)
{
	(void)state;
	struct status_piece p[4] = {
		{"12s", 0}, {", 48s left", 2}, {": 124k IOPS 482 MB/s", 0}, {" | plan 5m left", 1}};
	char out[256];

	status_line_join(out, sizeof(out), p, 4, 0);
	assert_string_equal(out, "12s, 48s left: 124k IOPS 482 MB/s | plan 5m left");
	status_line_join(out, sizeof(out), p, 4, 40);
	assert_string_equal(out, "12s: 124k IOPS 482 MB/s | plan 5m left");
	status_line_join(out, sizeof(out), p, 4, 30);
	assert_string_equal(out, "12s: 124k IOPS 482 MB/s");
	status_line_join(out, sizeof(out), p, 4, 10); /* the first piece, whole */
	assert_string_equal(out, "12s");
	status_line_join(out, sizeof(out), p, 4, 2); /* cut */
	assert_string_equal(out, "12");
	/* a separator never starts the line */
	struct status_piece q[2] = {{"1s", 3}, {": 5 IOPS", 0}};
	status_line_join(out, sizeof(out), q, 2, 9);
	assert_string_equal(out, "5 IOPS");
}

static void test_widths_are_columns_not_bytes(void **state)
{
	(void)state;
	assert_int_equal(text_width("12 \xc2\xb5s"), 5);	  /* µ: two bytes, one column */
	assert_int_equal(text_width("\xc2\xb1" "1.5 %"), 6); /* ± */
	assert_int_equal(text_width("\xe5\xae\xb9\xe9\x87\x8f"), 4); /* two wide CJK */
	assert_int_equal(text_prefix_len("a\xc2\xb5" "b", 2), 3);
	assert_string_equal(text_suffix("/a/\xc2\xb5/c", 3), "\xc2\xb5/c");
	struct status_piece p[1] = {{"\xc2\xb5\xc2\xb5\xc2\xb5\xc2\xb5", 0}};
	char out[64];
	status_line_join(out, sizeof(out), p, 1, 3);
	assert_string_equal(out, "\xc2\xb5\xc2\xb5\xc2\xb5");
}

/* What status_tick wrote to fd 2 while f stood there. */
struct grab {
	int saved;
	FILE *f;
};

static void grab_start(struct grab *g)
{
	g->f = tmpfile();
	assert_non_null(g->f);
	fflush(stderr);
	g->saved = dup(STDERR_FILENO);
	assert_true(dup2(fileno(g->f), STDERR_FILENO) >= 0);
}

/* The text written since grab_start (malloc'd); fd 2 put back. */
static char *grab_end(struct grab *g)
{
	dup2(g->saved, STDERR_FILENO);
	close(g->saved);
	long n = ftell(g->f) >= 0 ? lseek(fileno(g->f), 0, SEEK_END) : 0;
	char *buf = calloc(1, (size_t)n + 1);
	assert_int_equal(pread(fileno(g->f), buf, (size_t)n, 0), n);
	fclose(g->f);
	return buf;
}

/* The last line drawn in buf (after the last "\r\033[K"). */
static const char *last_line(const char *buf)
{
	const char *at = buf, *p;
	while ((p = strstr(at, "\r\033[K")))
		at = p + 4;
	return at;
}

static void record_n(struct hist *h, unsigned n, uint64_t ns)
{
	for (unsigned i = 0; i < n; i++)
		hist_record(h, ns);
}

/* Second 1: 5000 I/Os at 100 us; second 2: 1000 at 10 us. The run so
 * far has a p99 of 100 us and a mean of 85 us; the second line's mean
 * and p99 must both be the last second's: 10 us. */
static void test_mean_and_p99_of_the_same_window(void **state)
{
	(void)state;
	struct status s;
	struct hist *h = malloc(sizeof(*h));
	uint64_t ios[DIR_COUNT] = {0}, bytes[DIR_COUNT] = {0}, lat_sum = 0;
	struct grab g;

	status_init(&s);
	s.tty = true;
	s.log_every_ns = 0;
	hist_init(h);
	record_n(h, 5000, 100000);
	ios[DIR_READ] = 5000;
	bytes[DIR_READ] = 5000 * 4096;
	lat_sum = 5000ull * 100000;
	grab_start(&g);
	status_tick(&s, 1000000000ull, 10000000000ull, ios, bytes, lat_sum, h);
	record_n(h, 1000, 10000);
	ios[DIR_READ] += 1000;
	bytes[DIR_READ] += 1000 * 4096;
	lat_sum += 1000ull * 10000;
	status_tick(&s, 2000000000ull, 10000000000ull, ios, bytes, lat_sum, h);
	char *buf = grab_end(&g);
	const char *line = last_line(buf);
	if (!strstr(line, "2s, 8s left: 1.00k IOPS 4.10 MB/s, lat 10.0 us p99 10.0 us"))
		fail_msg("not the last second's mean and p99:\n%s", buf);
	assert_null(strstr(line, "r/w"));
	free(buf);
	status_done(&s);
	free(h);
}

/* Reads and writes both ran: each direction's IOPS and MB/s; over many
 * hosts (the runner's sums, no histogram), the line says whose figures
 * they are and gives the mean alone. Within 80 columns. */
static void test_mixed_and_many_hosts(void **state)
{
	(void)state;
	struct status s;
	uint64_t ios[DIR_COUNT] = {3000, 1000}, bytes[DIR_COUNT] = {3000 * 4096, 1000 * 4096};
	struct grab g;

	status_init(&s);
	s.tty = true;
	s.ranks = 4;
	grab_start(&g);
	status_tick(&s, 1000000000ull, 5000000000ull, ios, bytes, 4000 * 20000ull, NULL);
	char *buf = grab_end(&g);
	const char *line = last_line(buf);
	if (!strstr(line, "r/w 3.00k/1.00k IOPS 12.3/4.10 MB/s, lat 20.0 us") ||
	    !strstr(line, "| all 4 hosts"))
		fail_msg("no read/write split or no hosts note:\n%s", buf);
	assert_true(text_width(line) < 80);
	free(buf);
	status_done(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join_drops_the_least_needed_first),
		cmocka_unit_test(test_widths_are_columns_not_bytes),
		cmocka_unit_test(test_mean_and_p99_of_the_same_window),
		cmocka_unit_test(test_mixed_and_many_hosts),
	};
	return cmocka_run_group_tests_name("status_line", tests, NULL, NULL);
}
