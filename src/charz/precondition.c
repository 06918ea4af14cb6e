/* precondition.c - SNIA PTS-style preconditioning of base's targets.
 *
 * fill_passes sequential write passes (rw=write, bs=fill_bs, not time
 * based: each run writes the region once), then rounds of random writes
 * (rw=randwrite, bs=round_bs, round_ns each). Every round's total IOPS is
 * recorded; from the window-th round on, steady_state_check judges the
 * last window rounds, and the first steady verdict ends it. Otherwise it
 * ends after max_rounds. Every run is closed loop without ramp time: the
 * rounds follow each other, so there is nothing to warm up between them.
 */
#include "charz/precondition.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define PRECOND_MAX_FILL                                                       \
	(sizeof(((struct precond_result *)0)->fill) /                          \
	 sizeof(((struct precond_result *)0)->fill[0]))

void precond_params_default(struct precond_params *pp)
{
	memset(pp, 0, sizeof(*pp));
	pp->fill_passes = 2;
	pp->fill_bs = 128 * 1024;
	pp->max_rounds = 25;
	pp->round_ns = 60ull * 1000000000ull;
	pp->round_bs = 4096;
	pp->steady.window = 5;
	pp->steady.max_excursion = 0.20;
	pp->steady.max_slope = 0.10;
}

/* Run base as rw/bs (time based for runtime_ns when non-zero) into *out. */
static int run_pass(const struct job_spec *base, enum rw_mode rw, uint64_t bs,
		    uint64_t runtime_ns, measure_fn measure, void *arg,
		    struct point *out, struct ioc_err *err)
{
	struct job_spec job;
	int ret = job_spec_copy(&job, base);

	if (ret)
		return err_set(err, ret, "precondition: out of memory");
	job.rw = rw;
	job.bs = bs;
	job.time_based = runtime_ns != 0;
	job.runtime_ns = runtime_ns;
	job.ramp_ns = 0;
	job.rate_iops = 0;
	memset(out, 0, sizeof(*out));
	ret = measure(arg, &job, out, err);
	if (ret && err && err->msg[0])
		err_prefix(err, "precondition %s", rw_name(rw));
	out->iodepth = job.iodepth;
	out->numjobs = job.numjobs;
	job_spec_free(&job);
	return ret;
}

static int check_params(const struct precond_params *pp, struct ioc_err *err)
{
	if (pp->fill_passes > PRECOND_MAX_FILL)
		return err_set(err, EINVAL,
			       "precondition: fill_passes=%u: at most %zu",
			       pp->fill_passes, PRECOND_MAX_FILL);
	if (pp->fill_passes && pp->fill_bs == 0)
		return err_set(err, EINVAL,
			       "precondition: fill block size is 0");
	if (pp->max_rounds && (pp->round_bs == 0 || pp->round_ns == 0))
		return err_set(
		    err, EINVAL,
		    "precondition: rounds need a block size and a length");
	return 0;
}

static int run_rounds(const struct job_spec *base,
		      const struct precond_params *pp, measure_fn measure,
		      void *arg, struct precond_result *res,
		      struct ioc_err *err)
{
	struct point pt;
	int ret;

	res->round_iops = calloc(pp->max_rounds, sizeof(*res->round_iops));
	if (!res->round_iops)
		return err_set(err, ENOMEM, "precondition: out of memory");
	for (unsigned r = 0; r < pp->max_rounds; r++) {
		ret = run_pass(base, RW_RANDWRITE, pp->round_bs, pp->round_ns,
			       measure, arg, &pt, err);
		if (ret)
			return ret;
		res->round_iops[res->nr_rounds++] = pt.s.total.iops;
		if (res->nr_rounds < pp->steady.window)
			continue;
		res->verdict = steady_state_check(res->round_iops,
						  res->nr_rounds, &pp->steady);
		if (res->verdict.steady) {
			res->steady_round = res->nr_rounds;
			break;
		}
	}
	return 0;
}

int precondition_run(const struct job_spec *base,
		     const struct precond_params *pp, measure_fn measure,
		     void *arg, struct precond_result *res, struct ioc_err *err)
{
	int ret;

	memset(res, 0, sizeof(*res));
	ret = check_params(pp, err);
	if (ret)
		return ret;
	for (unsigned i = 0; i < pp->fill_passes; i++) {
		ret = run_pass(base, RW_WRITE, pp->fill_bs, 0, measure, arg,
			       &res->fill[i], err);
		if (ret)
			return ret;
		res->nr_fill++;
	}
	if (pp->max_rounds == 0)
		return 0;
	return run_rounds(base, pp, measure, arg, res, err);
}

void precond_result_free(struct precond_result *res)
{
	if (!res)
		return;
	free(res->round_iops);
	res->round_iops = NULL;
	res->nr_rounds = 0;
}
