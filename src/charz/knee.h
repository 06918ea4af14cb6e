/* knee.h - where a scaling step's total stops growing, decided on
 * repeated measurements with a stated noise test, and which target count
 * to measure next to locate it.
 *
 * The test, for two measured counts a < b (means ma, mb of n runs each,
 * sample spreads sa, sb): the gain is mb - ma, its band Welch's 95 %
 * interval (util/student_t.h); the added targets' share is half of what
 * they would add at the average per target so far,
 *     share = KNEE_SHARE x (b - a) x ma / a.
 * The step from a to b
 *     grows      when the whole band is above the share,
 *     is flat    when the whole band is below it,
 *     is undecided otherwise (the noise cannot tell).
 * The knee is where the growth last lands: the count K reached by the
 * last step that grows (the smallest count when none does). When the
 * step into K and the step out of it join adjacent counts and the step
 * out is flat: "stops growing after K targets". When the last step grows
 * (into the largest count): "still grows at N". Otherwise, or with one
 * run per count (no band): undecided. Counts not adjacent around K are
 * bisected (knee_find's next), the step into K before the step out.
 */
#ifndef IOCHAR_CHARZ_KNEE_H
#define IOCHAR_CHARZ_KNEE_H

#include <stdbool.h>

#define KNEE_SHARE 0.5

/* One measured target count. */
struct knee_count {
	unsigned targets;
	unsigned n;	 /* runs */
	double mean, sd; /* of the runs' totals; sd NaN when n < 2 */
	double lat_ns;	 /* mean over the runs of the step's latency figure */
};

enum knee_step { KNEE_GROWS, KNEE_FLAT, KNEE_STEP_UNDECIDED };

enum knee_verdict {
	KNEE_FOUND,	  /* stops growing after knee targets */
	KNEE_STILL_GROWS, /* every step grows, up to the largest count */
	KNEE_UNDECIDED,	  /* the data cannot place it */
};

struct knee_result {
	enum knee_verdict verdict;
	unsigned knee; /* KNEE_FOUND: the count after which it stops growing */
	unsigned lo, hi; /* the step the verdict rests on (counts); 0 none */
	double base;	 /* the mean at lo */
	double gain, band,
	    share;     /* that step's gain, its half-width, the share */
	unsigned next; /* a count to measure before believing it; 0: none */
};

/* The step from a to b (a.targets < b.targets); gain, band and share as
 * above into the pointers (may be NULL). */
enum knee_step knee_step_judge(const struct knee_count *a,
			       const struct knee_count *b, double *gain,
			       double *band, double *share);

/* Judge counts c[0..n) (any order; at least one): the verdict, and the
 * count to measure next to place the knee (0 when the counts decide, or
 * nothing more can). Never asks for a count already measured. */
void knee_find(const struct knee_count *c, unsigned n, struct knee_result *r);

/* "stops growing after", "still grows", "undecided". */
const char *knee_verdict_name(enum knee_verdict v);

/* Mean and sample standard deviation of x[0..n) into k (NaN sd below 2). */
void knee_count_set(struct knee_count *k, unsigned targets, const double *x,
		    unsigned n);

#endif
