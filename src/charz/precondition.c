/* precondition.c - SNIA PTS-style preconditioning of base's targets.
 *
 * fill_passes sequential write passes (rw=write, bs=fill_bs, one job at
 * fill_iodepth, not time based: each run writes the region once; PTS's
 * workload-independent preconditioning, whatever the workload), then
 * rounds of the workload itself (base's rw, bs, mix, iodepth and numjobs,
 * round_ns each: the workload-dependent part). Every round's total IOPS is
 * recorded; from the window-th round on, steady_state_check judges the
 * last window rounds, and the first steady verdict ends it. Otherwise it
 * ends after max_rounds. Every run is closed loop without ramp time: the
 * rounds follow each other, so there is nothing to warm up between them.
 */
#include "charz/precondition.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/job_gen.h"

#define PRECOND_MAX_FILL                                                       \
	(sizeof(((struct precond_result *)0)->fill) /                          \
	 sizeof(((struct precond_result *)0)->fill[0]))

void precond_params_default(struct precond_params *pp)
{
	memset(pp, 0, sizeof(*pp));
	pp->fill_passes = 2;
	pp->fill_bs = 128 * 1024;
	pp->fill_iodepth = 32;
	pp->max_rounds = 25;
	pp->round_ns = 60ull * 1000000000ull;
	pp->steady.window = 5;
	pp->steady.max_excursion = 0.20;
	pp->steady.max_slope = 0.10;
}

/* Run base, as a fill pass when fill is not NULL (rw=write, its bs, one
 * job at its depth) or as a round of runtime_ns, into *out. */
static int run_pass(const struct job_spec *base, const struct precond_params *fill,
		    uint64_t runtime_ns, measure_fn measure, void *arg,
		    struct point *out, struct ioc_err *err)
{
	struct job_spec job;
	int ret = job_spec_copy(&job, base);

	if (ret)
		return err_set(err, ret, "precondition: out of memory");
	if (fill) {
		job.rw = RW_WRITE;
		job.bs = fill->fill_bs;
		job_gen_plain(&job); /* once over the region, whatever the job's shape */
		job.iodepth = fill->fill_iodepth ? fill->fill_iodepth : 1;
		job.numjobs = 1; /* more jobs would each write the region */
	}
	enum rw_mode rw = job.rw;
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
	if (pp->max_rounds && pp->round_ns == 0)
		return err_set(err, EINVAL, "precondition: rounds need a length");
	return 0;
}

/* Is the job's workload one whose rounds precondition (it writes)? */
static int check_base(const struct job_spec *base, struct ioc_err *err)
{
	if (!rw_writes(base->rw) || (rw_is_mixed(base->rw) && base->rwmixread >= 100))
		return err_usage(err, EINVAL,
				 "precondition: rw=%s%s writes nothing: the rounds run the "
				 "workload to precondition for (rw=randwrite, PTS's default, "
				 "or a mix that writes)",
				 rw_name(base->rw), rw_is_mixed(base->rw) ? " rwmixread=100" : "");
	return 0;
}

static void record_ran(const struct job_spec *base, const struct precond_params *pp,
		       struct precond_ran *ran)
{
	ran->rw = base->rw;
	ran->rwmixread = base->rwmixread;
	ran->bs = base->bs;
	ran->iodepth = base->iodepth;
	ran->numjobs = base->numjobs;
	ran->round_ns = pp->round_ns;
	ran->fill_passes = pp->fill_passes;
	ran->fill_iodepth = pp->fill_iodepth;
	ran->fill_bs = pp->fill_bs;
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
		ret = run_pass(base, NULL, pp->round_ns, measure, arg, &pt, err);
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
	if (!ret)
		ret = check_base(base, err);
	if (ret)
		return ret;
	record_ran(base, pp, &res->ran);
	for (unsigned i = 0; i < pp->fill_passes; i++) {
		ret = run_pass(base, pp, 0, measure, arg, &res->fill[i], err);
		if (ret)
			return ret;
		res->fill[i].call = i;
		res->ran.fill_bytes += res->fill[i].s.total.bytes;
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
