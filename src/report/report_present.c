/* report_present.c - whether a chart section has anything to show: an
 * empty "Per-second series" or "Percentiles" heading, or a chart of one
 * dot, tells the reader nothing (report_page.c leaves such sections out;
 * report_charts.c draws by the same rules). */
#include <math.h>

#include "report/report_parts.h"

bool report_series_worth(const struct rs_point *p)
{
	unsigned n = 0;
	for (unsigned i = 0; i < p->nr_iv; i++)
		n += isfinite(p->iv[i].iops) && p->iv[i].iops > 0;
	return n >= REPORT_SERIES_MIN;
}

bool report_pcts_worth(const struct rs_point *p)
{
	for (int q = 0; q < RS_NR_PCT; q++)
		if (p->total.lat.pct[q] > 0)
			return true;
	return false;
}

/* Does any headline point of r pass worth? */
static bool any_headline(const struct report_ctx *r, bool (*worth)(const struct rs_point *))
{
	for (unsigned s = 0; s < r->nr_sets; s++)
		for (unsigned i = 0; i < r->sets[s].nr_steps; i++) {
			const struct rs_step *st = &r->sets[s].steps[i];
			for (unsigned k = 0; k < st->nr_sets; k++) {
				const struct rs_point *p = rs_tset_headline(st, &st->sets[k]);
				if (p && worth(p))
					return true;
			}
		}
	return false;
}

bool report_has_series(const struct report_ctx *r)
{
	for (unsigned s = 0; s < r->nr_sets; s++)
		for (unsigned i = 0; i < r->sets[s].nr_steps; i++) {
			const struct rs_step *st = &r->sets[s].steps[i];
			for (unsigned k = 0; st->mode == RS_PRECONDITION && k < st->nr_sets; k++)
				if (st->sets[k].nr_rounds)
					return true;
		}
	return any_headline(r, report_series_worth);
}

bool report_has_percentiles(const struct report_ctx *r)
{
	return any_headline(r, report_pcts_worth);
}

bool report_has_bars(const struct report_ctx *r)
{
	const struct cmp_table *t = &r->cmp;
	for (unsigned i = 0; i < t->nr_rows; i++)
		if (!t->rows[i].net && !t->rows[i].app && !t->rows[i].host)
			for (unsigned s = 0; s < t->nr_sets; s++)
				if (t->rows[i].v[s].verdict != CMP_MISSING)
					return true;
	return false;
}
