/* search.c - the best (iodepth, numjobs) inside a latency limit, found by
 * walking the IOPS/latency frontier instead of the grid.
 *
 * The figure ranked (the "score") is total IOPS for random workloads and
 * bandwidth for sequential ones; a point is inside when its latency
 * statistic is at most the limit and the run was not partial. The search
 * moves along lines of the grid: iodepth at a fixed numjobs, or numjobs at
 * a fixed iodepth. On a line it
 *   climbs until a point is outside, or the next step is not worth a
 *     point (next_pos): along iodepth by Little's law (outstanding I/O =
 *     IOPS x mean latency: at the same IOPS the limit falls at limit /
 *     latency times the depth; past the knee, corrected by how the score
 *     still grows, its elasticity), by at most 8 times per step; along
 *     numjobs 1, 2, 4 ... (the last step clamped to the maximum). It ends
 *     at a plateau (the elasticity says one more doubling would gain at
 *     most `plateau`), or when reaching the limit would gain at most that;
 *   narrows the edge between the last point inside and the first outside
 *     by regula falsi on latency (past the knee latency grows about
 *     linearly with the load, Little's law), Illinois variant, aiming 3 %
 *     under the limit (noise). It stops when the two are adjacent, when
 *     the outside one's score is within `plateau` of the inside one's
 *     (nothing left to win in between: on a monotone device the loss is at
 *     most `plateau`), or when the gap is under 1/BISECT_DIV of the
 *     position.
 *
 * 1. iodepth at one job from 1, and its edge. On a device that saturates
 *    slowly (a cloud virtio disk: 79 us and 12.6k IOPS at depth 1, ~100k
 *    at 128) that is 1, 8, 64, then about the depth at the limit: 4 or 5
 *    points where doubling ran 9 and then narrowed. A climb step of more
 *    than a doubling that ends on a plateau is backfilled once (its
 *    geometric middle), for devices whose IOPS fall past a peak.
 * 2. More jobs where they help: numjobs 2, 4 ... (clamped to max_numjobs).
 *    For each, the best total outstanding I/O so far is split over the
 *    jobs. If that point does not beat the best score by more than
 *    `plateau`, more jobs do not help and the search moves on to 3 (the
 *    score does not grow as depth falls, so nothing below it can): one
 *    point, on a device that one job saturates. If it does and is inside,
 *    iodepth climbs from there (so a worker-bound device, one job
 *    saturating its CPU rather than the device, gets more outstanding
 *    I/O); if it is outside, iodepth halves until inside; then the edge is
 *    narrowed. The next numjobs is tried only if this one raised the best
 *    by more than `plateau`.
 * 3. Refine with jobs, only if more jobs helped in 2 (a best at more jobs
 *    by noise alone is not a reason): numjobs climbs at the best iodepth
 *    (the steps of 2 skip 3, 5, 6, 7), unless 2 found the next numjobs
 *    not to help at the same outstanding I/O (then the device is the
 *    limit there, and more jobs at the best depth are more I/O for no
 *    more IOPS). Below REFINE_DEPTH, where one more
 *    I/O per job is a step of 1/8 or more, the frontier between two depths
 *    is reached by numjobs instead: the numjobs line one depth below the
 *    best (from one job more) and one above (from the most jobs known
 *    inside there, or half the best's).
 * Nothing after 1 is tried when not even iodepth 1 met the limit: more
 * load only adds latency.
 *
 * No (iodepth, numjobs) is run twice unless one run of it would decide
 * against the rest (noise; once): a climb's point that scores clearly
 * less than the one before, or is outside the limit far over the latency
 * the climb's trend predicted for it (breaks_frontier); the first point
 * outside (misses_first: nothing else would be tried); or a split over
 * more jobs that scores clearly less than the best it splits (try_jobs).
 * Otherwise points are looked up before they are measured. The best is
 * the highest score inside (ties to less outstanding I/O), confirmed by
 * a repeat, as is every point inside that would beat its lower run
 * (search_confirm.c); a point whose repeat misses is dropped and its edge
 * narrowed again (search_refill_gap). On the 648 models and limits of
 * test_search_sweep it runs 6.9 points on average (no confirmation),
 * re-measures included, 22 at most (doubling from 1: 9.0 and 24), where
 * the integer grid 256 x 8 has 2,048, and every best is within 5 % of the
 * grid's (the worst 98.1 %); on the virtio models of test_search_virtio,
 * 5 or 6.
 */
#include "charz/search_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BISECT_DIV   32	  /* an edge is narrow enough at a gap < 1/32 (~3 %) */
#define REFILL_DIV   4	  /* the gap of a dropped best: to 1/4 (refill_gap) */
#define REFINE_DEPTH 8	  /* refine the depths next to the best below this */
#define STEP_MAX     8	  /* a climb step multiplies iodepth by at most this */
#define STEP_BOLD    0.5  /* weight of the elasticity in a climb step */
#define TRAIL	     3	  /* inside points of a climb its estimates use */
#define AIM_MARGIN   0.03 /* steps aim this far under the limit (noise) */

double search_score_of(const struct search_ctx *c, const struct point *p)
{
	return c->by_bw ? p->s.total.bw_bytes : p->s.total.iops;
}

static double score(const struct search_ctx *c, unsigned i)
{
	return search_score_of(c, &c->res->points[i]);
}

static uint64_t outstanding(const struct point *p)
{
	return (uint64_t)p->iodepth * p->numjobs;
}

/* The latency the limit is judged on: the worst direction's statistic
 * (latency_scope=each) or the total's. */
static double lat_of(const struct search_ctx *c, const struct point *p)
{
	return point_scope_latency(p, c->sp->stat, c->sp->scope);
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

unsigned search_best_inside(const struct search_ctx *c)
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
	struct point *p, *a;

	if (c->res->nr_points < c->cap)
		return 0;
	p = realloc(c->res->points, cap * sizeof(*p));
	if (p)
		c->res->points = p;
	a = p ? realloc(c->res->again, cap * sizeof(*a)) : NULL;
	if (!a)
		return err_set(c->err, ENOMEM, "search: out of memory");
	memset(a + c->cap, 0, (cap - c->cap) * sizeof(*a));
	c->res->again = a;
	c->cap = cap;
	return 0;
}

/* Did the run end well before its runtime? Without time_based a point
 * ends when its region has been read once (0.6 s of a 2 s runtime on a
 * small file): its figures are of less time than asked. */
static bool ends_early(const struct search_ctx *c, const struct point *pt)
{
	uint64_t want = c->base->runtime_ns;

	return want && !pt->partial && pt->elapsed_ns < want - want / SEARCH_EARLY_DIV;
}

int search_measure_once(struct search_ctx *c, unsigned qd, unsigned nj,
			struct point *pt)
{
	struct job_spec job;
	int ret = job_spec_copy(&job, c->base);

	if (ret)
		return err_set(c->err, ret, "search: out of memory");
	job.iodepth = qd;
	job.numjobs = nj;
	memset(pt, 0, sizeof(*pt));
	ret = c->measure(c->arg, &job, pt, c->err);
	job_spec_free(&job);
	if (ret) {
		if (c->err && c->err->msg[0])
			err_prefix(c->err, "search iodepth=%u numjobs=%u", qd,
				   nj);
		return ret;
	}
	pt->iodepth = qd;
	pt->numjobs = nj;
	pt->rate_iops = 0;
	pt->call = c->calls++;
	pt->runs = 1;
	pt->ended_early = ends_early(c, pt);
	pt->inside = point_within(pt, c->sp->stat, c->sp->scope,
				  c->sp->limit_ns);
	return 0;
}

/* Index of the point (qd, nj) in *idx, measuring it unless it was run
 * already. Returns 0 or the measurement's error. */
static int point_at(struct search_ctx *c, unsigned qd, unsigned nj,
		    unsigned *idx)
{
	struct point pt;
	int ret;

	*idx = find_point(c, qd, nj);
	if (*idx != NO_POINT)
		return 0;
	ret = grow_points(c);
	if (ret)
		return ret;
	ret = search_measure_once(c, qd, nj, &pt);
	if (ret)
		return ret;
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

/* How the score grows with the position between inside points a and b of
 * ln (a's position below b's): d ln(score) / d ln(position), clamped to
 * [0, 1]. 1 below the knee (the score grows with the load), 0 on a
 * plateau. 1 when a scored nothing (nothing to learn from it). */
static double elasticity(const struct search_ctx *c, struct line ln, unsigned a,
			 unsigned b)
{
	double r = (double)line_pos(c, ln, b) / line_pos(c, ln, a);
	double sa = score(c, a), sb = score(c, b), e;

	if (r <= 1 || !(sa > 0))
		return 1;
	if (!(sb > sa))
		return 0;
	e = log(sb / sa) / log(r);
	return e > 1 ? 1 : e;
}

/* The elasticity at the last of the n >= 2 inside points t[] of a climb.
 * The secant over the last step is an average over it; past the knee the
 * elasticity falls as a power of the position (a smooth minimum of a
 * linear rise and a ceiling: e(q) ~ (K / q)^p), so with two secants the
 * fall is extrapolated from the middle of the last step (geometric mean of
 * its ends) to its end. Keeping the secant when it did not fall errs on
 * the side of climbing on. */
static double local_elasticity(const struct search_ctx *c, struct line ln,
			       const unsigned *t, unsigned n)
{
	double e1 = elasticity(c, ln, t[n - 2], t[n - 1]), e0, qa, qb, qv, p;

	if (n < 3)
		return e1;
	e0 = elasticity(c, ln, t[n - 3], t[n - 2]);
	if (!(e0 > e1 && e1 > 0))
		return e1;
	qa = line_pos(c, ln, t[n - 3]);
	qb = line_pos(c, ln, t[n - 2]);
	qv = line_pos(c, ln, t[n - 1]);
	p = log(e0 / e1) / (0.5 * log(qv / qa));
	return e1 * pow(qb / qv, p / 2);
}

/* The position to run after t[n - 1], the last of the n inside points of
 * a climb along ln, or 0 when the climb ends there: at the maximum; on a
 * plateau (one more doubling would gain at most `plateau`); or when the
 * latency limit is so close that reaching it would gain at most that.
 *
 * Along iodepth the step is Little's law: outstanding I/O = IOPS x mean
 * latency, so at the same IOPS the limit is reached at limit / latency
 * times the position. Past the knee, where the score still grows with
 * elasticity e, the mean latency grows as q^(1 - e), and the step is
 * (limit / latency)^(1 / (1 - e/2)) (e halved: its estimate errs high,
 * and overshooting costs a point outside), or less if the latency grew
 * faster than that over the last step (a percentile past the knee).
 * The step is at most STEP_MAX, and at most 2 from the first point of a
 * climb that is not the search's first point (more jobs: the split of the
 * best outstanding I/O) when its latency is over twice the idle one or
 * the limit is on a percentile: Little's law bounds the mean only, and a
 * percentile can grow much faster past the knee.
 * Along numjobs (small numbers, each job a thread) the position doubles.
 * *pred: the latency the same growth predicts at the returned position
 * (latency x step^(1 - e/2), or the faster growth seen), what
 * breaks_frontier holds the point to. */
static unsigned next_pos(const struct search_ctx *c, struct line ln,
			 const unsigned *t, unsigned n, double *pred)
{
	const struct point *p = &c->res->points[t[n - 1]];
	unsigned v = line_pos(c, ln, t[n - 1]), max = line_max(c, ln);
	double lat = lat_of(c, p), e = 0, grow = 1, ratio;
	double idle = lat_of(c, &c->res->points[0]);
	double next, most = STEP_MAX;

	if (v >= max)
		return 0;
	ratio = lat > 0 ? (double)c->sp->limit_ns / lat : STEP_MAX * 2;
	if (n >= 2) {
		const struct point *q = &c->res->points[t[n - 2]];
		double lq = lat_of(c, q);
		double r = (double)v / line_pos(c, ln, t[n - 2]);

		e = local_elasticity(c, ln, t, n);
		if (pow(2, e) - 1 <= c->plateau)
			return 0;
		if (e < 1 && pow(ratio, e / (1 - e)) - 1 <= c->plateau)
			return 0;
		grow = 1 - e * STEP_BOLD;
		if (lq > 0 && lat > lq && log(lat / lq) / log(r) > grow)
			grow = log(lat / lq) / log(r);
	} else if (t[0] != 0 && (c->sp->stat != LAT_STAT_MEAN ||
				 (idle > 0 && lat > 2 * idle))) {
		most = 2;
	}
	if (ln.jobs) {
		unsigned nj = next_double(v, max);

		*pred = lat * pow((double)nj / v, grow);
		return nj;
	}
	next = v * pow(ratio * (1 - AIM_MARGIN), 1 / grow);
	if (next > v * most)
		next = v * most;
	if (next > max)
		next = max;
	if (next < v + 1)
		next = v + 1;
	next = (unsigned)(next + 0.5);
	*pred = lat * pow(next / v, grow);
	return (unsigned)next;
}

/* After a climb along iodepth whose last step, from a (inside) to b, was
 * more than a doubling and gained at most 2 x plateau per doubling (it
 * ended on a plateau, or past the limit with little to show for it): the
 * geometric middle of the step, once, in *mid (NO_POINT if not run). A
 * device whose IOPS fall past a peak (queueing below the device, a
 * worker's CPU) may have it there, where doubling would have looked; on a
 * monotone one it costs one point. */
static int backfill(struct search_ctx *c, struct line ln, unsigned a,
		    unsigned b, unsigned *mid)
{
	double r = (double)line_pos(c, ln, b) / line_pos(c, ln, a);
	unsigned v;

	*mid = NO_POINT;
	if (ln.jobs || r <= 2.5 || !(score(c, a) > 0) ||
	    pow(score(c, b) / score(c, a), 1 / log2(r)) - 1 > 2 * c->plateau)
		return 0;
	v = (unsigned)(sqrt((double)line_pos(c, ln, a) * line_pos(c, ln, b)) +
		       0.5);
	return line_at(c, ln, v, mid);
}

/* How far over the climb's own prediction a point's latency must be to be
 * off the trend. The mean is bound by Little's law (latency = outstanding
 * / IOPS): on the 648 noise-free models of test_search_sweep no point
 * that ended a climb was over 2.2 times the prediction. A percentile is
 * not: past the knee the tail grows faster than any trend (up to 24 times
 * on those models), so only a wider miss is suspect there. */
#define OFF_TREND_MEAN 2.5
#define OFF_TREND_PCT  4.0

/* Would b, further along ln than the inside point a, end a climb against
 * the frontier's shape? It is outside or scores less than a, and either
 * scores less than a by more than the plateau (less IOPS at more load:
 * only past a peak), or it is outside although the climb's trend put it
 * inside: pred, the latency next_pos predicted at b, is within the limit
 * and b's is over OFF_TREND_* times it (IOPS need not be lower: a hiccup
 * inflates a percentile alone). One noisy second of a run can look like
 * that (QD 64 at 16.7k IOPS and 3.8 ms after 43.5k at QD 8 and 184 us).
 * A point is re-measured at most once (runs > 1). */
static bool breaks_frontier(const struct search_ctx *c, struct line ln,
			    unsigned a, unsigned b, double pred)
{
	const struct point *pb = &c->res->points[b];
	double r = (double)line_pos(c, ln, b) / line_pos(c, ln, a);
	double off = c->sp->stat == LAT_STAT_MEAN ? OFF_TREND_MEAN : OFF_TREND_PCT;

	if (pb->runs > 1 || r <= 1 || (inside(c, b) && score(c, b) >= score(c, a)))
		return false;
	if (score(c, b) < score(c, a) * (1 - c->plateau))
		return true;
	return !inside(c, b) && pred <= (double)c->sp->limit_ns &&
	       lat_of(c, pb) > off * pred;
}

/* Measure point i again and keep the repeat: one run decides nothing when
 * it contradicts the points before it. */
static int remeasure(struct search_ctx *c, unsigned i)
{
	struct point *p = &c->res->points[i], pt;
	int ret = search_measure_once(c, p->iodepth, p->numjobs, &pt);

	if (ret)
		return ret;
	pt.runs = 2;
	*p = pt;
	c->res->nr_remeasured++;
	return 0;
}

/* Is i the search's first point (QD 1, one job), outside and run once?
 * Nothing else is tried when it misses the limit (more load only adds
 * latency), so one noisy run would decide "none inside" alone. */
static bool misses_first(const struct search_ctx *c, unsigned i)
{
	return i == 0 && !inside(c, i) && c->res->points[i].runs == 1;
}

/* Climb along ln from v (Little's-law steps along iodepth, doubling along
 * numjobs) until a point is outside or next_pos ends the climb, then a
 * backfill. A point that breaks the frontier, or a first point outside, is
 * measured again first. *lo is the last point inside (the backfilled one if it is
 * inside and the climb ended outside), *hi the first outside (either may
 * be NO_POINT). */
static int climb(struct search_ctx *c, struct line ln, unsigned v, unsigned *lo,
		 unsigned *hi)
{
	unsigned t[TRAIL], n = 0, i;
	double pred = 0; /* the trend's latency at v */
	int ret;

	*lo = *hi = NO_POINT;
	for (;;) {
		ret = line_at(c, ln, v, &i);
		if (!ret && (n ? breaks_frontier(c, ln, t[n - 1], i, pred)
			       : misses_first(c, i)))
			ret = remeasure(c, i);
		if (ret)
			return ret;
		if (!inside(c, i)) {
			*hi = i;
			if (!n)
				return 0;
			ret = backfill(c, ln, t[n - 1], i, &i);
			if (!ret && i != NO_POINT && inside(c, i))
				*lo = i;
			return ret;
		}
		*lo = i;
		if (n == TRAIL) {
			memmove(t, t + 1, (TRAIL - 1) * sizeof(*t));
			n--;
		}
		t[n++] = i;
		v = next_pos(c, ln, t, n, &pred);
		if (!v)
			return n >= 2 ? backfill(c, ln, t[n - 2], t[n - 1], &i)
				      : 0;
	}
}

static bool worth_bisecting(const struct search_ctx *c, struct line ln,
			    unsigned lo, unsigned hi, unsigned div)
{
	unsigned vlo = line_pos(c, ln, lo), vhi = line_pos(c, ln, hi);

	if (vhi <= vlo + 1)
		return false;
	if ((uint64_t)(vhi - vlo) * div < vlo)
		return false;
	return gains(c, score(c, hi), score(c, lo));
}

/* Where the latency limit falls between positions lo (inside) and hi
 * (outside), interpolated linearly in latency (past the knee latency grows
 * about linearly with the load: Little's law), with lo's and hi's distance
 * to the limit weighted by wlo and whi, kept strictly between them. It
 * aims AIM_MARGIN under the limit unless lo is that close already. The
 * midpoint when the latencies do not bracket the limit. */
static unsigned interpolate(const struct search_ctx *c, struct line ln,
			    unsigned lo, unsigned hi, double wlo, double whi)
{
	unsigned vlo = line_pos(c, ln, lo), vhi = line_pos(c, ln, hi);
	double llo = lat_of(c, &c->res->points[lo]);
	double lhi = lat_of(c, &c->res->points[hi]);
	double lim = (double)c->sp->limit_ns, v, flo, fhi;

	if (!(lhi > lim && lim >= llo))
		return vlo + (vhi - vlo) / 2;
	if (llo < lim * (1 - AIM_MARGIN))
		lim *= 1 - AIM_MARGIN;
	flo = (lim - llo) * wlo;
	fhi = (lhi - lim) * whi;
	v = vlo + flo / (flo + fhi) * (vhi - vlo);
	if (v < vlo + 1)
		return vlo + 1;
	if (v > vhi - 1)
		return vhi - 1;
	return (unsigned)(v + 0.5);
}

/* Narrow the edge along ln between lo (inside) and hi (outside, further
 * along): regula falsi on latency, Illinois variant (when the same end
 * moves twice in a row, the other end's distance to the limit counts half
 * as much, so a curved latency cannot hold the steps to one side). */
static int bisect_to(struct search_ctx *c, struct line ln, unsigned lo,
		     unsigned hi, unsigned div)
{
	double wlo = 1, whi = 1;
	int last = 0; /* the end the last step moved: +1 lo, -1 hi */
	unsigned i;
	int ret;

	while (worth_bisecting(c, ln, lo, hi, div)) {
		ret = line_at(c, ln, interpolate(c, ln, lo, hi, wlo, whi), &i);
		if (ret)
			return ret;
		if (inside(c, i)) {
			lo = i;
			wlo = 1;
			whi = last > 0 ? whi / 2 : 1;
			last = 1;
		} else {
			hi = i;
			whi = 1;
			wlo = last < 0 ? wlo / 2 : 1;
			last = -1;
		}
	}
	return 0;
}

/* bisect_to, down to a gap of 1/BISECT_DIV of the position. */
static int bisect(struct search_ctx *c, struct line ln, unsigned lo,
		  unsigned hi)
{
	return bisect_to(c, ln, lo, hi, BISECT_DIV);
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
	unsigned best = search_best_inside(c), split;
	uint64_t qd = (outstanding(&c->res->points[best]) + nj / 2) / nj;
	double before = score(c, best);
	int ret;

	*helped = false;
	if (qd < 1)
		qd = 1;
	if (qd > c->sp->max_iodepth)
		qd = c->sp->max_iodepth;
	ret = point_at(c, (unsigned)qd, nj, &split);
	/* the same outstanding I/O scoring clearly less decides that no more
	 * jobs are tried: one noisy run must not decide it */
	if (!ret && c->res->points[split].runs == 1 &&
	    score(c, split) < before * (1 - c->plateau))
		ret = remeasure(c, split);
	if (ret || !gains(c, score(c, split), before))
		return ret;
	if (inside(c, split))
		ret = explore(c, depth_line(nj), (unsigned)qd);
	else
		ret = descend(c, depth_line(nj), split);
	*helped = gains(c, score(c, search_best_inside(c)), before);
	return ret;
}

/* Phase 2: numjobs 2, 4 ... while more jobs help. *any: some did. */
static int add_jobs(struct search_ctx *c, bool *any)
{
	bool helped = true;
	int ret;

	*any = false;
	for (unsigned nj = next_double(1, c->sp->max_numjobs); nj && helped;
	     nj = next_double(nj, c->sp->max_numjobs)) {
		ret = try_jobs(c, nj, &helped);
		if (ret)
			return ret;
		*any |= helped;
		if (!helped)
			c->no_help = nj;
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

/* Phase 3: with (qd, nj) the best, more jobs at qd (unless the next
 * numjobs did not help in phase 2); then, when qd is small, more jobs at
 * qd - 1 (from nj + 1) and the most jobs at qd + 1 (from the most known
 * inside there, or nj / 2). */
static int refine(struct search_ctx *c)
{
	unsigned best = search_best_inside(c), qd, nj, start;
	int ret;

	if (c->res->points[best].numjobs == 1)
		return 0; /* jobs did not help at all */
	qd = c->res->points[best].iodepth;
	nj = c->res->points[best].numjobs;
	/* when the next numjobs did not help at the same outstanding I/O,
	 * the device, not the workers, is the limit there: more jobs at qd
	 * (more I/O too) would not gain more, job counts between even less */
	ret = next_double(nj, c->sp->max_numjobs) == c->no_help
		  ? 0
		  : explore(c, jobs_line(qd), nj);
	best = search_best_inside(c);
	qd = c->res->points[best].iodepth;
	nj = c->res->points[best].numjobs;
	if (ret || qd >= REFINE_DEPTH)
		return ret; /* one more I/O per job is a small step */
	if (qd > 1 && nj < c->sp->max_numjobs) {
		start = known_jobs_inside(c, qd - 1, c->sp->max_numjobs);
		ret = explore(c, jobs_line(qd - 1), start > nj ? start : nj + 1);
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
		return err_set(err, EINVAL,
			       "search: max_iodepth and max_numjobs must be at least 1");
	return 0;
}

/* After the best b was dropped by its repeat: the edge it stood on, along
 * iodepth at its numjobs, between the highest point inside below it and
 * it, now outside, is narrowed again. Without that the next best is
 * whatever the climb passed on its way (a disk's randrw70: qd 125 dropped,
 * qd 64 at 58.6k reported, 32 x 4 at 88.8k in the grid), though the
 * dropped run said the frontier lies near b. */
int search_refill_gap(struct search_ctx *c, unsigned b)
{
	const struct point *pb = &c->res->points[b];
	struct line ln = depth_line(pb->numjobs);
	unsigned lo = NO_POINT;

	for (unsigned i = 0; i < c->res->nr_points; i++) {
		const struct point *p = &c->res->points[i];
		if (p->inside && p->numjobs == pb->numjobs &&
		    p->iodepth < pb->iodepth &&
		    (lo == NO_POINT || p->iodepth > c->res->points[lo].iodepth))
			lo = i;
	}
	/* coarser than a climb's edge (REFILL_DIV): the dropped run's own
	 * score, a lucky one, keeps the edge "worth" narrowing until the
	 * position gap alone stops it, and on a plateau every point of the
	 * gap scores about the same (the disk: 5 more points to 1/32, all
	 * 73.5-81.5k, all below the dropped run's 83.5k) */
	return lo == NO_POINT ? 0 : bisect_to(c, ln, lo, b, REFILL_DIV);
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
	if (!ret && search_best_inside(&c) != NO_POINT) {
		bool helped;

		ret = add_jobs(&c, &helped);
		if (!ret && helped)
			ret = refine(&c);
	}
	/* every point inside that beats the headline is run twice: none
	 * shown inside scores more than it (search_confirm.c) */
	if (!ret && sp->confirm)
		ret = search_settle(&c);
	if (!res->confirmed)
		res->best = search_best_inside(&c);
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
	free(res->again);
	res->points = res->again = NULL;
	res->nr_points = 0;
	res->found = false;
}
