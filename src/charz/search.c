/* search.c - the best (iodepth, numjobs) inside a latency limit, found by
 * walking the IOPS/latency frontier instead of the grid.
 *
 * The figure ranked (the "score") is total IOPS for random workloads and
 * bandwidth for sequential ones; a point is inside when its latency
 * statistic is at most the limit and the run was not partial. The search
 * moves along lines of the grid: iodepth at a fixed numjobs, or numjobs at
 * a fixed iodepth. On a line it
 *   climbs: 1, 2, 4 ... (the last step clamped to the maximum) until a
 *     point is outside, or its score grew by less than `plateau` over the
 *     previous one (saturated: more load only adds latency);
 *   narrows the edge between the last point inside and the first outside
 *     by regula falsi on latency (past the knee latency grows about
 *     linearly with the load, Little's law), with a midpoint step after
 *     two steps that moved the same end. It stops when the two are
 *     adjacent, when the outside one's score is within `plateau` of the
 *     inside one's (nothing left to win in between: on a monotone device
 *     the loss is at most `plateau`), or when the gap is under
 *     1/BISECT_DIV of the position.
 *
 * 1. iodepth at one job from 1, and its edge.
 * 2. More jobs where they help: numjobs 2, 4 ... (clamped to max_numjobs).
 *    For each, the best total outstanding I/O so far is split over the
 *    jobs. If that point does not beat the best score by more than
 *    `plateau`, more jobs do not help and the search moves on to 3 (the
 *    score does not grow as depth falls, so nothing below it can). If it
 *    does and is inside, iodepth climbs from there (so a worker-bound
 *    device, one job saturating its CPU rather than the device, gets more
 *    outstanding I/O); if it is outside, iodepth halves until inside; then
 *    the edge is narrowed. The next numjobs is tried only if this one
 *    raised the best by more than `plateau`.
 * 3. Refine with jobs (only if more than one job is best): numjobs climbs
 *    at the best iodepth (the steps of 2 skip 3, 5, 6, 7). Below
 *    REFINE_DEPTH, where one more I/O per job is a step of 1/8 or more,
 *    the frontier between two depths is reached by numjobs instead: the
 *    numjobs line one depth below the best (from one job more) and one
 *    above (from the most jobs known inside there, or half the best's).
 * Nothing after 1 is tried when not even iodepth 1 met the limit: more
 * load only adds latency.
 *
 * No (iodepth, numjobs) is run twice: points are looked up before they are
 * measured. The best is the highest score inside, ties going to the lower
 * outstanding I/O. On the 648 modelled devices and limits of
 * test_search_sweep (tests/test_search.c) it runs 9 points on average, 24
 * at most, where the integer grid 256 x 8 has 2,048, and every best is
 * within 5 % of the grid's (the worst 96.6 %).
 */
#include "charz/search.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NO_POINT     UINT32_MAX
#define BISECT_DIV   32 /* an edge is narrow enough at a gap < 1/32 (~3 %) */
#define REFINE_DEPTH 8	/* refine the depths next to the best below this */

struct search_ctx {
	const struct job_spec *base;
	const struct search_params *sp;
	measure_fn measure;
	void *arg;
	struct search_result *res;
	struct ioc_err *err;
	unsigned cap;	/* allocated points */
	bool by_bw;	/* sequential: rank by bandwidth */
	double plateau; /* sp->plateau, never negative */
};

static double score(const struct search_ctx *c, unsigned i)
{
	const struct point *p = &c->res->points[i];
	return c->by_bw ? p->s.total.bw_bytes : p->s.total.iops;
}

static uint64_t outstanding(const struct point *p)
{
	return (uint64_t)p->iodepth * p->numjobs;
}

static bool inside(const struct search_ctx *c, unsigned i)
{
	return c->res->points[i].inside;
}

/* True if score a exceeds score b by more than the plateau fraction. */
static bool gains(const struct search_ctx *c, double a, double b)
{
	return a > b * (1.0 + c->plateau);
}

/* Index of the best point inside, or NO_POINT. */
static unsigned best_inside(const struct search_ctx *c)
{
	const struct search_result *res = c->res;
	unsigned best = NO_POINT;

	for (unsigned i = 0; i < res->nr_points; i++) {
		if (!res->points[i].inside)
			continue;
		if (best == NO_POINT || score(c, i) > score(c, best) ||
		    (score(c, i) == score(c, best) &&
		     outstanding(&res->points[i]) <
			 outstanding(&res->points[best])))
			best = i;
	}
	return best;
}

static unsigned find_point(const struct search_ctx *c, unsigned qd, unsigned nj)
{
	for (unsigned i = 0; i < c->res->nr_points; i++)
		if (c->res->points[i].iodepth == qd &&
		    c->res->points[i].numjobs == nj)
			return i;
	return NO_POINT;
}

static int grow_points(struct search_ctx *c)
{
	unsigned cap = c->cap ? c->cap * 2 : 16;
	struct point *p;

	if (c->res->nr_points < c->cap)
		return 0;
	p = realloc(c->res->points, cap * sizeof(*p));
	if (!p)
		return err_set(c->err, ENOMEM, "search: out of memory");
	c->res->points = p;
	c->cap = cap;
	return 0;
}

/* Index of the point (qd, nj) in *idx, measuring it unless it was run
 * already. Returns 0 or the measurement's error. */
static int point_at(struct search_ctx *c, unsigned qd, unsigned nj,
		    unsigned *idx)
{
	struct job_spec job;
	struct point pt;
	int ret;

	*idx = find_point(c, qd, nj);
	if (*idx != NO_POINT)
		return 0;
	ret = grow_points(c);
	if (ret)
		return ret;
	ret = job_spec_copy(&job, c->base);
	if (ret)
		return err_set(c->err, ret, "search: out of memory");
	job.iodepth = qd;
	job.numjobs = nj;
	memset(&pt, 0, sizeof(pt));
	ret = c->measure(c->arg, &job, &pt, c->err);
	job_spec_free(&job);
	if (ret) {
		if (c->err && c->err->msg[0])
			err_prefix(c->err, "search iodepth=%u numjobs=%u", qd,
				   nj);
		return ret;
	}
	pt.iodepth = qd;
	pt.numjobs = nj;
	pt.rate_iops = 0;
	pt.inside = !pt.partial &&
		    point_latency(&pt, c->sp->stat) <= (double)c->sp->limit_ns;
	*idx = c->res->nr_points++;
	c->res->points[*idx] = pt;
	return 0;
}

/* The step after n in 1, 2, 4 ... with the last clamped to max; 0 past max. */
static unsigned next_double(unsigned n, unsigned max)
{
	if (n >= max)
		return 0;
	return n > max / 2 ? max : n * 2;
}

/* A line through the grid: iodepth varies at `fixed` jobs, or numjobs
 * varies at iodepth `fixed`. */
struct line {
	bool jobs;
	unsigned fixed;
};

static struct line depth_line(unsigned nj)
{
	return (struct line){.jobs = false, .fixed = nj};
}

static struct line jobs_line(unsigned qd)
{
	return (struct line){.jobs = true, .fixed = qd};
}

static unsigned line_pos(const struct search_ctx *c, struct line ln, unsigned i)
{
	const struct point *p = &c->res->points[i];
	return ln.jobs ? p->numjobs : p->iodepth;
}

static unsigned line_max(const struct search_ctx *c, struct line ln)
{
	return ln.jobs ? c->sp->max_numjobs : c->sp->max_iodepth;
}

static int line_at(struct search_ctx *c, struct line ln, unsigned v,
		   unsigned *idx)
{
	return ln.jobs ? point_at(c, ln.fixed, v, idx)
		       : point_at(c, v, ln.fixed, idx);
}

/* Double the position along ln from v until a point is outside, the score
 * stops growing by more than the plateau, or the maximum was run. *lo is
 * the last point inside, *hi the first outside (either may be NO_POINT). */
static int climb(struct search_ctx *c, struct line ln, unsigned v, unsigned *lo,
		 unsigned *hi)
{
	unsigned i;
	int ret;

	*lo = *hi = NO_POINT;
	for (;;) {
		ret = line_at(c, ln, v, &i);
		if (ret)
			return ret;
		if (!inside(c, i)) {
			*hi = i;
			return 0;
		}
		bool flat =
		    *lo != NO_POINT && !gains(c, score(c, i), score(c, *lo));
		*lo = i;
		v = next_double(v, line_max(c, ln));
		if (flat || !v)
			return 0;
	}
}

static bool worth_bisecting(const struct search_ctx *c, struct line ln,
			    unsigned lo, unsigned hi)
{
	unsigned vlo = line_pos(c, ln, lo), vhi = line_pos(c, ln, hi);

	if (vhi <= vlo + 1)
		return false;
	if ((uint64_t)(vhi - vlo) * BISECT_DIV < vlo)
		return false;
	return gains(c, score(c, hi), score(c, lo));
}

/* Where the latency limit falls between positions lo (inside) and hi
 * (outside), interpolated linearly in latency (past the knee latency grows
 * about linearly with the load: Little's law), kept strictly between them.
 * The midpoint when the latencies do not bracket the limit. */
static unsigned interpolate(const struct search_ctx *c, struct line ln,
			    unsigned lo, unsigned hi)
{
	unsigned vlo = line_pos(c, ln, lo), vhi = line_pos(c, ln, hi);
	double llo = point_latency(&c->res->points[lo], c->sp->stat);
	double lhi = point_latency(&c->res->points[hi], c->sp->stat);
	double lim = (double)c->sp->limit_ns, v;

	if (!(lhi > lim && lim >= llo))
		return vlo + (vhi - vlo) / 2;
	v = vlo + (lim - llo) / (lhi - llo) * (vhi - vlo);
	if (v < vlo + 1)
		return vlo + 1;
	if (v > vhi - 1)
		return vhi - 1;
	return (unsigned)(v + 0.5);
}

/* Narrow the edge along ln between lo (inside) and hi (outside, further
 * along): regula falsi on latency, and a midpoint step after two steps
 * that moved the same end, so a curved latency cannot make it much slower
 * than bisection. */
static int bisect(struct search_ctx *c, struct line ln, unsigned lo,
		  unsigned hi)
{
	int run = 0,
	    last = 0; /* moves of the same end in a row; +1 lo, -1 hi */
	unsigned i;
	int ret;

	while (worth_bisecting(c, ln, lo, hi)) {
		unsigned vlo = line_pos(c, ln, lo), vhi = line_pos(c, ln, hi);
		bool mid = run >= 2;

		ret = line_at(c, ln,
			      mid ? vlo + (vhi - vlo) / 2
				  : interpolate(c, ln, lo, hi),
			      &i);
		if (ret)
			return ret;
		int moved = inside(c, i) ? 1 : -1;
		run = mid ? 0 : (moved == last ? run + 1 : 1);
		last = moved;
		if (moved > 0)
			lo = i;
		else
			hi = i;
	}
	return 0;
}

/* Climb along ln from v, then bisect the edge it found. */
static int explore(struct search_ctx *c, struct line ln, unsigned v)
{
	unsigned lo, hi;
	int ret = climb(c, ln, v, &lo, &hi);

	if (ret || lo == NO_POINT || hi == NO_POINT)
		return ret;
	return bisect(c, ln, lo, hi);
}

/* Halve the position along ln below hi (outside) until a point is inside,
 * then bisect between it and the lowest outside one. */
static int descend(struct search_ctx *c, struct line ln, unsigned hi)
{
	unsigned v = line_pos(c, ln, hi), i;
	int ret;

	while (v > 1) {
		v /= 2;
		ret = line_at(c, ln, v, &i);
		if (ret)
			return ret;
		if (inside(c, i))
			return bisect(c, ln, i, hi);
		hi = i;
	}
	return 0;
}

/* Search nj jobs around the best point's total outstanding I/O, split
 * over them. *helped: the best score grew by more than the plateau. When
 * even the split point does not score more than that, nothing at nj can
 * (the score does not grow as depth falls), so it is the only point run. */
static int try_jobs(struct search_ctx *c, unsigned nj, bool *helped)
{
	unsigned best = best_inside(c), split;
	uint64_t qd = (outstanding(&c->res->points[best]) + nj / 2) / nj;
	double before = score(c, best);
	int ret;

	*helped = false;
	if (qd < 1)
		qd = 1;
	if (qd > c->sp->max_iodepth)
		qd = c->sp->max_iodepth;
	ret = point_at(c, (unsigned)qd, nj, &split);
	if (ret || !gains(c, score(c, split), before))
		return ret;
	if (inside(c, split))
		ret = explore(c, depth_line(nj), (unsigned)qd);
	else
		ret = descend(c, depth_line(nj), split);
	*helped = gains(c, score(c, best_inside(c)), before);
	return ret;
}

/* Phase 2: numjobs 2, 4 ... while more jobs help. */
static int add_jobs(struct search_ctx *c)
{
	bool helped = true;
	int ret;

	for (unsigned nj = next_double(1, c->sp->max_numjobs); nj && helped;
	     nj = next_double(nj, c->sp->max_numjobs)) {
		ret = try_jobs(c, nj, &helped);
		if (ret)
			return ret;
	}
	return 0;
}

/* The most jobs known inside at iodepth qd, at most nj; 0 if none. */
static unsigned known_jobs_inside(const struct search_ctx *c, unsigned qd,
				  unsigned nj)
{
	unsigned most = 0;

	for (unsigned i = 0; i < c->res->nr_points; i++) {
		const struct point *p = &c->res->points[i];

		if (p->inside && p->iodepth == qd && p->numjobs <= nj &&
		    p->numjobs > most)
			most = p->numjobs;
	}
	return most;
}

/* Phase 3: with (qd, nj) the best, more jobs at qd; then, when qd is
 * small, more jobs at qd - 1 (from nj + 1) and the most jobs at qd + 1
 * (from the most known inside there, or nj / 2). */
static int refine(struct search_ctx *c)
{
	unsigned best = best_inside(c), qd, nj, start;
	int ret;

	if (c->res->points[best].numjobs == 1)
		return 0; /* jobs did not help at all */
	qd = c->res->points[best].iodepth;
	ret = explore(c, jobs_line(qd), c->res->points[best].numjobs);
	best = best_inside(c);
	qd = c->res->points[best].iodepth;
	nj = c->res->points[best].numjobs;
	if (ret || qd >= REFINE_DEPTH)
		return ret; /* one more I/O per job is a small step */
	if (qd > 1 && nj < c->sp->max_numjobs) {
		start = known_jobs_inside(c, qd - 1, c->sp->max_numjobs);
		ret =
		    explore(c, jobs_line(qd - 1), start > nj ? start : nj + 1);
		if (ret)
			return ret;
	}
	if (qd + 1 > c->sp->max_iodepth)
		return 0;
	start = known_jobs_inside(c, qd + 1, nj);
	return explore(c, jobs_line(qd + 1), start ? start : (nj + 1) / 2);
}

static int check_params(const struct search_params *sp, struct ioc_err *err)
{
	if (sp->limit_ns == 0)
		return err_set(err, EINVAL, "search: needs a latency limit");
	if (sp->max_iodepth == 0 || sp->max_numjobs == 0)
		return err_set(
		    err, EINVAL,
		    "search: max_iodepth and max_numjobs must be at least 1");
	return 0;
}

int search_run(const struct job_spec *base, const struct search_params *sp,
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
	    .by_bw = !rw_is_random(base->rw),
	    .plateau = sp->plateau > 0 ? sp->plateau : 0,
	};
	int ret;

	memset(res, 0, sizeof(*res));
	ret = check_params(sp, err);
	if (ret)
		return ret;
	ret = explore(&c, depth_line(1), 1);
	if (!ret && best_inside(&c) != NO_POINT) {
		ret = add_jobs(&c);
		if (!ret)
			ret = refine(&c);
	}
	res->best = best_inside(&c);
	res->found = res->best != NO_POINT;
	if (!res->found)
		res->best = 0;
	return ret;
}

void search_result_free(struct search_result *res)
{
	if (!res)
		return;
	free(res->points);
	res->points = NULL;
	res->nr_points = 0;
	res->found = false;
}
