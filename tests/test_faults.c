/* test_faults.c - a target that fails under a run ends it in order: the
 * error names the target and offset, the results so far are printed and
 * marked partial, the exit status is 1, and nothing hangs or crashes.
 * Faults: ENOSPC on a small tmpfs (while laying out, and mid-run), a
 * loop device whose backing store fills up (EIO or ENOSPC), a loop device that
 * shrinks to nothing mid-run, a file truncated under a reader, and a VD
 * member truncated under a reader (the error names the member: index and
 * path). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"

#define HANG_LIMIT_S 30

struct fixture {
	char *dir;
	char mnt[4200];     /* a small tmpfs, when mounted */
	bool mounted;
	char dev[64];       /* a loop device, when attached */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	f->dir = tmpdir_make();
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	if (f->dev[0])
		loop_detach(f->dev);
	if (f->mounted && umount2(f->mnt, MNT_DETACH) < 0)
		fprintf(stderr, "warning: umount %s: %s\n", f->mnt, strerror(errno));
	tmpdir_remove(f->dir);
	free(f);
	return 0;
}

static bool need_root(void)
{
	if (is_root())
		return true;
	printf("SKIP: fault injection (tmpfs mounts, loop devices) needs root\n");
	return false;
}

static void mount_small_tmpfs(struct fixture *f, const char *size)
{
	char opts[64];
	snprintf(f->mnt, sizeof(f->mnt), "%s/small", f->dir);
	assert_int_equal(mkdir(f->mnt, 0755), 0);
	snprintf(opts, sizeof(opts), "size=%s", size);
	if (mount("tmpfs", f->mnt, "tmpfs", 0, opts) < 0)
		fail_msg("mount tmpfs: %s", strerror(errno));
	f->mounted = true;
}

/* Start iochar with args; stdout and stderr go to files in f->dir. */
static pid_t spawn(struct fixture *f, const char *const *args)
{
	char bin[4096], out[4300], err[4300];
	assert_non_null(realpath(iochar_path(), bin));
	snprintf(out, sizeof(out), "%s/out.txt", f->dir);
	snprintf(err, sizeof(err), "%s/err.txt", f->dir);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const char *argv[40] = {bin};
		int n = 1;
		for (const char *const *a = args; *a && n < 39; a++)
			argv[n++] = *a;
		if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr))
			_exit(126);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* Wait for pid; a run still going after HANG_LIMIT_S is a hang. */
static int wait_bounded(pid_t pid)
{
	for (int i = 0; i < HANG_LIMIT_S * 20; i++) {
		int st;
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		usleep(50000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	fail_msg("iochar hung on a failing target (killed after %d s)", HANG_LIMIT_S);
	return -1;
}

static char *slurp(struct fixture *f, const char *name)
{
	char p[4300];
	snprintf(p, sizeof(p), "%s/%s", f->dir, name);
	FILE *in = fopen(p, "r");
	assert_non_null(in);
	char *buf = calloc(1, 1 << 20);
	size_t n = fread(buf, 1, (1 << 20) - 1, in);
	buf[n] = '\0';
	fclose(in);
	return buf;
}

/* The common verdict: exit 1, the error names what, partial results. */
static void expect_ordered_failure(struct fixture *f, int status,
				   const char *target, const char *what)
{
	char *out = slurp(f, "out.txt"), *err = slurp(f, "err.txt");
	if (status != 1 || !strstr(err, target) || !strstr(err, what))
		fail_msg("exit %d, stderr:\n%s", status, err);
	assert_non_null(strstr(err, "offset"));
	json_object *r = json_tokener_parse(out);
	if (!r)
		fail_msg("no JSON results on stdout:\n%s\nstderr:\n%s", out, err);
	assert_true(json_object_get_boolean(jget(r, "partial")));
	assert_true(jget_u64(r, "total.ios") > 0); /* what was done is kept */
	json_object *w = json_object_array_get_idx(jget(r, "workers"), 0);
	assert_non_null(strstr(json_object_get_string(jget(w, "error")), target));
	json_object_put(r);
	free(out);
	free(err);
}

static void test_enospc_while_laying_out(void **state)
{
	struct fixture *f = *state;
	if (!need_root())
		skip();
	mount_small_tmpfs(f, "2m");
	char fn[4400];
	snprintf(fn, sizeof(fn), "--filename=%s/big.dat", f->mnt);
	pid_t pid = spawn(f, (const char *const[]){"run", fn, "--size=8m", "--rw=randread",
						   "--output-format=json", NULL});
	int status = wait_bounded(pid);
	char *err = slurp(f, "err.txt");
	/* nothing measured yet: one line naming the file and the cause */
	if (status != 1 || !strstr(err, "big.dat") || !strstr(err, "No space left"))
		fail_msg("exit %d, stderr:\n%s", status, err);
	free(err);
}

static void test_enospc_mid_run(void **state)
{
	struct fixture *f = *state;
	if (!need_root())
		skip();
	mount_small_tmpfs(f, "4m");
	char path[4300], fn[4400], filler[4300];
	snprintf(path, sizeof(path), "%s/w.dat", f->mnt);
	snprintf(fn, sizeof(fn), "--filename=%s", path);
	pid_t pid = spawn(f, (const char *const[]){"run", fn, "--size=2m", "--rw=randwrite",
						   "--ioengine=psync", "--time_based", "--runtime=20",
						   "--output-format=json", NULL});
	usleep(800 * 1000);
	/* free the file's pages under the writer, then take all the space:
	 * its next write into the hole has nowhere to go */
	int fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 2 << 20), 0);
	close(fd);
	snprintf(filler, sizeof(filler), "%s/filler", f->mnt);
	int ff = open(filler, O_WRONLY | O_CREAT, 0644);
	static char chunk[65536];
	while (write(ff, chunk, sizeof(chunk)) > 0)
		;
	close(ff);
	expect_ordered_failure(f, wait_bounded(pid), "w.dat", "No space left");
}

static void test_eio_from_loop_device(void **state)
{
	struct fixture *f = *state;
	if (!need_root())
		skip();
	/* a sparse 32 MiB backing file on a 2 MiB tmpfs: the loop device
	 * fails writes with EIO once the tmpfs is full */
	mount_small_tmpfs(f, "2m");
	char backing[4300], cmd[4500];
	snprintf(backing, sizeof(backing), "%s/sparse.img", f->mnt);
	int fd = open(backing, O_WRONLY | O_CREAT, 0644);
	assert_true(fd >= 0 && ftruncate(fd, 32 << 20) == 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "losetup --find --show '%s'", backing);
	FILE *p = popen(cmd, "r");
	if (!p || !fgets(f->dev, sizeof(f->dev), p)) {
		if (p)
			pclose(p);
		printf("SKIP: cannot attach a loop device here\n");
		skip();
	}
	pclose(p);
	f->dev[strcspn(f->dev, "\n")] = '\0';
	char fn[128];
	snprintf(fn, sizeof(fn), "--filename=%s", f->dev);
	pid_t pid = spawn(f, (const char *const[]){"run", fn, "--rw=write", "--bs=64k",
						   "--direct=1", "--iodepth=4", "--output-format=json",
						   NULL});
	int status = wait_bounded(pid);
	char *err = slurp(f, "err.txt");
	/* the loop driver passes the backing store's ENOSPC up, or says EIO */
	if (!strstr(err, "Input/output error") && !strstr(err, "No space left"))
		fail_msg("exit %d, stderr:\n%s", status, err);
	free(err);
	expect_ordered_failure(f, status, f->dev, "offset");
}

static void test_loop_device_disappears(void **state)
{
	struct fixture *f = *state;
	if (!need_root())
		skip();
	char backing[4300];
	snprintf(backing, sizeof(backing), "%s/shrink.img", f->dir);
	if (!loop_attach(backing, 16 << 20, 512, f->dev, sizeof(f->dev)))
		skip();
	char fn[128], cmd[256];
	snprintf(fn, sizeof(fn), "--filename=%s", f->dev);
	pid_t pid = spawn(f, (const char *const[]){"run", fn, "--rw=randread", "--direct=1",
						   "--iodepth=8", "--time_based", "--runtime=20",
						   "--output-format=json", NULL});
	usleep(800 * 1000);
	/* the device loses its capacity under the reader */
	assert_int_equal(truncate(backing, 0), 0);
	snprintf(cmd, sizeof(cmd), "losetup -c '%s'", f->dev);
	assert_int_equal(system(cmd), 0);
	int status = wait_bounded(pid);
	char *err = slurp(f, "err.txt");
	/* beyond a device's end the block layer answers EIO, or a read of 0 */
	if (!strstr(err, "Input/output error") && !strstr(err, "short transfer"))
		fail_msg("exit %d, stderr:\n%s", status, err);
	free(err);
	expect_ordered_failure(f, status, f->dev, "offset");
}

static void test_file_truncated_under_reader(void **state)
{
	struct fixture *f = *state;
	char path[4300], fn[4400];
	snprintf(path, sizeof(path), "%s/t.dat", f->dir);
	snprintf(fn, sizeof(fn), "--filename=%s", path);
	pid_t pid = spawn(f, (const char *const[]){"run", fn, "--size=8m", "--rw=randread",
						   "--ioengine=psync", "--time_based", "--runtime=20",
						   "--output-format=json", NULL});
	/* wait until it is laid out and reading, then cut it short */
	struct stat st;
	for (int i = 0; i < 100 && (stat(path, &st) < 0 || st.st_size < (8 << 20)); i++)
		usleep(20000);
	usleep(500 * 1000);
	assert_int_equal(truncate(path, 4096), 0);
	expect_ordered_failure(f, wait_bounded(pid), "t.dat", "short transfer");
}

static void test_vd_member_truncated(void **state)
{
	struct fixture *f = *state;
	char m1[4300], vd[13000], want[4400];

	snprintf(m1, sizeof(m1), "%s/m1", f->dir);
	snprintf(vd, sizeof(vd), "--vd=raid5,strip=16k,members=%s/m0:%s:%s/m2",
		 f->dir, m1, f->dir);
	/* lay the VD out first, so the reader below only reads */
	pid_t pid = spawn(f, (const char *const[]){"run", vd, "--size=2m", "--rw=read",
						   "--ioengine=psync", "--runtime=1", NULL});
	assert_int_equal(wait_bounded(pid), 0);
	pid = spawn(f, (const char *const[]){"run", vd, "--rw=randread", "--ioengine=psync",
					     "--time_based", "--runtime=20",
					     "--output-format=json", NULL});
	usleep(500 * 1000);
	assert_int_equal(truncate(m1, 4096), 0);
	snprintf(want, sizeof(want), "of the --vd drive: member 1 (%s): read of", m1);
	expect_ordered_failure(f, wait_bounded(pid), want, "short transfer");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_enospc_while_laying_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_enospc_mid_run, setup, teardown),
		cmocka_unit_test_setup_teardown(test_eio_from_loop_device, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loop_device_disappears, setup, teardown),
		cmocka_unit_test_setup_teardown(test_file_truncated_under_reader, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vd_member_truncated, setup, teardown),
	};
	return cmocka_run_group_tests_name("faults", tests, NULL, NULL);
}
