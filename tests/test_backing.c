/* test_backing.c - the device a target's I/O ends on
 * (inventory/backing.h): files of one directory share one (a file still
 * to be made too), tmpfs is named as such, a loop device is its backing
 * file's device and a partition of it that same device, so targets that
 * share a drive are seen to; and the results' environment says it. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "harness.h"
#include "inventory/backing.h"
#include "inventory/environment.h"

static void backing(const char *path, char *out)
{
	inventory_backing_device(path, out, INV_BACKING_MAX);
}

static void test_files(void **state)
{
	const char *dir = *state;
	char a[4200], b[4200], da[INV_BACKING_MAX], db[INV_BACKING_MAX], dm[INV_BACKING_MAX];
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	make_file(a, 4096);
	make_file(b, 4096);
	backing(a, da);
	backing(b, db);
	snprintf(b, sizeof(b), "%s/not-yet", dir);
	backing(b, dm);
	assert_string_not_equal(da, "?");
	assert_string_equal(da, db);
	assert_string_equal(da, dm);
	/* a whole disk, never one of its partitions: no digit-p-digit tail
	 * a partition name would have once its disk is a block device */
	assert_null(strchr(da, '/'));
	backing("/nonexistent-dir/x", dm);
	assert_string_equal(dm, "?");
}

static void test_tmpfs(void **state)
{
	(void)state;
	char *dir = shmdir_make();
	char a[4200], da[INV_BACKING_MAX], db[INV_BACKING_MAX];
	snprintf(a, sizeof(a), "%s/a", dir);
	make_file(a, 4096);
	backing(a, da);
	backing(dir, db);
	assert_true(!strncmp(da, "tmpfs ", 6));
	assert_string_equal(da, db);
	tmpdir_remove(dir);
}

static void sh(const char *cmd)
{
	if (system(cmd) != 0)
		fail_msg("command failed: %s", cmd);
}

/* A loop device over a file of ours, with two partitions in its table
 * (sfdisk): into *img, attached as sc->dev; skips when it cannot. */
static void attach_partitioned(struct scratch *sc, char *img, size_t len)
{
	char cmd[8600];
	if (!is_root() || access("/usr/sbin/sfdisk", X_OK)) {
		printf("SKIP: needs root and sfdisk (scripts/deps.sh: fdisk)\n");
		skip();
	}
	snprintf(img, len, "%s/img", sc->dir);
	make_file(img, 16 << 20);
	snprintf(cmd, sizeof(cmd), "printf 'size=4MiB\\nsize=4MiB\\n' | sfdisk -q %s", img);
	sh(cmd);
	if (!loop_attach_file(img, "--partscan", sc->dev, sizeof(sc->dev)))
		skip();
}

/* A loop device is its backing file's device, in the environment too;
 * its own name stays in device. */
static void test_loop(void **state)
{
	struct scratch *sc = *state;
	char img[4200], want[INV_BACKING_MAX], got[INV_BACKING_MAX];
	attach_partitioned(sc, img, sizeof(img));
	backing(img, want);
	backing(sc->dev, got);
	assert_string_equal(got, want);
	assert_null(strstr(got, "loop"));
	struct environment env;
	const char *one = sc->dev;
	assert_int_equal(environment_collect(&env, &one, 1), 0);
	assert_string_equal(env.targets[0].backing_device, want);
	assert_string_equal(env.targets[0].device, sc->dev + 5);
	environment_free(&env);
}

/* Partitions of it (where the kernel scans them: not in every
 * container) are that same device: one drive, not three. */
static void test_loop_partitions(void **state)
{
	struct scratch *sc = *state;
	char img[4200], p1[80], p2[80], want[INV_BACKING_MAX], got[INV_BACKING_MAX];
	if (strlen(sc->dir) > 60) /* the nodes' paths below fit 80 */
		skip();
	attach_partitioned(sc, img, sizeof(img));
	backing(img, want);
	/* the partitions' nodes, made here from sysfs: without udev (a
	 * container) /dev has none */
	for (int k = 1; k <= 2; k++) {
		char *node = k == 1 ? p1 : p2, sys[160], num[32] = "";
		unsigned maj, min;
		snprintf(sys, sizeof(sys), "/sys/class/block/%sp%d/dev", sc->dev + 5, k);
		for (int i = 0; i < 50 && access(sys, R_OK); i++)
			usleep(100 * 1000);
		FILE *f = fopen(sys, "r");
		if (!f || !fgets(num, sizeof(num), f) || sscanf(num, "%u:%u", &maj, &min) != 2) {
			printf("SKIP: %s has no partition %d in sysfs\n", sc->dev, k);
			if (f)
				fclose(f);
			skip();
		}
		fclose(f);
		snprintf(node, 80, "%.60s/p%d", sc->dir, k);
		assert_int_equal(mknod(node, S_IFBLK | 0600, makedev(maj, min)), 0);
	}
	backing(p1, got);
	assert_string_equal(got, want);
	backing(p2, got);
	assert_string_equal(got, want);
	const char *paths[] = {sc->dev, p1, p2};
	struct environment env;
	assert_int_equal(environment_collect(&env, paths, 3), 0);
	assert_int_equal(env.nr_targets, 3);
	for (unsigned i = 0; i < 3; i++)
		assert_string_equal(env.targets[i].backing_device, want);
	environment_free(&env);
}

static int loop_setup(void **state)
{
	return scratch_setup(state, sizeof(struct scratch));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_files, tmpdir_setup, tmpdir_teardown),
		cmocka_unit_test(test_tmpfs),
		cmocka_unit_test_setup_teardown(test_loop, loop_setup, scratch_teardown),
		cmocka_unit_test_setup_teardown(test_loop_partitions, loop_setup, scratch_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
