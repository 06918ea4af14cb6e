/* step_rows.c - a step's rows in results.csv (one per target and point,
 * plus a "total" row for several targets at once) and in the summary table
 * printed at the end of a plan, in the papers' form. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "charz/outcome.h"
#include "util/csv.h"
#include "util/fmt.h"

const char step_csv_header[] =
	"step,label,mode,point,target,rw,bs,read_pct,iodepth,numjobs,"
	"iops,mb_s,lat_mean_us,lat_p99_us,lat_p99_9_us,limit_us,limit_met,"
	"read_lat_mean_us,write_lat_mean_us,latency_scope,reached,tool_limited,"
	"member_ios_per_host_io,max_underestimated_pct,lat_origin,lag_p99_us,"
	"tool_lag_p99_us,service_lat_mean_us,service_lat_p99_us,after_no_steady_state\n";

void step_csv_dir_lats(FILE *f, const struct stats_summary *s)
{
	for (int d = DIR_READ; d <= DIR_WRITE; d++) {
		if (s->dir[d].ios)
			fprintf(f, "%.1f", s->dir[d].lat.mean / 1e3);
		fputc(',', f);
	}
}

void step_csv_lag_cols(FILE *f, const struct dir_summary *d, unsigned after_unsteady)
{
	if (!d->paced)
		fputs(",submit,,,,", f);
	else
		fprintf(f, ",scheduled,%.1f,%.1f,%.1f,%.1f", (double)d->lag.pct[PCT_P99] / 1e3,
			(double)d->tool_lag.pct[PCT_P99] / 1e3, d->service.mean / 1e3,
			(double)d->service.pct[PCT_P99] / 1e3);
	if (after_unsteady)
		fprintf(f, ",%u\n", after_unsteady);
	else
		fputs(",\n", f);
}

static unsigned read_pct(const struct job_spec *j)
{
	if (rw_is_mixed(j->rw))
		return j->rwmixread;
	return rw_reads(j->rw) ? 100 : 0;
}

/* A curve's mark on each of its rows (max_underestimated_pct: how much
 * the first maximum, the one the percentages are of, came out low), empty
 * when not marked or not a curve. */
static double row_underestimated(const struct step_outcome *o, const struct set_outcome *s)
{
	return o->step->mode == STEP_CURVE && s ? s->curve.underestimated : 0;
}

/* reached: "yes"/"no" for a curve point, NULL otherwise. whole: the row
 * stands for the whole point (its total, or its only target), so the
 * point's read and write latencies are its own; empty on one target's row
 * of several (only its total is kept). amp: the RAID VD's member I/Os per
 * host I/O, empty when 0 (not a VD). under: the curve's mark, empty at 0. */
static void csv_row(FILE *f, const struct step_outcome *o, const char *point,
		    const char *target, const struct point *p,
		    const struct dir_summary *d, bool whole, const char *reached,
		    double amp, double under, unsigned after)
{
	const struct plan_step *st = o->step;
	const struct job_spec *j = &st->job;
	double lim = (double)st->latency_limit_ns / 1e3;
	fprintf(f, "%u,", o->index);
	csv_field(f, st->label);
	fprintf(f, ",%s,%s,", step_mode_name(st->mode), point);
	csv_field(f, target);
	fprintf(f, ",%s,%llu,%u,%u,%u,%.1f,%.3f,%.1f,%.1f,%.1f,", rw_name(j->rw),
		(unsigned long long)j->bs, read_pct(j), p->iodepth, p->numjobs,
		d->iops, d->bw_bytes / 1e6, d->lat.mean / 1e3,
		(double)d->lat.pct[PCT_P99] / 1e3, (double)d->lat.pct[PCT_P99_9] / 1e3);
	/* one target's row of several: the verdict is the point's, on its
	 * total row (its directions are not kept per target to judge) */
	if (st->latency_limit_ns && !whole)
		fprintf(f, "%.1f,,", lim);
	else if (st->latency_limit_ns)
		fprintf(f, "%.1f,%s,", lim,
			point_within(p, st->latency_stat, st->latency_scope,
				     st->latency_limit_ns) ? "yes" : "no");
	else
		fputs(",,", f);
	if (whole)
		step_csv_dir_lats(f, &p->s);
	else
		fputs(",,", f);
	fprintf(f, "%s,%s,%s,", lat_scope_name(st->latency_scope), reached ? reached : "",
		p->tool_limited ? "yes" : "no");
	if (amp > 0)
		fprintf(f, "%.3f", amp);
	fputc(',', f);
	if (under > 0)
		fprintf(f, "%.1f", 100 * under);
	step_csv_lag_cols(f, d, after);
}

/* The measure call that gave p (its per-target and VD figures), or NULL. */
static const struct measure_call *point_call(const struct set_outcome *s,
					     const struct point *p)
{
	unsigned call = p ? p->call + s->call_base : 0;
	return p && call < s->mctx.nr_calls ? &s->mctx.calls[call] : NULL;
}

/* How many targets p ran on: its VDs on a VD step, else the set's. */
static unsigned point_targets(const struct set_outcome *s, const struct measure_call *c)
{
	return c && c->vd_labels ? c->nr_vds : s->nr_targets;
}

void step_csv_point(FILE *f, const struct step_outcome *o,
		      const struct set_outcome *s, const char *label,
		      const struct point *p, const char *reached)
{
	const struct measure_call *c = point_call(s, p);
	unsigned n = point_targets(s, c);
	double under = row_underestimated(o, s);
	if (c)
		for (unsigned t = 0; t < n; t++)
			csv_row(f, o, label, c->vd_labels ? c->vd_labels[t] : s->targets[t], p,
				&c->per_target[t], n == 1, reached,
				c->vd_amps ? c->vd_amps[t] : 0, under, s->after_unsteady);
	if (!c || n != 1) {
		char all[32];
		if (n)
			snprintf(all, sizeof(all), "total of %u", n);
		else
			snprintf(all, sizeof(all), "(no target)");
		csv_row(f, o, label, all, p, &p->s.total, true, reached, c ? c->vd_amp : 0,
			under, s->after_unsteady);
	}
	step_wl_csv(f, o, label, p, c, reached, s->after_unsteady);
}

/* "raid5 VD": a rebuild step's one target. */
static void vd_name(const struct set_outcome *s, char *buf, size_t len)
{
	snprintf(buf, len, "%s VD", vd_level_name(s->rebuild_vd->def.level));
}

/* A rebuild step's foreground: the baseline, then a row per rate. */
static void rebuild_csv(FILE *f, const struct step_outcome *o,
			const struct set_outcome *s)
{
	char label[48], tgt[32];
	vd_name(s, tgt, sizeof(tgt));
	csv_row(f, o, "baseline", tgt, &s->rebuild_points[0],
		&s->rebuild_points[0].s.total, true, NULL, 0, 0, s->after_unsteady);
	for (unsigned k = 0; k < s->rebuild->n; k++) {
		const struct point *p = &s->rebuild_points[k + 1];
		snprintf(label, sizeof(label), "rebuild %s", s->rebuild->p[k].label);
		csv_row(f, o, label, tgt, p, &p->s.total, true, NULL, 0, 0, s->after_unsteady);
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
				step_csv_point(f, o, s, "fixed", &s->fixed, NULL);
			break;
		case STEP_SEARCH:
			if (s->search.found)
				step_csv_point(f, o, s, "best", &s->search.points[s->search.best],
					  NULL);
			if (s->search.confirmed) /* the other of the best's two runs */
				step_csv_point(f, o, s, s->search.repeat_first ? "first run" : "repeat",
					  &s->search.repeat, NULL);
			step_search_csv(f, o, s);
			break;
		case STEP_CURVE:
			if (s->curve.max.elapsed_ns)
				step_csv_point(f, o, s, "max", &s->curve.max, NULL);
			if (s->curve.remax.elapsed_ns)
				step_csv_point(f, o, s, "max again", &s->curve.remax, NULL);
			for (unsigned k = 0; k < s->curve.nr_points; k++) {
				const struct curve_point *cp = &s->curve.points[k];
				snprintf(label, sizeof(label), "%u%%", cp->pct);
				step_csv_point(f, o, s, label, &cp->p, cp->reached ? "yes" : "no");
			}
			break;
		case STEP_PRECONDITION:
			break; /* no workload figures worth a row: see the JSON */
		case STEP_APP: /* no target sets: OUT/app-stepN/results.csv */
			break;
		case STEP_REBUILD:
			if (s->done)
				rebuild_csv(f, o, s);
			break;
		}
	}
	return ferror(f) ? -EIO : 0;
}

/* QD is per job and jobs per target (fio's iodepth and numjobs); IOPS
 * and MB/s are the sum over the targets run at once, the latencies over
 * all their I/O. The read and write columns hold each step's
 * latency_stat, the one its limit is on: named in their header ("rd
 * p99") when every step of the plan has the same, else "rd lat" (a row's
 * limit cell then names its own). */
void step_table_header(FILE *f, const struct plan *p)
{
	const char *stat = NULL;
	char rd[16], wr[16];

	for (unsigned i = 0; p && i < p->nr_steps; i++) {
		const char *s = lat_stat_name(p->steps[i].latency_stat);

		if (stat && strcmp(stat, s)) {
			stat = "lat";
			break;
		}
		stat = s;
	}
	snprintf(rd, sizeof(rd), "rd %s", stat ? stat : "lat");
	snprintf(wr, sizeof(wr), "wr %s", stat ? stat : "lat");
	fprintf(f, "%-34s %-7s %5s %5s %6s %8s %10s %9s %9s %9s %9s %s\n", "step",
		"targets", "bs", "read%", "QD/job", "jobs/tgt", "IOPS", "MB/s", rd,
		wr, "p99 lat", "limit");
}

void step_fmt_lat(char *buf, size_t len, double ns)
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

/* One direction's latency statistic, "-" when it did no I/O. */
static void fmt_dir_lat(char *buf, size_t len, const struct point *p,
			enum io_dir d, enum lat_stat stat)
{
	if (!p->s.dir[d].ios)
		snprintf(buf, len, "-");
	else
		step_fmt_lat(buf, len, point_dir_latency(p, d, stat));
}

/* The row's mark when measured after a preconditioning with no steady
 * state, e.g. ", after no steady state (step 1)": on every such row, so
 * that no figure of an unsteady device reads as a steady one's. */
static const char *unsteady_mark(const struct set_outcome *s, char *buf, size_t len,
				 bool first)
{
	buf[0] = '\0';
	if (s && s->after_unsteady)
		snprintf(buf, len, "%safter no steady state (step %u)", first ? "" : ", ",
			 s->after_unsteady);
	return buf;
}

static void table_row(FILE *f, const struct step_outcome *o, const struct set_outcome *s,
		      const char *name, const char *tgt, const struct point *p,
		      const char *verdict)
{
	char bs[24], rd[24], wr[24], p99[24], mark[64];
	const struct job_spec *j = &o->step->job;
	fmt_bs(bs, sizeof(bs), j->bs);
	if (!p) {
		fprintf(f, "%-34.34s %-7s %5s %5u %6s %8s %10s %9s %9s %9s %9s %s%s\n", name,
			tgt, bs, read_pct(j), "-", "-", "-", "-", "-", "-", "-", verdict,
			unsteady_mark(s, mark, sizeof(mark), !verdict[0]));
		return;
	}
	fmt_dir_lat(rd, sizeof(rd), p, DIR_READ, o->step->latency_stat);
	fmt_dir_lat(wr, sizeof(wr), p, DIR_WRITE, o->step->latency_stat);
	step_fmt_lat(p99, sizeof(p99), (double)p->s.total.lat.pct[PCT_P99]);
	/* beside the figures what makes them not the device's own */
	bool buffered = !j->direct && strcmp(j->ioengine, "null");
	fprintf(f, "%-34.34s %-7s %5s %5u %6u %8u %10.0f %9.1f %9s %9s %9s %s%s%s%s%s%s\n", name,
		tgt, bs, read_pct(j), p->iodepth, p->numjobs, p->s.total.iops,
		p->s.total.bw_bytes / 1e6, rd, wr, p99, verdict,
		p->tool_limited && verdict[0] ? ", " : "", p->tool_limited ? "tool-limited" : "",
		buffered && (verdict[0] || p->tool_limited) ? ", " : "",
		buffered ? "buffered: page cache, not the device" : "",
		unsteady_mark(s, mark, sizeof(mark), !verdict[0] && !p->tool_limited && !buffered));
}

/* Under a point's row: its VDs' amplification and members (as `iochar
 * run` prints them), then each target's own figures when it ran on
 * several at once (they are in the point's measure call); the paper's
 * per-VD rows. */
static unsigned target_rows(FILE *f, const struct step_outcome *o,
			    const struct set_outcome *s, const struct point *p)
{
	const struct measure_call *c = point_call(s, p);
	unsigned n = point_targets(s, c);
	char name[PLAN_LABEL_MAX + 16], mean[24];

	if (c && c->vd_text) /* amplification and members, as a run says them */
		fputs(c->vd_text, f);
	step_wl_table(f, o, p, c);
	if (!c || n < 2)
		return 0;
	for (unsigned t = 0; t < n; t++) {
		const struct dir_summary *d = &c->per_target[t];
		snprintf(name, sizeof(name), "  %s", c->vd_labels ? c->vd_labels[t] : s->targets[t]);
		step_fmt_lat(mean, sizeof(mean), d->lat.mean);
		fprintf(f, "%-34.34s %-7s %5s %5s %6s %8s %10.0f %9.1f %9s\n", name, "1", "", "",
			"", "", d->iops, d->bw_bytes / 1e6, mean);
	}
	return n;
}


static const char *limit_verdict(const struct step_outcome *o, const struct point *p)
{
	if (!o->step->latency_limit_ns)
		return "";
	if (!p)
		return "none inside";
	return point_within(p, o->step->latency_stat, o->step->latency_scope,
			    o->step->latency_limit_ns) ? "met" : "missed";
}

/* A search's limit cell: the verdict with the limit it is on, and the
 * confirmation of its best: "met <=2.00 ms mean, lower of 2 runs, spread
 * 1.8%" (the row's figures are the lower-scoring run), "unsteady: spread
 * 16.2%" past SEARCH_UNSTEADY, "none inside <=50 us p99". */
static const char *search_verdict(const struct step_outcome *o, const struct set_outcome *s,
				  const struct point *p, char *buf, size_t len)
{
	const struct search_result *r = &s->search;
	char lim[24];

	if (o->step->latency_limit_ns < 1000) /* fmt_lat would say "0 us" */
		snprintf(lim, sizeof(lim), "%llu ns", (unsigned long long)o->step->latency_limit_ns);
	else
		step_fmt_lat(lim, sizeof(lim), (double)o->step->latency_limit_ns);
	if (!p)
		snprintf(buf, len, "none inside <=%s %s", lim,
			 lat_stat_name(o->step->latency_stat));
	else if (!r->confirmed)
		snprintf(buf, len, "%s <=%s %s, not confirmed", limit_verdict(o, p), lim,
			 lat_stat_name(o->step->latency_stat));
	else
		snprintf(buf, len, "%s <=%s %s, lower of 2 runs, %sspread %.1f%%",
			 limit_verdict(o, p), lim, lat_stat_name(o->step->latency_stat),
			 r->unsteady ? "unsteady: " : "", 100 * r->spread);
	return buf;
}

/* A curve point's verdict: reached or why not. */
static const char *curve_verdict(const struct curve_point *cp, char *buf, size_t len)
{
	if (cp->reached)
		return "";
	if (cp->p.nr_sec)
		snprintf(buf, len, "not reached (%u of %u s on rate)", cp->p.sec_on_rate,
			 cp->p.nr_sec);
	else
		snprintf(buf, len, "not reached");
	return buf;
}

/* The line under a curve whose first maximum came out low: by how much,
 * what showed it, and that the percentages are still of that maximum
 * (they are what was asked; the mark says how to read them). */
static void curve_mark(FILE *f, const struct curve_result *r)
{
	if (!(r->underestimated > 0))
		return;
	fprintf(f, "  maximum underestimated by %.0f%%: measured again %.0f IOPS, best point "
		"reached %.0f IOPS; the points' %% are of the first maximum, %.0f IOPS\n",
		100 * r->underestimated, r->remax.s.total.iops, r->top_reached_iops,
		r->max.s.total.iops);
}

/* A window's figures: "window 41200 IOPS, excursion 6%, slope -2%". */
static void fmt_window(char *buf, size_t len, const struct steady_verdict *v)
{
	snprintf(buf, len, "window %.0f IOPS, excursion %.0f%%, slope %+.0f%%", v->average,
		 100 * v->excursion, 100 * v->slope);
}

/* Several targets judged one by one: "; unsteady: /dev/sdc" after the
 * total's window (empty when all are steady), then, under the row, each
 * target's own window: "  /dev/sdc  1  not steady: window 18000 IOPS,
 * excursion 12%, slope -13%". */
static void precond_unsteady(char *buf, size_t len, const struct set_outcome *s)
{
	const struct precond_result *r = &s->precond;
	size_t at = 0;

	buf[0] = '\0';
	for (unsigned t = 0; t < r->nr_targets && t < s->nr_targets && at < len; t++)
		if (!r->target_verdict[t].steady)
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       at ? ", " : "; unsteady: ", s->targets[t]);
}

static void precond_target_rows(FILE *f, const struct set_outcome *s)
{
	const struct precond_result *r = &s->precond;
	char name[PLAN_LABEL_MAX + 16], window[96];

	if (r->nr_rounds < r->window || !r->window)
		return;
	for (unsigned t = 0; t < r->nr_targets && t < s->nr_targets; t++) {
		snprintf(name, sizeof(name), "  %s", s->targets[t]);
		fmt_window(window, sizeof(window), &r->target_verdict[t]);
		fprintf(f, "%-34.34s %-7s %s: %s\n", name, "1",
			r->target_verdict[t].steady ? "steady" : "not steady", window);
	}
}

/* "steady state after 7 rounds of 8K randwrite, QD 32 x 4 jobs/tgt: window
 * 41200 IOPS, excursion 6%, slope -2%; fill 2 x 128K sequential (16 MiB)",
 * or why not: "no window (3 of 5 rounds)" before the window is full, "fill
 * skipped: filled by step 1" when an earlier step filled the targets. On
 * several targets judged one by one the window is the sum's, the targets
 * not steady are named after it, and each target's window follows. */
static void precond_row(FILE *f, const char *name, const struct set_outcome *s,
			const char *tgt)
{
	const struct precond_result *r = &s->precond;
	char bs[24], mix[24] = "", fbs[24], size[32], window[96], fill[96], unsteady[256] = "";

	fmt_bs(bs, sizeof(bs), r->ran.bs);
	fmt_bs(fbs, sizeof(fbs), r->ran.fill_bs);
	fmt_bytes(size, sizeof(size), r->ran.fill_bytes);
	if (rw_is_mixed(r->ran.rw))
		snprintf(mix, sizeof(mix), " %u:%u", r->ran.rwmixread, 100 - r->ran.rwmixread);
	if (r->nr_rounds < r->window || !r->window)
		snprintf(window, sizeof(window), "no window (%u of %u rounds)", r->nr_rounds,
			 r->window);
	else {
		fmt_window(window, sizeof(window), &r->verdict);
		precond_unsteady(unsteady, sizeof(unsteady), s);
	}
	if (r->filled_by_step)
		snprintf(fill, sizeof(fill), "fill skipped: filled by step %u", r->filled_by_step);
	else if (!r->nr_fill)
		snprintf(fill, sizeof(fill), "no fill (fill_passes=0)");
	else
		snprintf(fill, sizeof(fill), "fill %u x %s sequential (%s)", r->nr_fill, fbs, size);
	fprintf(f, "%-34.34s %-7s %s after %u round%s of %s %s%s, QD %u x %u job%s/tgt: %s%s; %s\n",
		name, tgt, r->steady ? "steady state" : "no steady state", r->nr_rounds,
		r->nr_rounds == 1 ? "" : "s", bs, rw_name(r->ran.rw), mix, r->ran.iodepth,
		r->ran.numjobs, r->ran.numjobs == 1 ? "" : "s", window, unsteady, fill);
	precond_target_rows(f, s);
}

/* A rebuild step: the baseline, each rate's foreground with the rebuild's
 * speed and the IOPS drop, then the scrub's verdict. */
static void rebuild_rows(FILE *f, const struct step_outcome *o,
			 const struct set_outcome *s)
{
	const struct rebuild_sweep *sw = s->rebuild;
	char name[PLAN_LABEL_MAX + 48], verdict[96];
	double base = s->rebuild_points[0].s.total.iops;

	snprintf(name, sizeof(name), "%s baseline", o->step->label);
	table_row(f, o, s, name, "VD", &s->rebuild_points[0], "healthy");
	for (unsigned k = 0; k < sw->n; k++) {
		const struct rebuild_pass *r = &sw->p[k];
		const struct point *p = &s->rebuild_points[k + 1];
		double sec = (double)(r->res.end_ns - r->res.start_ns) / 1e9;
		snprintf(name, sizeof(name), "%s rebuild %s", o->step->label, r->label);
		snprintf(verdict, sizeof(verdict), "rebuild %.1f MB/s in %.1f s, IOPS %+.0f%%",
			 sec > 0 ? (double)r->res.bytes / sec / 1e6 : 0, sec,
			 base > 0 ? 100 * (p->s.total.iops / base - 1) : 0);
		table_row(f, o, s, name, "VD", p, verdict);
	}
	fprintf(f, "  member %u rebuilt: %llu of %llu rows disagree afterwards\n", sw->member,
		(unsigned long long)sw->bad, (unsigned long long)sw->rows);
}

/* A scaling step's counts as its verdict weighed them: each count's mean
 * over its runs and their standard deviation (the rows above show the
 * mode's own run). */
static void scaling_counts_line(FILE *f, const struct step_outcome *o)
{
	bool iops = rw_is_random(o->step->job.rw);
	fprintf(f, "  %s by targets (mean \xc2\xb1sd of %u runs):", iops ? "IOPS" : "MB/s",
		o->step->scaling_repeats);
	for (unsigned i = 0; i < o->nr_sets; i++) {
		const struct set_outcome *s = &o->sets[i];
		struct knee_count k;
		knee_count_set(&k, s->nr_targets, iops ? s->rep_iops : s->rep_bw, s->nr_rep);
		double div = iops ? 1 : 1e6;
		fprintf(f, "%s %u: %.*f", i ? "," : "", s->nr_targets, iops ? 0 : 1, k.mean / div);
		if (isfinite(k.sd))
			fprintf(f, " \xc2\xb1%.*f", iops ? 0 : 1, k.sd / div);
	}
	fputc('\n', f);
}

int step_table_write(const struct step_outcome *o, FILE *f)
{
	char name[PLAN_LABEL_MAX + 16], verdict[128], tgt[16];
	unsigned per_target = 0;
	for (unsigned i = 0; i < o->nr_sets; i++) {
		const struct set_outcome *s = &o->sets[i];
		const struct point *p = set_headline(o, s);
		unsigned nt = point_targets(s, point_call(s, p));
		snprintf(tgt, sizeof(tgt), nt > 1 ? "%u sum" : "%u", nt);
		if (s->preconditioned) { /* precondition=auto ran before the step: a
					  * row of its own, named for it, not an
					  * indented line the step above seems to own */
			snprintf(name, sizeof(name), "%.21s precondition", o->step->label);
			precond_row(f, name, s, tgt);
		}
		switch (o->step->mode) {
		case STEP_FIXED:
			table_row(f, o, s, o->step->label, tgt, p, limit_verdict(o, p));
			per_target += target_rows(f, o, s, p);
			break;
		case STEP_SEARCH:
			table_row(f, o, s, o->step->label, tgt, p,
				  search_verdict(o, s, p, verdict, sizeof(verdict)));
			per_target += target_rows(f, o, s, p);
			step_search_notes(f, o, s);
			break;
		case STEP_CURVE:
			snprintf(name, sizeof(name), "%s max", o->step->label);
			table_row(f, o, s, name, tgt, p, "closed loop");
			per_target += target_rows(f, o, s, p);
			for (unsigned k = 0; k < s->curve.nr_points; k++) {
				const struct curve_point *cp = &s->curve.points[k];
				snprintf(name, sizeof(name), "%s %u%%", o->step->label, cp->pct);
				table_row(f, o, s, name, tgt, &cp->p,
					  curve_verdict(cp, verdict, sizeof(verdict)));
			}
			if (s->curve.remax.elapsed_ns) {
				snprintf(name, sizeof(name), "%s max again", o->step->label);
				table_row(f, o, s, name, tgt, &s->curve.remax,
					  "closed loop, re-measured");
			}
			curve_mark(f, &s->curve);
			break;
		case STEP_PRECONDITION:
			precond_row(f, o->step->label, s, tgt);
			break;
		case STEP_APP: /* no target sets: app_step_text below */
			break;
		case STEP_REBUILD:
			if (s->done)
				rebuild_rows(f, o, s);
			break;
		}
		/* under the rows it chose for: above them it read as the
		 * previous step's */
		if (s->disc_decided && s->disc.how != DISC_HOW_NONE && !s->disc.unchanged) {
			char line[512];
			discipline_describe(&s->disc, line, sizeof(line));
			fprintf(f, "  discipline: %s\n", line);
		}
	}
	if (per_target)
		fputs(STEP_TABLE_PER_TARGET, f);
	if (o->nr_unwritten) {
		fputs("  ", f);
		for (unsigned i = 0; i < o->nr_unwritten; i++)
			fprintf(f, "%s%s", i ? ", " : "", o->unwritten[i]);
		fprintf(f, ": %s\n", PRECOND_UNWRITTEN_MSG);
	}
	if (o->step->targets == TARGETS_SCALING && o->scaling_msg[0]) {
		scaling_counts_line(f, o);
		fprintf(f, "  %s\n", o->scaling_msg);
	}
	if (o->app)
		app_step_text(f, o->step->label, o->app);
	if (o->partial)
		fprintf(f, "  step %u partial: %s\n", o->index + 1, o->error);
	return ferror(f) ? -EIO : 0;
}
