/* backlog.c - see backlog.h. */
#include "verify/backlog.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void vbacklog_init(struct vbacklog *b, const struct job_spec *j,
		   uint64_t region)
{
	uint64_t files = j->nr_files ? j->nr_files : 1;

	memset(b, 0, sizeof(*b));
	b->every = j->verify_backlog;
	b->batch_size = j->verify_backlog_batch ? j->verify_backlog_batch
						: j->verify_backlog;
	b->last_dir = DIR_WRITE;
	(void)region;
	(void)files;
	/* fio 3.33 keeps a list only for blocks its random map hands out
	 * once (file_randommap: no lfsr, no zipf/pareto/normal); else the
	 * sorted tree */
	b->sorted = !rw_is_random(j->rw) || j->norandommap ||
		    j->random_generator == GEN_LFSR ||
		    !(j->dist == DIST_UNIFORM || j->dist == DIST_ZONED ||
		      j->dist == DIST_ZONED_ABS);
}

void vbacklog_free(struct vbacklog *b)
{
	if (!b)
		return;
	free(b->ent);
	b->ent = NULL;
	b->head = b->end = b->cap = 0;
}

/* The oldest leaves by moving head (the common case, O(1)). */
static void drop(struct vbacklog *b, unsigned i)
{
	if (i == b->head) {
		b->head++;
		return;
	}
	memmove(&b->ent[i], &b->ent[i + 1], (b->end - i - 1) * sizeof(b->ent[0]));
	b->end--;
}

/* fio's sorted log keeps one entry per block: a new write replaces the
 * logged ones it overlaps. */
static void drop_overlaps(struct vbacklog *b, const struct io_unit *u)
{
	for (unsigned i = b->end; i-- > b->head;) {
		const struct vbacklog_ent *e = &b->ent[i];
		if (e->file == u->file && e->offset < u->offset + u->len &&
		    u->offset < e->offset + e->len)
			drop(b, i);
	}
}

int vbacklog_issued(struct vbacklog *b, const struct io_unit *u)
{
	/* the verify phase alone sorts once, at its start (settle) */
	if (b->sorted && b->every)
		drop_overlaps(b, u);
	if (b->head && b->end == b->cap) { /* room at the front: compact */
		memmove(b->ent, &b->ent[b->head],
			(b->end - b->head) * sizeof(b->ent[0]));
		b->end -= b->head;
		b->head = 0;
	}
	if (b->end == b->cap) {
		unsigned cap = b->cap ? 2 * b->cap : 64;
		void *p = realloc(b->ent, cap * sizeof(b->ent[0]));
		if (!p)
			return -ENOMEM;
		b->ent = p;
		b->cap = cap;
	}
	b->ent[b->end++] = (struct vbacklog_ent){
	    .file = u->file, .offset = u->offset, .len = u->len,
	    .inflight = true, .unit = u->index, .seq = b->seq++,
	};
	b->nr_inflight++;
	return 0;
}

void vbacklog_completed(struct vbacklog *b, const struct io_unit *u)
{
	b->last_dir = u->dir;
	if (u->dir != DIR_WRITE)
		return;
	/* newest first: what is in flight was logged last */
	for (unsigned i = b->end; i-- > b->head;) {
		struct vbacklog_ent *e = &b->ent[i];
		if (!e->inflight || e->unit != u->index)
			continue;
		b->nr_inflight--;
		if (u->result != (int64_t)u->len) /* fio unlogs a failed write */
			drop(b, i);
		else
			e->inflight = false;
		return;
	}
}

/* The entry get_next_verify takes: the oldest (only if done), or in the
 * sorted log the lowest (file, offset) that is done; end when none. */
static unsigned pick(const struct vbacklog *b)
{
	unsigned best = b->end;

	if (!b->sorted)
		return b->head < b->end && !b->ent[b->head].inflight ? b->head
								    : b->end;
	for (unsigned i = b->head; i < b->end; i++) {
		const struct vbacklog_ent *e = &b->ent[i], *o = &b->ent[best];
		if (e->inflight)
			continue;
		if (best == b->end || e->file < o->file ||
		    (e->file == o->file && e->offset < o->offset))
			best = i;
	}
	return best;
}

static int by_file_offset_seq(const void *pa, const void *pb)
{
	const struct vbacklog_ent *a = pa, *b = pb;

	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static bool overlap(const struct vbacklog_ent *a, const struct vbacklog_ent *b)
{
	return a->file == b->file && a->offset < b->offset + b->len &&
	       b->offset < a->offset + a->len;
}

/* Is ent[i] (of the sorted ent[head .. end)) overlapped by a later
 * write? Those start before its end; the ones before it reach back at
 * most the longest write. */
static bool overwritten(const struct vbacklog *b, unsigned i, uint64_t maxlen)
{
	const struct vbacklog_ent *x = &b->ent[i];

	for (unsigned k = i + 1; k < b->end && overlap(&b->ent[k], x); k++)
		if (b->ent[k].seq > x->seq)
			return true;
	for (unsigned k = i; k-- > b->head;) {
		const struct vbacklog_ent *y = &b->ent[k];
		if (y->file != x->file || x->offset - y->offset >= maxlen)
			break;
		if (y->seq > x->seq && overlap(y, x))
			return true;
	}
	return false;
}

/* The verify phase's sorted log as fio's tree holds it at its end: a
 * write drops every older one it overlaps, the rest by (file, offset). */
static void settle(struct vbacklog *b)
{
	uint64_t maxlen = 0;
	unsigned n = b->end - b->head, kept = b->head;

	b->settled = true;
	if (!b->sorted || !n)
		return;
	qsort(&b->ent[b->head], n, sizeof(b->ent[0]), by_file_offset_seq);
	for (unsigned i = b->head; i < b->end; i++)
		if (b->ent[i].len > maxlen)
			maxlen = b->ent[i].len;
	/* marked first (the checks read the whole run), then compacted */
	for (unsigned i = b->head; i < b->end; i++)
		b->ent[i].inflight = overwritten(b, i, maxlen);
	for (unsigned i = b->head; i < b->end; i++)
		if (!b->ent[i].inflight)
			b->ent[kept++] = b->ent[i];
	b->end = kept;
}

bool vbacklog_next(struct vbacklog *b, bool writes_done,
		   struct io_hooks_op *op)
{
	unsigned nr = b->end - b->head;

	if (!b->every) { /* the verify phase alone, once every write is done */
		if (!writes_done || b->nr_inflight)
			return false;
		if (!b->settled)
			settle(b);
		if (b->head == b->end)
			return false;
		*op = (struct io_hooks_op){.file = b->ent[b->head].file,
					   .offset = b->ent[b->head].offset,
					   .len = b->ent[b->head].len};
		b->head++;
		return true;
	}
	if (!nr)
		return false;
	if (!writes_done && !b->batch) {
		if (nr % b->every || b->last_dir == DIR_READ)
			return false;
		b->batch = b->batch_size;
	}
	unsigned i = pick(b);
	if (i == b->end)
		return false;
	*op = (struct io_hooks_op){.file = b->ent[i].file,
				   .offset = b->ent[i].offset,
				   .len = b->ent[i].len};
	drop(b, i);
	if (b->batch)
		b->batch--;
	return true;
}
