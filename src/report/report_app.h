/* report_app.h - what the report's "Application runs" section draws
 * beside the app results themselves: a replay of one of their traces
 * (`iochar run --read_iolog=DIR/trace-TN.bin --output-format=json`), and
 * the shapes of a synthetic plan to hold against the traces. Plain data:
 * cmd/ reads the replay and makes the shapes from the built-in plan
 * (charz/), which the report never includes.
 */
#ifndef IOCHAR_REPORT_REPORT_APP_H
#define IOCHAR_REPORT_REPORT_APP_H

#include <stdint.h>
#include <stdio.h>

#include "report/report_preds.h"
#include "report/results_model.h"

#define REPORT_SHAPE_SIZES 16

/* One workload of a synthetic plan: its block sizes with their shares of
 * its I/Os, and its share of reads. */
struct report_shape {
	char name[64];
	double read_share;          /* 0..1 */
	unsigned nr_sizes;
	uint64_t bytes[REPORT_SHAPE_SIZES];
	double share[REPORT_SHAPE_SIZES]; /* sums to 1 */
};

struct report_app_extras {
	/* replay runs (run JSON sets), each matched to the app point whose
	 * trace its read_iolog names; report_app_match checks that they do */
	const struct rs_set *replays;
	unsigned nr_replays;
	/* the synthetic plan's workloads (none: no shape table) */
	const char *shapes_plan;
	const struct report_shape *shapes;
	unsigned nr_shapes;
};

/* The point of an app set in sets[0..n) that replay (a run set) replays:
 * by the file name of its replaying job's read_iolog; *set gets the
 * set's index. NULL: none (the replay names no trace of these sets). */
const struct rs_app_point *report_app_match(const struct rs_set *sets, unsigned n,
					    const struct rs_set *replay, unsigned *set);

/* report_write_html_all (report.h) with the extras too (NULL: none). */
int report_write_html_ext(const struct rs_set *sets, unsigned n, const unsigned *run_counts,
			  unsigned nr_sides, const struct report_preds *preds,
			  const struct report_app_extras *x, FILE *f);

/* How close a synthetic plan's shapes are to a trace: of the trace's
 * I/Os, the share at a size some shape uses, and for each shape the
 * share at its own sizes and its read share less the trace's (points). */
struct app_shape_fit {
	double at_plan_sizes;       /* 0..1 */
	double at_shape_sizes[8];   /* per shape (first 8) */
	double read_diff_pts[8];    /* shape's read % - trace's read % */
	unsigned nr;
};
struct rs_app_trace;
void app_shape_fit(const struct report_shape *shapes, unsigned n,
		   const struct rs_app_trace *t, struct app_shape_fit *out);

#endif
