/* report.h - the HTML report of one or more result sets: one
 * self-contained page (inline CSS and SVG, no script, nothing fetched),
 * readable with JavaScript off and printable.
 *
 * Sections, in order: the result sets; the summary table (workload, best
 * IOPS or MB/s, latency there, iodepth x jobs); bar charts of IOPS and
 * MB/s per workload with latency on a second axis; with several sets, the
 * comparison (compare.h); latency-versus-throughput curves of search and
 * curve steps with the chosen point marked; latency percentiles (log
 * scale); per-second series; scaling with its saturation point; the
 * environment of each set; and every step's parameters with an equivalent
 * `iochar run` command line. Every chart is an <svg class="chart"
 * data-chart=KIND data-points=N> (svg_chart.h).
 */
#ifndef IOCHAR_REPORT_REPORT_H
#define IOCHAR_REPORT_REPORT_H

#include <stdio.h>

#include "report/report_preds.h"
#include "report/results_model.h"

/* Write the page for sets[0..n) to f, each set a side of the comparison.
 * 0 or -errno (-ENOMEM, -EIO). */
int report_write_html(const struct rs_set *sets, unsigned n, FILE *f);

/* The same with sides of repeated runs in the comparison and its bar
 * charts (compare_build_sides: side i is the run_counts[i] sets after
 * those of side i - 1); every set still has its own tables and charts. */
int report_write_html_sides(const struct rs_set *sets, unsigned n,
			    const unsigned *run_counts, unsigned nr_sides, FILE *f);
/* The same with a "Predicted beside measured" section too: preds[0..n),
 * one per set (nr_steps 0: none for it), or NULL (no section); not kept.
 * Either may be trivial: run_counts all 1, preds NULL. */
int report_write_html_all(const struct rs_set *sets, unsigned n, const unsigned *run_counts,
			  unsigned nr_sides, const struct report_preds *preds, FILE *f);

#endif
