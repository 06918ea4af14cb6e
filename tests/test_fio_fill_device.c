/* test_fio_fill_device.c - fill_device and fill_fs
 * (examples/surface-scan.fio) against fio 3.33 itself, on an 8 MiB tmpfs
 * of the test's own: both write until ENOSPC and end without error, the
 * file as large, the same bytes and I/Os counted (fio counts the writes
 * that failed, none of their bytes), psync and libaio at depth 4; a job
 * that reads is refused in one line naming fill_device. SKIP when fio is
 * missing or a tmpfs cannot be mounted.
 */
/* cmocka.h needs these first, in this order */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fio_side.h"
#include "harness.h"

struct fill_fixture {
	struct scratch sc; /* first: scratch_setup/teardown serve it */
};

static int fill_setup(void **state)
{
	return scratch_setup(state, sizeof(struct fill_fixture));
}

/* Run tool with opts in mnt (the only thing there), its JSON to out
 * outside; the file it wrote's size into *size, then removed. The exit
 * status. */
static int fill_run(const char *tool, const char *mnt, const char *out,
		    const char *opts, off_t *size)
{
	char cmd[8192], path[4300];
	struct stat st;

	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && timeout 60 %s%s --name=w --filename=d.dat %s "
		 "--output-format=json > '%s' 2>/dev/null", mnt,
		 strcmp(tool, "fio") ? iochar_path() : "fio",
		 strcmp(tool, "fio") ? " run" : "", opts, out);
	int rc = system(cmd);
	snprintf(path, sizeof(path), "%s/d.dat", mnt);
	*size = stat(path, &st) ? -1 : st.st_size;
	unlink(path);
	return rc == -1 ? -1 : WEXITSTATUS(rc);
}

/* fill_device on a small tmpfs: both fill it, end well and count alike. */
static void test_fill_device(void **state)
{
	static const char *const jobs[] = {
	    "--rw=write --bs=64k --fill_device=1",
	    "--rw=write --bs=64k --fill_fs=1 --ioengine=libaio --iodepth=4",
	};
	struct fill_fixture *f = *state;
	char out[2][4300];
	off_t size[2];

	side_need_fio();
	if (!is_root() || !scratch_mount(&f->sc, "mnt", "tmpfs", "tmpfs", "size=8m")) {
		print_message("SKIP: cannot mount a tmpfs (needs root)\n");
		skip();
	}
	for (size_t k = 0; k < sizeof(jobs) / sizeof(jobs[0]); k++) {
		json_object *doc[2];
		for (int t = 0; t < 2; t++) {
			snprintf(out[t], sizeof(out[t]), "%s/%s.json", f->sc.dir, t ? "ioc" : "fio");
			int rc = fill_run(t ? "iochar" : "fio", f->sc.mnt, out[t], jobs[k], &size[t]);
			if (rc)
				fail_msg("%s: %s exit %d", jobs[k], t ? "iochar" : "fio", rc);
			doc[t] = json_object_from_file(out[t]);
			assert_non_null(doc[t]);
		}
		assert_int_equal(size[0], 8 << 20);
		assert_int_equal(size[1], size[0]);
		static const char *const same[] = {"error", "write.io_bytes", "write.total_ios"};
		for (size_t m = 0; m < 3; m++)
			if (side_job0(doc[0], same[m]) != side_job0(doc[1], same[m]))
				fail_msg("%s: %s fio %g, iochar %g", jobs[k], same[m],
					 side_job0(doc[0], same[m]), side_job0(doc[1], same[m]));
		assert_int_equal(side_job0(doc[1], "write.io_bytes"), 8 << 20);
		json_object_put(doc[0]);
		json_object_put(doc[1]);
	}
	/* a read job: refused, one line naming the option, nothing made */
	snprintf(out[1], sizeof(out[1]), "%s/read.json", f->sc.dir);
	assert_int_equal(fill_run("iochar", f->sc.mnt, out[1],
				  "--rw=read --size=1m --fill_device=1", &size[1]), 2);
	assert_int_equal(size[1], -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_fill_device, fill_setup, scratch_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
