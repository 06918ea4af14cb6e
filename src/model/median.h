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

#endif
