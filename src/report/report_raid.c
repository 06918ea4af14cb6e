/* report_raid.c - the "RAID levels compared" section: the paper's chart of
 * RAID 0, 5, 10 and JBOD over the same drives. Steps of a plan made with
 * raid_level= (a list: one step per level) carry " raid_level=LEVEL" in
 * their label; the rest of the label names the workload. Per result set,
 * one grouped bar chart for the random workloads (IOPS) and one for the
 * sequential ones (MB/s): a group per workload, a colour per level, each
 * bar's value written on it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/numfmt.h"
#include "report/report_parts.h"
#include "report/svg_chart.h"

#define RAID_TOKEN " raid_level="
#define RAID_MAX_WL 32
#define RAID_MAX_LEVELS 8
#define RAID_NAME 160

struct raid_table {
	char wl[RAID_MAX_WL][RAID_NAME];
	const char *cats[RAID_MAX_WL];
	unsigned nw;
	char lv[RAID_MAX_LEVELS][16];
	unsigned nl;
	double v[RAID_MAX_WL][RAID_MAX_LEVELS]; /* NAN: no figure */
};

/* The level in a step's label, and the label without it (the workload);
 * false when the step was not made by raid_level=. */
static bool split_label(const char *label, char *level, size_t llen, char *wl,
			size_t wlen)
{
	const char *p = label ? strstr(label, RAID_TOKEN) : NULL;
	if (!p)
		return false;
	const char *v = p + strlen(RAID_TOKEN);
	size_t n = strcspn(v, " ");
	snprintf(level, llen, "%.*s", (int)n, v);
	snprintf(wl, wlen, "%.*s%s", (int)(p - label), label, v + n);
	return true;
}

static unsigned slot(char (*names)[16], unsigned *nr, unsigned max, const char *s)
{
	for (unsigned i = 0; i < *nr; i++)
		if (!strcmp(names[i], s))
			return i;
	if (*nr == max)
		return max;
	snprintf(names[*nr], 16, "%s", s);
	return (*nr)++;
}

static unsigned wl_slot(struct raid_table *t, const char *s)
{
	for (unsigned i = 0; i < t->nw; i++)
		if (!strcmp(t->wl[i], s))
			return i;
	if (t->nw == RAID_MAX_WL)
		return RAID_MAX_WL;
	snprintf(t->wl[t->nw], RAID_NAME, "%s", s);
	t->cats[t->nw] = t->wl[t->nw];
	for (unsigned l = 0; l < RAID_MAX_LEVELS; l++)
		t->v[t->nw][l] = NAN;
	return t->nw++;
}

/* The set's raid_level= steps of one kind (random: IOPS, else MB/s),
 * each its first target set's headline total. */
static void table_fill(struct raid_table *t, const struct rs_set *set, bool random)
{
	memset(t, 0, sizeof(*t));
	for (unsigned k = 0; k < set->nr_steps; k++) {
		const struct rs_step *st = &set->steps[k];
		char level[16], wl[RAID_NAME];
		if (rs_step_is_random(st) != random || !st->nr_sets ||
		    !split_label(st->label, level, sizeof(level), wl, sizeof(wl)))
			continue;
		const struct rs_point *p = rs_tset_headline(st, &st->sets[0]);
		unsigned w = wl_slot(t, wl);
		unsigned l = slot(t->lv, &t->nl, RAID_MAX_LEVELS, level);
		if (p && w < RAID_MAX_WL && l < RAID_MAX_LEVELS)
			t->v[w][l] = random ? p->total.iops : p->total.bw_bytes;
	}
}

static char *fmt_iops_axis(char *buf, double v)
{
	return numfmt_iops(buf, v);
}

static char *fmt_bw_axis(char *buf, double v)
{
	return numfmt_bw(buf, v);
}

/* The value of bar (w, l) written just above it, centred. */
static void bar_value(struct chart *c, unsigned w, unsigned l, unsigned nl, double v,
		      bool iops)
{
	char a[NUMFMT_MAX];
	double band = (c->right - c->left) / (c->x->max - c->x->min);
	double bw = band * 0.8 / nl;
	double x = chart_px_x(c, w) - band * 0.4 + (l + 0.5) * bw;
	double y = chart_px_y(c, c->y, v) - 3;
	fprintf(c->f, "<text class=\"bar-value\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
		      "font-size=\"9\">", x, y < c->top + 8 ? c->top + 8 : y);
	html_escape(c->f, iops ? numfmt_iops(a, v) : numfmt_bw(a, v));
	fputs("</text>", c->f);
}

static void raid_chart(struct report_ctx *r, const struct rs_set *set, bool iops)
{
	struct raid_table *t = malloc(sizeof(*t));
	if (!t)
		return;
	table_fill(t, set, iops);
	double vmax = 0;
	for (unsigned w = 0; w < t->nw; w++)
		for (unsigned l = 0; l < t->nl; l++)
			if (isfinite(t->v[w][l]))
				vmax = fmax(vmax, t->v[w][l]);
	if (!t->nw || t->nl < 2 || vmax <= 0)
		goto out;
	struct axis x = {.kind = AXIS_CATEGORY, .label = "workload", .cats = t->cats,
			 .nr_cats = t->nw};
	struct axis y = {.kind = AXIS_LINEAR, .label = iops ? "IOPS" : "throughput (MB/s, GB/s)",
			 .fmt = iops ? fmt_iops_axis : fmt_bw_axis};
	axis_fit(&x, 0, 0, false);
	axis_fit(&y, 0, vmax * 1.08, true); /* room for the values on top */
	char title[256];
	snprintf(title, sizeof(title), "%s: %s per workload and RAID level", set->name,
		 iops ? "IOPS" : "MB/s");
	struct chart c;
	if (chart_begin(&c, r->f, "raid-levels", title, &x, &y, NULL))
		goto out;
	chart_axes(&c);
	for (unsigned w = 0; w < t->nw; w++)
		for (unsigned l = 0; l < t->nl; l++) {
			if (!isfinite(t->v[w][l]))
				continue;
			char tip[RAID_NAME + 64], a[NUMFMT_MAX];
			snprintf(tip, sizeof(tip), "%s, %s: %s%s", t->wl[w], t->lv[l],
				 iops ? numfmt_iops(a, t->v[w][l]) : numfmt_bw(a, t->v[w][l]),
				 iops ? " IOPS" : "");
			chart_bar(&c, w, l, t->nl, t->v[w][l], tip);
			bar_value(&c, w, l, t->nl, t->v[w][l], iops);
		}
	for (unsigned l = 0; l < t->nl; l++)
		chart_legend_add(&c, l, CHART_LEGEND_BAR, t->lv[l]);
	fputs("<figure>", r->f);
	int ret = chart_end(&c);
	if (ret && !r->ret)
		r->ret = ret;
	fputs("<figcaption>The same drives as each RAID level (raid_level=): a group per "
	      "workload, a colour per level, the best figure of each on its bar.</figcaption>"
	      "</figure>\n", r->f);
out:
	free(t);
}

void report_raid_charts(struct report_ctx *r)
{
	for (unsigned i = 0; i < r->nr_sets; i++) {
		raid_chart(r, &r->sets[i], true);
		raid_chart(r, &r->sets[i], false);
	}
}

bool report_has_raid(const struct report_ctx *r)
{
	for (unsigned i = 0; i < r->nr_sets; i++)
		for (unsigned k = 0; k < r->sets[i].nr_steps; k++)
			if (r->sets[i].steps[k].label &&
			    strstr(r->sets[i].steps[k].label, RAID_TOKEN))
				return true;
	return false;
}
