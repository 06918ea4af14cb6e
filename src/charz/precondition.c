/* precondition.c - SNIA PTS-style preconditioning of base's targets.
 *
 * fill_passes sequential write passes (rw=write, bs=fill_bs, one job at
 * fill_iodepth, not time based: each run writes the region once; PTS's
 * workload-independent preconditioning, whatever the workload), then
 * rounds of the workload itself (base's rw, bs, mix, iodepth and numjobs,
 * round_ns each: the workload-dependent part). Every round's total IOPS is
 * recorded, and on several targets at once each target's too; from the
 * window-th round on, steady_state_check judges the last window rounds of
 * the total and of every target, and the first round where all are steady
 * ends it (PTS judges each device: a sum can look steady while one drive
 * still falls). Otherwise it ends after max_rounds. Every run is closed loop without ramp time: the
 * rounds follow each other, so there is nothing to warm up between them,
 * and PTS measures the device flat out, so the job's pacing is dropped.
 */
#include "charz/precondition.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/job_gen.h"
#include "base/pace_opts.h"
#include "target/target.h"

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

/* The job of one fill pass over base's targets: rw=write of fill_bs, once
 * over the region by one job at fill_iodepth, whatever base's shape. */
static int fill_job(const struct job_spec *base, const struct precond_params *pp,
		    struct job_spec *job, struct ioc_err *err)
{
	if (job_spec_copy(job, base))
		return err_set(err, ENOMEM, "precondition: out of memory");
	job->rw = RW_WRITE;
	job->bs = pp->fill_bs;
	job_gen_plain(job); /* once over the region, whatever the job's shape */
	job->iodepth = pp->fill_iodepth ? pp->fill_iodepth : 1;
	job->numjobs = 1; /* more jobs would each write the region */
	job->time_based = false;
	job->runtime_ns = 0;
	job->ramp_ns = 0;
	pace_opts_clear(job); /* PTS: closed loop, as fast as the device takes it */
	return 0;
}

/* The job of every round: base's workload for round_ns, unpaced. */
static int round_job(const struct job_spec *base, const struct precond_params *pp,
		     struct job_spec *job, struct ioc_err *err)
{
	if (job_spec_copy(job, base))
		return err_set(err, ENOMEM, "precondition: out of memory");
	job->time_based = true;
	job->runtime_ns = pp->round_ns;
	job->ramp_ns = 0;
	pace_opts_clear(job); /* PTS: closed loop, as fast as the device takes it */
	return 0;
}

/* Run job once into *out. */
static int run_pass(const struct job_spec *job, measure_fn measure, void *arg,
		    struct point *out, struct ioc_err *err)
{
	memset(out, 0, sizeof(*out));
	int ret = measure(arg, job, out, err);
	if (ret && err && err->msg[0])
		err_prefix(err, "precondition %s", rw_name(job->rw));
	if (!out->iodepth) /* measure's is what ran (a synchronous engine: 1) */
		out->iodepth = job->iodepth;
	out->numjobs = job->numjobs;
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

/* What the fill and the rounds ran, taken from the very jobs handed to
 * measure: a mixed workload's read share as given, 0 for a pure write
 * (every I/O a write; fio ignores rwmixread there). */
static void record_ran(const struct job_spec *fill, const struct job_spec *round,
		       const struct precond_params *pp, struct precond_ran *ran)
{
	ran->rw = round->rw;
	ran->rwmixread = rw_is_mixed(round->rw) ? round->rwmixread : 0;
	ran->bs = round->bs;
	ran->iodepth = round->iodepth;
	ran->numjobs = round->numjobs;
	ran->round_ns = round->runtime_ns;
	ran->fill_passes = pp->fill_passes;
	ran->fill_iodepth = fill->iodepth;
	ran->fill_bs = fill->bs;
}

const double *precond_target_rounds(const struct precond_result *res, unsigned t)
{
	return res->target_rounds + (size_t)t * res->rounds_cap;
}

/* The series of every round: the total's, and each target's when they
 * are judged one by one. */
static int alloc_rounds(const struct precond_params *pp, struct precond_result *res,
			struct ioc_err *err)
{
	res->rounds_cap = pp->max_rounds;
	res->round_iops = calloc(pp->max_rounds, sizeof(*res->round_iops));
	if (!res->round_iops)
		return err_set(err, ENOMEM, "precondition: out of memory");
	if (pp->nr_targets < 2 || !pp->target_iops)
		return 0;
	res->target_rounds = calloc((size_t)pp->nr_targets * pp->max_rounds, sizeof(double));
	res->target_verdict = calloc(pp->nr_targets, sizeof(*res->target_verdict));
	if (!res->target_rounds || !res->target_verdict)
		return err_set(err, ENOMEM, "precondition: out of memory");
	res->nr_targets = pp->nr_targets;
	return 0;
}

/* Round r's (0-based) IOPS of each target into their series. */
static int keep_targets(const struct precond_params *pp, void *arg, unsigned r,
			struct precond_result *res, struct ioc_err *err)
{
	double iops[JOB_MAX_FILES];
	unsigned n = res->nr_targets;

	if (n > JOB_MAX_FILES)
		return err_set(err, EINVAL, "precondition: %u targets: at most %d", n,
			       JOB_MAX_FILES);
	if (pp->target_iops(arg, iops, n) != n) /* the measure's bug: judging the sum would hide it */
		return err_set(err, EIO, "precondition: round %u gave no figures per target",
			       r + 1);
	for (unsigned t = 0; t < n; t++)
		res->target_rounds[(size_t)t * res->rounds_cap + r] = iops[t];
	return 0;
}

/* Judge the last window: the total's, then every target's; steady when
 * all are. */
static bool judge(const struct precond_params *pp, struct precond_result *res)
{
	res->verdict = steady_state_check(res->round_iops, res->nr_rounds, &pp->steady);
	res->steady = res->verdict.steady;
	for (unsigned t = 0; t < res->nr_targets; t++) {
		res->target_verdict[t] = steady_state_check(precond_target_rounds(res, t),
							    res->nr_rounds, &pp->steady);
		res->steady &= res->target_verdict[t].steady;
	}
	return res->steady;
}

static int run_rounds(const struct job_spec *job,
		      const struct precond_params *pp, measure_fn measure,
		      void *arg, struct precond_result *res,
		      struct ioc_err *err)
{
	struct point pt;
	int ret;

	if ((ret = alloc_rounds(pp, res, err)))
		return ret;
	for (unsigned r = 0; r < pp->max_rounds; r++) {
		ret = run_pass(job, measure, arg, &pt, err);
		if (!ret && res->nr_targets)
			ret = keep_targets(pp, arg, r, res, err);
		if (ret)
			return ret;
		res->last_round = pt;
		res->round_iops[res->nr_rounds++] = pt.s.total.iops;
		if (res->nr_rounds < pp->steady.window)
			continue;
		if (judge(pp, res)) {
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
	struct job_spec fill, round;
	int ret;

	memset(res, 0, sizeof(*res));
	ret = check_params(pp, err);
	if (!ret)
		ret = check_base(base, err);
	if (ret)
		return ret;
	if ((ret = fill_job(base, pp, &fill, err)))
		return ret;
	if ((ret = round_job(base, pp, &round, err))) {
		job_spec_free(&fill);
		return ret;
	}
	record_ran(&fill, &round, pp, &res->ran);
	res->window = pp->steady.window;
	for (unsigned i = 0; i < pp->fill_passes && !ret; i++) {
		ret = run_pass(&fill, measure, arg, &res->fill[i], err);
		if (ret)
			break;
		res->fill[i].call = i;
		res->ran.fill_bytes += res->fill[i].s.total.bytes;
		res->nr_fill++;
	}
	if (!ret && pp->max_rounds)
		ret = run_rounds(&round, pp, measure, arg, res, err);
	/* as run: a synchronous engine ran at 1 */
	if (res->nr_fill)
		res->ran.fill_iodepth = res->fill[0].iodepth;
	if (!ret && res->nr_rounds)
		res->ran.iodepth = res->last_round.iodepth;
	job_spec_free(&fill);
	job_spec_free(&round);
	return ret;
}

void precond_result_free(struct precond_result *res)
{
	if (!res)
		return;
	free(res->round_iops);
	free(res->target_rounds);
	free(res->target_verdict);
	res->round_iops = res->target_rounds = NULL;
	res->target_verdict = NULL;
	res->nr_rounds = res->nr_targets = 0;
}

bool precond_reads_unwritten(const struct job_spec *job, bool is_block, bool filled)
{
	bool reads = rw_reads(job->rw) && !(rw_is_mixed(job->rw) && job->rwmixread == 0);

	return reads && is_block && !filled;
}

bool precond_target_unwritten(const struct job_spec *job, const char *path, bool filled)
{
	struct target_info info;
	struct ioc_err err = {.msg = ""};

	if (!precond_reads_unwritten(job, true, filled)) /* no need to look */
		return false;
	return !target_inspect(path, &info, &err) && info.exists && info.is_block;
}
