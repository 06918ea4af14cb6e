/* compare.h - workloads matched across sides, each side one result set or
 * several repeated runs of the same plan or job, with each side's value,
 * the difference from the first side, and whether that difference is
 * larger than the noise (docs/report.md, "Compare and the noise rule", is
 * the reference; this is its summary).
 *
 * Sides: sides[i] is sets[first .. first + nr_runs), the repeats of one
 * configuration. A side's value of a workload is the mean of its runs'
 * headline values; its latency and p99 those of its worst run (the
 * highest: percentiles are never averaged).
 *
 * Matching: a workload is a step's headline point on one target set,
 * matched across sides by the step's identity: in a plan, the step label
 * (the section and the values its sweep varies, "random bs=4k
 * rwmixread=70": within a sweep those values tell its steps apart); in a
 * run JSON or fio's results, the job name ("job", "a + b" for several
 * jobs; the N-th group of a name given twice "NAME#N"), not the label,
 * which also names rw and bs, so that runs of one job at 4K and 8K are
 * one workload, not comparable, rather than two each missing from the
 * other side. Then "#N" for the N-th target set when the step has
 * several. A row is named (key) by the first side's label ("job
 * (randread 4K)"). Rows follow the first side's order, then the ones
 * only later sides have. A workload missing from a side is listed with
 * verdict "missing", never dropped. Two values of one row are compared
 * only when their parameters agree: rw, rwmixread (mixes), bs, ioengine,
 * direct, random_distribution, mode, for fixed and curve steps iodepth and
 * numjobs, for searches latency_limit and latency_stat (a search's best
 * depth is its result, not a parameter). Otherwise the verdict is "not
 * comparable" with the differences named ("iodepth 1 vs 32"); runs of one
 * side that differ so make that side not comparable ("runs differ: ...").
 *
 * Noise rules, for side B against side A (the first side having it):
 * diff% = (B - A) / A * 100 of the side values (IOPS for random
 * workloads, MB/s for sequential, bits/s for the network).
 *  - CMP_RULE_RUNS, both sides with 2 runs or more: Welch's t on the
 *    per-run values, noise% = t(0.975, df) * sqrt(sA^2/nA + sB^2/nB) / A
 *    * 100, df by Welch-Satterthwaite rounded down; significant when
 *    |diff%| > noise% and |diff%| >= COMPARE_MIN_EFFECT_PCT.
 *  - CMP_RULE_RUNS_ONE_SIDED, one side repeated: that side's spread s
 *    stands for both, noise% = t(0.975, n - 1) * s * sqrt(1/nA + 1/nB) /
 *    A * 100, same test.
 *  - CMP_RULE_SECONDS, single runs: the per-second series of the headline
 *    point (the last interval left out when there are 3 or more: usually a
 *    fraction of a second), noise% = K * sqrt(sA^2/nA + sB^2/nB) / mA *
 *    100, K = 3, floor COMPARE_SINGLE_RUN_FLOOR_PCT (run-to-run drift is
 *    not measured, so a smaller difference is never called significant).
 *  - Single runs with a series of fewer than 2 intervals on a side (runs
 *    under 2 s: one per-second interval, no spread): no band, unknown,
 *    with a note saying so. No series at all (fio's results, hosts, a
 *    mesh): unknown.
 *
 * Verdicts (compare_decide), with the band diff% +- noise% and the floor:
 *  - significant: the band excludes 0 (|diff%| > noise%) and |diff%| >=
 *    the floor;
 *  - within noise: decided equal: not significant and the band is narrow,
 *    noise% <= the floor, so a difference of the floor would have shown;
 *  - inconclusive: not significant, but the band is wider than the floor
 *    (-76 % +-132 % decides nothing);
 *  - unknown: no band (no repeats and no per-second spread).
 *
 * Network results (rs_set.net) give one workload per direction, keyed
 * "net P<streams> send" (client to server) or "net P<streams> reverse";
 * the value is the receiver's bits/s and the series for the single-run
 * rule the per-interval throughput (`-i`) of that direction's streams.
 * A net mesh (rs_set.mesh) gives a row per pair, "mesh P<streams>
 * CLIENT -> SERVER", with no series (single runs: unknown).
 * Net and disk sets compared together share no key, so each workload
 * shows as only in the sides that have it.
 *
 * Application runs (rs_set.app, compare_app.c) give two rows per thread
 * count, keyed "BENCH WORKLOAD T<threads> tps" (transactions per second)
 * and "... p99" (the benchmark's p99 latency, ns; lower is better): the
 * series for the single-run rule are the benchmark's per-second TPS and
 * per-second p99. Rows match by benchmark, workload and thread count, so
 * another workload shows as only in the sides that ran it.
 *
 * Runs over many hosts (rs_point.hosts): when two or more sides ran a
 * workload over many hosts, a row per host follows the workload's row,
 * keyed "WORKLOAD @ HOST" (HOST: rs_host.label, so hosts match by name,
 * by name and rank when ranks share a machine); a host only some sides
 * have is "missing" in the others. The value is the host's total IOPS or
 * MB/s, its parameters the workload's; hosts carry no per-second series,
 * so single runs give the plain ratio and the verdict "unknown". A lost
 * host has no value (lost set) and adds no run.
 */
#ifndef IOCHAR_REPORT_COMPARE_H
#define IOCHAR_REPORT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report/results_model.h"

#define COMPARE_K 3.0
/* with repeats: a difference smaller than this is not called significant
 * however tight the runs (docs/report.md says why 5) */
#define COMPARE_MIN_EFFECT_PCT 5.0
/* single runs: the run-to-run drift a steady device may show, unmeasured
 * (SNIA PTS steady state: within +-10 % of the average; docs/report.md) */
#define COMPARE_SINGLE_RUN_FLOOR_PCT 10.0
/* single runs: the per-second intervals a side needs for a spread */
#define COMPARE_MIN_SECONDS 2

enum cmp_verdict {
	CMP_REFERENCE,      /* the side the others are compared with */
	CMP_SIGNIFICANT,    /* |diff| above the noise band and the floor */
	CMP_WITHIN_NOISE,   /* decided equal: a narrow band, not significant */
	CMP_INCONCLUSIVE,   /* a band too wide to decide */
	CMP_UNKNOWN,        /* no band: too few samples to say */
	CMP_MISSING,        /* the side has no such workload */
	CMP_NOT_COMPARABLE, /* parameters differ: cmp_value.reason */
};

enum cmp_rule {
	CMP_RULE_NONE,           /* reference, missing, not comparable, unknown */
	CMP_RULE_RUNS,           /* Welch's t on the per-run values */
	CMP_RULE_RUNS_ONE_SIDED, /* t on the repeated side's spread */
	CMP_RULE_SECONDS,        /* single runs: the per-second series */
};

/* The parameters a value is compared by (see above). Strings point into
 * the result sets. */
struct cmp_params {
	bool present;              /* disk rows; net rows have none */
	const char *mode, *rw, *ioengine, *dist, *lat_stat;
	uint64_t bs, lat_limit_ns;
	unsigned rwmixread, iodepth, numjobs;
	bool direct, fixed_qd;     /* fixed_qd: iodepth, numjobs compared */
};

#define CMP_REASON_MAX 160

/* One run of a side: its headline value and point (NULL: net rows). */
struct cmp_run {
	double value;
	const struct rs_point *point;
};

struct cmp_value {
	enum cmp_verdict verdict;
	enum cmp_rule rule;
	double value;              /* IOPS or bytes/s: the mean over the runs */
	double lat_ns;             /* the step's latency_stat, the worst run's */
	double p99_ns;
	unsigned iodepth, numjobs; /* the first run's */
	unsigned nr_runs;          /* runs of the side that have it (lost: not) */
	struct cmp_run *runs;      /* [nr_runs], owned */
	double run_sd;             /* sample stdev of the runs' values; NaN below 2 */
	double iv_mean, iv_sd;     /* single run: per-second IOPS */
	unsigned iv_n;
	double diff_pct, noise_pct; /* NaN for the reference or unknown */
	double floor_pct;          /* the minimum |diff| called significant */
	char reason[CMP_REASON_MAX]; /* not comparable: what differs; "" */
	char note[CMP_REASON_MAX]; /* why a short single run's verdict is what
				    * it is (unknown); "" */
	struct cmp_params params;
	int64_t retransmits;       /* net rows: the direction's; -1 unknown */
	unsigned streams;          /* net rows */
	const struct rs_point *point; /* disk rows: the first run's headline */
	bool lost;                 /* host rows: the host stopped answering in
				    * every run of the side */
	unsigned last_run;         /* while building: 1 + the run last added */
};

struct cmp_row {
	char *key;                 /* the name shown: the first side's label */
	char *match;               /* what the sides are matched by (Matching) */
	const char *label;         /* the step label (of the first side having it) */
	const char *lat_stat;      /* "mean", "p99", "p99.9" */
	bool iops;                 /* the value is IOPS, else bytes/s */
	bool net;                  /* a network direction: bits/s, per-interval
				    * throughput for the noise rule */
	/* an application run's thread count (compare_app.c): its TPS, or its
	 * p99 in ns; CMP_APP_NONE: a disk or network row */
	enum cmp_app { CMP_APP_NONE, CMP_APP_TPS, CMP_APP_P99 } app;
	const char *host;          /* a host row: the host's label; NULL: a workload */
	int parent;                /* a host row: its workload's row while building */
	struct cmp_value *v;       /* one per side */
};

/* One side: the repeated runs sets[0 .. nr_runs). */
struct cmp_side {
	const struct rs_set *sets;
	unsigned nr_runs;
	char name[64];             /* the first set's name, "+N" when repeated */
};

/* The model's side of one value (compare --predicted, compare_pred.c). */
struct cmp_pred {
	bool present;              /* the model predicted this workload */
	double predicted;          /* IOPS or bytes/s, as the value */
	double error_pct;          /* |predicted - value| / value * 100; NaN: none */
	double utilization;        /* of the bound component, 0..1 */
	char bound[16];            /* "drives", "controller", "cpu", ... */
};

struct cmp_table {
	struct cmp_side *sides;    /* owned */
	unsigned nr_sets;          /* sides */
	struct cmp_row *rows;
	unsigned nr_rows;
	/* compare --predicted: preds[row * nr_sets + side], owned; NULL: no
	 * model side */
	struct cmp_pred *preds;
	char model_fit[512];       /* the model file; "": each set's self-fit */
	/* each predicted side's validation (report_preds.h), "NAME: TEXT"
	 * joined by "; " */
	char model_validation[1024];
};

/* Match the workloads of sets[0..n), each set its own side (single runs),
 * and judge each difference. The sets must outlive t. 0 or -ENOMEM. */
int compare_build(const struct rs_set *sets, unsigned n, struct cmp_table *t);

/* The same with repeats: side i is the run_counts[i] sets following those
 * of side i - 1 (every count >= 1, their sum the number of sets). */
int compare_build_sides(const struct rs_set *sets, const unsigned *run_counts,
			unsigned nr_sides, struct cmp_table *t);

struct report_preds;

/* Add the model's side (report_preds.h): preds[k] are the predictions for
 * the k-th of the sets compare_build_sides was given (a side's first run
 * stands for the side: its repeats ran the same configuration). Each disk
 * workload of each side is matched to the step and target set its headline
 * point came from, and its predicted value set beside the side's (mean)
 * value. Host and network rows have no prediction. The writers then add
 * the model (docs/report.md): text a table after the comparison, JSON a
 * "model" member, CSV four columns. 0 or -ENOMEM. */
int compare_add_predictions(struct cmp_table *t, const struct report_preds *preds);

/* Release what t owns (not the sets). t may be NULL. */
void compare_free(struct cmp_table *t);

const char *cmp_verdict_name(enum cmp_verdict v);

/* "runs", "runs, one side's spread", "per-second"; "" for none. */
const char *cmp_rule_name(enum cmp_rule r);

/* The verdict of a difference diff_pct with band +-noise_pct and floor
 * floor_pct (the Verdicts above); unknown when either is NaN. */
enum cmp_verdict compare_decide(double diff_pct, double noise_pct, double floor_pct);

/* The caveat that goes with a value's verdict: the reason when not
 * comparable; for runs too short for a spread, why (cmp_value.note); ""
 * otherwise (single runs' drift is said once per table:
 * compare_single_run_note). Static or owned by v. */
const char *cmp_value_note(const struct cmp_value *v);

/* The table's one note on single runs ("single run: run-to-run drift not
 * measured ...") when any value was judged as one, else "". Static. */
const char *compare_single_run_note(const struct cmp_table *t);

/* The text tables' set column: as wide as the longest set name, whole, in
 * terminal columns (util/text_width.h). */
size_t compare_name_cols(const struct cmp_table *t);

/* The table as text, JSON (docs/report.md) or CSV. 0 or -EIO. */
int compare_write_text(const struct cmp_table *t, FILE *f);
int compare_write_json(const struct cmp_table *t, FILE *f);
int compare_write_csv(const struct cmp_table *t, FILE *f);

/* Mean, sample standard deviation and count of a point's per-second IOPS
 * under the rule above. */
void compare_interval_stats(const struct rs_point *p, double *mean, double *sd,
			    unsigned *n);

/* The same for a plain series x[0..nr) (network intervals, bits/s). */
void compare_series_stats(const double *x, unsigned nr, double *mean, double *sd,
			  unsigned *n);

/* The two-sided 95 % quantile of Student's t with df degrees of freedom,
 * rounded down to the table (1..30, 40, 60, 120, then the normal's 1.96):
 * conservative for a fractional Welch df. NaN when df < 1. */
double compare_t975(double df);

/* Write what differs between a and b into buf[0..n) ("iodepth 1 vs 32,
 * bs 4K vs 8K"), "" when nothing does or either has no parameters. */
void compare_params_differ(const struct cmp_params *a, const struct cmp_params *b,
			   char *buf, size_t n);

/* compare_pred.c: the model side in each format (nothing without
 * t->preds). The CSV header's extra columns, one row's extra fields. */
void compare_pred_write_text(const struct cmp_table *t, FILE *f);
struct jw;
void compare_pred_write_json(const struct cmp_table *t, struct jw *w);
void compare_pred_csv_header(const struct cmp_table *t, FILE *f);
void compare_pred_csv_fields(const struct cmp_table *t, unsigned row, unsigned side, FILE *f);

/* compare_app.c: the rows of application run `run` of side si. 0 or
 * -ENOMEM. */
int compare_add_app_set(struct cmp_table *t, unsigned si, unsigned run);

/* The row (a new one, every side missing) matched by key, taken over in
 * every case; -1: no memory. compare.c. */
int compare_row_for(struct cmp_table *t, char *key, const char *lat_stat);

/* Run `run` of the side has v's workload (value, latencies in ns, point
 * NULL for rows without one). 0 or -ENOMEM. compare.c. */
int compare_add_run(struct cmp_value *v, unsigned run, double value, double lat,
		    double p99, const struct rs_point *p);

/* A value of row as the tables show it ("1,234 IOPS", "812.5 TPS"). buf
 * holds NUMFMT_MAX bytes. compare_write.c. */
char *compare_value_text(char *buf, const struct cmp_row *row, double v);

/* Judge every value of row against the first side that has it (the rules
 * above); values must be filled. Used by compare_build. */
void compare_judge_row(struct cmp_row *row, unsigned nr_sides);

#endif
