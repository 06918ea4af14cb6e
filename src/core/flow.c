/* flow.c - fio's flow control between jobs (flow.h). */
#include "core/flow.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "util/clock.h"

/* Members asleep on f->turn wake: the turn moves first, so one that is
 * about to sleep sees it moved and does not. */
static void wake_sleepers(struct flow *f)
{
	if (!atomic_load(&f->sleepers))
		return;
	atomic_fetch_add(&f->turn, 1);
	syscall(SYS_futex, &f->turn, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}

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
		atomic_init(&f->turn, 0);
		atomic_init(&f->sleepers, 0);
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
	if (io_share > weight_share) {
		m->seen = atomic_load_explicit(&f->counter, memory_order_relaxed);
		return false;
	}
	/* seq_cst with the sleepers' count (wake_sleepers): a member going
	 * to sleep sees this I/O, or this sees it asleep */
	atomic_fetch_add(&f->counter, 1);
	m->counter++;
	wake_sleepers(f);
	return true;
}

void flow_wait_turn(struct flow_member *m, uint64_t spin_ns, uint64_t max_ns)
{
	struct flow *f = m->flow;
	if (!f)
		return;
	uint64_t t0 = fast_ns();
	while (atomic_load_explicit(&f->counter, memory_order_relaxed) == m->seen) {
		uint64_t now = fast_ns();
		if (now - t0 >= max_ns)
			return;
		if (now - t0 < spin_ns) {
#if defined(__x86_64__) || defined(__i386__)
			__builtin_ia32_pause();
#endif
			continue;
		}
		uint32_t turn = atomic_load(&f->turn);
		atomic_fetch_add(&f->sleepers, 1);
		if (atomic_load(&f->counter) == m->seen) {
			uint64_t ns = max_ns - (now - t0);
			struct timespec ts = {.tv_sec = (time_t)(ns / 1000000000ull),
					      .tv_nsec = (long)(ns % 1000000000ull)};
			/* returns at once if the turn moved since it was read */
			syscall(SYS_futex, &f->turn, FUTEX_WAIT_PRIVATE, turn, &ts, NULL, 0);
		}
		atomic_fetch_sub(&f->sleepers, 1);
	}
}

void flow_leave(struct flow_member *m)
{
	if (!m->flow)
		return;
	atomic_fetch_sub(&m->flow->counter, m->counter);
	atomic_fetch_sub(&m->flow->weight, m->weight);
	wake_sleepers(m->flow); /* the others' shares changed */
	m->flow = NULL;
}
