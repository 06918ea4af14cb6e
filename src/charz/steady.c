/* steady.c - the SNIA PTS steady-state rule (see precondition.h).
 *
 * Over the last `window` values y[0..w) of a series, with average a:
 *   excursion = (max - min) / a, at most max_excursion;
 *   slope = b x (w - 1) / a, with b the least-squares slope of y against
 *   the round index: how far the fitted line moves across the window,
 *   relative to the average; |slope| at most max_slope.
 * Both limits are inclusive. The verdict's slope keeps its sign (negative:
 * still falling).
 */
#include "charz/precondition.h"

#include <math.h>
#include <string.h>

/* Least-squares slope of y[i] against i, i = 0 .. n-1 (n >= 2). */
static double ls_slope(const double *y, unsigned n, double mean_y)
{
	double mean_x = (n - 1) / 2.0, sxy = 0, sxx = 0;

	for (unsigned i = 0; i < n; i++) {
		double dx = i - mean_x;

		sxy += dx * (y[i] - mean_y);
		sxx += dx * dx;
	}
	return sxx > 0 ? sxy / sxx : 0;
}

struct steady_verdict steady_state_check(const double *series, unsigned n,
					 const struct steady_params *sp)
{
	struct steady_verdict v;
	unsigned w = sp->window;
	const double *y;
	double sum = 0, lo, hi;

	memset(&v, 0, sizeof(v));
	if (w == 0 || n < w)
		return v;
	y = series + (n - w);
	lo = hi = y[0];
	for (unsigned i = 0; i < w; i++) {
		sum += y[i];
		lo = y[i] < lo ? y[i] : lo;
		hi = y[i] > hi ? y[i] : hi;
	}
	v.average = sum / w;
	if (!(v.average > 0))
		return v;
	v.excursion = (hi - lo) / v.average;
	v.slope = w > 1 ? ls_slope(y, w, v.average) * (w - 1) / v.average : 0;
	v.steady =
	    v.excursion <= sp->max_excursion && fabs(v.slope) <= sp->max_slope;
	return v;
}
