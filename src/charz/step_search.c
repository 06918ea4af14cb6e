/* step_search.c - a search's points beside its headline, in the summary
 * table and results.csv: those run twice (the lower run shown), those
 * dropped because their repeat missed the limit, those whose run ended
 * well before runtime, and when none was inside the closest one. The
 * JSON has them per point (step_json.c). */
#include <stdio.h>
#include <string.h>

#include "charz/outcome.h"

/* "70044 IOPS" or "289 MB/s": the figure the step ranks by. */
static void fmt_score(char *buf, size_t len, const struct step_outcome *o,
		      const struct point *p)
{
	if (rw_is_random(o->step->job.rw))
		snprintf(buf, len, "%.0f IOPS", p->s.total.iops);
	else
		snprintf(buf, len, "%.0f MB/s", p->s.total.bw_bytes / 1e6);
}

static double judged(const struct step_outcome *o, const struct point *p)
{
	return point_scope_latency(p, o->step->latency_stat, o->step->latency_scope);
}

int step_search_closest(const struct step_outcome *o, const struct set_outcome *s)
{
	const struct search_result *r = &s->search;
	int best = -1;

	if (r->found)
		return -1;
	for (unsigned i = 0; i < r->nr_points; i++) {
		if (r->points[i].partial)
			continue;
		if (best < 0 || judged(o, &r->points[i]) < judged(o, &r->points[best]))
			best = (int)i;
	}
	return best;
}

/* One kind of point in a line: "  run twice, the lower shown: 14x2 66120
 * IOPS (70044, 66120), ..."; nothing when none is of the kind. */
static void kind_line(FILE *f, const struct step_outcome *o, const struct set_outcome *s,
		      const char *head, int kind)
{
	const struct search_result *r = &s->search;
	char a[32], b[32], c[32];
	unsigned n = 0;

	for (unsigned i = 0; i < r->nr_points; i++) {
		const struct point *p = &r->points[i], *q = &r->again[i];
		bool twice = p->confirmed && !(r->found && i == r->best);

		if ((kind == 0 && !twice) || (kind == 1 && !p->repeat_missed) ||
		    (kind == 2 && !p->ended_early))
			continue;
		fprintf(f, "%s%ux%u ", n++ ? "; " : head, p->iodepth, p->numjobs);
		fmt_score(a, sizeof(a), o, p);
		step_fmt_lat(b, sizeof(b), judged(o, p));
		if (kind == 0) {
			fmt_score(c, sizeof(c), o, q);
			fprintf(f, "%s at %s (other run %s)", a, b, c);
		} else if (kind == 1) {
			step_fmt_lat(c, sizeof(c), judged(o, q));
			fprintf(f, "%s at %s, repeat: %s", a, b, c);
		} else {
			fprintf(f, "after %.2f s", (double)p->elapsed_ns / 1e9);
		}
	}
	if (n && kind == 2)
		fprintf(f, " of runtime=%.3gs (not time_based: the region was done)",
			(double)o->step->job.runtime_ns / 1e9);
	if (n)
		fputc('\n', f);
}

void step_search_notes(FILE *f, const struct step_outcome *o, const struct set_outcome *s)
{
	int k = step_search_closest(o, s);

	kind_line(f, o, s, "  run twice, inside both times, the lower run shown: ", 0);
	kind_line(f, o, s, "  dropped, the repeat over the limit: ", 1);
	kind_line(f, o, s, "  ended early: ", 2);
	if (k >= 0) {
		const struct point *p = &s->search.points[k];
		char a[32], b[32];

		fmt_score(a, sizeof(a), o, p);
		step_fmt_lat(b, sizeof(b), judged(o, p));
		fprintf(f, "  closest: %ux%u: %s at %s, over\n", p->iodepth, p->numjobs, a, b);
	}
}

void step_search_csv(FILE *f, const struct step_outcome *o, const struct set_outcome *s)
{
	const struct search_result *r = &s->search;
	int k = step_search_closest(o, s);

	for (unsigned i = 0; i < r->nr_points; i++) {
		const struct point *p = &r->points[i];

		if (p->confirmed && !(r->found && i == r->best)) {
			step_csv_point(f, o, s, "run twice", p, NULL);
			step_csv_point(f, o, s, "run twice: other run", &r->again[i], NULL);
		} else if (p->repeat_missed) {
			step_csv_point(f, o, s, "dropped", p, NULL);
			step_csv_point(f, o, s, "dropped: repeat", &r->again[i], NULL);
		}
	}
	if (k >= 0)
		step_csv_point(f, o, s, "closest, over", &r->points[k], NULL);
}
