/* plan.c - what member I/Os a host I/O becomes, and the parity arithmetic
 * between the read and the write phase (see op.h).
 *
 * Parity rows work on the in-strip byte range [lo, hi) that the host I/O
 * touches in that row (the union over its strips): every member I/O of the
 * row covers exactly that range of its strip, so a row costs one member
 * I/O per member involved. For a write the row chooses, by fewest member
 * reads (ties go to read-modify-write, which touches fewer members):
 *
 *   read-modify-write  reads old data of the touched strips and the live
 *                      parity; P ^= old ^ new, Q ^= g^i (old ^ new);
 *   reconstruct-write  reads the data strips the host does not fully
 *                      overwrite; P and Q are computed afresh. A full-stripe
 *                      write reads nothing;
 *   degraded           when a strip it needs is lost: reads every live
 *                      member, rebuilds the lost strips, then as above.
 */
#include "vd/op.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vd/parity.h"
#include "vd/stats.h"

static int advance(struct vd_plan_ctx *c, struct vd_op *op);

unsigned vd_row_member(const struct vd_geom *g, uint64_t r, unsigned j)
{
	if (j < g->k)
		return vd_geom_data_member(g, r, j);
	return j == g->k ? vd_geom_p_member(g, r) : vd_geom_q_member(g, r);
}

bool vd_op_lock_range(const struct vd *vd, struct vd_op *op)
{
	const struct vd_geom *g = &vd->geom;

	if (g->level == VD_RAID0 || vd_level_concat(g->level))
		return false;
	uint64_t c0 = op->off >> g->strip_shift;
	uint64_t c1 = (op->off + op->len - 1) >> g->strip_shift;
	op->lock_first = c0 / g->k;
	op->lock_last = c1 / g->k;
	op->excl = op->dir == DIR_WRITE;
	return true;
}

void vd_op_free(struct vd_op *op)
{
	if (!op)
		return;
	free(op->mios);
	free(op->pieces);
	free(op->bounce);
	free(op->rows);
	free(op->scratch);
}

static int add_mio(struct vd_op *op, unsigned member, enum io_dir dir,
		   uint64_t off, uint64_t len, void *buf)
{
	if (op->nr_mios == op->cap_mios) {
		unsigned cap = op->cap_mios ? op->cap_mios * 2 : 16;
		struct vd_mio *m = realloc(op->mios, cap * sizeof(*m));
		if (!m)
			return -ENOMEM;
		op->mios = m;
		op->cap_mios = cap;
	}
	op->mios[op->nr_mios++] = (struct vd_mio){
		.member = member, .dir = dir, .off = off, .len = len, .buf = buf,
	};
	return 0;
}

static bool dead(const struct vd_plan_ctx *c, unsigned member, uint64_t row)
{
	return vd_lost_at(c->vd, c->fail_mask, member, row);
}

/* A live copy of a mirrored strip: the pair of raid10, any member of
 * raid1. start alternates per host I/O, not per strip, so reads spread
 * over the mirrors while one I/O's strips stay on one copy and merge. */
static unsigned mirror_pick(struct vd_plan_ctx *c, const struct vd_geom *g,
			    unsigned first, uint64_t row, unsigned start)
{
	unsigned copies = g->level == VD_RAID1 ? g->n : 2;
	for (unsigned t = 0; t < copies; t++) {
		unsigned m = first + (start + t) % copies;
		if (!dead(c, m, row))
			return m;
	}
	return first; /* cannot happen: the definition was checked */
}

/* Non-parity levels: one member I/O per piece (per live copy for writes). */
static int plan_plain(struct vd_plan_ctx *c, struct vd_op *op)
{
	const struct vd_geom *g = &c->vd->geom;
	uint64_t done = 0;
	unsigned start = c->rr++;
	int ret = 0;

	while (done < op->len && !ret) {
		struct vd_piece p;
		vd_geom_piece(g, op->off + done, op->len - done, &p);
		uint8_t *buf = op->data + done;
		uint64_t moff = (p.row << g->strip_shift) + p.in_strip;
		unsigned first = vd_geom_data_member(g, p.row, p.idx);
		unsigned copies = g->level == VD_RAID1 ? g->n : g->level == VD_RAID10 ? 2 : 1;

		if (vd_level_concat(g->level))
			moff = p.in_strip;
		if (op->dir == DIR_READ) {
			unsigned m = copies > 1 ? mirror_pick(c, g, first, p.row, start) : first;
			ret = add_mio(op, m, DIR_READ, moff, p.len, buf);
		} else {
			for (unsigned t = 0; t < copies && !ret; t++)
				if (!dead(c, first + t, p.row))
					ret = add_mio(op, first + t, DIR_WRITE, moff, p.len, buf);
		}
		done += p.len;
	}
	op->phase = op->dir == DIR_READ ? OP_READS : OP_WRITES;
	return ret;
}

/* Row index j of row r lost? */
static bool row_dead(const struct vd_plan_ctx *c, uint64_t r, unsigned j)
{
	return dead(c, vd_row_member(&c->vd->geom, r, j), r);
}

/* Pass 1 over the pieces: the rows, their [lo, hi), touched and full. */
static int collect_rows(struct vd_plan_ctx *c, struct vd_op *op)
{
	const struct vd_geom *g = &c->vd->geom;
	unsigned nr = (unsigned)(op->lock_last - op->lock_first + 1);

	if (nr > op->cap_rows) {
		struct vd_row *r = realloc(op->rows, nr * sizeof(*r));
		if (!r)
			return -ENOMEM;
		op->rows = r;
		op->cap_rows = nr;
	}
	op->nr_rows = nr;
	for (unsigned i = 0; i < nr; i++)
		op->rows[i] = (struct vd_row){
			.row = op->lock_first + i, .lo = g->strip, .hi = 0,
			.miss = {-1, -1},
		};
	for (uint64_t done = 0; done < op->len;) {
		struct vd_piece p;
		vd_geom_piece(g, op->off + done, op->len - done, &p);
		struct vd_row *r = &op->rows[p.row - op->lock_first];
		if (p.in_strip < r->lo)
			r->lo = p.in_strip;
		if (p.in_strip + p.len > r->hi)
			r->hi = p.in_strip + p.len;
		r->touched |= 1ull << p.idx;
		done += p.len;
	}
	/* a write to a row a fast init left uninitialized computes the
	 * parity of the whole row (what initializes it) */
	for (unsigned i = 0; op->dir == DIR_WRITE && i < nr; i++)
		if (vd_row_uninit(c->vd, op->rows[i].row))
			op->rows[i].lo = 0, op->rows[i].hi = g->strip;
	/* full: the strip's host bytes span all of the row's [lo, hi) */
	for (uint64_t done = 0; done < op->len;) {
		struct vd_piece p;
		vd_geom_piece(g, op->off + done, op->len - done, &p);
		struct vd_row *r = &op->rows[p.row - op->lock_first];
		if (p.in_strip == r->lo && p.in_strip + p.len == r->hi)
			r->full |= 1ull << p.idx;
		done += p.len;
	}
	for (unsigned i = 0; i < nr; i++) {
		struct vd_row *r = &op->rows[i];
		for (unsigned j = 0; j < g->k + g->np; j++) {
			if (!row_dead(c, r->row, j))
				continue;
			r->miss[r->miss[0] < 0 ? 0 : 1] = (int)j;
		}
	}
	return 0;
}

/* Row buffers for every active row: (k + np) * (hi - lo) bytes each,
 * laid out by member (column m holds m's buffers of all active rows one
 * after the other), so a member's buffers of consecutive full rows are
 * adjacent and their I/Os merge without a bounce (merge.c). */
static int alloc_rows(struct vd_op *op, const struct vd_geom *g)
{
	size_t col = 0, w = g->k + g->np;
	for (unsigned i = 0; i < op->nr_rows; i++)
		if (op->rows[i].active)
			col += op->rows[i].hi - op->rows[i].lo;
	if (w * col > op->scratch_cap) {
		free(op->scratch);
		op->scratch = NULL;
		op->scratch_cap = 0;
		if (posix_memalign((void **)&op->scratch, 4096, w * col))
			return -ENOMEM;
		op->scratch_cap = w * col;
	}
	size_t at = 0;
	for (unsigned i = 0; i < op->nr_rows; i++) {
		struct vd_row *r = &op->rows[i];
		if (!r->active)
			continue;
		for (unsigned j = 0; j < w; j++)
			r->buf[j] = op->scratch + vd_row_member(g, r->row, j) * col + at;
		at += r->hi - r->lo;
	}
	return 0;
}

static uint64_t row_moff(const struct vd_geom *g, const struct vd_row *r)
{
	return (r->row << g->strip_shift) + r->lo;
}

static int read_row_index(struct vd_op *op, const struct vd_geom *g,
			  struct vd_row *r, unsigned j)
{
	return add_mio(op, vd_row_member(g, r->row, j), DIR_READ, row_moff(g, r),
		       r->hi - r->lo, r->buf[j]);
}

static int plan_parity_read(struct vd_plan_ctx *c, struct vd_op *op)
{
	const struct vd_geom *g = &c->vd->geom;
	int ret = collect_rows(c, op);

	if (ret)
		return ret;
	/* a row whose host bytes lie on a lost strip is rebuilt whole */
	for (unsigned i = 0; i < op->nr_rows; i++) {
		struct vd_row *r = &op->rows[i];
		for (int m = 0; m < 2; m++)
			if (r->miss[m] >= 0 && r->miss[m] < (int)g->k &&
			    ((r->touched >> r->miss[m]) & 1))
				r->active = true;
		r->mode = ROW_READ_RECON;
	}
	if ((ret = alloc_rows(op, g)))
		return ret;
	for (unsigned i = 0; i < op->nr_rows && !ret; i++) {
		struct vd_row *r = &op->rows[i];
		if (!r->active)
			continue;
		if (c->counting)
			c->stats->degraded_rows++;
		for (unsigned j = 0; j < g->k + g->np && !ret; j++)
			if (!row_dead(c, r->row, j))
				ret = read_row_index(op, g, r, j);
	}
	for (uint64_t done = 0; done < op->len && !ret;) {
		struct vd_piece p;
		vd_geom_piece(g, op->off + done, op->len - done, &p);
		if (!op->rows[p.row - op->lock_first].active)
			ret = add_mio(op, vd_geom_data_member(g, p.row, p.idx), DIR_READ,
				      (p.row << g->strip_shift) + p.in_strip, p.len,
				      op->data + done);
		done += p.len;
	}
	op->phase = OP_READS;
	return ret;
}

static unsigned popcount(uint64_t v)
{
	return (unsigned)__builtin_popcountll(v);
}

/* Choose how row r is written, and count it. */
static void choose_mode(struct vd_plan_ctx *c, const struct vd_geom *g,
			struct vd_row *r)
{
	uint64_t dead_data = 0;
	unsigned live_parity = 0;
	for (unsigned j = 0; j < g->k + g->np; j++) {
		bool d = row_dead(c, r->row, j);
		if (j < g->k && d)
			dead_data |= 1ull << j;
		if (j >= g->k && !d)
			live_parity++;
	}
	uint64_t all = g->k == 64 ? ~0ull : (1ull << g->k) - 1;
	bool rmw_ok = !(r->touched & dead_data);
	bool rcw_ok = !(all & ~r->full & dead_data);
	unsigned rmw_reads = popcount(r->touched) + live_parity;
	unsigned rcw_reads = g->k - popcount(r->full);

	/* a row a fast init left uninitialized has parity that means
	 * nothing: no read-modify-write until a write has computed it */
	bool uninit = vd_row_uninit(c->vd, r->row);
	if (uninit && rcw_ok)
		rmw_ok = false;
	if (!live_parity)
		r->mode = ROW_DATA_ONLY;
	else if (rmw_ok && (!rcw_ok || rmw_reads <= rcw_reads))
		r->mode = ROW_RMW;
	else if (rcw_ok)
		r->mode = ROW_RCW;
	else
		r->mode = ROW_RECON;
	/* a row with every data strip fully covered is a full-stripe write */
	if (r->mode == ROW_RMW && rcw_ok && rcw_reads == 0)
		r->mode = ROW_RCW;
	r->active = r->mode != ROW_DATA_ONLY;
	if (!c->counting)
		return;
	if (uninit && r->mode != ROW_DATA_ONLY)
		c->stats->uninit_rows++;
	if (r->mode == ROW_RMW)
		c->stats->rmw_rows++;
	else if (r->mode == ROW_RCW && rcw_reads == 0)
		c->stats->full_rows++;
	else if (r->mode == ROW_RCW)
		c->stats->rcw_rows++;
	else if (r->mode == ROW_RECON)
		c->stats->degraded_rows++;
}

static int plan_parity_write(struct vd_plan_ctx *c, struct vd_op *op)
{
	const struct vd_geom *g = &c->vd->geom;
	int ret = collect_rows(c, op);

	if (ret)
		return ret;
	for (unsigned i = 0; i < op->nr_rows; i++)
		choose_mode(c, g, &op->rows[i]);
	if ((ret = alloc_rows(op, g)))
		return ret;
	for (unsigned i = 0; i < op->nr_rows && !ret; i++) {
		struct vd_row *r = &op->rows[i];
		for (unsigned j = 0; j < g->k + g->np && !ret; j++) {
			bool touched = j < g->k && ((r->touched >> j) & 1);
			bool full = j < g->k && ((r->full >> j) & 1);
			bool want;
			if (row_dead(c, r->row, j))
				continue;
			switch (r->mode) {
			case ROW_RMW: want = touched || j >= g->k; break;
			case ROW_RCW: want = j < g->k && !full; break;
			case ROW_RECON: want = true; break; /* all live: rebuild needs them */
			default: want = false; break;
			}
			if (want)
				ret = read_row_index(op, g, r, j);
		}
	}
	op->phase = OP_READS;
	if (!ret && op->nr_mios == 0)
		return advance(c, op); /* nothing to read: straight to writes */
	return ret;
}

static int start(struct vd_plan_ctx *c, struct vd_op *op)
{
	const struct vd_geom *g = &c->vd->geom;

	op->nr_mios = op->submitted = op->outstanding = 0;
	op->nr_rows = 0;
	op->error = 0;
	if (!g->np)
		return plan_plain(c, op);
	return op->dir == DIR_READ ? plan_parity_read(c, op) : plan_parity_write(c, op);
}

/* Host bytes of data index idx in row r go to / come from its row buffer. */
static void overlay(struct vd_op *op, const struct vd_geom *g, bool to_row)
{
	for (uint64_t done = 0; done < op->len;) {
		struct vd_piece p;
		vd_geom_piece(g, op->off + done, op->len - done, &p);
		struct vd_row *r = &op->rows[p.row - op->lock_first];
		if (r->active) {
			uint8_t *rb = r->buf[p.idx] + (p.in_strip - r->lo);
			if (to_row)
				memcpy(rb, op->data + done, p.len);
			else
				memcpy(op->data + done, rb, p.len);
		}
		done += p.len;
	}
}

static int recover_row(const struct vd_geom *g, struct vd_row *r)
{
	return parity_recover(g->k, g->np, (void *const *)r->buf, r->miss[0],
			      r->miss[1], r->hi - r->lo);
}

/* read-modify-write: parity ^= old data of the touched strips (before the
 * overlay) and ^= new data (after it) */
static void rmw_fold(const struct vd_geom *g, struct vd_row *r)
{
	size_t len = r->hi - r->lo;
	for (unsigned i = 0; i < g->k; i++) {
		if (!((r->touched >> i) & 1))
			continue;
		parity_xor(r->buf[g->k], r->buf[i], len);
		if (g->np == 2)
			parity_mul_xor(r->buf[g->k + 1], r->buf[i], gf_exp(i), len);
	}
}

static int finish_write_rows(struct vd_plan_ctx *c, struct vd_op *op)
{
	const struct vd_geom *g = &c->vd->geom;
	int ret = 0;

	for (unsigned i = 0; i < op->nr_rows && !ret; i++) {
		struct vd_row *r = &op->rows[i];
		if (r->mode == ROW_RMW)
			rmw_fold(g, r);
		else if (r->mode == ROW_RECON)
			ret = recover_row(g, r) ? -EIO : 0;
	}
	overlay(op, g, true);
	for (unsigned i = 0; i < op->nr_rows && !ret; i++) {
		struct vd_row *r = &op->rows[i];
		if (r->mode == ROW_RMW)
			rmw_fold(g, r);
		else if (r->mode != ROW_DATA_ONLY)
			parity_gen(g->k, (void *const *)r->buf, r->buf[g->k],
				   g->np == 2 ? r->buf[g->k + 1] : NULL, r->hi - r->lo);
		/* the parity written agrees with the data: initialized (the
		 * row lock keeps every later write of the row behind this) */
		if (r->mode != ROW_DATA_ONLY && r->lo == 0 && r->hi == g->strip &&
		    vd_row_uninit(c->vd, r->row))
			vd_row_initialized(c->vd, r->row);
	}
	/* the writes: touched live data strips and live parity */
	op->nr_mios = op->submitted = 0;
	for (unsigned i = 0; i < op->nr_rows && !ret; i++) {
		struct vd_row *r = &op->rows[i];
		if (r->mode == ROW_DATA_ONLY)
			continue;
		for (unsigned j = 0; j < g->k + g->np && !ret; j++) {
			bool want = j >= g->k || ((r->touched >> j) & 1);
			if (want && !row_dead(c, r->row, j))
				ret = add_mio(op, vd_row_member(g, r->row, j), DIR_WRITE,
					      row_moff(g, r), r->hi - r->lo, r->buf[j]);
		}
	}
	/* rows without live parity: the host bytes go straight out */
	for (uint64_t done = 0; done < op->len && !ret;) {
		struct vd_piece p;
		vd_geom_piece(g, op->off + done, op->len - done, &p);
		const struct vd_row *r = &op->rows[p.row - op->lock_first];
		unsigned m = vd_geom_data_member(g, p.row, p.idx);
		if (r->mode == ROW_DATA_ONLY && !dead(c, m, p.row))
			ret = add_mio(op, m, DIR_WRITE, (p.row << g->strip_shift) + p.in_strip,
				      p.len, op->data + done);
		done += p.len;
	}
	op->phase = OP_WRITES;
	return ret;
}

static int advance(struct vd_plan_ctx *c, struct vd_op *op)
{
	const struct vd_geom *g = &c->vd->geom;

	if (op->error || op->phase == OP_WRITES || (op->dir == DIR_READ && !g->np)) {
		op->phase = OP_DONE;
		return op->error;
	}
	if (op->dir == DIR_READ) {
		for (unsigned i = 0; i < op->nr_rows; i++)
			if (op->rows[i].active && recover_row(g, &op->rows[i]))
				return op->error = -EIO;
		overlay(op, g, false);
		op->phase = OP_DONE;
		return 0;
	}
	return finish_write_rows(c, op);
}

int vd_op_start(struct vd_plan_ctx *c, struct vd_op *op)
{
	int ret = start(c, op);
	if (!ret && op->phase != OP_DONE)
		ret = vd_op_merge(op);
	return ret;
}

int vd_op_advance(struct vd_plan_ctx *c, struct vd_op *op)
{
	if (op->phase == OP_READS && !op->error)
		vd_op_unbounce(op);
	int ret = advance(c, op);
	if (!ret && op->phase == OP_WRITES)
		ret = vd_op_merge(op);
	return ret;
}
