/* test_environment.c - the machine and target snapshot (inventory/).
 *
 * Reads the real machine: the host fields must be there on any Linux, a
 * temporary file's size and filesystem type must be right, a path that
 * does not exist yet reports its directory's filesystem, and a missing one
 * leaves its fields empty without failing. The block-device case reads the
 * disk holding "/" read-only and is skipped where there is none.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "inventory/environment.h"

#define FILE_SIZE 12345

struct fixture {
	char dir[64];
	char file[96];
	char absent[96]; /* in dir, not created */
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	char buf[FILE_SIZE];
	FILE *f;

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/iochar-env-XXXXXX");
	if (!mkdtemp(fx->dir)) {
		free(fx);
		return -1;
	}
	snprintf(fx->file, sizeof(fx->file), "%s/data", fx->dir);
	snprintf(fx->absent, sizeof(fx->absent), "%s/not-yet", fx->dir);
	memset(buf, 'x', sizeof(buf));
	f = fopen(fx->file, "w");
	if (!f || fwrite(buf, 1, sizeof(buf), f) != sizeof(buf) || fclose(f)) {
		free(fx);
		return -1;
	}
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	unlink(fx->file);
	rmdir(fx->dir);
	free(fx);
	return 0;
}

static void test_host(void **state)
{
	struct environment env;

	assert_int_equal(environment_collect(&env, NULL, 0), 0);
	assert_true(env.kernel[0] != '\0');
	assert_true(env.machine[0] != '\0');
	assert_true(env.hostname[0] != '\0');
	assert_true(env.iochar_version[0] != '\0');
	assert_true(env.cpus > 0);
	assert_true(env.mem_bytes > 0);
	/* every Linux cpuinfo this tool knows names the CPU somehow */
	assert_true(env.cpu_model[0] != '\0');
	assert_int_equal(env.nr_targets, 0);
	assert_null(env.targets);
	environment_free(&env);
	environment_free(NULL);
}

static void test_files(void **state)
{
	struct fixture *fx = *state;
	const char *paths[] = {"/", fx->file, fx->absent,
			       "/nonexistent-iochar/x/y"};
	struct environment env;

	assert_int_equal(environment_collect(&env, paths, 4), 0);
	assert_int_equal(env.nr_targets, 4);
	assert_non_null(env.targets);

	const struct target_env *root = &env.targets[0];
	assert_string_equal(root->path, "/");
	assert_false(root->is_block);
	assert_true(root->fstype[0] != '\0');

	const struct target_env *file = &env.targets[1];
	assert_string_equal(file->path, fx->file);
	assert_false(file->is_block);
	assert_int_equal(file->size, FILE_SIZE);
	assert_true(file->fstype[0] != '\0');

	/* not created yet: the filesystem it will be created on */
	const struct target_env *absent = &env.targets[2];
	assert_int_equal(absent->size, 0);
	assert_string_equal(absent->fstype, file->fstype);
	assert_string_equal(absent->device, file->device);

	const struct target_env *gone = &env.targets[3];
	assert_string_equal(gone->path, "/nonexistent-iochar/x/y");
	assert_string_equal(gone->device, "");
	assert_string_equal(gone->fstype, "");
	assert_int_equal(gone->size, 0);
	environment_free(&env);
	assert_null(env.targets);
	assert_int_equal(env.nr_targets, 0);
}

/* The /dev node of the block device holding "/", if it has one. */
static int root_blockdev(char *path, size_t len, char *name, size_t nlen)
{
	char link[64], real[PATH_MAX];
	struct stat st;

	if (stat("/", &st) != 0)
		return -errno;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_dev),
		 minor(st.st_dev));
	if (!realpath(link, real))
		return -ENOENT;
	snprintf(name, nlen, "%s", strrchr(real, '/') + 1);
	snprintf(path, len, "/dev/%s", name);
	if (stat(path, &st) != 0 || !S_ISBLK(st.st_mode))
		return -ENOENT;
	return 0;
}

static void test_block_device(void **state)
{
	char path[PATH_MAX], name[NAME_MAX + 1];
	const char *paths[1] = {path};
	struct environment env;

	if (root_blockdev(path, sizeof(path), name, sizeof(name)) != 0)
		skip(); /* "/" is on tmpfs/overlay or /dev lacks its node */
	assert_int_equal(environment_collect(&env, paths, 1), 0);
	const struct target_env *t = &env.targets[0];
	assert_true(t->is_block);
	assert_string_equal(t->device, name);
	assert_true(t->size > 0);
	assert_true(t->logical_block_size >= 512);
	assert_string_equal(t->fstype, "");
	environment_free(&env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_host),
	    cmocka_unit_test_setup_teardown(test_files, setup, teardown),
	    cmocka_unit_test(test_block_device),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
