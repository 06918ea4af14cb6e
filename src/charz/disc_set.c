/* disc_set.c - a target set's discipline in a plan run (disc_set.h). */
#include "charz/disc_set.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>


static struct disc_choice *memo_find(struct disc_memo_set *m, const struct set_outcome *s,
				     const char *engine)
{
	for (unsigned i = 0; i < m->n; i++) {
		bool same = m->e[i].nr_targets == s->nr_targets && !strcmp(m->e[i].engine, engine);
		for (unsigned t = 0; same && t < s->nr_targets; t++)
			same = !strcmp(m->e[i].targets[t], s->targets[t]);
		if (same)
			return &m->e[i].c;
	}
	return NULL;
}

static void memo_add(struct disc_memo_set *m, const struct set_outcome *s,
		     const char *engine, const struct disc_choice *c)
{
	struct disc_choice *had = memo_find(m, s, engine);
	if (had) {
		*had = *c;
		return;
	}
	if (m->n == DISC_MEMO_MAX)
		return;
	m->e[m->n].targets = s->targets;
	m->e[m->n].nr_targets = s->nr_targets;
	m->e[m->n].engine = engine;
	m->e[m->n++].c = *c;
}

/* Probe st's discipline on set s through a measure context of its own
 * (the probe's runs are not the step's calls), at the step's first
 * depth: a search's first point, else the job's. */
static int disc_probe(const struct plan_step *st, struct set_outcome *s,
		      const struct plan_run_opts *o, struct ioc_err *err)
{
	struct measure_ctx pc = {.targets = s->targets, .nr_targets = s->nr_targets,
				 .hooks = o->hooks, .dist = o->dist};
	struct job_spec job;
	int ret;

	if (job_spec_copy(&job, &st->job))
		return err_set(err, ENOMEM, "out of memory");
	if (st->mode == STEP_SEARCH)
		job.iodepth = job.numjobs = 1;
	if (o->progress && discipline_candidates(&job) > 1 &&
	    o->discipline.mode == DISC_AUTO && !discipline_user_fixed(&job)) {
		uint64_t run_ns, ramp_ns;
		discipline_probe_time(&job, &run_ns, &ramp_ns);
		fprintf(o->progress, "iochar: step '%s': probing %u submission disciplines "
			"(%.3g s each at iodepth %u, %u or %u rounds until one is decided)\n",
			st->label, discipline_candidates(&job),
			(double)run_ns / 1e9, job.iodepth, 2, DISC_PROBE_ROUNDS);
		fflush(o->progress);
	}
	ret = discipline_choose(&o->discipline, &job, measure_run, &pc, &s->disc, err);
	measure_ctx_reset(&pc);
	job_spec_free(&job);
	return ret;
}

/* Whether set s's discipline is the one its last step said (the same
 * settings, decided the same way), then remembered as said. */
static void said_before(struct disc_memo *m, struct set_outcome *s, const char *engine)
{
	const struct disc_choice *c = &s->disc, *was = memo_find(&m->said, s, engine);
	s->disc.unchanged = was && was->how == c->how && was->d == c->d &&
			    !strcmp(was->engine, c->engine) && !strcmp(was->ring, c->ring) &&
			    was->submit == c->submit && was->cmax == c->cmax;
	memo_add(&m->said, s, engine, c);
}

int disc_set_choose(const struct plan_step *st, struct set_outcome *s,
		    const struct plan_run_opts *o, struct disc_memo *m,
		    struct ioc_err *err)
{
	struct disc_choice *had = memo_find(&m->probed, s, st->job.ioengine);
	struct job_spec job;
	int ret = 0;

	if (st->mode == STEP_PRECONDITION || st->mode == STEP_REBUILD)
		return 0;
	if (had && o->discipline.mode == DISC_AUTO && !discipline_user_fixed(&st->job)) {
		s->disc = *had;
		s->disc.reused = true;
	} else if ((ret = disc_probe(st, s, o, err))) {
		return ret;
	} else if (s->disc.how == DISC_HOW_PROBED) {
		memo_add(&m->probed, s, st->job.ioengine, &s->disc);
	}
	if (job_spec_copy(&job, &st->job))
		return err_set(err, ENOMEM, "out of memory");
	ret = discipline_apply(&s->disc, &job, err);
	discipline_record(&s->disc, &job);
	job_spec_free(&job);
	s->disc_decided = true;
	s->mctx.disc = &s->disc;
	said_before(m, s, st->job.ioengine);
	if (!ret && o->progress && s->disc.how == DISC_HOW_PROBED && !s->disc.unchanged) {
		char line[512];
		discipline_describe(&s->disc, line, sizeof(line));
		fprintf(o->progress, "iochar: step '%s': discipline %s\n", st->label, line);
		fflush(o->progress);
	}
	return ret;
}
