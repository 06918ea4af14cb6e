/* compare_write.c - the compare table as text, JSON and CSV. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "output/json_writer.h"
#include "report/compare.h"
#include "report/numfmt.h"
#include "util/csv.h"

static char *value_str(char *buf, const struct cmp_row *r, double v)
{
	char t[NUMFMT_MAX];
	if (r->net) {
		snprintf(buf, NUMFMT_MAX, "%.3f Gbit/s", v / 1e9);
		return buf;
	}
	if (!r->iops)
		return numfmt_bw(buf, v);
	snprintf(buf, NUMFMT_MAX, "%s IOPS", numfmt_iops(t, v));
	return buf;
}

int compare_write_text(const struct cmp_table *t, FILE *f)
{
	char a[NUMFMT_MAX], b[NUMFMT_MAX], c[NUMFMT_MAX], d[NUMFMT_MAX];

	fprintf(f, "sets:");
	for (unsigned i = 0; i < t->nr_sets; i++)
		fprintf(f, " %s=%s%s", t->sets[i].name, t->sets[i].path,
			i ? "" : " (reference)");
	fprintf(f, "\nnoise: %.0f x the combined standard error of the per-second IOPS",
		COMPARE_K);
	for (unsigned r = 0; r < t->nr_rows; r++)
		if (t->rows[r].net) {
			fputs(" (net: of the per-interval throughput)", f);
			break;
		}
	for (unsigned r = 0; r < t->nr_rows; r++)
		if (t->rows[r].host) {
			fputs(" (@ HOST rows: one host's total, no series: plain ratio)", f);
			break;
		}
	fputs("\n\n", f);
	fprintf(f, "%-34s %-16s %16s %11s %8s %9s %9s  %s\n", "workload", "set", "value",
		"latency", "QDxjobs", "diff", "noise", "verdict");
	if (!t->nr_rows)
		fputs("(no workload with figures in any set: precondition steps or unfinished ones)\n", f);
	for (unsigned r = 0; r < t->nr_rows; r++) {
		const struct cmp_row *row = &t->rows[r];
		for (unsigned i = 0; i < t->nr_sets; i++) {
			const struct cmp_value *v = &row->v[i];
			if (i)
				fprintf(f, "%-34s ", "");
			else if (row->host)
				fprintf(f, "  @ %-30.30s ", row->host);
			else
				fprintf(f, "%-34.34s ", row->key);
			fprintf(f, "%-16.16s ", t->sets[i].name);
			if (v->verdict == CMP_MISSING) {
				fprintf(f, "%16s %11s %8s %9s %9s  %s\n", "-", "-", "-", "-", "-",
					"missing");
				continue;
			}
			char qd[32], retr[48] = "";
			if (row->net) {
				snprintf(qd, sizeof(qd), "P%u", v->streams);
				if (v->retransmits >= 0)
					snprintf(retr, sizeof(retr), "  retransmits %lld",
						 (long long)v->retransmits);
				else
					snprintf(retr, sizeof(retr), "  retransmits -");
			} else {
				snprintf(qd, sizeof(qd), "%ux%u", v->iodepth, v->numjobs);
			}
			snprintf(d, sizeof(d), "\xc2\xb1%.1f %%", v->noise_pct);
			fprintf(f, "%16s %11s %8s %9s %10s  %s%s\n",
				v->lost ? "lost" : value_str(a, row, v->value),
				row->net ? "-" : numfmt_lat(b, v->lat_ns), qd,
				v->verdict == CMP_REFERENCE ? "" : numfmt_pct(c, v->diff_pct),
				isfinite(v->noise_pct) ? d : "-", cmp_verdict_name(v->verdict),
				retr);
		}
	}
	unsigned only = 0;
	for (unsigned r = 0; r < t->nr_rows; r++) {
		unsigned have = 0, last = 0;
		for (unsigned i = 0; i < t->nr_sets; i++)
			if (t->rows[r].v[i].verdict != CMP_MISSING) {
				have++;
				last = i;
			}
		if (have == 1 && t->nr_sets > 1) {
			fprintf(f, "%s%s only in %s", only++ ? "; " : "\n", t->rows[r].key,
				t->sets[last].name);
		}
	}
	if (only)
		fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

static const char *metric(const struct cmp_row *row)
{
	if (row->net)
		return "bits_per_second";
	return row->iops ? "iops" : "bw_bytes";
}

int compare_write_json(const struct cmp_table *t, FILE *f)
{
	struct jw w;
	jw_init(&w, f, 2);
	jw_object_begin(&w);
	jw_kv_string(&w, "iochar_version", IOCHAR_VERSION);
	jw_kv_double(&w, "noise_k", COMPARE_K);
	jw_key(&w, "sets");
	jw_array_begin(&w);
	for (unsigned i = 0; i < t->nr_sets; i++) {
		jw_object_begin(&w);
		jw_kv_string(&w, "name", t->sets[i].name);
		jw_kv_string(&w, "path", t->sets[i].path);
		jw_object_end(&w);
	}
	jw_array_end(&w);
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
		for (unsigned i = 0; i < t->nr_sets; i++) {
			const struct cmp_value *v = &row->v[i];
			jw_object_begin(&w);
			jw_kv_string(&w, "set", t->sets[i].name);
			jw_kv_string(&w, "verdict", cmp_verdict_name(v->verdict));
			if (v->verdict != CMP_MISSING && row->net) {
				jw_kv_double(&w, "value", v->value);
				jw_kv_uint(&w, "streams", v->streams);
				jw_kv_int(&w, "retransmits", v->retransmits);
				jw_kv_uint(&w, "intervals", v->iv_n);
				jw_kv_double(&w, "interval_bps_mean", v->iv_mean);
				jw_kv_double(&w, "interval_bps_stdev", v->iv_sd);
				jw_kv_double(&w, "diff_pct", v->diff_pct);
				jw_kv_double(&w, "noise_pct", v->noise_pct);
			} else if (v->verdict != CMP_MISSING) {
				jw_kv_double(&w, "value", v->value);
				if (row->host)
					jw_kv_bool(&w, "lost", v->lost);
				jw_kv_double(&w, "latency_ns", v->lat_ns);
				jw_kv_double(&w, "p99_ns", v->p99_ns);
				jw_kv_uint(&w, "iodepth", v->iodepth);
				jw_kv_uint(&w, "numjobs", v->numjobs);
				jw_kv_uint(&w, "intervals", v->iv_n);
				jw_kv_double(&w, "interval_iops_mean", v->iv_mean);
				jw_kv_double(&w, "interval_iops_stdev", v->iv_sd);
				jw_kv_double(&w, "diff_pct", v->diff_pct);
				jw_kv_double(&w, "noise_pct", v->noise_pct);
			}
			jw_object_end(&w);
		}
		jw_array_end(&w);
		jw_object_end(&w);
	}
	jw_array_end(&w);
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

int compare_write_csv(const struct cmp_table *t, FILE *f)
{
	/* the retransmits column only when there are network rows, so disk
	 * comparisons keep their columns */
	bool net = false;
	for (unsigned r = 0; r < t->nr_rows; r++)
		net |= t->rows[r].net;
	fputs("workload,set,metric,value,latency_stat,latency_ns,p99_ns,iodepth,numjobs,"
	      "intervals,diff_pct,noise_pct,verdict", f);
	fputs(net ? ",retransmits\n" : "\n", f);
	for (unsigned r = 0; r < t->nr_rows; r++) {
		const struct cmp_row *row = &t->rows[r];
		for (unsigned i = 0; i < t->nr_sets; i++) {
			const struct cmp_value *v = &row->v[i];
			bool m = v->verdict == CMP_MISSING;
			csv_field(f, row->key);
			fputc(',', f);
			csv_field(f, t->sets[i].name);
			fprintf(f, ",%s", metric(row));
			csv_num(f, m ? NAN : v->value);
			fprintf(f, ",%s", row->lat_stat);
			csv_num(f, m ? NAN : v->lat_ns);
			csv_num(f, m ? NAN : v->p99_ns);
			if (m)
				fputs(",,,", f);
			else if (row->net)
				fprintf(f, ",,%u,%u", v->streams, v->iv_n);
			else
				fprintf(f, ",%u,%u,%u", v->iodepth, v->numjobs, v->iv_n);
			csv_num(f, v->diff_pct);
			csv_num(f, v->noise_pct);
			fprintf(f, ",%s", cmp_verdict_name(v->verdict));
			if (net)
				fputc(',', f);
			if (row->net && !m && v->retransmits >= 0)
				fprintf(f, "%lld", (long long)v->retransmits);
			fputc('\n', f);
		}
	}
	return ferror(f) ? -EIO : 0;
}
