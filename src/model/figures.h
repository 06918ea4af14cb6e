/* figures.h - the figures table: published (or measured) results, one row
 * per (configuration, workload), with the columns of the disk paper's
 * train.csv (docs/model.md):
 *
 *   id, server, drive_type, drive_count, interface, controller,
 *   raid_level, vd_count, disks_per_vd, access, read_pct,
 *   block_size_kib, metric, value, unit, latency_ms, qualifier, source
 *
 * id, access, metric and value are required columns; the others may be
 * absent, and every field but id and access may be blank. Predictions
 * add predicted, predicted_latency_ms, bound_by, utilization and
 * saturation_drives (predict.h).
 */
#ifndef IOCHAR_MODEL_FIGURES_H
#define IOCHAR_MODEL_FIGURES_H

#include <stdbool.h>
#include <stdio.h>

#include "model/model.h"
#include "util/csv_read.h"
#include "util/err.h"

/* One row, read: strings point into the table's csv_doc. */
struct mdl_figrow {
	const char *id, *server, *drive_type, *interface, *controller;
	const char *raid_level, *metric, *unit, *qualifier, *source;
	unsigned drive_count, vd_count, disks_per_vd; /* 0: blank */
	bool random;
	bool is_limit;              /* metric limit_*: a component's ceiling */
	bool mbps;                  /* the value is MB/s, else IOPS */
	double read_pct;            /* NaN: blank (one value for both) */
	double bs_kib;              /* 0: blank */
	double value;               /* NaN: blank */
	double latency_ms;          /* NaN: blank */
	unsigned line;
};

struct mdl_figs {
	struct csv_doc doc;
	struct mdl_figrow *rows;
	unsigned nr;
	const char *origin;         /* as given to mdl_figs_parse; not owned */
};

/* Parse a figures table (text NUL-terminated; origin names it in
 * messages). figs is zeroed first; free it with mdl_figs_free in every
 * case. A missing required column, a number that is not one or is out of
 * range (drive_count 0..4096, read_pct 0..100, block size > 0), an
 * unknown access or metric: a usage error "ORIGIN:LINE: column: ...". */
int mdl_figs_parse(const char *text, const char *origin, struct mdl_figs *figs,
		   struct ioc_err *err);

void mdl_figs_free(struct mdl_figs *figs);

/* The configuration a row describes: its interface, path (RAID
 * controller, HBAs, CPU-attached NVMe with its lanes), layout. Drive
 * rates and caps are left 0 for the fit to fill. */
void mdl_figrow_config(const struct mdl_figrow *r, struct mdl_config *c);

/* The workload of a row; a blank read_pct reads as read_pct 100 (call
 * again with read 0 for the write half), a blank block size as 4 KiB
 * random, 256 KiB sequential. */
void mdl_figrow_workload(const struct mdl_figrow *r, double read_pct,
			 struct mdl_workload *w);

/* The read percentages row r stands for into pcts: its read_pct, or for
 * a blank one on a sequential row 100 and 0 (one value for both). Returns
 * how many (1 or 2). */
unsigned mdl_figrow_pcts(const struct mdl_figrow *r, double pcts[2]);

/* Do rows a and b describe one configuration (all but the workload)? */
bool mdl_figrow_same_config(const struct mdl_figrow *a, const struct mdl_figrow *b);

#endif
