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
	b->sorted = (j->norandommap && rw_is_random(j->rw)) || j->rw_hole ||
		    j->rw_seq_nr > 1 || (j->io_size && j->io_size > region * files);
}

void vbacklog_free(struct vbacklog *b)
{
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
	if (b->sorted)
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
	    .inflight = true, .unit = u->index,
	};
	return 0;
}

void vbacklog_completed(struct vbacklog *b, const struct io_unit *u)
{
	b->last_dir = u->dir;
	if (u->dir != DIR_WRITE)
		return;
	for (unsigned i = b->head; i < b->end; i++) {
		struct vbacklog_ent *e = &b->ent[i];
		if (!e->inflight || e->unit != u->index)
			continue;
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

bool vbacklog_next(struct vbacklog *b, bool writes_done,
		   struct io_hooks_op *op)
{
	unsigned nr = b->end - b->head;

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
