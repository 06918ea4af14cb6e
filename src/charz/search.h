/* search.h - the best (iodepth, numjobs) inside a latency limit.
 *
 * Walks the IOPS/latency frontier instead of the whole grid: climbs
 * iodepth at one job in steps predicted by Little's law (the depth at which
 * latency would reach the limit at the IOPS seen so far, 2x to 8x per step)
 * until the limit, a plateau or the maximum, narrows the edge by regula
 * falsi, then tries more jobs only where they can help (the best total
 * depth split over 2, 4 ... jobs), and reports every point it ran. A
 * point that breaks the frontier during a climb is measured again before
 * it may end the climb; the best is confirmed by a repeat, and so is
 * every point inside that would beat it (search_confirm.c). See search.c.
 * fio's latency_target varies only iodepth inside one job.
 */
#ifndef IOCHAR_CHARZ_SEARCH_H
#define IOCHAR_CHARZ_SEARCH_H

#include "charz/point.h"

struct search_params {
	uint64_t limit_ns;       /* latency limit on `stat`; > 0 */
	enum lat_stat stat;
	unsigned max_iodepth;    /* per job; >= 1 (e.g. 256) */
	unsigned max_numjobs;    /* >= 1 (e.g. 8) */
	double plateau;          /* relative IOPS gain below which more load is not worth it (e.g. 0.03) */
	enum lat_scope scope;    /* each direction (default) or the combined figure */
	bool confirm;            /* repeat the best, and every point inside that beats it (search_confirm.c) */
};

struct search_result {
	bool found;              /* some point met the limit */
	unsigned best;           /* index into points of the best inside; valid if found */
	struct point *points;    /* every point run, in order; owned */
	unsigned nr_points;
	unsigned nr_remeasured;  /* frontier breaks measured again before a climb ended on them */
	/* with sp->confirm: every point inside that would beat the headline
	 * is run again (search_confirm.c), the best first. A point whose
	 * repeat missed the limit is dropped (repeat_missed, not inside);
	 * one whose repeat met it is confirmed and keeps the lower-scoring of
	 * its two runs in points[] (the first was chosen for scoring highest
	 * of many, so its luck is part of why it won; the lower is what both
	 * runs delivered), the other in again[] (shows_repeat: the repeat was
	 * the lower). The headline is the best of the confirmed points, and no
	 * point inside scores more. repeat is its other run, repeat_first
	 * says that is the first. spread: the headline's two scores' (max -
	 * min) / mean; unsteady: spread over SEARCH_UNSTEADY, the run-to-run
	 * noise is several times the plateau the search tells points apart
	 * by. */
	bool confirmed;
	struct point repeat;
	bool repeat_first;
	double spread;
	bool unsteady;
	unsigned nr_dropped;
	unsigned nr_repeats;     /* confirming runs made (confirmed + dropped) */
	/* again[i]: point i's other run when it was repeated (confirmed or
	 * repeat_missed); zeroed otherwise. nr_points entries, owned. */
	struct point *again;
};

/* A confirmed best whose two runs' spread is over this is unsteady: over
 * three times the 3 % plateau by which the search tells neighbouring
 * points apart, so which of them won is noise (longer points help). */
#define SEARCH_UNSTEADY 0.10

/* A point whose run lasted less than runtime - runtime / this ended early
 * (ended_early: not time_based, its region read once). */
#define SEARCH_EARLY_DIV 10

/* Search for base (a valid job; its iodepth and numjobs are the search's
 * to set). Each point is measured through measure(arg, job, ...). Returns
 * 0 (also when nothing met the limit: found is false), or the first
 * measurement error. Release res with search_result_free. */
int search_run(const struct job_spec *base, const struct search_params *sp,
	       measure_fn measure, void *arg, struct search_result *res,
	       struct ioc_err *err);

/* The confirmation alone, on the points already in res (a search's run
 * without confirm, or points made by a test): repeats every point inside
 * that beats the headline, as search_run with sp->confirm. Sets found,
 * best and the confirmation's fields. 0 or a measurement's error. */
int search_confirm(const struct job_spec *base, const struct search_params *sp,
		   measure_fn measure, void *arg, struct search_result *res,
		   struct ioc_err *err);

void search_result_free(struct search_result *res);

#endif
