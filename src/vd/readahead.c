/* readahead.c - a VD instance's read-ahead cache (readahead=on; the data
 * and its coherence rule are in cache.h).
 *
 * A controller sees a sequential stream in the commands as they arrive,
 * not as they complete: a host read that starts where the previous one
 * ended extends the stream, and from the second such read on the strips
 * after it (up to two rows, at most half the cache) are read ahead, at
 * once, by internal operations that take the same locks as host reads.
 * Each later read of the stream therefore finds its strips cached or
 * still being read ahead; in the second case it waits for them (it never
 * issues a member read of its own for a strip already on its way), so at
 * any queue depth a sequential stream costs one member read per strip.
 *
 * A read served from the cache costs a copy into the host's buffer, which
 * a member read straight into that buffer does not. So read-ahead stands
 * aside while the host's own queue keeps every data member busy (two
 * reads or more in flight, a stripe row of bytes or more): those reads go
 * to the members into their own buffers, and read-ahead resumes when the
 * queue shrinks. It works where it pays: a shallow queue, whose members
 * would otherwise idle between one read and the next.
 *
 * readahead=on (always, as a PERC's or MegaRAID's "Read Ahead") also
 * turns every read that misses into reads of its whole strips into the
 * cache: random reads smaller than a strip then move a strip each, as on
 * those controllers (a read of whole strips goes straight to the members:
 * the cache would hold nothing it does not take); readahead=adaptive reads
 * whole strips only for sequential streams, and random reads go to the
 * members as they are.
 *
 * Every strip read ahead is counted (ra_strips), and those that served a
 * host read (ra_used): the difference is what read-ahead wasted (strips
 * evicted or invalidated unused, or still unused at the end).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "vd/io.h"

#define RA_MAX_ENTRIES 256u

int vd_ra_init(struct vd_io *io)
{
	const struct vd_def *def = &io->vd->def;
	uint64_t n = def->cache / def->strip;
	if (n > RA_MAX_ENTRIES)
		n = RA_MAX_ENTRIES;
	if (n < 2)
		n = 2;
	io->ra.e = calloc(n, sizeof(*io->ra.e));
	for (io->ra.nb = 16; io->ra.nb < 2 * n; io->ra.nb *= 2)
		;
	io->ra.hash = calloc(io->ra.nb, sizeof(*io->ra.hash));
	io->ra.spent = calloc(n, sizeof(*io->ra.spent));
	if (!io->ra.e || !io->ra.hash || !io->ra.spent)
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

void vd_ra_free(struct vd_io *io)
{
	if (!io)
		return;
	for (unsigned i = 0; io->ra.e && i < io->ra.n; i++) {
		vd_op_free(&io->ra.e[i].op);
		free(io->ra.e[i].buf);
	}
	free(io->ra.e);
	free(io->ra.hash);
	free(io->ra.spent);
	io->ra.e = NULL;
	io->ra.hash = NULL;
	io->ra.spent = NULL;
	io->ra.n = 0;
}

void vd_ra_unlock_all(struct vd_io *io)
{
	for (unsigned i = 0; io->ra.e && i < io->ra.n; i++) {
		struct vd_op *op = &io->ra.e[i].op;
		if (op->locked)
			vd_unlock(io->vd, op->lock_first, op->lock_last, op->excl);
		op->locked = false;
	}
}

/* A hash of strips, so that a lookup costs the same at any cache size:
 * every waiting read is looked at again each time a load finishes. */
static struct vd_ra_entry **ra_bucket(struct vd_ra *ra, uint64_t strip)
{
	return &ra->hash[(strip * 0x9e3779b97f4a7c15ull >> 40) & (ra->nb - 1)];
}

static struct vd_ra_entry *ra_find(struct vd_io *io, uint64_t strip)
{
	for (struct vd_ra_entry *e = *ra_bucket(&io->ra, strip); e; e = e->hnext)
		if (e->strip == strip && e->state != RA_FREE)
			return e;
	return NULL;
}

/* Key e under strip from now on. */
static void ra_rehash(struct vd_ra *ra, struct vd_ra_entry *e, uint64_t strip)
{
	if (e->hashed)
		for (struct vd_ra_entry **p = ra_bucket(ra, e->strip); *p; p = &(*p)->hnext)
			if (*p == e) {
				*p = e->hnext;
				break;
			}
	e->strip = strip;
	e->hnext = *ra_bucket(ra, strip);
	*ra_bucket(ra, strip) = e;
	e->hashed = true;
}

/* The slot to load into, looking at every one: one that served a read or
 * went stale (the most recently used), else a free one, else the oldest
 * loaded one nobody read yet. Never one being loaded. */
static struct vd_ra_entry *ra_victim_scan(struct vd_io *io)
{
	struct vd_ra_entry *best = NULL;
	int best_rank = 4;
	for (unsigned i = 0; i < io->ra.n; i++) {
		struct vd_ra_entry *e = &io->ra.e[i];
		if (e->state == RA_LOADING)
			continue;
		bool spent = e->state == RA_VALID &&
			     (e->hit || e->gen != vd_gen(io->vd, e->strip));
		int rank = spent ? 1 : e->state == RA_FREE ? 2 : 3;
		if (rank < best_rank ||
		    (rank == best_rank && (rank == 1 ? e->used > best->used : e->used < best->used)))
			best = e, best_rank = rank;
	}
	return best;
}

/* A strip served its first read: on top of the spent stack. */
static void ra_spent(struct vd_ra *ra, struct vd_ra_entry *e)
{
	if (!e->spent_listed) {
		e->spent_listed = true;
		ra->spent[ra->nr_spent++] = e;
	}
}

/* The slot to load into: the most recently used of those that served a
 * read (a sequential stream does not read a strip twice, and the buffer
 * just read from is still in the CPU's cache: the stream cycles through a
 * few buffers, not the whole cache), from the spent stack without a scan;
 * when it is empty the scan above. */
static struct vd_ra_entry *ra_victim(struct vd_io *io)
{
	while (io->ra.nr_spent) {
		struct vd_ra_entry *e = io->ra.spent[--io->ra.nr_spent];
		e->spent_listed = false;
		if (e->state == RA_VALID && e->hit)
			return e;
	}
	return ra_victim_scan(io);
}

static bool counting(const struct vd_io *io)
{
	return fast_ns() >= io->measure_start;
}

static void ra_load(struct vd_io *io, struct vd_ra_entry *e, uint64_t c)
{
	const struct vd_geom *g = &io->vd->geom;
	ra_rehash(&io->ra, e, c);
	e->state = RA_LOADING;
	e->hit = false;
	e->gen = vd_gen(io->vd, c);
	e->used = ++io->ra.tick;
	struct vd_op *op = &e->op;
	op->dir = DIR_READ;
	op->off = c << g->strip_shift;
	op->len = g->strip;
	op->data = e->buf;
	op->host = NULL;
	if (counting(io))
		io->stats->ra_strips++;
	io->internal++;
	vd_io_begin(io, op);
}

/* The host's own reads in flight (two at least, a stripe row of bytes at
 * least, the depth below) already keep every data member busy: a strip read
 * ahead would only move a member read into the cache and cost a copy out
 * of it, what a member read into the host's buffer does not. */
static bool host_queue_covers(const struct vd_io *io, uint64_t len)
{
	const struct vd_geom *g = &io->vd->geom;
	uint64_t row = (uint64_t)(g->k ? g->k : 1) << g->strip_shift;
	unsigned d = io->ra.depth_cur > io->ra.depth_prev ? io->ra.depth_cur : io->ra.depth_prev;
	return d >= 2 && d * len >= row;
}

/* The host's queue depth, as the most reads in flight over the last one
 * to two epochs of arrivals: a queue that dips while the host reaps a
 * batch of completions is still that deep (without this, each dip would
 * start read-ahead again, and the copies with it). */
#define RA_DEPTH_EPOCH 32u

static void ra_note_depth(struct vd_ra *ra, unsigned host_reads)
{
	if (host_reads > ra->depth_cur)
		ra->depth_cur = host_reads;
	if (++ra->depth_arrivals == RA_DEPTH_EPOCH) {
		ra->depth_prev = ra->depth_cur;
		ra->depth_cur = 0;
		ra->depth_arrivals = 0;
	}
}

/* A host read of [off, off+len) arrives: follow the stream, read ahead
 * past it. Only strips from the read's end on are loaded: those before
 * it were asked for by the host reads that came first. */
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
	if (host_queue_covers(io, len))
		return;
	uint64_t last = next + window, total = g->capacity >> g->strip_shift;
	if (last > total)
		last = total;
	if (ra->ahead < next || ra->ahead > last)
		ra->ahead = next;
	for (; ra->ahead < last; ra->ahead++) {
		uint64_t c = ra->ahead;
		struct vd_ra_entry *e = ra_find(io, c);
		if (e && e->gen == vd_gen(io->vd, c))
			continue; /* cached or on its way, current */
		if (e && e->state == RA_LOADING)
			continue; /* stale load in flight: host reads go direct */
		if (!e && !(e = ra_victim(io)))
			break;    /* every slot is loading: try on the next read */
		ra_load(io, e, c);
	}
}

enum ra_state { RA_MISS, RA_WAIT, RA_SERVE };

/* Can op be served from the cache: now, once loads finish, or not? */
static enum ra_state ra_check(struct vd_io *io, const struct vd_op *op)
{
	uint64_t shift = io->vd->geom.strip_shift;
	uint64_t c0 = op->off >> shift, c1 = (op->off + op->len - 1) >> shift;
	bool wait = false;
	if (c1 - c0 >= io->ra.n)
		return RA_MISS;
	for (uint64_t c = c0; c <= c1; c++) {
		struct vd_ra_entry *e = ra_find(io, c);
		if (!e || e->gen != vd_gen(io->vd, c))
			return RA_MISS;
		wait |= e->state == RA_LOADING;
	}
	return wait ? RA_WAIT : RA_SERVE;
}

/* Copy op's bytes out of the cache (ra_check said RA_SERVE) and
 * complete it. */
static void ra_serve(struct vd_io *io, struct vd_op *op)
{
	uint64_t shift = io->vd->geom.strip_shift, strip = io->vd->geom.strip;
	uint64_t c0 = op->off >> shift, c1 = (op->off + op->len - 1) >> shift;
	uint64_t now = fast_ns();
	bool count = now >= io->measure_start;
	for (uint64_t c = c0, done = 0; c <= c1; c++) {
		struct vd_ra_entry *e = ra_find(io, c);
		uint64_t in = (op->off + done) & (strip - 1);
		uint64_t n = strip - in < op->len - done ? strip - in : op->len - done;
		memcpy(op->data + done, e->buf + in, n);
		e->used = ++io->ra.tick;
		if (!e->hit && count)
			io->stats->ra_used++;
		e->hit = true;
		ra_spent(&io->ra, e);
		done += n;
	}
	if (count)
		io->stats->ra_copied += op->len;
	if (count && !op->ra_miss)
		io->stats->ra_hits++;
	vd_io_host_done(io, op, now);
}

/* Is any strip of [c0, c1] cached or being read ahead, current? */
static bool ra_any(struct vd_io *io, uint64_t c0, uint64_t c1)
{
	for (uint64_t c = c0; c <= c1; c++) {
		struct vd_ra_entry *e = ra_find(io, c);
		if (e && e->gen == vd_gen(io->vd, c))
			return true;
	}
	return false;
}

/* readahead=always: a read that misses reads its strips whole into the
 * cache (a controller reads ahead to the strip's end) and waits for them;
 * so does a read that found only some of its strips read ahead.
 * False when a strip cannot be loaded now (a stale load of it in flight,
 * or every slot loading): the read goes to the members itself. */
static bool ra_load_own(struct vd_io *io, const struct vd_op *op)
{
	uint64_t shift = io->vd->geom.strip_shift;
	uint64_t c0 = op->off >> shift, c1 = (op->off + op->len - 1) >> shift;
	if (c1 - c0 >= io->ra.n / 2)
		return false;
	/* adaptive, or whole strips (the cache would hold nothing the read
	 * does not take): to the members, unless some of its strips are
	 * read ahead already (reading them again would waste them) */
	bool whole = !((op->off | op->len) & (io->vd->geom.strip - 1));
	if ((io->vd->def.readahead_adaptive || whole) && !ra_any(io, c0, c1))
		return false;
	for (uint64_t c = c0; c <= c1; c++) {
		struct vd_ra_entry *e = ra_find(io, c);
		if (e && e->gen == vd_gen(io->vd, c))
			continue;
		if (e && e->state == RA_LOADING)
			return false;
		if (!e && !(e = ra_victim(io)))
			return false;
		ra_load(io, e, c);
	}
	return true;
}

bool vd_ra_host(struct vd_io *io, struct vd_op *op)
{
	if (op->dir != DIR_READ || !io->ra.n)
		return false;
	ra_note_depth(&io->ra, io->host_reads);
	ra_follow(io, op->off, op->len);
	enum ra_state st = ra_check(io, op);
	op->ra_miss = false;
	if (st == RA_MISS && ra_load_own(io, op)) {
		op->ra_miss = true; /* served by the cache, but not a hit */
		st = ra_check(io, op);
	}
	switch (st) {
	case RA_SERVE:
		ra_serve(io, op);
		return true;
	case RA_WAIT:
		vd_q_push(&io->ra_waiting, op);
		return true;
	case RA_MISS:
		break;
	}
	return false;
}

void vd_ra_loaded(struct vd_io *io, struct vd_op *op)
{
	struct vd_ra_entry *e = op->owner;
	e->state = op->error ? RA_FREE : RA_VALID;
	io->internal--;
	/* detached first: serving or sending one on may finish other loads
	 * (synchronous member engines), which come back here */
	struct vd_queue list = io->ra_waiting;
	io->ra_waiting = (struct vd_queue){0};
	uint64_t c = e->strip, shift = io->vd->geom.strip_shift;
	struct vd_op *w;
	while ((w = vd_q_pop(&list))) {
		/* only the reads of this strip can have changed */
		if (c < w->off >> shift || c > (w->off + w->len - 1) >> shift) {
			vd_q_push(&io->ra_waiting, w);
			continue;
		}
		switch (ra_check(io, w)) {
		case RA_SERVE:
			ra_serve(io, w);
			break;
		case RA_WAIT:
			vd_q_push(&io->ra_waiting, w);
			break;
		case RA_MISS: /* failed or overwritten meanwhile: read it */
			vd_io_begin(io, w);
			break;
		}
	}
}
