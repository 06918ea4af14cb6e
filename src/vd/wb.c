/* wb.c - the write-back cache of a VD instance (see cache.h).
 *
 * The cache is a fixed set of slots, each one stripe row of VD bytes with
 * a bitmap of dirty 512-byte sectors (raid1: a strip; jbod: a strip of a
 * member). A host write whose rows all have a slot (or get a free one) is
 * copied in and acknowledged; it waits when one of its rows is being
 * destaged or no slot is free (destaging then frees some: the host sees
 * the destage rate, as behind a full controller cache). Destage uses the
 * normal write path (parity, row locks), one contiguous dirty run of a
 * row per operation, so a row that is dirty from end to end is one
 * full-stripe write: sequential writes smaller than a stripe are
 * coalesced into full stripes and read nothing. Rows are destaged when
 * they become fully dirty, oldest first when more than 3/4 of the slots
 * are dirty (down to 1/2), when dirty for more than WB_AGE_NS, and all of
 * them on a flush (orderly stop, fsync). A read whose sectors are all
 * dirty is served from the cache; one that mixes dirty and clean sectors
 * has those rows destaged first and then reads the members.
 *
 * There is one cache per VD (struct vd's wb), as a controller has one
 * for all its hosts' I/O: every worker of every job on the VD copies into
 * the same slots, under the cache's mutex. A destage is issued by the
 * worker that starts it, through its own member engine, and finishes on
 * that worker (e->by); host writes of other workers to its row wait, as
 * that worker's own do. The mutex is recursive: a synchronous member
 * engine finishes a destage inside the call that issued it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/clock.h"
#include "vd/io.h"

#define SECTOR 512u
#define WB_AGE_NS 1000000000ull

static uint64_t row_bytes_of(const struct vd_geom *g)
{
	return vd_level_concat(g->level) ? g->strip : (uint64_t)g->k * g->strip;
}

/* Slots for cache bytes (at least two rows). */
static unsigned slots_for(const struct vd_def *def, uint64_t rb)
{
	uint64_t n = def->cache / rb;
	return n < 2 ? 2 : n > (1u << 20) ? (1u << 20) : (unsigned)n;
}

size_t vd_wb_store_len(const struct vd_wb *wb, size_t *data_off)
{
	size_t meta = VD_WB_STORE_HDR + (size_t)wb->n * sizeof(struct vd_wb_hdr) +
		      (size_t)wb->n * wb->words * 8;
	*data_off = (meta + 4095) & ~(size_t)4095;
	return *data_off + (size_t)wb->n * wb->row_bytes;
}

/* Point the slots into the store at wb->map. */
static void wb_attach(struct vd_wb *wb)
{
	size_t data_off;
	vd_wb_store_len(wb, &data_off);
	uint8_t *base = wb->map;
	struct vd_wb_hdr *hdr = (void *)(base + VD_WB_STORE_HDR);
	uint64_t *bits = (void *)(hdr + wb->n);
	for (unsigned i = 0; i < wb->n; i++) {
		struct vd_wb_entry *e = &wb->e[i];
		e->hdr = &hdr[i];
		e->dirty = bits + (size_t)i * wb->words;
		e->buf = base + data_off + (size_t)i * wb->row_bytes;
		e->op.kind = OP_DESTAGE;
		e->op.owner = e;
		e->next = wb->free;
		wb->free = e;
	}
}

int vd_wb_create(struct vd *vd)
{
	const struct vd_def *def = &vd->def;
	struct vd_wb *wb = calloc(1, sizeof(*wb));
	if (!wb)
		return -ENOMEM;
	vd->wb = wb;
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&wb->mu, &ma);
	pthread_mutexattr_destroy(&ma);
	wb->row_bytes = row_bytes_of(&vd->geom);
	wb->sectors = wb->row_bytes / SECTOR;
	wb->words = (wb->sectors + 63) / 64;
	wb->n = slots_for(def, wb->row_bytes);
	for (wb->nb = 16; wb->nb < 2 * wb->n; wb->nb *= 2)
		;
	wb->e = calloc(wb->n, sizeof(*wb->e));
	wb->hash = calloc(wb->nb, sizeof(*wb->hash));
	if (!wb->e || !wb->hash)
		return -ENOMEM;
	size_t data_off;
	int ret = 0;
	if (def->write == VD_WRITE_BACK_BBU) {
		ret = vd_bbu_map(vd, wb, vd_wb_store_len(wb, &data_off));
	} else {
		wb->map_len = vd_wb_store_len(wb, &data_off);
		wb->map = mmap(NULL, wb->map_len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (wb->map == MAP_FAILED)
			wb->map = NULL, ret = -ENOMEM;
	}
	if (!ret)
		wb_attach(wb);
	return ret;
}

void vd_wb_destroy(struct vd *vd)
{
	if (!vd)
		return;
	struct vd_wb *wb = vd->wb;
	if (!wb)
		return;
	for (unsigned i = 0; wb->e && i < wb->n; i++)
		vd_op_free(&wb->e[i].op);
	if (wb->map && vd->def.write == VD_WRITE_BACK_BBU)
		vd_bbu_unmap(wb);
	else if (wb->map)
		munmap(wb->map, wb->map_len);
	free(wb->e);
	free(wb->hash);
	pthread_mutex_destroy(&wb->mu);
	free(wb);
	vd->wb = NULL;
}

static void wb_lock(struct vd_wb *wb)
{
	pthread_mutex_lock(&wb->mu);
}

static void wb_unlock(struct vd_wb *wb)
{
	pthread_mutex_unlock(&wb->mu);
}

static void idle_append(struct vd_wb *wb, struct vd_wb_entry *e);

/* After a failure io's engine is gone: its destages will not finish.
 * Their rows' locks are released and the rows go back to the idle list
 * (still dirty: a later flush or the battery file has them). */
void vd_wb_unlock_all(struct vd_io *io)
{
	struct vd_wb *wb = io->vd->wb;
	if (!wb)
		return;
	wb_lock(wb);
	for (unsigned i = 0; i < wb->n; i++) {
		struct vd_wb_entry *e = &wb->e[i];
		if (e->by != io)
			continue;
		if (e->op.locked)
			vd_unlock(io->vd, e->op.lock_first, e->op.lock_last, e->op.excl);
		e->op.locked = false;
		e->by = NULL;
		if (e->busy) {
			e->busy = false;
			wb->busy--;
			e->run_lo = e->run_hi = 0;
			idle_append(wb, e);
		}
	}
	wb_unlock(wb);
}

/* ---- sector bitmaps ---- */

static bool bit(const uint64_t *m, uint64_t i)
{
	return (m[i / 64] >> (i % 64)) & 1;
}

/* Set [a, b); how many were clear. */
static uint64_t bits_set(uint64_t *m, uint64_t a, uint64_t b)
{
	uint64_t n = 0;
	for (uint64_t i = a; i < b; i++)
		if (!bit(m, i)) {
			m[i / 64] |= 1ull << (i % 64);
			n++;
		}
	return n;
}

static void bits_clear(uint64_t *m, uint64_t a, uint64_t b)
{
	for (uint64_t i = a; i < b; i++)
		m[i / 64] &= ~(1ull << (i % 64));
}

static uint64_t bits_count(const uint64_t *m, uint64_t a, uint64_t b)
{
	uint64_t n = 0;
	for (uint64_t i = a; i < b; i++)
		n += bit(m, i);
	return n;
}

/* ---- slots ---- */

static struct vd_wb_entry **bucket(struct vd_wb *wb, uint64_t row)
{
	return &wb->hash[(row * 0x9e3779b97f4a7c15ull >> 40) & (wb->nb - 1)];
}

static struct vd_wb_entry *lookup(struct vd_wb *wb, uint64_t row)
{
	for (struct vd_wb_entry *e = *bucket(wb, row); e; e = e->hnext)
		if (e->row == row)
			return e;
	return NULL;
}

static void idle_unlink(struct vd_wb *wb, struct vd_wb_entry *e)
{
	if (e->prev)
		e->prev->next = e->next;
	else
		wb->idle_head = e->next;
	if (e->next)
		e->next->prev = e->prev;
	else
		wb->idle_tail = e->prev;
	e->prev = e->next = NULL;
}

static void idle_append(struct vd_wb *wb, struct vd_wb_entry *e)
{
	e->prev = wb->idle_tail;
	e->next = NULL;
	if (wb->idle_tail)
		wb->idle_tail->next = e;
	else
		wb->idle_head = e;
	wb->idle_tail = e;
}

static struct vd_wb_entry *slot_take(struct vd_wb *wb, uint64_t row, uint64_t now)
{
	struct vd_wb_entry *e = wb->free;
	wb->free = e->next;
	e->row = row;
	e->ndirty = 0;
	e->born = now;
	e->seq = ++wb->seq;
	e->used = true;
	memset(e->dirty, 0, wb->words * 8);
	e->hnext = *bucket(wb, row);
	*bucket(wb, row) = e;
	idle_append(wb, e);
	wb->inuse++;
	return e;
}

static void slot_release(struct vd_wb *wb, struct vd_wb_entry *e)
{
	/* the store forgets the row before the slot is reused */
	atomic_store_explicit(&e->hdr->valid, 0, memory_order_release);
	for (struct vd_wb_entry **p = bucket(wb, e->row); *p; p = &(*p)->hnext)
		if (*p == e) {
			*p = e->hnext;
			break;
		}
	e->used = false;
	e->next = wb->free;
	wb->free = e;
	wb->inuse--;
}

bool vd_wb_next_run(const uint64_t *bits, uint64_t sectors, uint64_t from,
		    uint64_t *a, uint64_t *b)
{
	uint64_t i = from;
	while (i < sectors && !bit(bits, i))
		i++;
	if (i == sectors)
		return false;
	*a = i;
	while (i < sectors && bit(bits, i))
		i++;
	*b = i;
	return true;
}

/* Destage the next dirty run of e from sector `from` through io's
 * engine; false: none left. */
static bool destage_run(struct vd_io *io, struct vd_wb_entry *e, uint64_t from)
{
	struct vd_wb *wb = io->vd->wb;
	uint64_t a, b;
	if (!vd_wb_next_run(e->dirty, wb->sectors, from, &a, &b))
		return false;
	e->run_lo = a;
	e->run_hi = b;
	struct vd_op *op = &e->op;
	op->dir = DIR_WRITE;
	op->off = e->row * wb->row_bytes + a * SECTOR;
	op->len = (b - a) * SECTOR;
	op->data = e->buf + a * SECTOR;
	op->host = NULL;
	io->internal++;
	vd_io_begin(io, op);
	return true;
}

static void destage(struct vd_io *io, struct vd_wb_entry *e)
{
	struct vd_wb *wb = io->vd->wb;
	if (e->busy)
		return;
	idle_unlink(wb, e);
	e->busy = true;
	e->by = io;
	wb->busy++;
	if (!destage_run(io, e, 0))
		vd_wb_destaged(io, e);
}

void vd_wb_destaged(struct vd_io *io, struct vd_wb_entry *e)
{
	struct vd_wb *wb = io->vd->wb;
	wb_lock(wb);
	if (e->run_hi > e->run_lo) {
		io->internal--;
		if (io->finishing && !e->op.error)
			io->stats->wb_end_bytes += (e->run_hi - e->run_lo) * SECTOR;
		bits_clear(e->dirty, e->run_lo, e->run_hi);
		e->ndirty -= e->run_hi - e->run_lo;
		uint64_t next = e->run_hi;
		e->run_lo = e->run_hi = 0;
		if (destage_run(io, e, next)) {
			wb_unlock(wb);
			return;
		}
	}
	e->busy = false;
	e->by = NULL;
	wb->busy--;
	slot_release(wb, e);
	wb_unlock(wb);
}

uint64_t vd_wb_mark(struct vd_io *io)
{
	struct vd_wb *wb = io->vd->wb;
	if (!wb)
		return 0;
	wb_lock(wb);
	uint64_t seq = wb->seq;
	wb_unlock(wb);
	return seq;
}

void vd_wb_flush(struct vd_io *io, uint64_t upto)
{
	struct vd_wb *wb = io->vd->wb;
	wb_lock(wb);
	for (;;) { /* from the head each time: destage changes the list */
		struct vd_wb_entry *e = wb->idle_head;
		while (e && e->seq > upto)
			e = e->next;
		if (!e)
			break;
		destage(io, e);
	}
	wb_unlock(wb);
}

bool vd_wb_pending(struct vd_io *io, uint64_t upto)
{
	struct vd_wb *wb = io->vd->wb;
	bool any = false;
	if (!wb)
		return false;
	wb_lock(wb);
	for (unsigned i = 0; !any && i < wb->n; i++)
		any = wb->e[i].used && wb->e[i].seq <= upto;
	wb_unlock(wb);
	return any;
}

void vd_wb_tick(struct vd_io *io)
{
	struct vd_wb *wb = io->vd->wb;
	wb_lock(wb);
	if (wb->idle_head && wb->inuse - wb->busy > wb->n * 3 / 4)
		while (wb->idle_head && wb->inuse - wb->busy > wb->n / 2)
			destage(io, wb->idle_head);
	uint64_t now = fast_ns();
	while (wb->idle_head && now - wb->idle_head->born > WB_AGE_NS)
		destage(io, wb->idle_head);
	wb_unlock(wb);
}

/* ---- host I/O ---- */

/* Sectors [*a, *b) of row r that [off, off+len) covers. */
static void row_span(const struct vd_wb *wb, uint64_t r, uint64_t off,
		     uint64_t len, uint64_t *a, uint64_t *b)
{
	uint64_t lo = r * wb->row_bytes, hi = lo + wb->row_bytes;
	uint64_t s = off > lo ? off : lo, t = off + len < hi ? off + len : hi;
	*a = (s - lo) / SECTOR;
	*b = (t - lo) / SECTOR;
}

/* Copy between the host buffer and the slots of [off, off+len). */
static void copy(struct vd_io *io, struct vd_op *op, bool to_cache, uint64_t now)
{
	struct vd_wb *wb = io->vd->wb;
	uint64_t r0 = op->off / wb->row_bytes, r1 = (op->off + op->len - 1) / wb->row_bytes;
	for (uint64_t r = r0; r <= r1; r++) {
		uint64_t a, b;
		row_span(wb, r, op->off, op->len, &a, &b);
		uint8_t *host = op->data + (r * wb->row_bytes + a * SECTOR - op->off);
		struct vd_wb_entry *e = lookup(wb, r);
		if (!to_cache) {
			memcpy(host, e->buf + a * SECTOR, (b - a) * SECTOR);
			continue;
		}
		if (!e)
			e = slot_take(wb, r, now);
		memcpy(e->buf + a * SECTOR, host, (b - a) * SECTOR);
		/* data before the bits, the bits before valid: what a crash
		 * leaves in a persistent store is never newer than it says */
		atomic_thread_fence(memory_order_release);
		e->ndirty += bits_set(e->dirty, a, b);
		e->hdr->row = r;
		atomic_store_explicit(&e->hdr->valid, 1, memory_order_release);
	}
}

static enum vd_wb_ret wb_read(struct vd_io *io, struct vd_op *op, bool aligned)
{
	struct vd_wb *wb = io->vd->wb;
	uint64_t r0 = op->off / wb->row_bytes, r1 = (op->off + op->len - 1) / wb->row_bytes;
	uint64_t want = 0, have = 0;
	for (uint64_t r = r0; r <= r1; r++) {
		uint64_t a, b;
		row_span(wb, r, op->off, op->len, &a, &b);
		struct vd_wb_entry *e = lookup(wb, r);
		want += b - a;
		have += e ? bits_count(e->dirty, a, b) : 0;
	}
	if (have == 0)
		return WB_PASS;
	if (have == want && aligned) {
		copy(io, op, false, 0);
		return WB_DONE;
	}
	for (uint64_t r = r0; r <= r1; r++) { /* mixed: destage, then read */
		struct vd_wb_entry *e = lookup(wb, r);
		if (e)
			destage(io, e);
	}
	return WB_WAIT;
}

static enum vd_wb_ret wb_write(struct vd_io *io, struct vd_op *op, bool aligned)
{
	struct vd_wb *wb = io->vd->wb;
	uint64_t r0 = op->off / wb->row_bytes, r1 = (op->off + op->len - 1) / wb->row_bytes;
	unsigned fresh = 0, cached = 0;
	bool busy = false;
	for (uint64_t r = r0; r <= r1; r++) {
		struct vd_wb_entry *e = lookup(wb, r);
		fresh += !e;
		cached += e != NULL;
		busy |= e && e->busy;
	}
	if (busy)
		return WB_WAIT;
	if (!aligned || r1 - r0 + 1 > wb->n) { /* cannot be cached: write through */
		if (!cached)
			return WB_PASS;
		for (uint64_t r = r0; r <= r1; r++)
			if (lookup(wb, r))
				destage(io, lookup(wb, r));
		return WB_WAIT;
	}
	if (fresh > wb->n - wb->inuse) { /* full: make room, oldest first */
		unsigned want = fresh - (wb->n - wb->inuse);
		while (want > wb->busy && wb->idle_head)
			destage(io, wb->idle_head);
		return WB_WAIT;
	}
	uint64_t now = fast_ns();
	copy(io, op, true, now);
	for (uint64_t r = r0; r <= r1; r++) {
		struct vd_wb_entry *e = lookup(wb, r);
		if (e->ndirty == wb->sectors)
			destage(io, e); /* a full stripe: write it now, nothing to read */
	}
	return WB_DONE;
}

enum vd_wb_ret vd_wb_host(struct vd_io *io, struct vd_op *op)
{
	struct vd_wb *wb = io->vd->wb;
	bool aligned = op->off % SECTOR == 0 && op->len % SECTOR == 0;
	enum vd_wb_ret r = WB_PASS;
	wb_lock(wb);
	if (op->dir == DIR_WRITE)
		r = wb_write(io, op, aligned);
	else if (wb->inuse)
		r = wb_read(io, op, aligned);
	wb_unlock(wb);
	return r;
}
