/* test_fio_disk.c - fio's disk utilization (disk_util[] in the JSON, "Disk
 * stats (read/write):" in the normal output, the terse line's disk
 * sections), checked against fio 3.33 on the same jobs: on a loop device
 * the test makes, the same entry (name, keys in fio's order, their JSON
 * types) and I/O counts that match what each tool issued; on a file in a
 * directory of the root disk, the same device named; on tmpfs, or with
 * disk_util=0, none in either. fio stops counting at its helper thread's last 250 ms tick, so
 * its counts may miss the run's tail (docs/output.md): iochar's must match
 * its I/Os, fio's may be lower, never higher. SKIP without fio or root. */
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

#include "fio_side.h"
#include "harness.h"

#define SLACK_IOS 64 /* other readers of the device (udev's probe) */

struct fx {
	struct scratch s; /* first: scratch_setup/teardown */
};

static int setup(void **state)
{
	return scratch_setup(state, sizeof(struct fx));
}

static json_object *disks(json_object *doc)
{
	json_object *a = NULL;
	assert_true(json_object_object_get_ex(doc, "disk_util", &a));
	assert_true(json_object_is_type(a, json_type_array));
	return a;
}

/* The entry named name in doc's disk_util[], or fail. */
static json_object *disk_named(json_object *doc, const char *name)
{
	json_object *a = disks(doc);
	for (size_t i = 0; i < json_object_array_length(a); i++) {
		json_object *e = json_object_array_get_idx(a, i);
		if (!strcmp(json_object_get_string(jget(e, "name")), name))
			return e;
	}
	fail_msg("no disk_util entry named %s", name);
	return NULL;
}

/* The same keys, in the same order, with values of the same JSON type
 * (fio's util is a double, its counts integers). */
static void same_keys(json_object *f, json_object *i)
{
	struct json_object_iterator fi = json_object_iter_begin(f),
				    fe = json_object_iter_end(f),
				    ii = json_object_iter_begin(i),
				    ie = json_object_iter_end(i);
	for (; !json_object_iter_equal(&fi, &fe); json_object_iter_next(&fi),
						  json_object_iter_next(&ii)) {
		assert_false(json_object_iter_equal(&ii, &ie));
		const char *k = json_object_iter_peek_name(&fi);
		assert_string_equal(k, json_object_iter_peek_name(&ii));
		json_type tf = json_object_get_type(json_object_iter_peek_value(&fi));
		json_type ti = json_object_get_type(json_object_iter_peek_value(&ii));
		if (tf == json_type_double || ti == json_type_double) /* 0 prints as int */
			assert_true(ti == json_type_double || ti == json_type_int);
		else
			assert_int_equal(tf, ti);
	}
	assert_true(json_object_iter_equal(&ii, &ie));
}

static void counts_match(json_object *doc, const char *dev, const char *who, bool exact)
{
	json_object *e = disk_named(doc, dev);
	static const char *const dirs[2] = {"read", "write"};
	for (int d = 0; d < 2; d++) {
		char key[32];
		snprintf(key, sizeof(key), "%s_ios", dirs[d]);
		uint64_t disk = jget_u64(e, key);
		uint64_t ios = (uint64_t)side_jobs_sum(doc, dirs[d], "total_ios");
		printf("%s: %s issued %llu, the disk counted %llu\n", who, dirs[d],
		       (unsigned long long)ios, (unsigned long long)disk);
		assert_true(ios > 0);
		assert_true(disk <= ios + SLACK_IOS);
		/* fio's tail: a paced run of about 1 s loses at most 250 ms */
		assert_true(exact ? disk >= ios : disk >= ios / 2);
	}
	/* Not > 0: the kernel adds to io_ticks only for a jiffy an I/O was in
	 * flight at, so a loop device's microsecond I/Os leave it near 0 (fio
	 * 3.33 printed util 0 here on kernel 6.18, iochar 0.2). */
	assert_true(jget_double(e, "util") >= 0 && jget_double(e, "util") <= 100);
}

/* A loop device: fio and iochar, one after the other (their counts would
 * mix), the same paced randrw job on it. */
static void test_loop_device(void **state)
{
	struct fx *fx = *state;
	char backing[4200], opts[512];
	side_need_fio();
	if (!is_root()) {
		printf("SKIP: needs root (a loop device)\n");
		skip();
	}
	snprintf(backing, sizeof(backing), "%s/back.img", fx->s.dir);
	if (!loop_attach(backing, 64ull << 20, 512, fx->s.dev, sizeof(fx->s.dev)))
		skip();
	snprintf(opts, sizeof(opts),
		 "--name=d --filename=%s --size=16m --rw=randrw --bs=4k --direct=1 "
		 "--ioengine=psync --rate_iops=2000", fx->s.dev);
	assert_int_equal(side_run("fio", fx->s.dir, "fio", opts), 0);
	assert_int_equal(side_run("iochar", fx->s.dir, "iochar", opts), 0);
	json_object *f = side_json(fx->s.dir, "fio"), *i = side_json(fx->s.dir, "iochar");
	assert_non_null(f);
	assert_non_null(i);
	const char *dev = strrchr(fx->s.dev, '/') + 1;
	assert_int_equal(json_object_array_length(disks(f)), 1);
	assert_int_equal(json_object_array_length(disks(i)), 1);
	same_keys(disk_named(f, dev), disk_named(i, dev));
	counts_match(f, dev, "fio", false);
	counts_match(i, dev, "iochar", true);
	json_object_put(f);
	json_object_put(i);
}

/* The names of doc's disks, sorted by fio's order, joined by ','. */
static void names(json_object *doc, char *out, size_t len)
{
	json_object *a = disks(doc);
	out[0] = '\0';
	for (size_t k = 0; k < json_object_array_length(a); k++) {
		size_t n = strlen(out);
		snprintf(out + n, len - n, "%s%s", k ? "," : "",
			 json_object_get_string(jget(json_object_array_get_idx(a, k), "name")));
	}
}

/* fio ran and wrote its JSON (test_which_device's tmpfs file). */
static const char *fio_ran(int rc, json_object *doc, char *why, size_t len)
{
	if (!rc && doc)
		return NULL;
	snprintf(why, len, "exit %d%s", rc, rc ? "" : ", no JSON");
	return why;
}

/* A file on the root disk (the tmpdir is under /var/tmp), then one on
 * tmpfs: the same devices named by both, none for tmpfs. */
static void test_which_device(void **state)
{
	struct fx *fx = *state;
	char opts[4400], nf[256], ni[256];
	side_need_fio();
	snprintf(opts, sizeof(opts),
		 "--name=d --filename=f.dat --size=4m --rw=randread --bs=4k --ioengine=psync");
	json_object *f, *i;
	side_run_both_json(fx->s.dir, opts, &f, &i);
	names(f, nf, sizeof(nf));
	names(i, ni, sizeof(ni));
	printf("root disk: fio names '%s', iochar '%s'\n", nf, ni);
	assert_string_equal(nf, ni);
	json_object_put(f);
	json_object_put(i);

	/* one file per tool: run at the same time on one path, one's
	 * unlink=1 removed the file the other was about to open (fio exit 1
	 * on a busy machine); fio may still fail on its own under load, so it
	 * gets up to 3 runs (side_fio_tries) */
	char fopts[4400];
	int rf, ri;
	snprintf(opts, sizeof(opts),
		 "--name=d --filename=/dev/shm/iochar-disk-%d.dat --size=1m --rw=read "
		 "--bs=4k --ioengine=psync --unlink=1", (int)getpid());
	snprintf(fopts, sizeof(fopts),
		 "--name=d --filename=/dev/shm/iochar-disk-%d-fio.dat --size=1m "
		 "--rw=read --bs=4k --ioengine=psync --unlink=1", (int)getpid());
	rf = side_run("fio", fx->s.dir, "fio", fopts);
	ri = side_run("iochar", fx->s.dir, "iochar", opts);
	assert_int_equal(ri, 0);
	f = rf == 0 ? side_json(fx->s.dir, "fio") : NULL;
	i = side_json(fx->s.dir, "iochar");
	assert_non_null(i);
	side_fio_tries(fx->s.dir, fopts, rf, &f, fio_ran, 3);
	/* fio leaves the key out when it watched no disk; iochar writes an
	 * empty list (docs/output.md), so `for d in doc["disk_util"]` works */
	json_object *none = NULL;
	if (json_object_object_get_ex(f, "disk_util", &none))
		assert_int_equal(json_object_array_length(none), 0);
	assert_int_equal(json_object_array_length(disks(i)), 0);
	json_object_put(f);
	json_object_put(i);

	/* disk_util=0: none watched, in either */
	snprintf(opts, sizeof(opts),
		 "--name=d --filename=g.dat --size=1m --rw=read --bs=4k --ioengine=psync "
		 "--disk_util=0");
	side_run_both_json(fx->s.dir, opts, &f, &i);
	if (json_object_object_get_ex(f, "disk_util", &none))
		assert_int_equal(json_object_array_length(none), 0);
	assert_int_equal(json_object_array_length(disks(i)), 0);
	json_object_put(f);
	json_object_put(i);
}

/* The normal output: fio's heading and a "NAME: ios=R/W, merge=..., ticks=
 * ..., in_queue=N, util=P%" line; the same fields in both. */
static void test_normal_lines(void **state)
{
	struct fx *fx = *state;
	char cmd[8192], fio_line[1024] = "", path[4300];
	struct proc_out po;
	side_need_fio();
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && timeout 60 fio --name=t --filename=n.dat --size=4m --rw=randread "
		 "--ioengine=psync | grep -A1 '^Disk stats (read/write):$' | tail -1", fx->s.dir);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(fio_line, sizeof(fio_line), p));
	pclose(p);
	snprintf(path, sizeof(path), "--filename=%s/m.dat", fx->s.dir);
	run_iochar(&po, fx->s.dir, 0,
		   ARGS("run", "--name=t", path, "--size=4m", "--rw=randread", "--ioengine=psync"));
	expect_exit(&po, 0);
	char *h = strstr(po.out, "\nDisk stats (read/write):\n");
	assert_non_null(h);
	char *line = h + strlen("\nDisk stats (read/write):\n");
	line[strcspn(line, "\n")] = '\0';
	printf("fio:    %siochar: %s\n", fio_line, line);
	/* the same words, the numbers aside */
	char a[1024], b[1024];
	size_t na = 0, nb = 0;
	for (const char *s = fio_line; *s && *s != '\n'; s++)
		if (!(*s >= '0' && *s <= '9') && *s != '.')
			a[na++] = *s;
	for (const char *s = line; *s; s++)
		if (!(*s >= '0' && *s <= '9') && *s != '.')
			b[nb++] = *s;
	a[na] = b[nb] = '\0';
	assert_string_equal(a, b);
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_loop_device, setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_which_device, setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_normal_lines, setup, scratch_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
