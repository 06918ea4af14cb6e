/* rebuild_step.c - a plan step with mode=rebuild (rebuild_step.h). */
#include "charz/rebuild_step.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "charz/rebuild.h"

int rebuild_step_validate(const struct plan_step *st, struct ioc_err *err)
{
	struct vd_members *m;
	int ret;

	if (!st->job.vd[0])
		return err_usage(err, EINVAL, "step '%s': mode=rebuild needs a RAID VD (vd=...)",
				 st->label);
	if (!st->replace_set)
		return err_usage(err, EINVAL,
				 "step '%s': mode=rebuild needs replace=N (the member rebuilt, from 0)",
				 st->label);
	if (st->targets != TARGETS_EACH)
		return err_usage(err, EINVAL,
				 "step '%s': mode=rebuild runs on its one VD: targets=%s is not for it",
				 st->label, target_use_name(st->targets));
	if (!(m = calloc(1, sizeof(*m))))
		return err_set(err, ENOMEM, "out of memory");
	ret = rebuild_sweep_check(&st->job, st->replace, true, m, err);
	free(m);
	if (ret)
		err_prefix(err, "step '%s'", st->label);
	return ret;
}

/* A foreground figure as the plan's other points are. */
static void to_point(const struct job_spec *job, const struct rebuild_fg *fg,
		     struct point *p)
{
	memset(p, 0, sizeof(*p));
	p->iodepth = job->iodepth;
	p->numjobs = job->numjobs;
	p->s = fg->s;
	p->elapsed_ns = fg->elapsed_ns;
}

int rebuild_step_run(const struct plan_step *st, struct set_outcome *s,
		     atomic_bool *stop, struct ioc_err *err)
{
	struct job_spec job;
	int ret;

	s->rebuild = calloc(1, sizeof(*s->rebuild));
	s->rebuild_vd = calloc(1, sizeof(*s->rebuild_vd));
	if (!s->rebuild || !s->rebuild_vd)
		return err_set(err, ENOMEM, "out of memory");
	ret = rebuild_sweep_rates(st->rebuild_rate[0] ? st->rebuild_rate : NULL,
				  "rebuild_rate", s->rebuild, err);
	if (!ret)
		ret = rebuild_sweep_check(&st->job, st->replace, true, s->rebuild_vd, err);
	if (ret)
		return ret;
	if (job_spec_copy(&job, &st->job))
		return err_set(err, ENOMEM, "out of memory");
	ret = rebuild_sweep_run(&job, st->replace, true, stop, s->rebuild_vd,
				s->rebuild, err);
	job_spec_free(&job);
	if (ret)
		return ret;
	to_point(&st->job, &s->rebuild->base, &s->rebuild_points[0]);
	for (unsigned i = 0; i < s->rebuild->n; i++)
		to_point(&st->job, &s->rebuild->p[i].during, &s->rebuild_points[i + 1]);
	if (s->rebuild->bad)
		return err_set(err, EIO,
			       "rebuild of member %u: %llu rows disagree with the others afterwards",
			       st->replace, (unsigned long long)s->rebuild->bad);
	return 0;
}
