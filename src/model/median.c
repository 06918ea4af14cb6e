/* median.c - see median.h. */
#include <math.h>
#include <stdlib.h>

#include "model/median.h"

void mdl_est_add(struct mdl_est *e, double x)
{
	if (x > 0 && isfinite(x) && e->n < MDL_EST_MAX)
		e->v[e->n++] = x;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double mdl_est_median(struct mdl_est *e)
{
	if (!e->n)
		return 0;
	qsort(e->v, e->n, sizeof(e->v[0]), cmp_double);
	return e->n % 2 ? e->v[e->n / 2] : (e->v[e->n / 2 - 1] + e->v[e->n / 2]) / 2;
}
