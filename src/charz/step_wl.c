/* step_wl.c - a multi-workload step's rows (charz/workloads.h): each
 * workload's figures in the step's JSON ("per_workload"), results.csv
 * (target "workload NAME") and the summary table, under the point's total.
 * A workload's verdict is its judged latency against the step's limit. */
#include <stdio.h>
#include <string.h>

#include "charz/outcome.h"
#include "output/json_parts.h"
#include "util/csv.h"

static const char *const stat_keys[3] = {"mean", "p99", "p99.9"};

void step_wl_json(struct jw *w, const struct measure_call *c)
{
	if (!c || !c->nr_wl)
		return;
	jw_key(w, "per_workload");
	jw_array_begin(w);
	for (unsigned k = 0; k < c->nr_wl; k++) {
		const struct wl_figures *f = &c->per_wl[k];
		jw_object_begin(w);
		jw_kv_string(w, "workload", f->name);
		jw_kv_string(w, "rw", rw_name(f->job->rw));
		jw_kv_uint(w, "bs", f->job->bs);
		jw_kv_string(w, "latency_judge", wl_judge_name(f->judge));
		jw_kv_bool(w, "judged", f->judged);
		if (f->judged) {
			jw_key(w, "judged_lat_ns");
			jw_object_begin(w);
			for (int s = 0; s < 3; s++)
				jw_kv_double(w, stat_keys[s], f->judged_ns[s]);
			jw_object_end(w);
		}
		jw_key(w, "sync"); /* the flushes, as fio's "sync" */
		jw_object_begin(w);
		jw_kv_uint(w, "total_ios", f->sync_ios);
		jw_kv_double(w, "lat_mean_ns", f->sync_mean_ns);
		jw_kv_double(w, "lat_p99_ns", f->sync_p99_ns);
		jw_object_end(w);
		jw_kv_double(w, "iops", f->s.total.iops);
		jw_kv_double(w, "bw_bytes", f->s.total.bw_bytes);
		json_emit_dir(w, "read", &f->s.dir[DIR_READ]);
		json_emit_dir(w, "write", &f->s.dir[DIR_WRITE]);
		json_emit_dir(w, "total", &f->s.total);
		jw_object_end(w);
	}
	jw_array_end(w);
}

/* "yes"/"no" against the step's limit, "" when not judged or no limit. */
static const char *wl_met(const struct plan_step *st, const struct wl_figures *f)
{
	if (!st->latency_limit_ns || !f->judged)
		return "";
	return f->judged_ns[st->latency_stat] <= (double)st->latency_limit_ns ? "yes" : "no";
}

static unsigned wl_read_pct(const struct job_spec *j)
{
	if (rw_is_mixed(j->rw))
		return j->rwmixread;
	return rw_reads(j->rw) ? 100 : 0;
}

/* The depth a workload ran at: the point's for the first (a search's
 * choice), its own for the others. */
static void wl_depth(const struct point *p, unsigned k, const struct job_spec *j,
		     unsigned *qd, unsigned *nj)
{
	*qd = k ? j->iodepth : p->iodepth;
	*nj = k ? j->numjobs : p->numjobs;
}

void step_wl_csv(FILE *f, const struct step_outcome *o, const char *point,
		 const struct point *p, const struct measure_call *c, const char *reached,
		 unsigned after_unsteady)
{
	const struct plan_step *st = o->step;
	char tgt[96];
	for (unsigned k = 0; c && k < c->nr_wl; k++) {
		const struct wl_figures *w = &c->per_wl[k];
		const struct dir_summary *d = &w->s.total;
		unsigned qd, nj;
		wl_depth(p, k, w->job, &qd, &nj);
		snprintf(tgt, sizeof(tgt), "workload %s", w->name);
		fprintf(f, "%u,", o->index);
		csv_field(f, st->label);
		fprintf(f, ",%s,%s,", step_mode_name(st->mode), point);
		csv_field(f, tgt);
		fprintf(f, ",%s,%llu,%u,%u,%u,%.1f,%.3f,%.1f,%.1f,%.1f,", rw_name(w->job->rw),
			(unsigned long long)w->job->bs, wl_read_pct(w->job), qd, nj, d->iops,
			d->bw_bytes / 1e6, d->lat.mean / 1e3, (double)d->lat.pct[PCT_P99] / 1e3,
			(double)d->lat.pct[PCT_P99_9] / 1e3);
		if (st->latency_limit_ns)
			fprintf(f, "%.1f,%s,", (double)st->latency_limit_ns / 1e3, wl_met(st, w));
		else
			fputs(",,", f);
		step_csv_dir_lats(f, &w->s);
		fprintf(f, "judge=%s,%s,%s,,", wl_judge_name(w->judge), reached ? reached : "",
			p->tool_limited ? "yes" : "no");
		step_csv_lag_cols(f, d, after_unsteady);
	}
}

static void lat_text(char *buf, size_t len, const struct dir_summary *d, enum lat_stat s)
{
	double ns = s == LAT_STAT_P99	  ? (double)d->lat.pct[PCT_P99]
		    : s == LAT_STAT_P99_9 ? (double)d->lat.pct[PCT_P99_9]
					  : d->lat.mean;
	if (!d->ios)
		snprintf(buf, len, "-");
	else if (ns >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.0f us", ns / 1e3);
}

void step_wl_table(FILE *f, const struct step_outcome *o, const struct point *p,
		   const struct measure_call *c)
{
	const struct plan_step *st = o->step;
	char name[96], rd[24], wr[24], p99[24], bs[24];
	for (unsigned k = 0; p && c && k < c->nr_wl; k++) {
		const struct wl_figures *w = &c->per_wl[k];
		const char *met = wl_met(st, w);
		unsigned qd, nj;
		char verdict[96], commit[24];
		wl_depth(p, k, w->job, &qd, &nj);
		snprintf(verdict, sizeof(verdict), "%s",
			 met[0] == 'y' ? "met" : met[0] == 'n' ? "missed" : w->judged ? "" : "not judged");
		if (w->sync_ios && w->judged && w->judge != WL_JUDGE_READ) {
			double cl = w->judged_ns[st->latency_stat];
			snprintf(commit, sizeof(commit), cl >= 1e6 ? "%.2f ms" : "%.0f us",
				 cl >= 1e6 ? cl / 1e6 : cl / 1e3);
			snprintf(verdict + strlen(verdict), sizeof(verdict) - strlen(verdict),
				 " (write + fdatasync %s)", commit);
		}
		snprintf(name, sizeof(name), "  + %s (judge %s)", w->name,
			 wl_judge_name(w->judge));
		if (w->job->bssplit[DIR_READ].nr || w->job->bssplit[DIR_WRITE].nr)
			snprintf(bs, sizeof(bs), "mix");
		else if (w->job->bs % 1024)
			snprintf(bs, sizeof(bs), "%llu", (unsigned long long)w->job->bs);
		else
			snprintf(bs, sizeof(bs), "%lluK", (unsigned long long)(w->job->bs >> 10));
		lat_text(rd, sizeof(rd), &w->s.dir[DIR_READ], st->latency_stat);
		lat_text(wr, sizeof(wr), &w->s.dir[DIR_WRITE], st->latency_stat);
		lat_text(p99, sizeof(p99), &w->s.total, LAT_STAT_P99);
		fprintf(f, "%-34.34s %-7s %5s %5u %6u %8u %10.0f %9.1f %9s %9s %9s %s\n", name,
			"", bs, wl_read_pct(w->job), qd, nj,
			w->s.total.iops, w->s.total.bw_bytes / 1e6, rd, wr, p99, verdict);
	}
}
