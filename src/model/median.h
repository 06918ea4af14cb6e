/* median.h - estimates of one parameter, combined by their median (the
 * fit's rule: one odd figure moves it least). */
#ifndef IOCHAR_MODEL_MEDIAN_H
#define IOCHAR_MODEL_MEDIAN_H

#define MDL_EST_MAX 512

struct mdl_est {
	double v[MDL_EST_MAX];
	unsigned n;
};

/* Add x (ignored when not > 0 and finite, or past MDL_EST_MAX). */
void mdl_est_add(struct mdl_est *e, double x);

/* The median of e's values (the mean of the middle two for an even
 * count); 0 when e is empty. Sorts e. */
double mdl_est_median(struct mdl_est *e);

/* *dst = v when v is larger (max), or smaller and > 0 (min; an unset 0
 * *dst takes any v > 0): the fit keeps a drive's best figure and its
 * lowest latency this way. */
static inline void mdl_keep_max(double *dst, double v)
{
	if (v > *dst)
		*dst = v;
}

static inline void mdl_keep_min(double *dst, double v)
{
	if (v > 0 && (!(*dst > 0) || v < *dst))
		*dst = v;
}

#endif
