/* workloads.c - see workloads.h. */
#include "charz/workloads.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/runner.h"
#include "output/summary.h"

int wl_make_jobs(const struct step_workload *wl, unsigned nr_wl,
		 const struct job_spec *first, char *const *targets,
		 unsigned nr_targets, struct job_spec **out, unsigned *nr)
{
	unsigned nt = nr_targets ? nr_targets : 1, n = nr_wl * nt;
	struct job_spec *jobs = calloc(n, sizeof(*jobs));

	if (!jobs)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		const struct job_spec *src = i < nt ? first : &wl[i / nt].job;
		if (job_spec_copy(&jobs[i], src) ||
		    (nr_targets && job_spec_set_files(&jobs[i], targets[i % nt]))) {
			for (unsigned k = 0; k <= i; k++)
				job_spec_free(&jobs[k]);
			free(jobs);
			return -ENOMEM;
		}
		if (i < nt && first->rate_iops) /* the total, over the targets */
			jobs[i].rate_iops = (first->rate_iops + nt - 1) / nt;
	}
	*out = jobs;
	*nr = n;
	return 0;
}

int wl_validate(const struct plan_step *st, char *const *targets,
		unsigned nr_targets, struct ioc_err *err)
{
	unsigned nt = nr_targets ? nr_targets : 1, n = 0;
	struct job_spec *jobs;
	int ret = 0;

	if (wl_make_jobs(st->wl, st->nr_wl, &st->job, targets, nr_targets, &jobs, &n))
		return err_set(err, ENOMEM, "out of memory");
	for (unsigned i = 0; i < n && !ret; i++)
		if ((ret = runner_validate(&jobs[i], 1, err)))
			err_prefix(err, "workload [%s]", st->wl[i / nt].name);
	if (!ret)
		ret = runner_validate(jobs, n, err);
	for (unsigned i = 0; i < n; i++)
		job_spec_free(&jobs[i]);
	free(jobs);
	return ret;
}

static double lat_of(const struct lat_summary *l, int stat)
{
	if (stat == LAT_STAT_P99)
		return (double)l->pct[PCT_P99];
	if (stat == LAT_STAT_P99_9)
		return (double)l->pct[PCT_P99_9];
	return l->mean;
}

/* Merge the workers of r's jobs j with lo <= j < hi and j % mod == rem
 * into f->s, as summary_job does for one job. */
static int merge_jobs(const struct run_result *r, unsigned lo, unsigned hi,
		      unsigned mod, unsigned rem, struct wl_figures *f)
{
	struct dir_stats *d = calloc(DIR_ALL + 1, sizeof(*d));
	struct hist *sync = malloc(sizeof(*sync));
	uint64_t el = 0;

	if (!d || !sync) {
		free(d);
		free(sync);
		return -ENOMEM;
	}
	hist_init(sync);
	for (int k = 0; k <= DIR_ALL; k++)
		dir_stats_init(&d[k]);
	for (unsigned i = 0; i < r->nr_workers; i++) {
		const struct worker_result *w = &r->workers[i];
		if (w->job < lo || w->job >= hi || w->job % mod != rem)
			continue;
		for (int k = 0; k < DIR_ALL; k++) {
			dir_stats_add(&d[k], &w->stats.dir[k]);
			dir_stats_add(&d[DIR_ALL], &w->stats.dir[k]);
		}
		hist_merge(sync, &w->stats.sync_lat);
		el = w->elapsed_ns > el ? w->elapsed_ns : el;
	}
	f->sync_ios = sync->count;
	f->sync_mean_ns = hist_mean(sync);
	f->sync_p99_ns = (double)hist_percentile(sync, 99.0);
	f->sync_p99_9_ns = (double)hist_percentile(sync, 99.9);
	free(sync);
	if (!el)
		el = r->elapsed_ns;
	for (int k = 0; k < DIR_ALL; k++)
		summary_dir(&d[k], el, &f->s.dir[k]);
	summary_dir(&d[DIR_ALL], el, &f->s.total);
	free(d);
	return 0;
}

/* f's judged latency: the worst direction its judge names that did I/O. */
static void judge(struct wl_figures *f, enum wl_judge j)
{
	f->judged = false;
	memset(f->judged_ns, 0, sizeof(f->judged_ns));
	for (int d = DIR_READ; d <= DIR_WRITE; d++) {
		if (j == WL_JUDGE_NONE || (j == WL_JUDGE_READ && d != DIR_READ) ||
		    (j == WL_JUDGE_WRITE && d != DIR_WRITE) || !f->s.dir[d].ios)
			continue;
		f->judged = true;
		/* a write then its flush: a commit's time */
		const double flush[3] = {f->sync_mean_ns, f->sync_p99_ns, f->sync_p99_9_ns};
		for (int st = 0; st < 3; st++) {
			double l = lat_of(&f->s.dir[d].lat, st) +
				   (d == DIR_WRITE && f->sync_ios ? flush[st] : 0);
			f->judged_ns[st] = l > f->judged_ns[st] ? l : f->judged_ns[st];
		}
	}
}

int wl_figures(const struct run_result *r, const struct step_workload *wl,
	       unsigned nr_wl, unsigned nr_targets, struct wl_figures *out,
	       struct point *p)
{
	unsigned nt = nr_targets ? nr_targets : 1;

	p->judged = false;
	memset(p->judged_ns, 0, sizeof(p->judged_ns));
	for (unsigned k = 0; k < nr_wl; k++) {
		if (merge_jobs(r, k * nt, (k + 1) * nt, 1, 0, &out[k]))
			return -ENOMEM;
		out[k].name = wl[k].name;
		out[k].job = &wl[k].job;
		out[k].judge = wl[k].judge;
		judge(&out[k], wl[k].judge);
		if (!out[k].judged)
			continue;
		p->judged = true;
		for (int st = 0; st < 3; st++)
			if (out[k].judged_ns[st] > p->judged_ns[st])
				p->judged_ns[st] = out[k].judged_ns[st];
	}
	return 0;
}

int wl_target_totals(const struct run_result *r, unsigned nr_wl,
		     unsigned nr_targets, struct dir_summary *per_target)
{
	unsigned nt = nr_targets ? nr_targets : 1;
	struct wl_figures *f = malloc(sizeof(*f));

	if (!f)
		return -ENOMEM;
	for (unsigned t = 0; t < nt; t++) {
		if (merge_jobs(r, 0, nr_wl * nt, nt, t, f)) {
			free(f);
			return -ENOMEM;
		}
		per_target[t] = f->s.total;
	}
	free(f);
	return 0;
}

const char *wl_judge_name(enum wl_judge j)
{
	static const char *const names[] = {"each", "read", "write", "none"};
	return (unsigned)j < 4 ? names[j] : "?";
}
