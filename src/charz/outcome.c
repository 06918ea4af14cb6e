/* outcome.c - releasing a step's outcome and picking its headline point. */
#include <stdlib.h>
#include <string.h>

#include "charz/outcome.h"

void step_outcome_free(struct step_outcome *o)
{
	if (!o)
		return;
	for (unsigned i = 0; i < o->nr_sets; i++) {
		struct set_outcome *s = &o->sets[i];
		measure_ctx_reset(&s->mctx);
		search_result_free(&s->search);
		curve_result_free(&s->curve);
		precond_result_free(&s->precond);
		free(s->rebuild);
		free(s->rebuild_vd);
	}
	free(o->sets);
	free(o->app);
	memset(o, 0, sizeof(*o));
}

const struct point *set_headline(const struct step_outcome *o,
				 const struct set_outcome *s)
{
	switch (o->step->mode) {
	case STEP_FIXED:
		return s->done ? &s->fixed : NULL;
	case STEP_SEARCH:
		return s->search.found ? &s->search.points[s->search.best] : NULL;
	case STEP_CURVE:
		return s->curve.max.elapsed_ns ? &s->curve.max : NULL;
	case STEP_PRECONDITION:
	case STEP_APP: /* no target sets: its figures are the app run's */
		return NULL;
	case STEP_REBUILD: /* the baseline: the workload on the healthy VD */
		return s->done ? &s->rebuild_points[0] : NULL;
	}
	return NULL;
}
