/* compare_write.c - the compare table as text, JSON and CSV. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "base/json_writer.h"
#include "report/compare.h"
#include "report/numfmt.h"
#include "util/csv.h"
#include "util/text_width.h"

char *compare_value_text(char *buf, const struct cmp_row *r, double v)
{
	char t[NUMFMT_MAX];
	if (r->app == CMP_APP_TPS) {
		snprintf(buf, NUMFMT_MAX, "%.1f TPS", v);
		return buf;
	}
	if (r->app == CMP_APP_P99) {
		snprintf(buf, NUMFMT_MAX, "p99 %s", numfmt_lat(t, v));
		return buf;
	}
	if (r->net) {
		snprintf(buf, NUMFMT_MAX, "%.3f Gbit/s", v / 1e9);
		return buf;
	}
	if (!r->iops)
		return numfmt_bw(buf, v);
	snprintf(buf, NUMFMT_MAX, "%s IOPS", numfmt_iops(t, v));
	return buf;
}

static bool any_rule(const struct cmp_table *t, enum cmp_rule a, enum cmp_rule b)
{
	for (unsigned r = 0; r < t->nr_rows; r++)
		for (unsigned i = 0; i < t->nr_sets; i++)
			if (t->rows[r].v[i].rule == a || t->rows[r].v[i].rule == b)
				return true;
	return false;
}

/* Was any value judged as single runs too short for a spread? */
static bool any_short(const struct cmp_table *t)
{
	for (unsigned r = 0; r < t->nr_rows; r++)
		for (unsigned i = 0; i < t->nr_sets; i++)
			if (t->rows[r].v[i].verdict != CMP_NOT_COMPARABLE && t->rows[r].v[i].note[0])
				return true;
	return false;
}

const char *compare_single_run_note(const struct cmp_table *t)
{
	for (unsigned r = 0; r < t->nr_rows; r++)
		for (unsigned i = 0; i < t->nr_sets; i++) {
			const struct cmp_value *v = &t->rows[r].v[i];
			if (v->rule == CMP_RULE_SECONDS ||
			    (v->verdict == CMP_UNKNOWN && v->nr_runs == 1))
				return "single run: run-to-run drift not measured (repeat the runs: "
				       "A1 A2 A3 -- B1 B2 B3)";
		}
	return "";
}

/* The note every single run's verdict carries (cmp_value_note's), said
 * once in the table's header, not on each row. */
static bool single_run_note(const struct cmp_value *v)
{
	static const struct cmp_value single = {.verdict = CMP_WITHIN_NOISE,
						.rule = CMP_RULE_SECONDS, .nr_runs = 1};
	const char *note = cmp_value_note(v);
	return *note && !strcmp(note, cmp_value_note(&single));
}

static bool any_single_run_note(const struct cmp_table *t)
{
	for (unsigned r = 0; r < t->nr_rows; r++)
		for (unsigned i = 0; i < t->nr_sets; i++)
			if (t->rows[r].v[i].verdict != CMP_MISSING &&
			    single_run_note(&t->rows[r].v[i]))
				return true;
	return false;
}

size_t compare_name_cols(const struct cmp_table *t)
{
	size_t w = 3; /* "set" */
	for (unsigned i = 0; i < t->nr_sets; i++)
		if (text_width(t->sides[i].name) > w)
			w = text_width(t->sides[i].name);
	return w;
}

/* Is any set fio's results (no per-second series)? */
static bool any_fio(const struct cmp_table *t)
{
	for (unsigned i = 0; i < t->nr_sets; i++)
		for (unsigned k = 0; k < t->sides[i].nr_runs; k++)
			if (t->sides[i].sets[k].fio_version)
				return true;
	return false;
}

/* The sides and the rules the verdicts below use. */
static void text_header(const struct cmp_table *t, FILE *f)
{
	bool repeats = false;
	fprintf(f, "sets:");
	for (unsigned i = 0; i < t->nr_sets; i++) {
		const struct cmp_side *s = &t->sides[i];
		fprintf(f, " %s=", s->name);
		for (unsigned k = 0; k < s->nr_runs; k++)
			fprintf(f, "%s%s", k ? "," : "", s->sets[k].path);
		if (s->nr_runs > 1)
			fprintf(f, " (%s%u runs)", i ? "" : "reference, ", s->nr_runs);
		else if (!i)
			fputs(" (reference)", f);
		repeats |= s->nr_runs > 1;
	}
	if (repeats || any_rule(t, CMP_RULE_RUNS, CMP_RULE_RUNS_ONE_SIDED))
		fprintf(f, "\nnoise, repeated runs: the 95 %% interval of the difference of the "
			   "run means (Welch's t), and at least %.0f %% to be significant",
			COMPARE_MIN_EFFECT_PCT);
	if (!repeats || any_rule(t, CMP_RULE_SECONDS, CMP_RULE_SECONDS) ||
	    any_single_run_note(t)) {
		fprintf(f, "\nnoise, single runs: %.0f x the combined standard error of the "
			   "per-second IOPS", COMPARE_K);
		for (unsigned r = 0; r < t->nr_rows; r++)
			if (t->rows[r].net) {
				fputs(" (net: of the per-interval throughput)", f);
				break;
			}
		for (unsigned r = 0; r < t->nr_rows; r++)
			if (t->rows[r].app) {
				fputs(" (application runs: of the benchmark's per-second TPS "
				      "or p99)", f);
				break;
			}
		fprintf(f, ", and at least %.0f %% to be significant", COMPARE_SINGLE_RUN_FLOOR_PCT);
	}
	fprintf(f, "\nverdicts: significant (the band excludes 0 and the difference reaches "
		   "the floor), within noise (decided equal: a band no wider than the floor), "
		   "inconclusive (a band too wide to decide), unknown (no band)");
	if (*compare_single_run_note(t))
		fprintf(f, "\n%s", compare_single_run_note(t));
	if (any_short(t))
		fprintf(f, "\nruns under %u s: one per-second interval, no spread: unknown "
			   "(run %u s or more, or repeat the runs)",
			COMPARE_MIN_SECONDS, COMPARE_MIN_SECONDS);
	if (any_fio(t))
		fputs("\nfio's results: fio's JSON has no per-second series, so a single fio run "
		      "gives no noise estimate (verdict unknown); repeat the runs", f);
	for (unsigned r = 0; r < t->nr_rows; r++)
		if (t->rows[r].host) {
			fputs("\n@ HOST rows: one host's total, no series: single runs give the "
			      "plain ratio", f);
			break;
		}
	fputs("\n\n", f);
	fprintf(f, "%-34s ", "workload");
	text_pad(f, "set", compare_name_cols(t), 1);
	fprintf(f, " %16s %11s %8s %4s %9s %9s  %s\n", "value", "latency", "QDxjobs", "runs",
		"diff", "noise", "verdict");
}

/* s right-aligned in cols columns and a space, whatever its bytes (µs, ±, –) */
static void cell(FILE *f, const char *s, size_t cols)
{
	text_pad(f, s, cols, 0);
	fputc(' ', f);
}

static void text_value(const struct cmp_row *row, unsigned i, FILE *f)
{
	char a[NUMFMT_MAX], b[NUMFMT_MAX], c[NUMFMT_MAX], d[NUMFMT_MAX];
	const struct cmp_value *v = &row->v[i];
	char qd[32], retr[48] = "", runs[16];

	if (v->verdict == CMP_MISSING) {
		fprintf(f, "%16s %11s %8s %4s %9s %9s  %s\n", "-", "-", "-", "-", "-", "-",
			"missing");
		return;
	}
	/* the single-run note is the header's, said once */
	const char *note = single_run_note(v) ? "" : cmp_value_note(v);
	if (row->net) {
		snprintf(qd, sizeof(qd), "P%u", v->streams);
		if (v->retransmits >= 0)
			snprintf(retr, sizeof(retr), "  retransmits %lld", (long long)v->retransmits);
		else
			snprintf(retr, sizeof(retr), "  retransmits -");
	} else if (row->app) {
		snprintf(qd, sizeof(qd), "T%u", v->numjobs);
	} else {
		snprintf(qd, sizeof(qd), "%ux%u", v->iodepth, v->numjobs);
	}
	snprintf(runs, sizeof(runs), "%u", v->nr_runs);
	snprintf(d, sizeof(d), "\xc2\xb1%.1f %%", v->noise_pct);
	bool ref = v->verdict == CMP_REFERENCE;
	cell(f, v->lost ? "lost" : compare_value_text(a, row, v->value), 16);
	cell(f, row->net ? "-" : numfmt_lat(b, v->lat_ns), 11);
	cell(f, qd, 8);
	cell(f, runs, 4);
	cell(f, ref || !isfinite(v->diff_pct) ? "" : numfmt_pct(c, v->diff_pct), 9);
	text_pad(f, isfinite(v->noise_pct) ? d : "-", 9, 0);
	fprintf(f, "  %s%s%s%s%s\n", cmp_verdict_name(v->verdict), retr, *note ? "  (" : "",
		note, *note ? ")" : "");
}

/* The workloads one side alone has, and those not comparable. */
static void text_footer(const struct cmp_table *t, FILE *f)
{
	unsigned only = 0, nc = 0;
	for (unsigned r = 0; r < t->nr_rows; r++) {
		unsigned have = 0, last = 0;
		for (unsigned i = 0; i < t->nr_sets; i++)
			if (t->rows[r].v[i].verdict != CMP_MISSING) {
				have++;
				last = i;
			}
		if (have == 1 && t->nr_sets > 1)
			fprintf(f, "%s%s only in %s", only++ ? "; " : "\n", t->rows[r].key,
				t->sides[last].name);
	}
	if (only)
		fputc('\n', f);
	for (unsigned r = 0; r < t->nr_rows; r++)
		for (unsigned i = 0; i < t->nr_sets; i++)
			if (t->rows[r].v[i].verdict == CMP_NOT_COMPARABLE)
				nc += fprintf(f, "\nnot comparable: %s in %s (%s)",
					      t->rows[r].key, t->sides[i].name, t->rows[r].v[i].reason) > 0;
	if (nc)
		fputc('\n', f);
}

int compare_write_text(const struct cmp_table *t, FILE *f)
{
	size_t names = compare_name_cols(t);
	text_header(t, f);
	if (!t->nr_rows)
		fputs("(no workload with figures in any set: precondition steps or unfinished ones)\n", f);
	for (unsigned r = 0; r < t->nr_rows; r++) {
		const struct cmp_row *row = &t->rows[r];
		for (unsigned i = 0; i < t->nr_sets; i++) {
			if (i)
				fprintf(f, "%-34s ", "");
			else if (row->host)
				fprintf(f, "  @ %-30.30s ", row->host);
			else
				fprintf(f, "%-34.34s ", row->key);
			text_pad(f, t->sides[i].name, names, 1);
			fputc(' ', f);
			text_value(row, i, f);
		}
	}
	text_footer(t, f);
	compare_pred_write_text(t, f);
	return ferror(f) ? -EIO : 0;
}

static const char *metric(const struct cmp_row *row)
{
	if (row->net)
		return "bits_per_second";
	if (row->app)
		return row->app == CMP_APP_TPS ? "tps" : "p99_ns";
	return row->iops ? "iops" : "bw_bytes";
}

/* What every value that is not missing carries about its verdict; kind
 * names its series: 0 IOPS (disk), 1 bits/s (net), 2 the value's own
 * (an application run's TPS or p99). */
static void json_verdict_fields(struct jw *w, const struct cmp_value *v, unsigned kind)
{
	jw_kv_uint(w, "runs", v->nr_runs);
	jw_key(w, "run_values");
	jw_array_begin(w);
	for (unsigned k = 0; k < v->nr_runs; k++)
		jw_double(w, v->runs[k].value);
	jw_array_end(w);
	jw_kv_double(w, "run_stdev", v->run_sd);
	jw_key(w, "intervals");
	if (v->nr_runs <= 1) /* the series only stands for a single run */
		jw_uint(w, v->iv_n);
	else
		jw_null(w);
	const char *ivk[3][2] = {{"interval_iops_mean", "interval_iops_stdev"},
				 {"interval_bps_mean", "interval_bps_stdev"},
				 {"interval_mean", "interval_stdev"}};
	jw_kv_double(w, ivk[kind][0], v->nr_runs <= 1 ? v->iv_mean : NAN);
	jw_kv_double(w, ivk[kind][1], v->nr_runs <= 1 ? v->iv_sd : NAN);
	jw_kv_double(w, "diff_pct", v->diff_pct);
	jw_kv_double(w, "noise_pct", v->noise_pct);
	jw_kv_double(w, "floor_pct", v->floor_pct);
	jw_key(w, "rule");
	if (v->rule == CMP_RULE_NONE)
		jw_null(w);
	else
		jw_string(w, cmp_rule_name(v->rule));
	jw_kv_string(w, "note", cmp_value_note(v));
}

static void json_value(struct jw *w, const struct cmp_table *t, const struct cmp_row *row,
		       unsigned i)
{
	const struct cmp_value *v = &row->v[i];
	jw_object_begin(w);
	jw_kv_string(w, "set", t->sides[i].name);
	jw_kv_string(w, "verdict", cmp_verdict_name(v->verdict));
	if (v->verdict == CMP_NOT_COMPARABLE)
		jw_kv_string(w, "reason", v->reason);
	if (v->verdict != CMP_MISSING && row->net) {
		jw_kv_double(w, "value", v->value);
		jw_kv_uint(w, "streams", v->streams);
		jw_kv_int(w, "retransmits", v->retransmits);
		json_verdict_fields(w, v, row->net);
	} else if (v->verdict != CMP_MISSING && row->app) {
		jw_kv_double(w, "value", v->value);
		jw_kv_uint(w, "threads", v->numjobs);
		jw_kv_double(w, "lat_avg_ns", v->lat_ns);
		jw_kv_double(w, "p99_ns", v->p99_ns);
		json_verdict_fields(w, v, 2);
	} else if (v->verdict != CMP_MISSING) {
		jw_kv_double(w, "value", v->value);
		if (row->host)
			jw_kv_bool(w, "lost", v->lost);
		jw_kv_double(w, "latency_ns", v->lat_ns);
		jw_kv_double(w, "p99_ns", v->p99_ns);
		jw_kv_uint(w, "iodepth", v->iodepth);
		jw_kv_uint(w, "numjobs", v->numjobs);
		json_verdict_fields(w, v, row->net);
	}
	jw_object_end(w);
}

static void json_sides(struct jw *w, const struct cmp_table *t)
{
	jw_key(w, "sets");
	jw_array_begin(w);
	for (unsigned i = 0; i < t->nr_sets; i++) {
		const struct cmp_side *s = &t->sides[i];
		jw_object_begin(w);
		jw_kv_string(w, "name", s->name);
		jw_kv_string(w, "path", s->sets[0].path);
		jw_key(w, "runs");
		jw_array_begin(w);
		for (unsigned k = 0; k < s->nr_runs; k++)
			jw_string(w, s->sets[k].path);
		jw_array_end(w);
		jw_object_end(w);
	}
	jw_array_end(w);
}

int compare_write_json(const struct cmp_table *t, FILE *f)
{
	struct jw w;
	jw_init(&w, f, 2);
	jw_object_begin(&w);
	jw_kv_string(&w, "iochar_version", IOCHAR_VERSION);
	jw_kv_double(&w, "noise_k", COMPARE_K);
	jw_kv_double(&w, "min_effect_pct", COMPARE_MIN_EFFECT_PCT);
	jw_kv_double(&w, "single_run_floor_pct", COMPARE_SINGLE_RUN_FLOOR_PCT);
	json_sides(&w, t);
	jw_kv_string(&w, "single_run_note", compare_single_run_note(t));
	jw_key(&w, "workloads");
	jw_array_begin(&w);
	for (unsigned r = 0; r < t->nr_rows; r++) {
		const struct cmp_row *row = &t->rows[r];
		jw_object_begin(&w);
		jw_kv_string(&w, "workload", row->key);
		if (row->host)
			jw_kv_string(&w, "host", row->host);
		jw_kv_string(&w, "metric", metric(row));
		jw_kv_string(&w, "latency_stat", row->lat_stat);
		jw_key(&w, "values");
		jw_array_begin(&w);
		for (unsigned i = 0; i < t->nr_sets; i++)
			json_value(&w, t, row, i);
		jw_array_end(&w);
		jw_object_end(&w);
	}
	jw_array_end(&w);
	compare_pred_write_json(t, &w);
	jw_object_end(&w);
	return jw_finish(&w);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, ",%.3f", v);
	else
		fputc(',', f);
}

static void csv_value(FILE *f, const struct cmp_table *t, unsigned r, unsigned i, bool net)
{
	const struct cmp_row *row = &t->rows[r];
	const struct cmp_value *v = &row->v[i];
	bool m = v->verdict == CMP_MISSING;
	csv_field(f, row->key);
	fputc(',', f);
	csv_field(f, t->sides[i].name);
	fprintf(f, ",%s", metric(row));
	csv_num(f, m ? NAN : v->value);
	fprintf(f, ",%s", row->lat_stat);
	csv_num(f, m ? NAN : v->lat_ns);
	csv_num(f, m ? NAN : v->p99_ns);
	if (m)
		fputs(",,,", f);
	else if (row->net)
		fprintf(f, ",,%u,", v->streams);
	else if (row->app) /* the thread count is in the workload's name */
		fputs(",,,", f);
	else
		fprintf(f, ",%u,%u,", v->iodepth, v->numjobs);
	if (!m && v->nr_runs <= 1)
		fprintf(f, "%u", v->iv_n);
	csv_num(f, v->diff_pct);
	csv_num(f, v->noise_pct);
	fputc(',', f);
	if (!m)
		fprintf(f, "%u", v->nr_runs);
	csv_num(f, v->run_sd);
	csv_num(f, v->floor_pct);
	fputc(',', f);
	csv_field(f, cmp_rule_name(v->rule)); /* "runs, one side's spread" */
	fputc(',', f);
	csv_field(f, cmp_value_note(v));
	fprintf(f, ",%s", cmp_verdict_name(v->verdict));
	if (net)
		fputc(',', f);
	if (row->net && !m && v->retransmits >= 0)
		fprintf(f, "%lld", (long long)v->retransmits);
	compare_pred_csv_fields(t, r, i, f);
	fputc('\n', f);
}

int compare_write_csv(const struct cmp_table *t, FILE *f)
{
	/* the retransmits column only when there are network rows, so disk
	 * comparisons keep their columns; verdict stays the last of the others */
	bool net = false;
	for (unsigned r = 0; r < t->nr_rows; r++)
		net |= t->rows[r].net;
	fputs("workload,set,metric,value,latency_stat,latency_ns,p99_ns,iodepth,numjobs,"
	      "intervals,diff_pct,noise_pct,runs,run_stdev,floor_pct,rule,note,verdict", f);
	if (net)
		fputs(",retransmits", f);
	compare_pred_csv_header(t, f); /* --predicted: the model's columns last */
	fputc('\n', f);
	for (unsigned r = 0; r < t->nr_rows; r++)
		for (unsigned i = 0; i < t->nr_sets; i++)
			csv_value(f, t, r, i, net);
	return ferror(f) ? -EIO : 0;
}
