/* policy.c - the controller policies of a VD instance: read-ahead and
 * write-back (see cache.h for the data and its rules).
 *
 * Read-ahead: a host read that starts where the previous one ended
 * extends a sequential stream; from the second such read on, the strips
 * after it (up to two rows, at most half the cache) are read into the
 * cache by internal operations that take the same locks as host reads. A
 * host read whose strips are all cached and current completes from memory.
 *
 * Write-back (wb.c) comes first: host ops it holds wait in `waiting`, in
 * host order, and are retried as destages finish.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "vd/io.h"

#define RA_MAX_ENTRIES 256u

int vd_policy_init(struct vd_io *io)
{
	const struct vd_def *def = &io->vd->def;

	if (vd_write_back(def) && vd_wb_init(io))
		return -ENOMEM;
	if (!def->readahead)
		return 0;
	uint64_t n = def->cache / def->strip;
	if (n > RA_MAX_ENTRIES)
		n = RA_MAX_ENTRIES;
	if (n < 2)
		n = 2;
	io->ra.e = calloc(n, sizeof(*io->ra.e));
	if (!io->ra.e)
		return -ENOMEM;
	io->ra.n = (unsigned)n;
	for (unsigned i = 0; i < n; i++) {
		if (posix_memalign((void **)&io->ra.e[i].buf, 4096, def->strip))
			return -ENOMEM;
		io->ra.e[i].op.kind = OP_READAHEAD;
		io->ra.e[i].op.owner = &io->ra.e[i];
	}
	return 0;
}

void vd_policy_free(struct vd_io *io)
{
	for (unsigned i = 0; io->ra.e && i < io->ra.n; i++) {
		vd_op_free(&io->ra.e[i].op);
		free(io->ra.e[i].buf);
	}
	free(io->ra.e);
	io->ra.e = NULL;
	vd_wb_free(io);
}

static void unlock_op(struct vd_io *io, struct vd_op *op)
{
	if (op->locked)
		vd_unlock(io->vd, op->lock_first, op->lock_last, op->excl);
	op->locked = false;
}

void vd_policy_unlock_all(struct vd_io *io)
{
	for (unsigned i = 0; io->ra.e && i < io->ra.n; i++)
		unlock_op(io, &io->ra.e[i].op);
	vd_wb_unlock_all(io);
}

bool vd_policy_busy(const struct vd_io *io)
{
	return io->wb.inuse || io->waiting.head || io->internal;
}

void vd_policy_flush(struct vd_io *io)
{
	if (io->wb.e)
		vd_wb_flush(io);
}

/* ---- read-ahead ---- */

static struct vd_ra_entry *ra_find(struct vd_io *io, uint64_t strip)
{
	for (unsigned i = 0; i < io->ra.n; i++)
		if (io->ra.e[i].state != RA_FREE && io->ra.e[i].strip == strip)
			return &io->ra.e[i];
	return NULL;
}

/* All strips of [off, off+len) cached and current: copy them out. */
static bool ra_serve(struct vd_io *io, struct vd_op *op)
{
	uint64_t shift = io->vd->geom.strip_shift, strip = io->vd->geom.strip;
	uint64_t c0 = op->off >> shift, c1 = (op->off + op->len - 1) >> shift;
	if (c1 - c0 >= io->ra.n)
		return false;
	for (uint64_t c = c0; c <= c1; c++) {
		struct vd_ra_entry *e = ra_find(io, c);
		if (!e || e->state != RA_VALID || e->gen != vd_gen(io->vd, c))
			return false;
	}
	for (uint64_t c = c0, done = 0; c <= c1; c++) {
		struct vd_ra_entry *e = ra_find(io, c);
		uint64_t in = (op->off + done) & (strip - 1);
		uint64_t n = strip - in < op->len - done ? strip - in : op->len - done;
		memcpy(op->data + done, e->buf + in, n);
		e->used = ++io->ra.tick;
		done += n;
	}
	return true;
}

static struct vd_ra_entry *ra_victim(struct vd_io *io)
{
	struct vd_ra_entry *best = NULL;
	for (unsigned i = 0; i < io->ra.n; i++) {
		struct vd_ra_entry *e = &io->ra.e[i];
		if (e->state == RA_LOADING)
			continue;
		if (e->state == RA_FREE)
			return e;
		if (!best || e->used < best->used)
			best = e;
	}
	return best;
}

/* After a host read of [off, off+len): follow the stream, read ahead. */
static void ra_follow(struct vd_io *io, uint64_t off, uint64_t len)
{
	const struct vd_geom *g = &io->vd->geom;
	struct vd_ra *ra = &io->ra;

	ra->run = off == ra->next_off ? ra->run + 1 : 0;
	ra->next_off = off + len;
	if (ra->run < 1)
		return;
	uint64_t next = (off + len) >> g->strip_shift;
	uint64_t window = 2ull * (g->k ? g->k : 1);
	if (window > ra->n / 2)
		window = ra->n / 2 ? ra->n / 2 : 1;
	uint64_t last = next + window, total = g->capacity >> g->strip_shift;
	if (last > total)
		last = total;
	if (ra->ahead < next || ra->ahead > last)
		ra->ahead = next;
	for (; ra->ahead < last; ra->ahead++) {
		uint64_t c = ra->ahead;
		struct vd_ra_entry *e = ra_find(io, c);
		if (e && (e->state == RA_LOADING || e->gen == vd_gen(io->vd, c)))
			continue;
		if (!e && !(e = ra_victim(io)))
			break;
		e->strip = c;
		e->state = RA_LOADING;
		e->gen = vd_gen(io->vd, c);
		e->used = ++ra->tick;
		struct vd_op *op = &e->op;
		op->dir = DIR_READ;
		op->off = c << g->strip_shift;
		op->len = g->strip;
		op->data = e->buf;
		op->host = NULL;
		io->internal++;
		vd_io_begin(io, op);
	}
}

/* ---- write-back ---- */

static void wb_done(struct vd_io *io, struct vd_op *op)
{
	uint64_t now = fast_ns();
	if (now >= io->measure_start && op->dir == DIR_WRITE)
		io->stats->wb_absorbed++;
	vd_io_host_done(io, op, now);
}

static bool ra_take(struct vd_io *io, struct vd_op *op)
{
	if (op->dir != DIR_READ || !io->ra.n || !ra_serve(io, op))
		return false;
	uint64_t now = fast_ns();
	if (now >= io->measure_start)
		io->stats->ra_hits++;
	ra_follow(io, op->off, op->len);
	vd_io_host_done(io, op, now);
	return true;
}

bool vd_policy_host(struct vd_io *io, struct vd_op *op)
{
	if (io->wb.e && (io->wb.inuse || op->dir == DIR_WRITE || io->waiting.head)) {
		if (io->waiting.head) { /* keep host order behind held ops */
			vd_q_push(&io->waiting, op);
			return true;
		}
		enum vd_wb_ret r = vd_wb_host(io, op);
		if (r == WB_WAIT)
			vd_q_push(&io->waiting, op);
		else if (r == WB_DONE)
			wb_done(io, op);
		if (r != WB_PASS)
			return true;
	}
	return ra_take(io, op);
}

void vd_policy_retry(struct vd_io *io)
{
	if (!io->wb.e)
		return;
	vd_wb_tick(io);
	struct vd_op *op;
	while ((op = io->waiting.head)) {
		enum vd_wb_ret r = vd_wb_host(io, op);
		if (r == WB_WAIT)
			break;
		vd_q_pop(&io->waiting);
		if (r == WB_DONE)
			wb_done(io, op);
		else if (!ra_take(io, op))
			vd_io_begin(io, op);
	}
}

void vd_policy_finished(struct vd_io *io, struct vd_op *op)
{
	switch (op->kind) {
	case OP_HOST:
		if (op->dir == DIR_READ && io->ra.n && !op->error)
			ra_follow(io, op->off, op->len);
		break;
	case OP_READAHEAD: {
		struct vd_ra_entry *e = op->owner;
		e->state = op->error ? RA_FREE : RA_VALID;
		io->internal--;
		break;
	}
	case OP_DESTAGE:
		vd_wb_destaged(io, op->owner);
		break;
	}
}
