/* test_unsteady_marks.c - rows measured after a preconditioning that
 * reached no steady state carry the mark on their own row: in the text
 * table, results.csv, results.json and the report's charts; rows on
 * other targets do not. A real plan on /dev/shm files, about 1 s. */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static unsigned nh_count_str(const char *s, const char *needle)
{
	unsigned n = 0;
	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The row of results.csv whose target is target; its last field. */
static const char *csv_last_field(const char *csv, const char *step_label, char *buf,
				  size_t len)
{
	char key[64];
	snprintf(key, sizeof(key), ",%s,fixed,fixed,", step_label);
	const char *row = strstr(csv, key);
	assert_non_null(row);
	const char *end = strchr(row, '\n');
	const char *comma = end;
	while (comma > row && comma[-1] != ',')
		comma--;
	snprintf(buf, len, "%.*s", (int)(end - comma), comma);
	return buf;
}

static void test_marks_after_no_steady_state(void **state)
{
	const char *dir = *state;
	char plan[1024], path[600], res[600];
	struct proc_out po;

	/* two rounds cannot fill the 5-round window: no steady state */
	snprintf(plan, sizeof(plan),
		 "[global]\nioengine=psync\ndirect=0\nsize=2m\nbs=4k\n"
		 "[pre]\nmode=precondition\nrw=randwrite\nmax_rounds=2\nround_time=100ms\n"
		 "fill_passes=0\nfilename=%s/u0\n"
		 "[after]\nrw=randread\nruntime=100ms\ntime_based\nfilename=%s/u0\n"
		 "[other]\nrw=randread\nruntime=100ms\ntime_based\nfilename=%s/u1\n",
		 dir, dir, dir);
	snprintf(path, sizeof(path), "%s/p.ini", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(plan, f);
	fclose(f);
	run_iochar(&po, dir, 0, ARGS("plan", path, "--out", "out"));
	expect_exit(&po, 0);
	expect_has(po.out, "no steady state after 2 rounds");
	const char *after = strstr(po.out, "\nafter ");
	assert_non_null(after);
	const char *eol = strchr(after + 1, '\n');
	const char *mark = strstr(after, "after no steady state (step 1)");
	assert_true(mark && mark < eol); /* on its own row */
	const char *other = strstr(po.out, "\nother ");
	assert_non_null(other);
	assert_null(strstr(other, "after no steady state"));
	proc_out_free(&po);

	snprintf(res, sizeof(res), "%s/out/results.csv", dir);
	char *csv = file_slurp(res, NULL);
	char field[32];
	expect_has(csv, ",after_no_steady_state\n");
	assert_string_equal(csv_last_field(csv, "after", field, sizeof(field)), "1");
	assert_string_equal(csv_last_field(csv, "other", field, sizeof(field)), "");
	free(csv);

	snprintf(res, sizeof(res), "%s/out/results.json", dir);
	json_object *r = json_object_from_file(res);
	assert_non_null(r);
	json_object *steps = jget(r, "steps");
	json_object *s1 = json_object_array_get_idx(jget(json_object_array_get_idx(steps, 1),
							 "sets"), 0);
	json_object *s2 = json_object_array_get_idx(jget(json_object_array_get_idx(steps, 2),
							 "sets"), 0);
	assert_int_equal(jget_u64(s1, "after_no_steady_state"), 1);
	assert_false(json_object_object_get_ex(s2, "after_no_steady_state", NULL));
	json_object_put(r);

	run_iochar(&po, dir, 0, ARGS("report", "out", "-o", "r.html"));
	expect_exit(&po, 0);
	proc_out_free(&po);
	snprintf(res, sizeof(res), "%s/r.html", dir);
	char *page = file_slurp(res, NULL);
	/* its own row of the summary table (the runs are too short for
	 * per-second charts, whose titles carry it too) */
	expect_has(page, "<td>after<br><small class=\"repeat\">after no steady state (step 1)</small></td>");
	assert_int_equal(nh_count_str(page, "after no steady state (step 1)"), 1);
	free(page);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_marks_after_no_steady_state, shmdir_setup,
						tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
