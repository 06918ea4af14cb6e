/* test_engine_wait.c - getevents_until, the engines' wait with a time
 * limit that paced workers sleep in (engine.h): it returns 0 when the time
 * comes first, and the completion as soon as it comes otherwise.
 *
 * io_uring: a read from an empty pipe stays in flight until the test
 * writes to the pipe, so both outcomes are forced. libaio executes reads of
 * pipes and buffered files inside io_submit, so only its return of an
 * already complete I/O is checked, on a /dev/shm file.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "util/clock.h"

#define BS 4096u

struct rig {
	const struct engine_ops *ops;
	void *st;
	struct io_unit unit;
	int fd;
};

static void rig_init(struct rig *r, const char *engine, int fd)
{
	struct ioc_err err = {0};
	memset(r, 0, sizeof(*r));
	r->ops = engine_find(engine);
	assert_non_null(r->ops);
	assert_non_null(r->ops->getevents_until);
	if (r->ops->probe(&err)) {
		print_message("SKIP: %s: %s\n", engine, err.msg);
		skip();
	}
	r->fd = fd;
	assert_int_equal(posix_memalign(&r->unit.buf, 4096, BS), 0);
	r->unit.buflen = BS;
	struct engine_params p = {.fds = &r->fd, .nr_fds = 1, .units = &r->unit, .depth = 1};
	assert_int_equal(r->ops->init(&p, &r->st, &err), 0);
}

static void rig_queue_read(struct rig *r)
{
	r->unit.dir = DIR_READ;
	r->unit.offset = 0;
	r->unit.len = BS;
	r->unit.result = -1;
	enum engine_queue_ret q = r->ops->queue(r->st, &r->unit);
	assert_true(q == ENGINE_QUEUED || q == ENGINE_COMPLETED);
	assert_int_equal(r->ops->commit(r->st), 0);
}

static void rig_free(struct rig *r)
{
	r->ops->cleanup(r->st);
	free(r->unit.buf);
}

static void test_uring_times_out_then_completes(void **state)
{
	(void)state;
	int pfd[2];
	struct rig r;
	char data[BS];

	assert_int_equal(pipe(pfd), 0);
	rig_init(&r, "io_uring", pfd[0]);
	rig_queue_read(&r);
	uint64_t t0 = clock_ns();
	assert_int_equal(r.ops->getevents_until(r.st, 1, t0 + 30000000ull), 0);
	uint64_t waited = clock_ns() - t0;
	/* it slept until the limit (a loaded machine may wake it late) */
	if (waited < 29000000ull || waited > 2000000000ull)
		fail_msg("timed out after %.1f ms, asked 30 ms", (double)waited / 1e6);
	/* a limit already past is a poll */
	assert_int_equal(r.ops->getevents_until(r.st, 1, 1), 0);

	memset(data, 0x5a, sizeof(data));
	assert_int_equal(write(pfd[1], data, sizeof(data)), (ssize_t)sizeof(data));
	t0 = clock_ns();
	assert_int_equal(r.ops->getevents_until(r.st, 1, t0 + 5000000000ull), 1);
	if (clock_ns() - t0 > 2000000000ull)
		fail_msg("the completion waited for the limit");
	assert_ptr_equal(r.ops->event(r.st, 0), &r.unit);
	assert_int_equal(r.unit.result, BS);
	assert_int_equal(((unsigned char *)r.unit.buf)[BS - 1], 0x5a);
	rig_free(&r);
	close(pfd[0]);
	close(pfd[1]);
}

static void test_libaio_returns_what_completed(void **state)
{
	(void)state;
	char path[] = "/dev/shm/iochar-test-wait-XXXXXX";
	int fd = mkstemp(path);
	struct rig r;

	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(ftruncate(fd, 1 << 20), 0);
	rig_init(&r, "libaio", fd);
	rig_queue_read(&r);
	assert_int_equal(r.ops->getevents_until(r.st, 1, clock_ns() + 1000000000ull), 1);
	assert_int_equal(r.unit.result, BS);
	/* nothing in flight: never waits */
	uint64_t t0 = clock_ns();
	assert_int_equal(r.ops->getevents_until(r.st, 1, t0 + 1000000000ull), 0);
	assert_true(clock_ns() - t0 < 500000000ull);
	rig_free(&r);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uring_times_out_then_completes),
		cmocka_unit_test(test_libaio_returns_what_completed),
	};
	return cmocka_run_group_tests_name("engine_wait", tests, NULL, NULL);
}
