/* search_int.h - what search.c and search_confirm.c share: the state of
 * one search and the steps the confirmation uses. Not for other files. */
#ifndef IOCHAR_CHARZ_SEARCH_INT_H
#define IOCHAR_CHARZ_SEARCH_INT_H

#include "charz/search.h"

#define NO_POINT UINT32_MAX

struct search_ctx {
	const struct job_spec *base;
	const struct search_params *sp;
	measure_fn measure;
	void *arg;
	struct search_result *res;
	struct ioc_err *err;
	unsigned cap;	  /* allocated points (and res->again) */
	bool by_bw;	  /* sequential: rank by bandwidth */
	unsigned no_help; /* the numjobs phase 2 found not to help; 0 if none */
	double plateau;	  /* sp->plateau, never negative */
	unsigned calls;	  /* measure calls made */
};

/* p's score: bandwidth for sequential steps, IOPS for random ones. */
double search_score_of(const struct search_ctx *c, const struct point *p);

/* Index of the best point inside (ties to less outstanding I/O), or NO_POINT. */
unsigned search_best_inside(const struct search_ctx *c);

/* Measure (qd, nj) into *pt, inside judged. 0 or the measurement's error. */
int search_measure_once(struct search_ctx *c, unsigned qd, unsigned nj,
			struct point *pt);

/* After point b was dropped by its repeat: narrow the edge it stood on
 * again (search.c). 0 or a measurement's error. */
int search_refill_gap(struct search_ctx *c, unsigned b);

/* Repeat every point inside that beats the headline (search_confirm.c).
 * Sets res->best, confirmed, repeat, spread. 0 or a measurement's error. */
int search_settle(struct search_ctx *c);

#endif
