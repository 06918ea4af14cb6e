/* outcome.h - what one plan step produced, per target set, and the three
 * ways it is written down: the step's JSON, its CSV rows and its rows of
 * the summary table (step_json.c, step_rows.c).
 */
#ifndef IOCHAR_CHARZ_OUTCOME_H
#define IOCHAR_CHARZ_OUTCOME_H

#include <stdio.h>

#include "charz/app_step.h"
#include "charz/curve.h"
#include "charz/discipline.h"
#include "charz/scaling.h"
#include "charz/measure.h"
#include "charz/plan.h"
#include "charz/precondition.h"
#include "charz/rebuild.h"
#include "charz/search.h"

/* One run of the step's mode on one set of targets at once. */
struct set_outcome {
	char *const *targets;      /* borrowed from the step's job */
	unsigned nr_targets;
	struct measure_ctx mctx;   /* every call's per-target figures and series */
	struct point fixed;        /* STEP_FIXED */
	struct search_result search;
	struct curve_result curve;
	struct precond_result precond; /* STEP_PRECONDITION, or the one before the mode */
	bool preconditioned;       /* precond ran before the mode (precondition=auto) */
	/* STEP_REBUILD: the sweep and its VD (owned), and its foreground
	 * figures as points: the baseline, then one per pass */
	struct rebuild_sweep *rebuild;
	struct vd_members *rebuild_vd;
	struct point rebuild_points[REBUILD_MAX_RATES + 1];
	unsigned call_base;        /* mctx calls made before the mode's (by precond) */
	struct disc_choice disc;   /* the discipline of the mode's runs (mctx.disc points here) */
	bool disc_decided;         /* disc was decided: the mode measures */
	/* measured after a preconditioning of its targets that ended with no
	 * steady state: that step's number (1-based, this one's for
	 * precondition=auto), marked on each of its rows; 0: none */
	unsigned after_unsteady;
	bool done;                 /* the mode finished */
	/* targets=scaling: the headline's runs (the mode's, then its point
	 * again up to scaling_repeats), their metric and latency */
	double rep_iops[SCALING_MAX_REPEATS], rep_bw[SCALING_MAX_REPEATS];
	double rep_lat_ns[SCALING_MAX_REPEATS];
	unsigned nr_rep;
};

struct step_outcome {
	const struct plan_step *step;
	unsigned index;            /* 0-based in the plan */
	struct set_outcome *sets;  /* owned */
	unsigned nr_sets;
	/* scaling: the verdict on the sets' runs (charz/knee.h), the devices
	 * the targets are on, and both said in a line */
	struct knee_result knee;
	unsigned nr_devices;
	char devices[256];         /* "vda" or "vda, vdb", as many as fit */
	char scaling_msg[768];
	/* block devices it read that no preconditioning of the plan filled
	 * (precond_target_unwritten); borrowed from the step's job */
	const char *unwritten[8];
	unsigned nr_unwritten;
	struct app_step_result *app; /* mode=app: what its run found; owned */
	bool partial;              /* interrupted or failed part way */
	char error[512];           /* why, when partial */
};

void step_outcome_free(struct step_outcome *o);

/* The headline point of a set: the fixed point, the search's best (NULL if
 * nothing met the limit), the curve's maximum, or the last precondition
 * round's call. Used for scaling and the rows. */
const struct point *set_headline(const struct step_outcome *o,
				 const struct set_outcome *s);

/* Write the step as one JSON object to f. 0 or -errno. */
int step_json_write(const struct step_outcome *o, FILE *f);

/* The CSV header (with newline) of results.csv. */
extern const char step_csv_header[];

/* A results.csv row's last columns, with its newline: where lat_* counts
 * from (scheduled: a rate-limited point's response time; submit) and, when
 * scheduled, the p99 issue and tool lag and the service latency (from
 * submission, fio's measure), in us; then after_no_steady_state: the
 * set's after_unsteady step, empty when 0. */
struct dir_summary;
void step_csv_lag_cols(FILE *f, const struct dir_summary *d, unsigned after_unsteady);

/* read_lat_mean_us,write_lat_mean_us, (with their commas): empty for a
 * direction that did no I/O (0.0 read as a latency). */
struct stats_summary;
void step_csv_dir_lats(FILE *f, const struct stats_summary *s);

/* Write the step's rows of results.csv to f. */
int step_csv_write(const struct step_outcome *o, FILE *f);

/* The header of the summary table (with newline); p (may be NULL) names
 * the latency statistic of the read and write columns. */
void step_table_header(FILE *f, const struct plan *p);

/* Write the step's rows of the summary table to f; under them, once, what
 * its targets' own rows hold (STEP_TABLE_PER_TARGET). */
int step_table_write(const struct step_outcome *o, FILE *f);

/* Rows of one point: each target's own, then the total when several. */
void step_csv_point(FILE *f, const struct step_outcome *o, const struct set_outcome *s,
		    const char *label, const struct point *p, const char *reached);

/* "2.00 ms", "250 us". */
void step_fmt_lat(char *buf, size_t len, double ns);

/* A search's points beside its headline (step_search.c): the lines under
 * its table row (points run twice, dropped, ended early, the closest when
 * none was inside) and their results.csv rows. */
void step_search_notes(FILE *f, const struct step_outcome *o, const struct set_outcome *s);
void step_search_csv(FILE *f, const struct step_outcome *o, const struct set_outcome *s);

/* When none was inside: the run nearest the limit from above (the lowest
 * latency on the step's stat and scope, not partial; a dropped point's
 * repeat, not its first run, which was inside). NULL when some point was
 * inside, or none ran. */
const struct point *step_search_closest(const struct step_outcome *o,
					const struct set_outcome *s);

/* The line under a table whose targets have rows of their own: said once
 * in the plan's summary table, however many steps have them. */
#define STEP_TABLE_PER_TARGET \
	"  a target's own row: its latency (under rd) is the mean of both directions\n"

struct jw;

/* A multi-workload step's rows (step_wl.c): the point's "per_workload"
 * array (nothing when c has no workloads); its results.csv rows, target
 * "workload NAME"; its summary-table rows under the point's. */
void step_wl_json(struct jw *w, const struct measure_call *c);
void step_wl_csv(FILE *f, const struct step_outcome *o, const char *point,
		 const struct point *p, const struct measure_call *c, const char *reached,
		 unsigned after_unsteady);
void step_wl_table(FILE *f, const struct step_outcome *o, const struct point *p,
		   const struct measure_call *c);

#endif
