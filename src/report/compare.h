/* compare.h - workloads matched across result sets, each with its value,
 * the difference from the first set, and whether that difference is
 * larger than the run-to-run noise of the per-second series.
 *
 * Matching: a workload is a step's headline point on one target set. Its
 * key is the step label (which names the varied parameters, "random
 * bs=4k rwmixread=70"), plus "#N" for the N-th target set when the step has
 * several; sets are matched by key, in the order of the first set, then
 * the keys only later sets have. A workload missing from a set is listed
 * with verdict "missing", never dropped.
 *
 * Noise rule (Welch-style, documented in docs/report.md): for set A (the
 * first that has the workload) and set B, take the per-second IOPS of the
 * headline point (the last interval is left out when there are 3 or more:
 * it is usually a fraction of a second), with means mA, mB, sample
 * standard deviations sA, sB and counts nA, nB. The noise band is
 *     noise% = K * sqrt(sA^2/nA + sB^2/nB) / mA * 100,   K = 3
 * and the difference diff% = (B - A) / A * 100 of the headline values
 * (IOPS for random workloads, MB/s for sequential). The difference is
 * significant when |diff%| > noise%; with fewer than 2 intervals on
 * either side the noise is unknown and so is the verdict.
 *
 * Network results (rs_set.net) give one workload per direction, keyed
 * "net P<streams> send" (client to server) or "net P<streams> reverse";
 * the value is the receiver's bits/s and the series for the noise rule
 * is the per-interval throughput (`-i`) of that direction's streams.
 * A net mesh (rs_set.mesh) gives a row per pair, "mesh P<streams>
 * CLIENT -> SERVER", with no series (verdict unknown).
 * Net and disk sets compared together share no key, so each workload
 * shows as only in the sets that have it.
 *
 * Runs over many hosts (rs_point.hosts): when two or more sets ran a
 * workload over many hosts, a row per host follows the workload's row,
 * keyed "WORKLOAD @ HOST" (HOST: rs_host.label, so hosts match by name,
 * by name and rank when ranks share a machine); a host only some sets
 * have is "missing" in the others. The value is the host's total IOPS or
 * MB/s; hosts carry no per-second series, so diff% is the plain ratio and
 * the verdict "unknown". A lost host has no value (lost set).
 */
#ifndef IOCHAR_REPORT_COMPARE_H
#define IOCHAR_REPORT_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "report/results_model.h"

#define COMPARE_K 3.0

enum cmp_verdict {
	CMP_REFERENCE,      /* the set the others are compared with */
	CMP_SIGNIFICANT,    /* |diff| above the noise band */
	CMP_WITHIN_NOISE,
	CMP_UNKNOWN,        /* too few per-second samples to say */
	CMP_MISSING,        /* the set has no such workload */
};

struct cmp_value {
	enum cmp_verdict verdict;
	double value;              /* IOPS or bytes/s */
	double lat_ns;             /* at that point, the step's latency_stat */
	double p99_ns;
	unsigned iodepth, numjobs;
	double iv_mean, iv_sd;     /* per-second IOPS */
	unsigned iv_n;
	double diff_pct, noise_pct; /* NaN for the reference or unknown */
	int64_t retransmits;       /* net rows: the direction's; -1 unknown */
	unsigned streams;          /* net rows */
	const struct rs_point *point; /* disk rows: the headline point; NULL: none */
	bool lost;                 /* host rows: the host stopped answering */
};

struct cmp_row {
	char *key;
	const char *label;         /* the step label (of the first set having it) */
	const char *lat_stat;      /* "mean", "p99", "p99.9" */
	bool iops;                 /* the value is IOPS, else bytes/s */
	bool net;                  /* a network direction: bits/s, per-interval
				    * throughput for the noise rule */
	const char *host;          /* a host row: the host's label; NULL: a workload */
	int parent;                /* a host row: its workload's row while building */
	struct cmp_value *v;       /* one per set */
};

struct cmp_table {
	const struct rs_set *sets;
	unsigned nr_sets;
	struct cmp_row *rows;
	unsigned nr_rows;
};

/* Match the workloads of sets[0..n) and judge each difference. The sets
 * must outlive t. 0 or -ENOMEM. */
int compare_build(const struct rs_set *sets, unsigned n, struct cmp_table *t);
void compare_free(struct cmp_table *t);

const char *cmp_verdict_name(enum cmp_verdict v);

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

#endif
