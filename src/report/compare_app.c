/* compare_app.c - an application run's thread counts as compare rows:
 * TPS and p99 per thread count, judged by compare's rules with the
 * benchmark's per-second figures as the single-run series (compare.h,
 * "Application runs"). */
#define _GNU_SOURCE /* asprintf */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/app_model.h"
#include "report/compare.h"

/* The row of point p's figure `what` ("tps", "p99") and side si's value. */
static struct cmp_value *app_value(struct cmp_table *t, const struct rs_app *a,
				   const struct rs_app_point *p, enum cmp_app what,
				   unsigned si)
{
	char *key = NULL;
	if (asprintf(&key, "%s %s T%u %s", a->bench, a->workload, p->threads,
		     what == CMP_APP_TPS ? "tps" : "p99") < 0)
		key = NULL;
	int r = compare_row_for(t, key, what == CMP_APP_TPS ? "mean" : "p99");
	if (r < 0)
		return NULL;
	t->rows[r].app = what;
	return &t->rows[r].v[si];
}

/* The benchmark's per-second TPS or p99 (ns) of p, into a new array. */
static double *series(const struct rs_app_point *p, enum cmp_app what, unsigned *n)
{
	double *x = calloc(p->nr_sec ? p->nr_sec : 1, sizeof(*x));
	*n = 0;
	if (!x)
		return NULL;
	for (unsigned i = 0; i < p->nr_sec; i++) {
		double v = what == CMP_APP_TPS ? p->sec[i].tps : p->sec[i].lat_p99_ms * 1e6;
		if (isfinite(v))
			x[(*n)++] = v;
	}
	return x;
}

static int add_figure(struct cmp_table *t, unsigned si, unsigned run, const struct rs_app *a,
		      const struct rs_app_point *p, enum cmp_app what)
{
	struct cmp_value *v = app_value(t, a, p, what, si);
	if (!v)
		return -ENOMEM;
	if (v->last_run == run + 1)
		return 0; /* a thread count given twice: the first */
	if (v->verdict == CMP_MISSING) {
		unsigned n;
		double *x = series(p, what, &n);
		if (!x)
			return -ENOMEM;
		compare_series_stats(x, n, &v->iv_mean, &v->iv_sd, &v->iv_n);
		free(x);
	}
	double value = what == CMP_APP_TPS ? p->tps : p->lat_p99_ms * 1e6;
	int ret = compare_add_run(v, run, value, p->lat_avg_ms * 1e6, p->lat_p99_ms * 1e6, NULL);
	v->numjobs = p->threads;
	return ret;
}

int compare_add_app_set(struct cmp_table *t, unsigned si, unsigned run)
{
	const struct rs_app *a = t->sides[si].sets[run].app;
	for (unsigned i = 0; i < a->nr_points; i++) {
		const struct rs_app_point *p = &a->points[i];
		if (p->error)
			continue; /* no figures: the side misses it */
		int ret = add_figure(t, si, run, a, p, CMP_APP_TPS);
		if (!ret)
			ret = add_figure(t, si, run, a, p, CMP_APP_P99);
		if (ret)
			return ret;
	}
	return 0;
}
