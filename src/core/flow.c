/* flow.c - fio's flow control between jobs (flow.h). */
#include "core/flow.h"

#include <errno.h>
#include <stdlib.h>

int flow_table_init(struct flow_table *t, unsigned cap)
{
	*t = (struct flow_table){.cap = cap};
	t->f = calloc(cap ? cap : 1, sizeof(*t->f));
	return t->f ? 0 : -ENOMEM;
}

void flow_table_free(struct flow_table *t)
{
	if (!t)
		return;
	free(t->f);
	*t = (struct flow_table){0};
}

void flow_join(struct flow_table *t, unsigned id, unsigned weight,
	       struct flow_member *m)
{
	*m = (struct flow_member){.weight = weight};
	if (!weight)
		return;
	struct flow *f = NULL;
	for (unsigned i = 0; i < t->nr && !f; i++)
		if (t->f[i].id == id)
			f = &t->f[i];
	if (!f) {
		if (t->nr == t->cap)
			return; /* cannot happen: one flow a worker at most */
		f = &t->f[t->nr++];
		f->id = id;
		atomic_init(&f->counter, 1);
		atomic_init(&f->weight, 0);
	}
	atomic_fetch_add(&f->weight, weight);
	m->flow = f;
}

bool flow_admit(struct flow_member *m)
{
	struct flow *f = m->flow;
	if (!f)
		return true;
	/* fio's test, in doubles as fio's: my share of the I/Os against my
	 * share of the weight */
	double io_share = (double)m->counter /
			  (double)atomic_load_explicit(&f->counter, memory_order_relaxed);
	double weight_share = (double)m->weight /
			      (double)atomic_load_explicit(&f->weight, memory_order_relaxed);
	if (io_share > weight_share)
		return false;
	atomic_fetch_add_explicit(&f->counter, 1, memory_order_relaxed);
	m->counter++;
	return true;
}

void flow_leave(struct flow_member *m)
{
	if (!m->flow)
		return;
	atomic_fetch_sub(&m->flow->counter, m->counter);
	atomic_fetch_sub(&m->flow->weight, m->weight);
	m->flow = NULL;
}
