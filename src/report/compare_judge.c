/* compare_judge.c - the noise rules of compare (compare.h, docs/report.md):
 * Welch's t on per-run values when there are repeats, the per-second
 * series and the single-run floor when there are none, and the parameter
 * check that keeps different workloads from being matched. */
#include "report/compare.h"
#include "report/numfmt.h"
#include "util/student_t.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double compare_t975(double df)
{
	return student_t975(df);
}

static double at_double(const void *x, unsigned i)
{
	return ((const double *)x)[i];
}

static double at_interval(const void *x, unsigned i)
{
	return ((const struct rs_interval *)x)[i].iops;
}

/* Mean, stdev and count of the finite at(x, i), i < nr, leaving out the
 * last of 3 or more: usually a fraction of a second. */
static void series(const void *x, double (*at)(const void *, unsigned), unsigned nr,
		   double *mean, double *sd, unsigned *n)
{
	unsigned k = nr >= 3 ? nr - 1 : nr, used = 0;
	double sum = 0, sq = 0;

	for (unsigned i = 0; i < k; i++)
		if (isfinite(at(x, i))) {
			sum += at(x, i);
			used++;
		}
	*n = used;
	*mean = used ? sum / used : NAN;
	for (unsigned i = 0; i < k; i++)
		if (isfinite(at(x, i)))
			sq += (at(x, i) - *mean) * (at(x, i) - *mean);
	*sd = used >= 2 ? sqrt(sq / (used - 1)) : NAN;
}

void compare_series_stats(const double *x, unsigned nr, double *mean, double *sd,
			  unsigned *n)
{
	series(x, at_double, nr, mean, sd, n);
}

void compare_interval_stats(const struct rs_point *p, double *mean, double *sd,
			    unsigned *n)
{
	series(p->iv, at_interval, p->nr_iv, mean, sd, n);
}

const char *cmp_verdict_name(enum cmp_verdict v)
{
	switch (v) {
	case CMP_REFERENCE:
		return "reference";
	case CMP_SIGNIFICANT:
		return "significant";
	case CMP_WITHIN_NOISE:
		return "within noise";
	case CMP_INCONCLUSIVE:
		return "inconclusive";
	case CMP_UNKNOWN:
		return "unknown";
	case CMP_NOT_COMPARABLE:
		return "not comparable";
	case CMP_MISSING:
		break;
	}
	return "missing";
}

const char *cmp_rule_name(enum cmp_rule r)
{
	switch (r) {
	case CMP_RULE_RUNS:
		return "runs";
	case CMP_RULE_RUNS_ONE_SIDED:
		return "runs, one side's spread";
	case CMP_RULE_SECONDS:
		return "per-second";
	case CMP_RULE_NONE:
		break;
	}
	return "";
}

const char *cmp_value_note(const struct cmp_value *v)
{
	if (v->verdict == CMP_NOT_COMPARABLE)
		return v->reason;
	return v->note; /* single runs' drift: once per table (compare_single_run_note) */
}

/* Append "what a vs b" to buf (", "-separated). */
static void differ(char *buf, size_t n, const char *what, const char *a, const char *b)
{
	size_t len = strlen(buf);
	if (len < n)
		snprintf(buf + len, n - len, "%s%s %s vs %s", len ? ", " : "", what, a, b);
}

static void differ_u(char *buf, size_t n, const char *what, uint64_t a, uint64_t b)
{
	char x[24], y[24];
	if (a == b)
		return;
	snprintf(x, sizeof(x), "%llu", (unsigned long long)a);
	snprintf(y, sizeof(y), "%llu", (unsigned long long)b);
	differ(buf, n, what, x, y);
}

static void differ_s(char *buf, size_t n, const char *what, const char *a, const char *b)
{
	if (strcmp(a ? a : "", b ? b : ""))
		differ(buf, n, what, a ? a : "-", b ? b : "-");
}

/* A difference of sizes or latencies, as fio writes them ("4K", "2.00 ms"). */
static void differ_fmt(char *buf, size_t n, const char *what, uint64_t a, uint64_t b,
		       char *(*fmt)(char *, double))
{
	char x[NUMFMT_MAX], y[NUMFMT_MAX];
	if (a != b)
		differ(buf, n, what, fmt(x, (double)a), fmt(y, (double)b));
}

static bool is_mix(const char *rw)
{
	return rw && (!strcmp(rw, "randrw") || !strcmp(rw, "rw") || !strcmp(rw, "readwrite"));
}

void compare_params_differ(const struct cmp_params *a, const struct cmp_params *b,
			  char *buf, size_t n)
{
	buf[0] = '\0';
	if (!a->present || !b->present)
		return;
	differ_s(buf, n, "mode", a->mode, b->mode);
	differ_s(buf, n, "rw", a->rw, b->rw);
	if (is_mix(a->rw) && is_mix(b->rw))
		differ_u(buf, n, "rwmixread", a->rwmixread, b->rwmixread);
	differ_fmt(buf, n, "bs", a->bs, b->bs, numfmt_size);
	if (a->fixed_qd && b->fixed_qd) {
		differ_u(buf, n, "iodepth", a->iodepth, b->iodepth);
		differ_u(buf, n, "numjobs", a->numjobs, b->numjobs);
	}
	differ_s(buf, n, "ioengine", a->ioengine, b->ioengine);
	differ_u(buf, n, "direct", a->direct, b->direct);
	differ_s(buf, n, "random_distribution", a->dist, b->dist);
	if (!a->fixed_qd && !b->fixed_qd) { /* searches: the limit is the question */
		differ_fmt(buf, n, "latency_limit", a->lat_limit_ns, b->lat_limit_ns, numfmt_lat);
		differ_s(buf, n, "latency_stat", a->lat_stat, b->lat_stat);
	}
}

/* The run-to-run rules; false when neither side has 2 usable runs. */
static bool judge_runs(struct cmp_value *v, const struct cmp_value *a)
{
	double va = a->nr_runs >= 2 ? a->run_sd * a->run_sd / a->nr_runs : NAN;
	double vb = v->nr_runs >= 2 ? v->run_sd * v->run_sd / v->nr_runs : NAN;
	double se, df;

	if (isfinite(va) && isfinite(vb)) {
		v->rule = CMP_RULE_RUNS;
		se = sqrt(va + vb);
		df = se > 0 ? pow(se, 4) / (va * va / (a->nr_runs - 1) +
					    vb * vb / (v->nr_runs - 1))
			    : INFINITY;
	} else if (isfinite(va) || isfinite(vb)) {
		/* one side's spread stands for both: equal variances assumed */
		const struct cmp_value *rep = isfinite(va) ? a : v;
		v->rule = CMP_RULE_RUNS_ONE_SIDED;
		se = rep->run_sd * sqrt(1.0 / a->nr_runs + 1.0 / v->nr_runs);
		df = rep->nr_runs - 1;
	} else {
		return false;
	}
	v->floor_pct = COMPARE_MIN_EFFECT_PCT;
	if (a->value > 0)
		v->noise_pct = se > 0 ? compare_t975(df) * se / a->value * 100 : 0;
	return true;
}

static void judge_seconds(struct cmp_value *v, const struct cmp_value *a)
{
	v->rule = CMP_RULE_SECONDS;
	v->floor_pct = COMPARE_SINGLE_RUN_FLOOR_PCT;
	if (a->iv_n >= 2 && v->iv_n >= 2 && a->iv_mean > 0) {
		double se = sqrt(a->iv_sd * a->iv_sd / a->iv_n + v->iv_sd * v->iv_sd / v->iv_n);
		v->noise_pct = COMPARE_K * se / a->iv_mean * 100;
	}
}

/* Single runs with a per-second series too short for a spread (a run of
 * 1 s has one interval): no band, so unknown whatever the difference,
 * with a note saying why. false when the rule does not apply (no series
 * at all: fio's results, hosts, a mesh, which stay unknown without it). */
static bool judge_short(struct cmp_value *v, const struct cmp_value *a)
{
	if (v->nr_runs != 1 || a->nr_runs != 1 || !a->iv_n || !v->iv_n ||
	    (a->iv_n >= 2 && v->iv_n >= 2))
		return false;
	v->verdict = CMP_UNKNOWN;
	v->rule = CMP_RULE_NONE;
	snprintf(v->note, sizeof(v->note),
		 "runs shorter than %u s have no per-second spread", COMPARE_MIN_SECONDS);
	return true;
}

/* The verdict of a difference with a band (compare.h, "Verdicts"). */
enum cmp_verdict compare_decide(double diff_pct, double noise_pct, double floor_pct)
{
	if (!isfinite(diff_pct) || !isfinite(noise_pct))
		return CMP_UNKNOWN;
	if (fabs(diff_pct) > noise_pct && fabs(diff_pct) >= floor_pct)
		return CMP_SIGNIFICANT;
	/* not shown different: equal only when the band could have shown a
	 * difference of the floor; a wider band decides nothing */
	return noise_pct <= floor_pct ? CMP_WITHIN_NOISE : CMP_INCONCLUSIVE;
}

static void judge_value(struct cmp_value *v, const struct cmp_value *a)
{
	char why[CMP_REASON_MAX];

	if (v->verdict == CMP_NOT_COMPARABLE)
		return; /* its own runs differ: reason set while building */
	if (a->verdict == CMP_NOT_COMPARABLE) {
		v->verdict = CMP_NOT_COMPARABLE;
		snprintf(v->reason, sizeof(v->reason), "the reference's runs differ");
		return;
	}
	compare_params_differ(&a->params, &v->params, why, sizeof(why));
	if (why[0]) {
		v->verdict = CMP_NOT_COMPARABLE;
		snprintf(v->reason, sizeof(v->reason), "%s", why);
		return;
	}
	v->diff_pct = a->value != 0 ? (v->value - a->value) / a->value * 100 : NAN;
	if (!judge_runs(v, a))
		judge_seconds(v, a);
	if (!isfinite(v->noise_pct) && v->rule == CMP_RULE_SECONDS && judge_short(v, a))
		return;
	v->verdict = compare_decide(v->diff_pct, v->noise_pct, v->floor_pct);
	if (v->verdict == CMP_UNKNOWN)
		v->rule = CMP_RULE_NONE;
}

void compare_judge_row(struct cmp_row *row, unsigned nr_sides)
{
	int ref = -1;
	for (unsigned i = 0; i < nr_sides; i++) {
		struct cmp_value *v = &row->v[i];
		if (v->verdict == CMP_MISSING)
			continue;
		if (ref < 0) {
			ref = (int)i;
			if (v->verdict != CMP_NOT_COMPARABLE)
				v->verdict = CMP_REFERENCE;
			continue;
		}
		judge_value(v, &row->v[ref]);
	}
}
