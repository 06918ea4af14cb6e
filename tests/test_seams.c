/* test_seams.c - the runner's seams (core/seams.h) with stand-ins: a
 * target kind that is no VD, per-I/O hooks that check nothing, an
 * environment hook that only counts. The runner must drive each through
 * its contract alone (core/ knows nothing of vd/, verify/, inventory/):
 * a kind's jobs are split, laid out, prepared, started and stopped in
 * order, its workers get its engine over the job's own, its accounting
 * is summed per job; every I/O passes the hooks; the environment is
 * collected over the run's paths and released with the result. Runs on
 * the null engine: nothing is written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/runner.h"
#include "core/seams.h"
#include "engine/engine.h"

#define BS 4096u
#define BLOCKS 256u

/* What the stand-ins saw; reset by each test. */
static struct seen {
	unsigned layouts, prepares, starts, stops, releases, inits;
	unsigned measured, taken, announced_start, announced_stop;
	unsigned checks, creates, destroys, reuses, env_frees;
	atomic_uint prepared, completed, flushed;
	unsigned env_paths;
	char env_path0[64];
	void *shared;
} seen;

static int shared_token;       /* what the kind's start shares */
static struct target_ops kind; /* the stand-in kind, below */
static const char *kind_path = "/nowhere/member0"; /* its "member" */

static bool k_claims(const struct job_spec *job)
{
	return !strncmp(job->name, "kind", 4);
}

static unsigned k_count(const struct job_spec *job)
{
	(void)job;
	return 2;
}

static int k_split(const struct job_spec *job, unsigned i, unsigned n,
		   struct job_spec *out)
{
	snprintf(out->name, sizeof(out->name), "%.40s.%u/%u", job->name, i, n);
	return 0;
}

static int k_layout(const struct job_spec *job, const struct engine_ops *eops,
		    struct target_layout *out, struct ioc_err *err)
{
	(void)eops;
	(void)err;
	seen.layouts++;
	out->region = job->size;
	out->paths[out->nr_paths++] = kind_path;
	snprintf(out->note, sizeof(out->note), "a stand-in kind");
	out->state = malloc(1);
	return 0;
}

static int k_prepare(void *state, const struct target_fill_ctl *c,
		     struct ioc_err *err)
{
	(void)state;
	(void)c;
	(void)err;
	seen.prepares++;
	return 0;
}

static int k_start(void *state, void **shared)
{
	(void)state;
	seen.starts++;
	*shared = &shared_token;
	return 0;
}

static void k_stop(void *shared)
{
	assert_ptr_equal(shared, &shared_token);
	seen.stops++;
}

static void k_release(void *state)
{
	seen.releases++;
	free(state);
}

/* The kind's engine is null over the job's psync, which it never uses:
 * the seam is what is tested, and nothing is written. */
static int k_engine_init(void *shared, const struct engine_ops *inner,
			 const struct job_spec *job,
			 const struct engine_params *p, void **estate,
			 struct ioc_err *err)
{
	(void)job;
	assert_ptr_equal(shared, &shared_token);
	assert_string_equal(inner->name, "psync");
	__atomic_fetch_add(&seen.inits, 1, __ATOMIC_RELAXED);
	return kind.engine->init(p, estate, err);
}

static void k_measure_from(void *estate, uint64_t ns)
{
	(void)estate;
	(void)ns;
	__atomic_fetch_add(&seen.measured, 1, __ATOMIC_RELAXED);
}

static void *k_take_stats(void *estate)
{
	(void)estate;
	uint64_t *one = malloc(sizeof(*one));
	*one = 1;
	__atomic_fetch_add(&seen.taken, 1, __ATOMIC_RELAXED);
	return one;
}

static int k_stats_add(void **into, const void *from)
{
	if (!*into && !(*into = calloc(1, sizeof(uint64_t))))
		return -ENOMEM;
	*(uint64_t *)*into += *(const uint64_t *)from;
	return 0;
}

static struct target_ops kind = {
	.name = "the stand-in",
	.claims = k_claims, .count = k_count, .split = k_split,
	.layout = k_layout, .prepare = k_prepare, .start = k_start,
	.stop = k_stop, .release = k_release, .engine_init = k_engine_init,
	.measure_from = k_measure_from, .take_stats = k_take_stats,
	.stats_add = k_stats_add,
};

static int h_check(const struct io_hooks_job *jobs, unsigned nr,
		   struct ioc_err *err)
{
	(void)err;
	seen.checks++;
	for (unsigned i = 0; i < nr; i++)
		assert_true(jobs[i].region > 0);
	return 0;
}

/* A state for jobs whose name says so; the others only get reuse(). */
static int h_create(const struct io_hooks_params *p, void **state,
		    struct ioc_err *err)
{
	(void)err;
	__atomic_fetch_add(&seen.creates, 1, __ATOMIC_RELAXED);
	*state = strstr(p->job->name, "hooked") ? malloc(1) : NULL;
	return 0;
}

static void h_destroy(void *state)
{
	__atomic_fetch_add(&seen.destroys, 1, __ATOMIC_RELAXED);
	free(state);
}

static bool h_prepare(void *state, struct io_unit *u)
{
	(void)state;
	(void)u;
	atomic_fetch_add(&seen.prepared, 1);
	return true;
}

static int h_flush(void *state, struct ioc_err *err)
{
	(void)state;
	(void)err;
	atomic_fetch_add(&seen.flushed, 1);
	return 0;
}

static int h_complete(void *state, struct io_unit *u, struct ioc_err *err)
{
	(void)state;
	(void)u;
	(void)err;
	atomic_fetch_add(&seen.completed, 1);
	return 0;
}

static void h_reuse(struct io_unit *u, uint64_t offset, uint64_t len,
		    uint64_t now_ns)
{
	(void)u;
	(void)offset;
	(void)now_ns;
	assert_int_equal(len, BS);
	__atomic_fetch_add(&seen.reuses, 1, __ATOMIC_RELAXED);
}

static const struct io_hooks hooks = {
	.check_jobs = h_check, .create = h_create, .destroy = h_destroy,
	.prepare = h_prepare, .flush = h_flush, .complete = h_complete,
	.reuse = h_reuse,
};

static struct environment *env_token = (struct environment *)&shared_token;

static int e_collect(const char *const *paths, unsigned nr,
		     struct environment **out)
{
	seen.env_paths = nr;
	if (nr)
		snprintf(seen.env_path0, sizeof(seen.env_path0), "%s", paths[0]);
	*out = env_token;
	return 0;
}

static void e_free(struct environment *env)
{
	assert_ptr_equal(env, env_token);
	seen.env_frees++;
}

static const struct target_ops *const kinds[] = {&kind, NULL};
static const struct runner_seams all = {
	.targets = kinds, .io = &hooks,
	.env_collect = e_collect, .env_free = e_free,
};

static void on_start(void *arg, unsigned job, void *shared)
{
	(void)arg;
	(void)job;
	seen.shared = shared;
	seen.announced_start++;
}

static void on_stop(void *arg, unsigned job, void *shared)
{
	(void)arg;
	(void)job;
	assert_ptr_equal(shared, seen.shared);
	seen.announced_stop++;
}

static void null_job(struct job_spec *j, const char *name, enum rw_mode rw)
{
	job_spec_init(j);
	snprintf(j->name, sizeof(j->name), "%s", name);
	snprintf(j->ioengine, sizeof(j->ioengine), "null");
	j->rw = rw;
	j->bs = BS;
	j->size = (uint64_t)BS * BLOCKS;
	j->iodepth = 4;
	j->numjobs = 1;
}

static int setup(void **state)
{
	(void)state;
	kind.engine = engine_find("null");
	memset(&seen, 0, sizeof(seen));
	runner_seams_install(&all);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	runner_seams_install(NULL);
	return 0;
}

/* A job of the kind runs as two, each through the kind's whole life. */
static void test_kind_lifecycle(void **state)
{
	(void)state;
	struct job_spec j;
	struct run_result r;
	struct ioc_err err = {0};
	struct runner_hooks rh = {.target_start = on_start, .target_stop = on_stop};

	null_job(&j, "kind", RW_RANDREAD);
	snprintf(j.ioengine, sizeof(j.ioengine), "psync"); /* moves data: has paths */
	j.numjobs = 2;
	if (runner_run(&j, 1, &rh, &r, &err))
		fail_msg("%s", err.msg);
	assert_int_equal(r.nr_jobs, 2);
	assert_string_equal(r.jobs[0].name, "kind.0/2");
	assert_string_equal(r.jobs[1].name, "kind.1/2");
	assert_int_equal(seen.layouts, 2);
	assert_int_equal(seen.prepares, 2);
	assert_int_equal(seen.starts, 2);
	assert_int_equal(seen.stops, 2);
	assert_int_equal(seen.releases, 2);
	assert_int_equal(seen.announced_start, 2);
	assert_int_equal(seen.announced_stop, 2);
	assert_ptr_equal(seen.shared, &shared_token);
	assert_int_equal(seen.inits, 4); /* two jobs of two workers */
	assert_int_equal(seen.measured, 4);
	assert_int_equal(seen.taken, 4);
	for (unsigned i = 0; i < 2; i++) {
		assert_non_null(r.target_stats[i]);
		assert_int_equal(*(uint64_t *)r.target_stats[i], 2); /* its workers' */
	}
	/* the environment describes the kind's paths */
	assert_int_equal(seen.env_paths, 2);
	assert_string_equal(seen.env_path0, kind_path);
	assert_ptr_equal(r.env, env_token);
	run_result_free(&r);
	assert_int_equal(seen.env_frees, 1);
	job_spec_free(&j);
}

/* Every I/O of a job with a hooks state is prepared and completed; the
 * writes of a job without one are offered for reuse; files jobs never see
 * the kind. */
static void test_io_hooks(void **state)
{
	(void)state;
	struct job_spec j[2];
	struct run_result r;
	struct ioc_err err = {0};

	null_job(&j[0], "hooked", RW_RANDRW);
	null_job(&j[1], "plain", RW_RANDWRITE);
	if (runner_run(j, 2, NULL, &r, &err))
		fail_msg("%s", err.msg);
	uint64_t hooked = r.workers[0].stats.dir[DIR_READ].ios +
			  r.workers[0].stats.dir[DIR_WRITE].ios;
	assert_int_equal(hooked, BLOCKS);
	assert_int_equal(atomic_load(&seen.prepared), BLOCKS);
	assert_int_equal(atomic_load(&seen.completed), BLOCKS);
	assert_true(atomic_load(&seen.flushed) > 0);
	assert_int_equal(seen.reuses, BLOCKS); /* the plain job's writes */
	assert_int_equal(seen.checks, 1);
	assert_int_equal(seen.creates, 2);
	assert_int_equal(seen.destroys, 1); /* only a state is destroyed */
	assert_int_equal(seen.layouts, 0);
	assert_null(r.target_stats[0]);
	run_result_free(&r);
	job_spec_free(&j[0]);
	job_spec_free(&j[1]);
}

/* Without the seams the runner still runs files jobs, and refuses what
 * needs one rather than run it unchecked. */
static void test_no_seams(void **state)
{
	(void)state;
	struct job_spec j;
	struct run_result r;
	struct ioc_err err = {0};

	runner_seams_install(NULL);
	assert_null(runner_target_kind(&(struct job_spec){.name = "kind"}));
	null_job(&j, "plain", RW_RANDREAD);
	if (runner_run(&j, 1, NULL, &r, &err))
		fail_msg("%s", err.msg);
	assert_null(r.env);
	run_result_free(&r);
	j.verify = true;
	assert_int_equal(runner_validate(&j, 1, &err), -ENOTSUP);
	assert_true(err.usage);
	assert_non_null(strstr(err.msg, "job plain: verify="));
	job_spec_free(&j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_kind_lifecycle, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_io_hooks, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_no_seams, setup, teardown),
	};
	return cmocka_run_group_tests_name("seams", tests, NULL, NULL);
}
