/* report_vd.c - the "Per target and RAID virtual drive" section: for every
 * workload's headline point run on several targets, a row per target
 * (file, device or VD, by its definition) with its IOPS, MB/s and mean
 * latency, and for every RAID VD its amplification (member I/Os per host
 * I/O, reads and writes apart) and a row per member: the same figures
 * `iochar run` prints for a VD (docs/vd.md), for plan steps too. */
#include <stdio.h>
#include <string.h>

#include "report/numfmt.h"
#include "report/report_parts.h"
#include "report/svg_chart.h"

static bool point_has_targets(const struct rs_point *p)
{
	return p && (p->nr_per_target > 1 || p->nr_vds > 0 || p->nr_per_wl > 0);
}

static void note_targets(struct report_ctx *r, const struct rs_set *set,
			 const struct rs_step *st, unsigned k, const struct rs_point *p,
			 void *arg)
{
	(void)r, (void)set, (void)st, (void)k;
	*(bool *)arg |= point_has_targets(p);
}

bool report_has_targets(const struct report_ctx *r)
{
	bool any = false;
	/* only reads r: the walk takes it non-const for the drawers */
	report_each_headline((struct report_ctx *)r, note_targets, &any);
	return any;
}

static void cell(FILE *f, const char *cls, const char *text)
{
	fprintf(f, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
	html_escape(f, text);
	fputs("</td>", f);
}

/* IOPS, MB/s and mean latency of d: three cells. */
static void dir_cells(FILE *f, const struct rs_dir *d)
{
	char a[NUMFMT_MAX];
	cell(f, "num", numfmt_iops(a, d->iops));
	cell(f, "num", numfmt_bw(a, d->bw_bytes));
	cell(f, "num", d->ios ? numfmt_lat(a, d->lat.mean) : "\xe2\x80\x93");
}

static void target_table(FILE *f, const struct rs_point *p)
{
	char a[NUMFMT_MAX];
	fputs("<table class=\"targets\"><thead><tr><th>target</th><th>IOPS</th><th>MB/s</th>"
	      "<th>mean latency</th><th>member I/Os per host I/O</th></tr></thead><tbody>\n", f);
	for (unsigned t = 0; t < p->nr_per_target; t++) {
		const struct rs_target *e = &p->per_target[t];
		fputs("<tr>", f);
		cell(f, "wrap", e->target);
		dir_cells(f, &e->total);
		snprintf(a, sizeof(a), "%.2f", e->amp);
		cell(f, "num", e->amp > 0 ? a : "");
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* A multi-workload point: each workload, reads and writes apart, and the
 * latency its latency_judge names (what the step's limit is judged on). */
static void workload_table(FILE *f, const struct rs_point *p)
{
	char a[NUMFMT_MAX];
	fputs("<table class=\"workloads\"><thead><tr><th>workload</th><th>rw</th>"
	      "<th>read IOPS</th><th>read MB/s</th><th>read latency</th><th>write IOPS</th>"
	      "<th>write MB/s</th><th>write latency</th><th>total IOPS</th>"
	      "<th>judged on</th><th>judged mean latency</th></tr></thead><tbody>\n", f);
	for (unsigned k = 0; k < p->nr_per_wl; k++) {
		const struct rs_workload *w = &p->per_wl[k];
		fputs("<tr>", f);
		cell(f, "wrap", w->name);
		cell(f, NULL, w->rw ? w->rw : "");
		dir_cells(f, &w->read);
		dir_cells(f, &w->write);
		cell(f, "num", numfmt_iops(a, w->total.iops));
		cell(f, NULL, w->judge ? w->judge : "");
		cell(f, "num", w->judged ? numfmt_lat(a, w->judged_mean_ns) : "\xe2\x80\x93");
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void vd_table(FILE *f, const struct rs_vd *v)
{
	char a[160];
	fprintf(f, "<p class=\"vd\">RAID VD %s, strip %s, %u members: ", v->level,
		numfmt_size(a, (double)v->strip), v->nr_members);
	fprintf(f, "<strong>%.2f member I/Os per host I/O</strong> (%.2f reads + %.2f writes)</p>\n",
		v->member_ios_per_host_io, v->reads_per_host_io, v->writes_per_host_io);
	fputs("<table class=\"vd-members\"><thead><tr><th>member</th><th>read IOPS</th>"
	      "<th>read MB/s</th><th>read latency</th><th>write IOPS</th><th>write MB/s</th>"
	      "<th>write latency</th></tr></thead><tbody>\n", f);
	for (unsigned m = 0; m < v->nr_member_rows; m++) {
		const struct rs_vd_member *e = &v->members[m];
		fputs("<tr>", f);
		snprintf(a, sizeof(a), "%u %s%s", m, e->path, e->failed ? " (failed)" : "");
		cell(f, "wrap", a);
		dir_cells(f, &e->read);
		dir_cells(f, &e->write);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void point_tables(struct report_ctx *r, const struct rs_set *set,
			 const struct rs_step *st, unsigned k, const struct rs_point *p,
			 void *arg)
{
	(void)arg;
	if (!point_has_targets(p))
		return;
	fputs("<h3>", r->f);
	report_point_name(r->f, set, st, k);
	fputs("</h3>\n", r->f);
	if (p->nr_per_target > 1)
		target_table(r->f, p);
	if (p->nr_per_wl)
		workload_table(r->f, p);
	for (unsigned v = 0; v < p->nr_vds; v++)
		vd_table(r->f, &p->vds[v]);
}

void report_target_tables(struct report_ctx *r)
{
	report_each_headline(r, point_tables, NULL);
}
