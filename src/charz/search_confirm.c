/* search_confirm.c - the headline of a search: every point inside that
 * beats it has been run twice.
 *
 * One run of a point may be lucky. The old rule repeated the best alone
 * and reported the lower of its two runs, so a neighbour's one lucky run
 * could sit above the headline while shown inside (a disk: 7 x 4 reported
 * at 61,928 IOPS, "lower of 2 runs", while 14 x 2 held 70,044 and 17 x 2
 * 68,281 on one run each). Now the points are treated alike: the
 * highest-scoring point inside that was run once and beats the headline
 * is repeated; if the repeat is inside too, the point keeps the lower of
 * its two runs and becomes the headline when that lower run beats it; if
 * not, the point is dropped (repeat_missed, not inside) and the edge it
 * stood on narrowed again (the first CONFIRM_TRIES drops). This goes on
 * until no point inside beats the headline, so every point shown inside
 * scores at most the headline. Each point is repeated at most once: the
 * repeats are bounded by the points run.
 */
#include "charz/search_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CONFIRM_TRIES 2 /* dropped points whose edge is narrowed again */

static double score(const struct search_ctx *c, unsigned i)
{
	return search_score_of(c, &c->res->points[i]);
}

static uint64_t outstanding(const struct point *p)
{
	return (uint64_t)p->iodepth * p->numjobs;
}

/* Does point a rank above point b: more score, or the same at less
 * outstanding I/O? */
static bool ranks_above(const struct search_ctx *c, unsigned a, unsigned b)
{
	return score(c, a) > score(c, b) ||
	       (score(c, a) == score(c, b) &&
		outstanding(&c->res->points[a]) < outstanding(&c->res->points[b]));
}

/* The next point to repeat: the best inside that was run once and scores
 * more than the headline h (any, when h is NO_POINT). */
static unsigned next_candidate(const struct search_ctx *c, unsigned h)
{
	unsigned best = NO_POINT;

	for (unsigned i = 0; i < c->res->nr_points; i++) {
		const struct point *p = &c->res->points[i];

		if (!p->inside || p->confirmed)
			continue;
		if (h != NO_POINT && !(score(c, i) > score(c, h)))
			continue;
		if (best == NO_POINT || ranks_above(c, i, best))
			best = i;
	}
	return best;
}

/* Run point i again. Inside again: confirmed, points[i] the lower of its
 * two runs (shows_repeat when that is the repeat) and again[i] the other.
 * Outside: dropped, again[i] the repeat. */
static int repeat_point(struct search_ctx *c, unsigned i)
{
	struct search_result *res = c->res;
	struct point *p = &res->points[i], run;
	int ret = search_measure_once(c, p->iodepth, p->numjobs, &run);

	if (ret)
		return ret;
	res->nr_repeats++;
	if (!run.inside) {
		res->again[i] = run;
		p->inside = false;
		p->repeat_missed = true;
		res->nr_dropped++;
		return 0;
	}
	p->confirmed = true;
	if (search_score_of(c, &run) < score(c, i)) { /* the lower is shown */
		res->again[i] = *p;
		run.runs = p->runs;
		run.confirmed = true;
		run.shows_repeat = true;
		*p = run;
	} else {
		res->again[i] = run;
	}
	return 0;
}

/* The headline h's figures in the result: its other run in repeat, and
 * the two runs' spread. */
static void set_headline(struct search_ctx *c, unsigned h)
{
	struct search_result *res = c->res;
	double s0 = score(c, h), s1 = search_score_of(c, &res->again[h]);

	res->best = h;
	res->confirmed = true;
	res->repeat = res->again[h];
	res->repeat_first = res->points[h].shows_repeat;
	res->spread = s0 + s1 > 0 ? fabs(s0 - s1) * 2 / (s0 + s1) : 0;
	res->unsteady = res->spread > SEARCH_UNSTEADY;
}

int search_settle(struct search_ctx *c)
{
	unsigned h = NO_POINT, drops = 0, i;
	int ret;

	while ((i = next_candidate(c, h)) != NO_POINT) {
		if ((ret = repeat_point(c, i)))
			return ret;
		if (!c->res->points[i].confirmed) {
			if (drops++ < CONFIRM_TRIES && (ret = search_refill_gap(c, i)))
				return ret;
			continue;
		}
		if (h == NO_POINT || ranks_above(c, i, h))
			h = i;
	}
	if (h != NO_POINT)
		set_headline(c, h);
	return 0;
}

int search_confirm(const struct job_spec *base, const struct search_params *sp,
		   measure_fn measure, void *arg, struct search_result *res,
		   struct ioc_err *err)
{
	struct search_ctx c = {
	    .base = base,
	    .sp = sp,
	    .measure = measure,
	    .arg = arg,
	    .res = res,
	    .err = err,
	    .cap = res->nr_points,
	    .by_bw = !rw_is_random(base->rw),
	    .plateau = sp->plateau > 0 ? sp->plateau : 0,
	};
	int ret;

	for (unsigned i = 0; i < res->nr_points; i++)
		if (res->points[i].call >= c.calls)
			c.calls = res->points[i].call + 1;
	if (!res->again && res->nr_points &&
	    !(res->again = calloc(res->nr_points, sizeof(*res->again))))
		return err_set(err, ENOMEM, "search: out of memory");
	res->confirmed = false;
	ret = search_settle(&c);
	if (!res->confirmed)
		res->best = search_best_inside(&c);
	res->found = res->best != NO_POINT;
	if (!res->found)
		res->best = 0;
	return ret;
}
