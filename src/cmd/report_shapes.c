/* report_shapes.c - see report_shapes.h. The plan's own text is parsed,
 * so the table follows the plan when it changes. */
#include "cmd/report_shapes.h"

#include <stdio.h>
#include <string.h>

#include "charz/plan.h"

static void shape_of(const struct job_spec *j, const char *name, struct report_shape *s)
{
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->read_share = rw_is_mixed(j->rw) ? j->rwmixread / 100.0 : rw_reads(j->rw) ? 1 : 0;
	unsigned dir = rw_reads(j->rw) ? DIR_READ : DIR_WRITE;
	const struct job_split *sp = &j->bssplit[dir];
	unsigned total = 0;
	for (unsigned i = 0; i < sp->nr && i < REPORT_SHAPE_SIZES; i++)
		total += sp->perc[i];
	if (sp->nr && total) {
		for (unsigned i = 0; i < sp->nr && i < REPORT_SHAPE_SIZES; i++) {
			s->bytes[i] = sp->val[i];
			s->share[i] = (double)sp->perc[i] / total;
		}
		s->nr_sizes = sp->nr < REPORT_SHAPE_SIZES ? sp->nr : REPORT_SHAPE_SIZES;
		return;
	}
	s->bytes[0] = j->bs_dir[dir] ? j->bs_dir[dir] : j->bs;
	s->share[0] = 1;
	s->nr_sizes = 1;
}

unsigned report_shapes_of_builtin(const char *name, struct report_shape *out, unsigned max)
{
	const char *text = NULL;
	for (const struct plan_builtin *b = plan_builtins; b->name; b++)
		if (!strcmp(b->name, name))
			text = b->text;
	struct plan p;
	struct ioc_err err = {0};
	if (!text || plan_parse(text, name, NULL, 0, &p, &err))
		return 0;
	unsigned n = 0;
	if (p.nr_steps) {
		const struct plan_step *st = &p.steps[0];
		for (unsigned i = 0; i < st->nr_wl && n < max; i++)
			shape_of(&st->wl[i].job, st->wl[i].name, &out[n++]);
		if (!st->nr_wl && n < max)
			shape_of(&st->job, st->section, &out[n++]);
	}
	plan_free(&p);
	return n;
}
