/* scaling_step.c - see scaling_step.h. */
#include "charz/scaling_step.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "inventory/backing.h"

/* One headline run of s into its runs (p: NULL when nothing met the
 * step's aim, which counts as 0). */
static void keep_run(const struct plan_step *st, struct set_outcome *s,
		     const struct point *p)
{
	s->rep_iops[s->nr_rep] = p ? p->s.total.iops : 0;
	s->rep_bw[s->nr_rep] = p ? p->s.total.bw_bytes : 0;
	s->rep_lat_ns[s->nr_rep++] =
	    p ? point_latency(p, st->latency_stat) : NAN;
}

struct count_arg {
	struct step_outcome *out;
	scaling_set_fn run_set;
	void *arg;
};

/* scaling_measure_fn: the mode on the first `targets` targets, then its
 * headline point again until scaling_repeats runs. */
static int scaling_count(void *arg, unsigned targets, struct knee_count *k,
			 struct ioc_err *err)
{
	struct count_arg *a = arg;
	const struct plan_step *st = a->out->step;
	int ret = a->run_set(a->arg, targets, err);
	struct set_outcome *s = &a->out->sets[a->out->nr_sets - 1];
	const struct point *p = ret ? NULL : set_headline(a->out, s);
	bool again = st->mode != STEP_PRECONDITION && st->mode != STEP_REBUILD;
	if (!ret)
		keep_run(st, s, p);
	for (unsigned r = 1; !ret && again && r < st->scaling_repeats; r++) {
		struct job_spec job;
		struct point pt = {0};
		if (job_spec_copy(&job, &st->job))
			return err_set(err, ENOMEM, "out of memory");
		if (p) { /* the point the mode chose, as it ran */
			job.iodepth = p->iodepth;
			job.numjobs = p->numjobs;
			job.rate_iops = p->rate_iops;
		}
		ret = measure_run(&s->mctx, &job, &pt, err);
		job_spec_free(&job);
		if (!ret)
			keep_run(st, s, p ? &pt : NULL);
	}
	double *x = rw_is_random(st->job.rw) ? s->rep_iops : s->rep_bw;
	knee_count_set(k, targets, x, s->nr_rep);
	double lat = 0;
	for (unsigned r = 0; r < s->nr_rep; r++)
		lat += s->rep_lat_ns[r] / s->nr_rep;
	k->lat_ns = lat;
	return ret;
}

/* The devices out's step's targets are on (inventory/backing.h). */
static void scaling_devices(struct step_outcome *out)
{
	const struct job_spec *j = &out->step->job;
	char dev[JOB_MAX_FILES][INV_BACKING_MAX];
	size_t used = 0;
	out->nr_devices = 0;
	for (unsigned i = 0; i < j->nr_files && i < JOB_MAX_FILES; i++) {
		char d[INV_BACKING_MAX];
		bool seen = false;
		inventory_backing_device(j->files[i], d, sizeof(d));
		for (unsigned k = 0; k < out->nr_devices && !seen; k++)
			seen = !strcmp(dev[k], d);
		if (seen)
			continue;
		snprintf(dev[out->nr_devices++], INV_BACKING_MAX, "%s", d);
		if (used < sizeof(out->devices))
			used += (size_t)snprintf(out->devices + used,
						 sizeof(out->devices) - used,
						 "%s%s", used ? ", " : "", d);
	}
}

/* The sets by target count (the sweep measured them out of order), so
 * that its rows, CSV and JSON read in order. A set's mctx points at its
 * own discipline: pointed again after the move. */
static int sort_sets(struct step_outcome *out)
{
	struct set_outcome *tmp = malloc(sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	for (unsigned i = 1; i < out->nr_sets; i++) {
		unsigned k = i;
		while (k > 0 &&
		       out->sets[k - 1].nr_targets > out->sets[i].nr_targets)
			k--;
		if (k == i)
			continue;
		*tmp = out->sets[i];
		memmove(&out->sets[k + 1], &out->sets[k],
			(i - k) * sizeof(*tmp));
		out->sets[k] = *tmp;
	}
	for (unsigned i = 0; i < out->nr_sets; i++)
		if (out->sets[i].mctx.disc)
			out->sets[i].mctx.disc = &out->sets[i].disc;
	free(tmp);
	return 0;
}

/* The step's sweep (charz/scaling.h) and its verdict in one line, led by
 * what the targets share: targets on one device measure the device. */
int scaling_step_run(struct step_outcome *out, scaling_set_fn run_set,
		     void *arg, struct ioc_err *err)
{
	const struct plan_step *st = out->step;
	struct count_arg a = {out, run_set, arg};
	struct knee_count c[SCALING_MAX_COUNTS];
	unsigned nr, n = st->job.nr_files;
	char verdict[400];

	scaling_devices(out);
	int ret = scaling_sweep(n, scaling_count, &a, c, &nr, &out->knee, err);
	if (sort_sets(out) && !ret)
		ret = err_set(err, ENOMEM, "out of memory");
	if (ret)
		return ret;
	scaling_describe(&out->knee,
			 rw_is_random(st->job.rw) ? "IOPS" : "throughput",
			 st->scaling_repeats, verdict, sizeof(verdict));
	if (out->nr_devices && out->nr_devices < n)
		snprintf(out->scaling_msg, sizeof(out->scaling_msg),
			 "%u targets on %u device%s (%s): the scaling measures "
			 "%s, not drive "
			 "count; %s",
			 n, out->nr_devices, out->nr_devices == 1 ? "" : "s",
			 out->devices,
			 out->nr_devices == 1 ? "the device" : "those devices",
			 verdict);
	else
		snprintf(out->scaling_msg, sizeof(out->scaling_msg), "%s",
			 verdict);
	return 0;
}
