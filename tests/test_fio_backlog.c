/* test_fio_backlog.c - verify_backlog and verify_backlog_batch against
 * fio 3.33 on the same job: each tool writes its own file under
 * strace -y (psync, depth 1: fio's order is then its rule's, not the
 * clock's) and the data file's preads and pwrites are compared as a
 * sequence of (direction, offset, length):
 *  - rw=write, backlog 8, batch 4: the same sequence, call for call;
 *  - rw=write:4k (holes: fio's sorted log), backlog 3: the same;
 *  - rw=randwrite, backlog 5, batch 2 (random offsets are each tool's
 *    own): the same sequence of directions and lengths, and every read
 *    is of a block written and not yet read, the oldest such (fio's
 *    list), in both;
 *  - do_verify=0: fio logs nothing, no read in either;
 * iochar's JSON says every block read back was checked, none failed.
 * Bad values are one line naming the option, exit 2, nothing written.
 * SKIP without fio or strace. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "trace_compare.h"

#define MAX_OPS 1024

struct op {
	char dir; /* 'r' or 'w' */
	unsigned long long off, len;
};

struct ops {
	unsigned n;
	struct op o[MAX_OPS];
};

/* The preads and pwrites on d.dat in the strace -y trace at path. */
static void read_ops(const char *path, struct ops *out)
{
	FILE *f = fopen(path, "r");
	char line[8192];

	out->n = 0;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f) && out->n < MAX_OPS) {
		const char *p = strstr(line, "pread64(");
		char dir = 'r';
		if (!p && (p = strstr(line, "pwrite64(")))
			dir = 'w';
		if (!p || !strstr(p, "/d.dat>"))
			continue;
		/* ..., LEN, OFF) = N */
		const char *end = strstr(p, ") = ");
		if (!end)
			continue;
		const char *c2 = end;
		while (c2 > p && *c2 != ',')
			c2--;
		const char *c1 = c2 - 1;
		while (c1 > p && *c1 != ',')
			c1--;
		struct op *o = &out->o[out->n++];
		o->dir = dir;
		o->len = strtoull(c1 + 1, NULL, 10);
		o->off = strtoull(c2 + 1, NULL, 10);
	}
	fclose(f);
}

static void run_both(const char *dir, const char *job, struct ops *fo,
		     struct ops *io)
{
	char p[4096];

	assert_int_equal(tc_sh("mkdir -p %s/fio %s/ioc", dir, dir), 0);
	assert_int_equal(tc_sh("cd %s/fio && timeout 60 strace -f -y -qq -e "
			       "trace=pread64,pwrite64 -o tr fio --name=j "
			       "--filename=d.dat --ioengine=psync --bs=4k "
			       "--verify=crc32c %s --output-format=json "
			       ">out.json 2>err.txt", dir, job), 0);
	assert_int_equal(tc_sh("cd %s/ioc && " TC_UNDER_STRACE "timeout 60 "
			       "strace -f -y -qq -e trace=pread64,pwrite64 -o tr "
			       "%s run --name=j --filename=d.dat --ioengine=psync "
			       "--bs=4k --verify=crc32c %s --output-format=json "
			       ">out.json 2>err.txt", dir, tc_iochar, job), 0);
	snprintf(p, sizeof(p), "%s/fio/tr", dir);
	read_ops(p, fo);
	snprintf(p, sizeof(p), "%s/ioc/tr", dir);
	read_ops(p, io);
	print_message("%s: fio %u calls, iochar %u\n", job, fo->n, io->n);
}

/* iochar's verify counts (the run's): every read checked, none failed. */
static void expect_checked(const char *dir, unsigned reads)
{
	json_object *doc = tc_load_json(dir, "ioc/out.json");

	assert_int_equal(jget_u64(doc, "verify.checked_units"), reads);
	assert_int_equal(jget_u64(doc, "verify.failures"), 0);
	json_object_put(doc);
	assert_int_equal(tc_sh("rm -rf %s/fio %s/ioc", dir, dir), 0);
}

static unsigned count_dir(const struct ops *o, char d)
{
	unsigned n = 0;
	for (unsigned i = 0; i < o->n; i++)
		n += o->o[i].dir == d;
	return n;
}

static void expect_same_ops(const struct ops *f, const struct ops *i,
			    bool offsets)
{
	assert_int_equal(f->n, i->n);
	for (unsigned k = 0; k < f->n; k++)
		if (f->o[k].dir != i->o[k].dir || f->o[k].len != i->o[k].len ||
		    (offsets && f->o[k].off != i->o[k].off))
			fail_msg("call %u: fio %c %llu+%llu, iochar %c %llu+%llu",
				 k, f->o[k].dir, f->o[k].off, f->o[k].len,
				 i->o[k].dir, i->o[k].off, i->o[k].len);
}

/* Each read is of the oldest block written and not yet read. */
static void expect_fifo(const char *tool, const struct ops *o)
{
	unsigned long long pending[MAX_OPS];
	unsigned head = 0, tail = 0;

	for (unsigned k = 0; k < o->n; k++) {
		if (o->o[k].dir == 'w') {
			pending[tail++] = o->o[k].off;
			continue;
		}
		if (head == tail || pending[head] != o->o[k].off)
			fail_msg("%s: read %u of offset %llu is not the oldest "
				 "unread write", tool, k, o->o[k].off);
		head++;
	}
	assert_int_equal(head, tail);
}

static void test_sequential(void **state)
{
	static struct ops f, i;

	tc_skip_without_tools();
	run_both(*state, "--rw=write --size=256k --verify_backlog=8 "
			 "--verify_backlog_batch=4", &f, &i);
	assert_int_equal(count_dir(&f, 'r'), 64);
	expect_same_ops(&f, &i, true);
	expect_checked(*state, 64);
	run_both(*state, "--rw=write:4k --size=256k --verify_backlog=3", &f, &i);
	assert_true(count_dir(&f, 'r') > 0);
	expect_same_ops(&f, &i, true);
	expect_checked(*state, count_dir(&i, 'r'));
}

static void test_random(void **state)
{
	static struct ops f, i;

	tc_skip_without_tools();
	run_both(*state, "--rw=randwrite --size=128k --verify_backlog=5 "
			 "--verify_backlog_batch=2", &f, &i);
	assert_int_equal(count_dir(&f, 'r'), 32);
	expect_same_ops(&f, &i, false);
	expect_fifo("fio", &f);
	expect_fifo("iochar", &i);
	expect_checked(*state, 32);
}

static void test_no_do_verify(void **state)
{
	static struct ops f, i;

	tc_skip_without_tools();
	run_both(*state, "--rw=write --size=64k --verify_backlog=4 "
			 "--do_verify=0", &f, &i);
	assert_int_equal(count_dir(&f, 'r'), 0);
	expect_same_ops(&f, &i, true);
	assert_int_equal(tc_sh("rm -rf %s/fio %s/ioc", (char *)*state,
			       (char *)*state), 0);
}

static void test_bad_values(void **state)
{
	static const char *const bad[][2] = {
	    {"--verify_backlog=-1", "verify_backlog=-1"},
	    {"--verify_backlog=x", "verify_backlog=x"},
	    {"--verify_backlog_batch=1q", "verify_backlog_batch=1q"},
	    {"--verify_backlog=4", "verify_backlog=4"}, /* with verify=1 */
	};
	char dir[4096];

	snprintf(dir, sizeof(dir), "%s/bad", (char *)*state);
	assert_int_equal(tc_sh("mkdir -p %s", dir), 0);
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		const char *args[] = {"run", "--name=j", "--rw=write",
				      "--size=64k", "--filename=d.dat",
				      "--ioengine=psync",
				      k == 3 ? "--verify=1" : "--verify=md5",
				      bad[k][0], NULL};
		struct proc_out po;
		run_iochar(&po, dir, 0, args);
		expect_exit(&po, 2);
		expect_has(po.err, bad[k][1]);
		assert_int_equal(count_lines(po.err), 1);
		proc_out_free(&po);
		assert_int_equal(tc_sh("test -z \"$(ls -A %s)\"", dir), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_sequential, tc_setup, tc_teardown),
	    cmocka_unit_test_setup_teardown(test_random, tc_setup, tc_teardown),
	    cmocka_unit_test_setup_teardown(test_no_do_verify, tc_setup, tc_teardown),
	    cmocka_unit_test_setup_teardown(test_bad_values, tc_setup, tc_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
