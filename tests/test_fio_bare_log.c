/* test_fio_bare_log.c - a bare write_bw_log / write_iops_log in [global]
 * (examples/disk-zone-profile.fio) against fio 3.33 itself: the same log
 * files, named after each job, as fio's. SKIP when fio is missing.
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

#include "fio_side.h"
#include "harness.h"

/* A bare log key in [global]: each job's logs carry its own name. */
static void test_bare_log(void **state)
{
	const char *dir = *state;
	char path[4200], sub[4300];
	json_object *f, *i;

	side_need_fio();
	side_write_job(dir, "logs.fio",
		  "[global]\nfilename=data\nsize=256k\nbs=4k\n"
		  "write_bw_log\nwrite_iops_log\n"
		  "[first]\nrw=read\n[second]\nrw=write\n", path, sizeof(path));
	side_run_both_json(dir, path, &f, &i);
	snprintf(sub, sizeof(sub), "%s/fio", dir);
	char *lf = side_listing(sub, ".log");
	snprintf(sub, sizeof(sub), "%s/iochar", dir);
	char *li = side_listing(sub, ".log");
	expect_has(lf, "first_bw.1.log");
	expect_has(lf, "second_iops.2.log");
	assert_string_equal(li, lf);
	free(lf);
	free(li);
	json_object_put(f);
	json_object_put(i);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_bare_log, tmpdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
