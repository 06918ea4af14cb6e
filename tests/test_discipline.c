/* test_discipline.c - the submission-discipline probe of the
 * characterization commands (issue 23): against a simulated device whose
 * IOPS depend on the discipline, it picks the best, records every figure,
 * and is skipped when the user fixed the setting; then end to end through
 * `iochar curve` on a file: the record in results.json, the text summary,
 * and --discipline's errors before anything is written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "charz/discipline.h"
#include "cli/options.h"
#include "engine/io_uring_opts.h"
#include "harness.h"
#include "sim_device.h"

/* A device whose IOPS are set by the discipline a job runs with. */
struct fake {
	double ring_iops[8];   /* by enum uring_ring */
	double submit1_iops;   /* libaio with iodepth_batch_submit=1 */
	double pass_iops;      /* libaio otherwise */
	/* a noisy run: COOP_TASKRUN's first run gives this (0: as the others) */
	double coop_first_iops;
	unsigned coop_calls;
	unsigned calls;
	struct job_spec last;  /* the last job measured (shape only) */
};

static int fake_measure(void *arg, const struct job_spec *job, struct point *out,
			struct ioc_err *err)
{
	struct fake *f = arg;
	(void)err;
	memset(out, 0, sizeof(*out));
	f->calls++;
	f->last.iodepth = job->iodepth;
	f->last.runtime_ns = job->runtime_ns;
	f->last.ramp_ns = job->ramp_ns;
	f->last.rate_iops = job->rate_iops;
	f->last.time_based = job->time_based;
	if (!strcmp(job->ioengine, "io_uring")) {
		const struct uring_opts *u = (const void *)job->engine_opts;
		out->s.total.iops = f->ring_iops[u->ring];
		if (u->ring == URING_RING_COOP && !f->coop_calls++ && f->coop_first_iops > 0)
			out->s.total.iops = f->coop_first_iops;
	} else {
		out->s.total.iops = job->iodepth_batch_submit == 1 ? f->submit1_iops
								   : f->pass_iops;
	}
	out->s.total.lat.mean = 1e9 * job->iodepth / out->s.total.iops;
	return 0;
}

static void make_job(struct job_spec *job, const char *engine, unsigned qd)
{
	struct ioc_err err = {0};
	assert_int_equal(sim_job(job, "d", "/tmp/x", RW_RANDREAD, 4096, qd, 1,
				 10000000000ull), 0);
	assert_int_equal(options_apply(job, "ioengine", engine, &err), 0);
}

static const struct disc_opt AUTO = {.mode = DISC_AUTO};

static void test_probe_picks_best_ring(void **state)
{
	(void)state;
	struct fake f = {.ring_iops = {[URING_RING_DEFER] = 70000,
				       [URING_RING_COOP] = 118000,
				       [URING_RING_NONE] = 90000}};
	struct job_spec job;
	struct disc_choice c;
	struct ioc_err err = {0};

	make_job(&job, "io_uring", 32);
	job.rate_iops = 5000; /* the probe runs unpaced */
	assert_int_equal(discipline_choose(&AUTO, &job, fake_measure, &f, &c, &err), 0);
	/* two rounds: the leader's median above every other run, decided */
	assert_int_equal(f.calls, 6);
	assert_int_equal(c.rounds, 2);
	assert_true(c.decided);
	assert_int_equal(c.how, DISC_HOW_PROBED);
	assert_string_equal(c.d->name, "coop_taskrun");
	assert_int_equal(c.nr_tried, 3);
	assert_int_equal(c.tried[1].nr_runs, 2);
	assert_string_equal(c.tried[0].d->name, "defer_taskrun");
	assert_true(c.tried[0].iops == 70000);
	assert_true(c.tried[1].iops == 118000);
	assert_true(c.tried[2].iops == 90000);
	assert_int_equal(c.probe_iodepth, 32);
	/* each probe run: bounded, unpaced, time based */
	assert_int_equal(f.last.runtime_ns, DISC_PROBE_NS);
	assert_int_equal(f.last.ramp_ns, DISC_PROBE_RAMP_NS);
	assert_int_equal(f.last.rate_iops, 0);
	assert_true(f.last.time_based);
	assert_int_equal(job.rate_iops, 5000); /* the job itself untouched */

	/* applied: every run of the step then asks for COOP_TASKRUN */
	struct job_spec run;
	assert_int_equal(job_spec_copy(&run, &job), 0);
	assert_int_equal(discipline_apply(&c, &run, &err), 0);
	assert_int_equal(((const struct uring_opts *)run.engine_opts)->ring, URING_RING_COOP);
	assert_true(options_is_set(&run, "ring_setup"));
	discipline_record(&c, &run);
	assert_string_equal(c.ring, "coop_taskrun");
	char line[512];
	discipline_describe(&c, line, sizeof(line));
	expect_has(line, "io_uring ring_setup=coop_taskrun");
	expect_has(line, "coop_taskrun 118.0k");
	expect_has(line, "medians of 2 rounds: decided)");
	job_spec_free(&run);
	job_spec_free(&job);
}

static void test_tie_keeps_first(void **state)
{
	(void)state;
	struct fake f = {.ring_iops = {[URING_RING_DEFER] = 100000,
				       [URING_RING_COOP] = 100000,
				       [URING_RING_NONE] = 100000}};
	struct job_spec job;
	struct disc_choice c;
	struct ioc_err err = {0};

	make_job(&job, "io_uring", 1);
	assert_int_equal(discipline_choose(&AUTO, &job, fake_measure, &f, &c, &err), 0);
	/* nothing decides a tie: every round, then the default, said so */
	assert_int_equal(f.calls, 3 * DISC_PROBE_ROUNDS);
	assert_false(c.decided);
	assert_string_equal(c.d->name, "defer_taskrun");
	char line[512];
	discipline_describe(&c, line, sizeof(line));
	expect_has(line, "medians of 3 rounds: undecided, the default defer_taskrun)");
	job_spec_free(&job);
}

/* One noisy run (COOP_TASKRUN at 0 IOPS once) decides nothing: a third
 * round, and the medians then decide for the candidate it hid. */
static void test_noisy_run_repeats(void **state)
{
	(void)state;
	struct fake f = {.ring_iops = {[URING_RING_DEFER] = 70000,
				       [URING_RING_COOP] = 118000,
				       [URING_RING_NONE] = 90000},
			 .coop_first_iops = 1};
	struct job_spec job;
	struct disc_choice c;
	struct ioc_err err = {0};

	make_job(&job, "io_uring", 32);
	assert_int_equal(discipline_choose(&AUTO, &job, fake_measure, &f, &c, &err), 0);
	assert_int_equal(c.rounds, 3);
	assert_true(c.decided);
	assert_string_equal(c.d->name, "coop_taskrun");
	assert_true(c.tried[1].runs[0] == 1);
	assert_true(c.tried[1].iops == 118000); /* the median of 1, 118k, 118k */
	job_spec_free(&job);
}

/* A step of short points probes no longer than one of them: each
 * candidate runs the step's runtime (and the shorter ramp) when that is
 * shorter than the probe's own, and the record says so. */
static void test_probe_as_short_as_the_step(void **state)
{
	(void)state;
	struct fake f = {.ring_iops = {[URING_RING_DEFER] = 1000,
				       [URING_RING_COOP] = 3000,
				       [URING_RING_NONE] = 2000}};
	struct job_spec job;
	struct disc_choice c;
	struct ioc_err err = {0};

	make_job(&job, "io_uring", 4);
	job.runtime_ns = 200000000ull;
	job.ramp_ns = 0;
	assert_int_equal(discipline_choose(&AUTO, &job, fake_measure, &f, &c, &err), 0);
	assert_int_equal(f.calls, 6);
	assert_string_equal(c.d->name, "coop_taskrun");
	assert_int_equal(f.last.runtime_ns, 200000000ull);
	assert_int_equal(f.last.ramp_ns, 0);
	assert_int_equal(c.probe_runtime_ns, 200000000ull);
	assert_int_equal(c.probe_ramp_ns, 0);

	/* a long step (or one bounded by size, runtime 0) gets the full probe */
	job.runtime_ns = 0;
	job.ramp_ns = 5000000000ull;
	assert_int_equal(discipline_choose(&AUTO, &job, fake_measure, &f, &c, &err), 0);
	assert_int_equal(f.last.runtime_ns, DISC_PROBE_NS);
	assert_int_equal(f.last.ramp_ns, DISC_PROBE_RAMP_NS);
	assert_int_equal(c.probe_runtime_ns, DISC_PROBE_NS);

	struct jw w;
	char *json = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&json, &len);
	assert_non_null(mem);
	jw_init(&w, mem, 0);
	discipline_json(&c, &w);
	fclose(mem);
	expect_has(json, "\"probe_runtime_ns\":1000000000");
	expect_has(json, "\"probe_ramp_ns\":200000000");
	free(json);
	job_spec_free(&job);
}

static void test_libaio_batching(void **state)
{
	(void)state;
	struct fake f = {.submit1_iops = 150000, .pass_iops = 100000};
	struct job_spec job;
	struct disc_choice c;
	struct ioc_err err = {0};

	make_job(&job, "libaio", 8);
	assert_int_equal(discipline_choose(&AUTO, &job, fake_measure, &f, &c, &err), 0);
	assert_int_equal(f.calls, 4);
	assert_string_equal(c.d->name, "fio_batch");
	assert_int_equal(discipline_apply(&c, &job, &err), 0);
	assert_int_equal(job.iodepth_batch_submit, 1);
	assert_int_equal(job.iodepth_batch_complete_max, 0);
	job_spec_free(&job);
}

/* The user's own setting, --discipline=fixed|NAME and one-discipline
 * engines: no probe run at all. */
static void test_no_probe_when_fixed(void **state)
{
	(void)state;
	struct fake f = {.ring_iops = {[URING_RING_DEFER] = 1, [URING_RING_COOP] = 2,
				       [URING_RING_NONE] = 3}, .pass_iops = 1};
	static const char *const keys[][2] = {
		{"ring_setup", "defer_taskrun"}, {"iodepth_batch_submit", "4"},
		{"iodepth_batch_complete_min", "1"}, {"iodepth_batch_complete_max", "8"},
		{"iodepth_low", "2"},
	};
	struct job_spec job;
	struct disc_choice c;
	struct ioc_err err = {0};

	for (unsigned i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		make_job(&job, "io_uring", 8);
		assert_int_equal(options_apply(&job, keys[i][0], keys[i][1], &err), 0);
		assert_int_equal(discipline_choose(&AUTO, &job, fake_measure, &f, &c, &err), 0);
		assert_int_equal(c.how, DISC_HOW_USER);
		assert_null(c.d);
		job_spec_free(&job);
	}
	struct disc_opt fixed, named;
	assert_int_equal(discipline_opt_parse("fixed", &fixed, &err), 0);
	assert_int_equal(discipline_opt_parse("none", &named, &err), 0);
	make_job(&job, "io_uring", 8);
	assert_int_equal(discipline_choose(&fixed, &job, fake_measure, &f, &c, &err), 0);
	assert_int_equal(c.how, DISC_HOW_FIXED);
	assert_int_equal(discipline_choose(&named, &job, fake_measure, &f, &c, &err), 0);
	assert_int_equal(c.how, DISC_HOW_NAMED);
	assert_string_equal(c.d->name, "none");
	job_spec_free(&job);
	make_job(&job, "psync", 1);
	assert_int_equal(discipline_choose(&AUTO, &job, fake_measure, &f, &c, &err), 0);
	assert_int_equal(c.how, DISC_HOW_NONE);
	assert_int_equal(discipline_opt_check(&named, &job, &err), -EINVAL);
	expect_has(err.msg, "--discipline=none is for ioengine=io_uring, not ioengine=psync");
	job_spec_free(&job);
	assert_int_equal(f.calls, 0);
	memset(&err, 0, sizeof(err));
	assert_int_equal(discipline_opt_parse("fastest", &fixed, &err), -EINVAL);
	expect_has(err.msg, "--discipline=fastest: accepted: auto, fixed");
}

/* `iochar curve` on a file: the probe's record, and the choice is the
 * recorded best. */
static void test_curve_records_probe(void **state)
{
	const char *dir = *state;
	char file[512], out[512], path[600];
	struct proc_out po;

	snprintf(file, sizeof(file), "%s/f", dir);
	snprintf(out, sizeof(out), "%s/res", dir);
	make_file(file, 16 << 20);
	char fn[600];
	snprintf(fn, sizeof(fn), "--filename=%s", file);
	run_iochar(&po, NULL, 0, ARGS("curve", fn, "--ioengine=io_uring", "--rw=randread",
				      "--bs=4k", "--iodepth=4", "--runtime=300ms",
				      "--time_based=1", "--points=50", "--out", out));
	if (po.status && strstr(po.err, "io_uring")) {
		printf("SKIP: io_uring unavailable: %s\n", po.err);
		proc_out_free(&po);
		return;
	}
	expect_exit(&po, 0);
	expect_has(po.err, "probing 3 submission disciplines");
	expect_has(po.out, "discipline: io_uring ring_setup=");
	/* the line follows the step's rows (curve max and points) it chose
	 * for, not above them where it reads as the step before's */
	const char *disc = strstr(po.out, "discipline: io_uring");
	const char *max_row = strstr(po.out, " max ");
	assert_non_null(max_row);
	assert_true(max_row < disc);
	snprintf(path, sizeof(path), "%s/results.json", out);
	json_object *r = json_object_from_file(path);
	assert_non_null(r);
	json_object *steps = jget(r, "steps");
	json_object *set = json_object_array_get_idx(
		jget(json_object_array_get_idx(steps, 0), "sets"), 0);
	json_object *d = jget(set, "discipline");
	assert_string_equal(json_object_get_string(jget(d, "how")), "probed");
	json_object *pr = jget(d, "probe");
	assert_int_equal(json_object_array_length(pr), 3);
	const char *best = NULL;
	double best_iops = -1;
	for (size_t i = 0; i < 3; i++) {
		json_object *e = json_object_array_get_idx(pr, i);
		double v = jget_double(e, "iops");
		assert_true(v > 0);
		assert_int_equal(json_object_array_length(jget(e, "runs_iops")),
				 jget_u64(d, "probe_rounds"));
		if (v > best_iops) {
			best_iops = v;
			best = json_object_get_string(jget(e, "name"));
		}
	}
	/* decided: the highest median; else the default, the first */
	if (!json_object_get_boolean(jget(d, "decided")))
		best = "defer_taskrun";
	assert_in_range(jget_u64(d, "probe_rounds"), 2, DISC_PROBE_ROUNDS);
	assert_string_equal(json_object_get_string(jget(d, "name")), best);
	assert_string_equal(json_object_get_string(jget(d, "ring_setup")), best);
	json_object_put(r);
	proc_out_free(&po);

	/* the HTML report says it too */
	char html[600];
	snprintf(html, sizeof(html), "%s/r.html", dir);
	run_iochar(&po, NULL, 0, ARGS("report", out, "-o", html));
	expect_exit(&po, 0);
	proc_out_free(&po);
	FILE *hf = fopen(html, "r");
	assert_non_null(hf);
	static char page[1 << 20];
	size_t n = fread(page, 1, sizeof(page) - 1, hf);
	fclose(hf);
	page[n] = '\0';
	expect_has(page, "Submission discipline of");
	expect_has(page, "(probed at iodepth 4 numjobs 1: defer_taskrun ");

	/* the job's own ring_setup: no probe, said so */
	snprintf(out, sizeof(out), "%s/res2", dir);
	run_iochar(&po, NULL, 0, ARGS("curve", fn, "--ioengine=io_uring", "--rw=randread",
				      "--ring_setup=none", "--bs=4k", "--iodepth=4",
				      "--runtime=300ms", "--time_based=1", "--points=50",
				      "--out", out));
	expect_exit(&po, 0);
	assert_null(strstr(po.err, "probing"));
	expect_has(po.out, "ring_setup=none, iodepth_batch_submit=0 "
			   "iodepth_batch_complete_max=65536 (set by the job: not probed)");
	proc_out_free(&po);
}

/* How often needle stands in hay. */
static unsigned count_of(const char *hay, const char *needle)
{
	unsigned n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* A plan of four steps on the same two files: the discipline, probed by
 * the first step and kept by the others, is said once in the summary
 * table, under the step that probed it, and the per-target rows' note
 * once too (the JSON keeps every step's record). */
static void test_plan_says_discipline_once(void **state)
{
	const char *dir = *state;
	char fa[512], fb[512], fn[1100], out[512];
	struct proc_out po;

	snprintf(fa, sizeof(fa), "%s/a", dir);
	snprintf(fb, sizeof(fb), "%s/b", dir);
	snprintf(out, sizeof(out), "%s/res", dir);
	/* iochar's own files: the plan writes to them */
	snprintf(fn, sizeof(fn), "--filename=%s:%s", fa, fb);
	run_iochar(&po, NULL, 0, ARGS("plan", "quick", fn, "--size=8m", "--ioengine=io_uring",
				      "--mode=fixed", "--runtime=200ms", "--targets=parallel",
				      "--out", out));
	if (po.status && strstr(po.err, "io_uring")) {
		printf("SKIP: io_uring unavailable: %s\n", po.err);
		proc_out_free(&po);
		return;
	}
	expect_exit(&po, 0);
	if (count_of(po.out, "  discipline: io_uring") != 1 ||
	    count_of(po.out, "is the mean of both directions") != 1 ||
	    strstr(po.out, "(mean, both directions)"))
		fail_msg("an explanation said more than once:\n%s", po.out);
	const char *disc = strstr(po.out, "  discipline: "), *second = strstr(po.out, "seq1m");
	assert_true(disc && second && disc < second); /* under the step that probed */
	assert_int_equal(count_of(po.err, "': discipline "), 1);
	proc_out_free(&po);
}

/* A bad --discipline: exit 2, one line naming it, nothing written. */
static void test_bad_discipline(void **state)
{
	const char *dir = *state;
	char out[512], fn[600];
	struct proc_out po;
	struct stat sb;

	snprintf(out, sizeof(out), "%s/res", dir);
	snprintf(fn, sizeof(fn), "--filename=%s/never", dir);
	run_iochar(&po, NULL, 0, ARGS("curve", fn, "--size=1m", "--runtime=1s", "--ioengine=io_uring",
				      "--discipline=fast", "--points=50", "--out", out));
	expect_exit(&po, 2);
	expect_has(po.err, "--discipline=fast: accepted: auto, fixed");
	proc_out_free(&po);
	run_iochar(&po, NULL, 0, ARGS("curve", fn, "--size=1m", "--runtime=1s", "--ioengine=libaio",
				      "--discipline=coop_taskrun", "--points=50", "--out", out));
	expect_exit(&po, 2);
	expect_has(po.err, "--discipline=coop_taskrun is for ioengine=io_uring, not ioengine=libaio");
	assert_int_equal(count_lines(po.err), 1);
	proc_out_free(&po);
	snprintf(fn, sizeof(fn), "%s/never", dir);
	assert_int_not_equal(stat(fn, &sb), 0);
	assert_int_not_equal(stat(out, &sb), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_probe_picks_best_ring),
		cmocka_unit_test(test_tie_keeps_first),
		cmocka_unit_test(test_noisy_run_repeats),
		cmocka_unit_test(test_probe_as_short_as_the_step),
		cmocka_unit_test(test_libaio_batching),
		cmocka_unit_test(test_no_probe_when_fixed),
		cmocka_unit_test_setup_teardown(test_curve_records_probe, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_plan_says_discipline_once, tmpdir_setup,
						tmpdir_teardown),
		cmocka_unit_test_setup_teardown(test_bad_discipline, tmpdir_setup,
						tmpdir_teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
