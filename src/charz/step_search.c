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

/* p's judged latency: "2.40 ms", "431 us", "256 ns" (a limit under 1 us
 * is judged on nanoseconds: "0 us" would say nothing). */
static void fmt_judged(char *buf, size_t len, const struct step_outcome *o,
		       const struct point *p)
{
	double ns = judged(o, p);

	if (ns < 1e3)
		snprintf(buf, len, "%.0f ns", ns);
	else
		step_fmt_lat(buf, len, ns);
}

/* The run of point i that was over the limit: a dropped point's repeat
 * (its shown first run was inside), else the point. */
static const struct point *over_run(const struct search_result *r, unsigned i)
{
	return r->points[i].repeat_missed && r->again ? &r->again[i] : &r->points[i];
}

const struct point *step_search_closest(const struct step_outcome *o,
					const struct set_outcome *s)
{
	const struct search_result *r = &s->search;
	const struct point *best = NULL;

	if (r->found)
		return NULL;
	for (unsigned i = 0; i < r->nr_points; i++) {
		const struct point *p = over_run(r, i);
		if (!p->partial && (!best || judged(o, p) < judged(o, best)))
			best = p;
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
		fmt_judged(b, sizeof(b), o, p);
		if (kind == 0) {
			fmt_score(c, sizeof(c), o, q);
			fprintf(f, "%s at %s (other run %s)", a, b, c);
		} else if (kind == 1) {
			fmt_judged(c, sizeof(c), o, q);
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
	const struct point *p = step_search_closest(o, s);

	kind_line(f, o, s, "  run twice, inside both times, the lower run shown: ", 0);
	kind_line(f, o, s, "  dropped, the repeat over the limit: ", 1);
	kind_line(f, o, s, "  ended early: ", 2);
	if (p) {
		char a[32], b[32];

		fmt_score(a, sizeof(a), o, p);
		fmt_judged(b, sizeof(b), o, p);
		fprintf(f, "  closest: %ux%u: %s at %s, over\n", p->iodepth, p->numjobs, a, b);
	}
}

void step_search_csv(FILE *f, const struct step_outcome *o, const struct set_outcome *s)
{
	const struct search_result *r = &s->search;
	const struct point *c = step_search_closest(o, s);

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
	if (c)
		step_csv_point(f, o, s, "closest, over", c, NULL);
}
