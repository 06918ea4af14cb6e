/* step_rows.c - a step's rows in results.csv (one per target and point,
 * plus a "total" row for several targets at once) and in the summary table
 * printed at the end of a plan, in the papers' form. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "charz/outcome.h"
#include "util/csv.h"

const char step_csv_header[] =
	"step,label,mode,point,target,rw,bs,read_pct,iodepth,numjobs,"
	"iops,mb_s,lat_mean_us,lat_p99_us,lat_p99_9_us,limit_us,limit_met\n";

static unsigned read_pct(const struct job_spec *j)
{
	if (rw_is_mixed(j->rw))
		return j->rwmixread;
	return rw_reads(j->rw) ? 100 : 0;
}

static void csv_row(FILE *f, const struct step_outcome *o, const char *point,
		    const char *target, const struct point *p,
		    const struct dir_summary *d)
{
	const struct plan_step *st = o->step;
	const struct job_spec *j = &st->job;
	double lim = (double)st->latency_limit_ns / 1e3;
	double lat = point_latency(p, st->latency_stat);
	fprintf(f, "%u,", o->index);
	csv_field(f, st->label);
	fprintf(f, ",%s,%s,", step_mode_name(st->mode), point);
	csv_field(f, target);
	fprintf(f, ",%s,%llu,%u,%u,%u,%.1f,%.3f,%.1f,%.1f,%.1f,", rw_name(j->rw),
		(unsigned long long)j->bs, read_pct(j), p->iodepth, p->numjobs,
		d->iops, d->bw_bytes / 1e6, d->lat.mean / 1e3,
		(double)d->lat.pct[PCT_P99] / 1e3, (double)d->lat.pct[PCT_P99_9] / 1e3);
	if (st->latency_limit_ns)
		fprintf(f, "%.1f,%s\n", lim, lat <= (double)st->latency_limit_ns ? "yes" : "no");
	else
		fputs(",\n", f);
}

/* Rows of one point: each target's own, then the total when several. */
static void csv_point(FILE *f, const struct step_outcome *o,
		      const struct set_outcome *s, const char *label,
		      const struct point *p, unsigned call)
{
	const struct measure_call *c = call < s->mctx.nr_calls ? &s->mctx.calls[call] : NULL;
	unsigned n = c && c->vd_labels ? c->nr_vds : s->nr_targets;
	if (c)
		for (unsigned t = 0; t < n; t++)
			csv_row(f, o, label, c->vd_labels ? c->vd_labels[t] : s->targets[t], p,
				&c->per_target[t]);
	if (!c || n != 1) {
		char all[32];
		if (n)
			snprintf(all, sizeof(all), "total of %u", n);
		else
			snprintf(all, sizeof(all), "(no target)");
		csv_row(f, o, label, all, p, &p->s.total);
	}
}

int step_csv_write(const struct step_outcome *o, FILE *f)
{
	char label[32];
	for (unsigned i = 0; i < o->nr_sets; i++) {
		const struct set_outcome *s = &o->sets[i];
		switch (o->step->mode) {
		case STEP_FIXED:
			if (s->done)
				csv_point(f, o, s, "fixed", &s->fixed, 0);
			break;
		case STEP_SEARCH:
			if (s->search.found)
				csv_point(f, o, s, "best", &s->search.points[s->search.best],
					  s->search.best);
			break;
		case STEP_CURVE:
			if (s->curve.max.elapsed_ns)
				csv_point(f, o, s, "max", &s->curve.max, 0);
			for (unsigned k = 0; k < s->curve.nr_points; k++) {
				snprintf(label, sizeof(label), "%u%%", s->curve.points[k].pct);
				csv_point(f, o, s, label, &s->curve.points[k].p, k + 1);
			}
			break;
		case STEP_PRECONDITION:
			break; /* no workload figures worth a row: see the JSON */
		}
	}
	return ferror(f) ? -EIO : 0;
}

void step_table_header(FILE *f)
{
	fprintf(f, "%-34s %-7s %5s %5s %5s %4s %10s %9s %10s %10s %s\n", "step",
		"targets", "bs", "read%", "QD", "jobs", "IOPS", "MB/s", "mean lat",
		"p99 lat", "limit");
}

static void fmt_lat(char *buf, size_t len, double ns)
{
	if (ns >= 1e6)
		snprintf(buf, len, "%.2f ms", ns / 1e6);
	else
		snprintf(buf, len, "%.0f us", ns / 1e3);
}

static void fmt_bs(char *buf, size_t len, uint64_t bs)
{
	if (bs % (1 << 20) == 0)
		snprintf(buf, len, "%lluM", (unsigned long long)(bs >> 20));
	else if (bs % 1024 == 0)
		snprintf(buf, len, "%lluK", (unsigned long long)(bs >> 10));
	else
		snprintf(buf, len, "%llu", (unsigned long long)bs);
}

static void table_row(FILE *f, const struct step_outcome *o, const char *name,
		      unsigned nr_targets, const struct point *p, const char *verdict)
{
	char bs[24], mean[24], p99[24], tgt[16];
	const struct job_spec *j = &o->step->job;
	fmt_bs(bs, sizeof(bs), j->bs);
	snprintf(tgt, sizeof(tgt), "%u", nr_targets);
	if (!p) {
		fprintf(f, "%-34.34s %-7s %5s %5u %5s %4s %10s %9s %10s %10s %s\n", name,
			tgt, bs, read_pct(j), "-", "-", "-", "-", "-", "-", verdict);
		return;
	}
	fmt_lat(mean, sizeof(mean), p->s.total.lat.mean);
	fmt_lat(p99, sizeof(p99), (double)p->s.total.lat.pct[PCT_P99]);
	fprintf(f, "%-34.34s %-7s %5s %5u %5u %4u %10.0f %9.1f %10s %10s %s\n", name, tgt,
		bs, read_pct(j), p->iodepth, p->numjobs, p->s.total.iops,
		p->s.total.bw_bytes / 1e6, mean, p99, verdict);
}

static const char *limit_verdict(const struct step_outcome *o, const struct point *p)
{
	if (!o->step->latency_limit_ns)
		return "";
	if (!p)
		return "none inside";
	return point_latency(p, o->step->latency_stat) <= (double)o->step->latency_limit_ns ?
		       "met" : "missed";
}

int step_table_write(const struct step_outcome *o, FILE *f)
{
	char name[PLAN_LABEL_MAX + 16];
	for (unsigned i = 0; i < o->nr_sets; i++) {
		const struct set_outcome *s = &o->sets[i];
		const struct point *p = set_headline(o, s);
		switch (o->step->mode) {
		case STEP_FIXED:
		case STEP_SEARCH:
			table_row(f, o, o->step->label, s->nr_targets, p, limit_verdict(o, p));
			break;
		case STEP_CURVE:
			snprintf(name, sizeof(name), "%s max", o->step->label);
			table_row(f, o, name, s->nr_targets, p, "");
			for (unsigned k = 0; k < s->curve.nr_points; k++) {
				const struct curve_point *cp = &s->curve.points[k];
				snprintf(name, sizeof(name), "%s %u%%", o->step->label, cp->pct);
				table_row(f, o, name, s->nr_targets, &cp->p,
					  cp->reached ? "" : "not reached");
			}
			break;
		case STEP_PRECONDITION:
			fprintf(f, "%-34.34s %-7u %s after %u rounds\n", o->step->label,
				s->nr_targets, s->precond.verdict.steady ? "steady state" :
				"no steady state", s->precond.nr_rounds);
			break;
		}
	}
	if (o->step->targets == TARGETS_SCALING && o->scaling_msg[0])
		fprintf(f, "  %s\n", o->scaling_msg);
	if (o->partial)
		fprintf(f, "  step %u partial: %s\n", o->index + 1, o->error);
	return ferror(f) ? -EIO : 0;
}
