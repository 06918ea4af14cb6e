/* test_guard.c - the destructive-write guard, end to end through the
 * binary: write workloads are refused (exit 2, one line naming the target,
 * what was found and --force, the data untouched) on a loop device holding
 * ext4, a partitioned one, a GPT one with only its backup header left, a
 * mounted one and a file iochar did not create; --output to a device too;
 * --force lets them through; reads always run; iochar's own files need no
 * --force. Only files and loop devices made here are ever written. */
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
#include <unistd.h>

#include "harness.h"

struct fixture {
	struct scratch sc; /* first: the directory, a mount, a loop device */
	char path[4200]; /* the target file, or a loop device's backing file */
	char fn_opt[4300]; /* --filename=<target> */
};

static int setup(void **state)
{
	return scratch_setup(state, sizeof(struct fixture));
}

static bool have_tool(const char *tool)
{
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

/* Skip unless root and every tool is there. */
static void need_root_and(const char *what, const char *const *tools)
{
	if (!is_root()) {
		printf("SKIP: %s needs root for a loop device\n", what);
		skip();
	}
	for (const char *const *t = tools; *t; t++) {
		if (!have_tool(*t)) {
			printf(
			    "SKIP: %s needs %s (scripts/deps.sh installs it)\n",
			    what, *t);
			skip();
		}
	}
}

static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void sh(const char *fmt, ...)
{
	char cmd[8800];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		fail_msg("command failed: %s", cmd);
}

/* Attach the already prepared f->path as a loop device (loop_attach would
 * overwrite it), recording it in f for teardown. */
static void attach(struct fixture *f, bool partscan)
{
	if (!loop_attach_file(f->path, partscan ? "--partscan" : "", f->sc.dev,
			      sizeof(f->sc.dev)))
		skip();
	snprintf(f->fn_opt, sizeof(f->fn_opt), "--filename=%s", f->sc.dev);
}

static void set_target(struct fixture *f, const char *name)
{
	snprintf(f->path, sizeof(f->path), "%s/%s", f->sc.dir, name);
	snprintf(f->fn_opt, sizeof(f->fn_opt), "--filename=%s", f->path);
}

/* A small write run must be refused: status 2, one line on stderr naming
 * the target, --force and every needle, nothing on stdout, and the bytes
 * of f->path (the file, or the loop device's backing file) unchanged. */
static void expect_refused(struct fixture *f, const char *target,
			   const char *const *needles)
{
	struct proc_out po;
	uint64_t before = file_hash(f->path);

	run_iochar(
	    &po, f->sc.dir, 0,
	    ARGS("run", f->fn_opt, "--rw=write", "--size=1m", "--bs=4k"));
	if (po.status != 2 || count_lines(po.err) != 1)
		fail_msg("%s: want a refusal (status 2, one line), got status "
			 "%d:\n%s",
			 target, po.status, po.err);
	if (!strstr(po.err, target) || !strstr(po.err, "--force"))
		fail_msg("refusal does not name %s and --force: %s", target,
			 po.err);
	for (const char *const *w = needles; *w; w++)
		if (!strstr(po.err, *w))
			fail_msg("refusal for %s does not say '%s': %s", target,
				 *w, po.err);
	assert_string_equal(po.out, "");
	assert_true(file_hash(f->path) == before);
	proc_out_free(&po);
}

static void expect_ok(struct fixture *f, const char *const *args)
{
	struct proc_out po;
	run_iochar(&po, f->sc.dir, 0, args);
	if (po.status != 0)
		fail_msg("%s %s: exit %d: %s", args[1], args[2], po.status,
			 po.err);
	proc_out_free(&po);
}

/* Reads run on anything; they leave the data as it was. */
static void expect_read_ok(struct fixture *f)
{
	uint64_t before = file_hash(f->path);
	expect_ok(f,
		  ARGS("run", f->fn_opt, "--rw=read", "--size=1m", "--bs=4k"));
	expect_ok(f, ARGS("run", f->fn_opt, "--rw=randread", "--size=1m",
			  "--bs=4k", "--ioengine=psync"));
	assert_true(file_hash(f->path) == before);
}

static void expect_force_ok(struct fixture *f)
{
	expect_ok(f, ARGS("run", f->fn_opt, "--rw=write", "--size=1m",
			  "--bs=4k", "--force"));
}

static void test_foreign_file(void **state)
{
	struct fixture *f = *state;
	set_target(f, "users.dat");
	make_file(f->path, 2 << 20);
	expect_refused(f, f->path, ARGS("did not create"));
	/* every writing mode is a write workload */
	struct proc_out po;
	run_iochar(
	    &po, f->sc.dir, 0,
	    ARGS("run", f->fn_opt, "--rw=randrw", "--size=1m", "--bs=4k"));
	assert_int_equal(po.status, 2);
	proc_out_free(&po);
	expect_read_ok(f);
	expect_force_ok(f);
	/* force is a job option: a job file can say it too */
	char jf[4300];
	snprintf(jf, sizeof(jf), "%s/forced.fio", f->sc.dir);
	FILE *j = fopen(jf, "w");
	assert_non_null(j);
	fprintf(j, "[w]\nfilename=%s\nrw=write\nsize=1m\nforce=1\n", f->path);
	assert_int_equal(fclose(j), 0);
	expect_ok(f, ARGS("run", jf));
	/* forcing once does not make it iochar's */
	expect_refused(f, f->path, ARGS("did not create"));
}

/* A read job larger than a foreign file would have to lay out the rest of
 * it, which is a write: refused unless forced; the file stays as it was. */
static void test_read_does_not_extend_foreign_file(void **state)
{
	struct fixture *f = *state;
	struct proc_out po;
	struct stat st;
	set_target(f, "short.dat");
	make_file(f->path, 1 << 20);
	uint64_t before = file_hash(f->path);
	run_iochar(&po, f->sc.dir, 0,
		   ARGS("run", f->fn_opt, "--rw=read", "--size=4m", "--bs=4k"));
	if (po.status != 2 || count_lines(po.err) != 1 ||
	    !strstr(po.err, f->path) || !strstr(po.err, "--force"))
		fail_msg("want a refusal naming the file, got %d:\n%s", po.status, po.err);
	proc_out_free(&po);
	assert_true(file_hash(f->path) == before);
	assert_int_equal(stat(f->path, &st), 0);
	assert_int_equal(st.st_size, 1 << 20);
	/* within its length it is read as it is; forced, it is extended */
	expect_read_ok(f);
	expect_ok(f, ARGS("run", f->fn_opt, "--rw=read", "--size=4m", "--bs=4k",
			  "--force"));
	assert_int_equal(stat(f->path, &st), 0);
	assert_int_equal(st.st_size, 4 << 20);
}

static void test_own_file_needs_no_force(void **state)
{
	struct fixture *f = *state;
	set_target(f, "ours.dat");
	expect_ok(f,
		  ARGS("run", f->fn_opt, "--rw=write", "--size=1m", "--bs=4k"));
	expect_ok(f, ARGS("run", f->fn_opt, "--rw=randwrite", "--size=1m",
			  "--bs=4k"));
	expect_ok(
	    f, ARGS("run", f->fn_opt, "--rw=randrw", "--size=2m", "--bs=4k"));
}

static void test_scratch_file_second_run(void **state)
{
	struct fixture *f = *state;
	const char *const args[] = {"run", "--rw=randwrite", "--size=1m",
				    "--time_based=0", NULL};
	expect_ok(f, args);
	expect_ok(f, args);
}

static void test_ext4_loop(void **state)
{
	struct fixture *f = *state;
	need_root_and("an ext4 loop device", ARGS("losetup", "mkfs.ext4"));
	set_target(f, "ext4.img");
	make_file(f->path, 16 << 20);
	sh("mkfs.ext4 -q -F '%s'", f->path);
	attach(f, false);
	expect_refused(f, f->sc.dev, ARGS("found an ext4 filesystem"));
	expect_read_ok(f);
	expect_force_ok(f);
}

static void test_partitioned_loop(void **state)
{
	struct fixture *f = *state;
	need_root_and("a partitioned loop device", ARGS("losetup", "sfdisk"));
	set_target(f, "parted.img");
	make_file(f->path, 16 << 20);
	sh("printf 'label: dos\\nstart=2048, type=83\\n' | sfdisk -q '%s' "
	   ">/dev/null",
	   f->path);
	attach(f, true);
	expect_refused(f, f->sc.dev, ARGS("found a dos partition table"));
	expect_read_ok(f);
	expect_force_ok(f);
}

/* A GPT disk whose first 34 sectors were zeroed (protective MBR, primary
 * header and entries gone) still has its backup header in the last
 * sector, which wipefs finds: it is refused, saying so. */
static void test_gpt_backup_header_only(void **state)
{
	struct fixture *f = *state;
	need_root_and("a GPT loop device", ARGS("losetup", "sfdisk", "wipefs"));
	set_target(f, "gpt.img");
	make_file(f->path, 16 << 20);
	sh("printf 'label: gpt\\nstart=2048, size=8192\\n' | sfdisk -q '%s' "
	   ">/dev/null",
	   f->path);
	sh("dd if=/dev/zero of='%s' bs=512 count=34 conv=notrunc 2>/dev/null",
	   f->path);
	attach(f, false);
	sh("wipefs -n '%s' | grep -q gpt", f->sc.dev); /* the premise */
	expect_refused(f, f->sc.dev,
		       ARGS("found a gpt partition table", "backup header"));
	expect_read_ok(f);
	expect_force_ok(f);
}

/* --output is under the guard too: results are never written over a
 * device, here one holding ext4, even by a read run. */
static void test_output_to_ext4_loop(void **state)
{
	struct fixture *f = *state;
	char out_opt[128];
	struct proc_out po;
	need_root_and("an ext4 loop device", ARGS("losetup", "mkfs.ext4"));
	set_target(f, "ext4.img");
	make_file(f->path, 16 << 20);
	sh("mkfs.ext4 -q -F '%s'", f->path);
	attach(f, false);
	uint64_t before = file_hash(f->path);
	snprintf(out_opt, sizeof(out_opt), "--output=%s", f->sc.dev);
	run_iochar(&po, f->sc.dir, 0,
		   ARGS("run", "--ioengine=null", "--size=1m", out_opt));
	expect_exit(&po, 2);
	assert_int_equal(count_lines(po.err), 1);
	expect_has(po.err, f->sc.dev);
	expect_has(po.err, "block device");
	expect_has(po.err, "--force");
	assert_true(file_hash(f->path) == before);
	proc_out_free(&po);
}

/* Mounted: only the refusal and reads; never force a write under a
 * mounted filesystem, even our own. */
static void test_mounted_loop(void **state)
{
	struct fixture *f = *state;
	need_root_and("a mounted loop device", ARGS("losetup", "mkfs.ext4"));
	set_target(f, "mounted.img");
	make_file(f->path, 16 << 20);
	sh("mkfs.ext4 -q -F '%s'", f->path);
	attach(f, false);
	if (!scratch_mount(&f->sc, "mnt", f->sc.dev, "ext4", NULL)) {
		printf("SKIP: cannot mount ext4 from a loop device here\n");
		skip();
	}
	expect_refused(f, f->sc.dev, ARGS("mounted", f->sc.mnt));
	expect_read_ok(f);
}

/* ramfs has no user xattrs: iochar's mark cannot be read there, so an
 * existing file is refused saying so, while a file a write run creates
 * itself is used at once. */
static void test_filesystem_without_xattrs(void **state)
{
	struct fixture *f = *state;
	if (!is_root()) {
		printf("SKIP: mounting a ramfs needs root\n");
		skip();
	}
	if (!scratch_mount(&f->sc, "ram", "ramfs", "ramfs", NULL)) {
		printf("SKIP: cannot mount a ramfs here\n");
		skip();
	}
	set_target(f, "ram/users.dat");
	make_file(f->path, 1 << 20);
	expect_refused(f, f->path,
		       ARGS("cannot tell whether iochar created", "xattrs"));
	expect_read_ok(f);
	expect_force_ok(f);
	set_target(f, "ram/new.dat");
	expect_ok(f,
		  ARGS("run", f->fn_opt, "--rw=write", "--size=1m", "--bs=4k"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_foreign_file, setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_read_does_not_extend_foreign_file,
					    setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_own_file_needs_no_force, setup,
					    scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_scratch_file_second_run, setup,
					    scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_ext4_loop, setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_partitioned_loop, setup,
					    scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_gpt_backup_header_only, setup,
					    scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_output_to_ext4_loop, setup,
					    scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_mounted_loop, setup, scratch_teardown),
	    cmocka_unit_test_setup_teardown(test_filesystem_without_xattrs,
					    setup, scratch_teardown),
	};
	return cmocka_run_group_tests_name("guard", tests, NULL, NULL);
}
