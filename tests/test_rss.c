/* test_rss.c - iochar's peak memory with the papers' many targets: 24
 * targets x 4 jobs (issue 20: under 64 MiB). Each job carries ~660 KiB
 * of latency histograms, mostly empty; a copy of all of it per job (a
 * compound literal, a struct assignment, a memset) pages it all in: 143
 * MiB for this job file on 2026-12-06, 44 MiB once only counted buckets
 * are resident (util/sparse_mem.h). This is the first and only child of
 * this process, so RUSAGE_CHILDREN's ru_maxrss is its own peak. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "harness.h"

#define TARGETS 24
#define JOBS_PER_TARGET 4
#define RSS_LIMIT_KIB (64 * 1024)

static void test_24_targets_by_4_jobs_under_64_mib(void **state)
{
	const char *dir = *state;
	char job[256], path[256];
	snprintf(job, sizeof(job), "%s/many.fio", dir);
	FILE *f = fopen(job, "w");
	assert_non_null(f);
	fprintf(f, "[global]\nioengine=io_uring\nrw=randread\nbs=4k\niodepth=32\n"
		   "numjobs=%d\ntime_based=1\nruntime=1\nsize=4m\ngroup_reporting=1\n",
		JOBS_PER_TARGET);
	for (int i = 0; i < TARGETS; i++) {
		snprintf(path, sizeof(path), "%s/t%d.dat", dir, i);
		make_file(path, 4 << 20);
		fprintf(f, "[t%d]\nfilename=%s\n", i, path);
	}
	fclose(f);

	struct proc_out po;
	run_iochar(&po, NULL, 0, ARGS("run", "--output-format=json", job));
	expect_exit(&po, 0);
	json_object *root = parse_json(&po);
	assert_true(jget_u64(root, "total.ios") > 0);
	json_object_put(root);
	proc_out_free(&po);

	struct rusage ru;
	assert_int_equal(getrusage(RUSAGE_CHILDREN, &ru), 0);
	print_message("peak RSS %ld KiB for %d jobs\n", ru.ru_maxrss, TARGETS * JOBS_PER_TARGET);
#if defined(__SANITIZE_ADDRESS__)
	/* shadow memory and quarantine: the bound is the plain build's */
	print_message("under AddressSanitizer: not held to %d KiB\n", RSS_LIMIT_KIB);
#else
	if (ru.ru_maxrss >= RSS_LIMIT_KIB)
		fail_msg("iochar peaked at %ld KiB for %d targets x %d jobs (limit %d KiB)",
			 ru.ru_maxrss, TARGETS, JOBS_PER_TARGET, RSS_LIMIT_KIB);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_24_targets_by_4_jobs_under_64_mib,
						shmdir_setup, tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
