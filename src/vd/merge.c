/* merge.c - member I/Os of one operation that are contiguous on a member
 * become one (see op.h). A RAID 0 1 MiB read over 4 members of 64 KiB
 * strips is 16 pieces but 4 member reads of 256 KiB, as a controller
 * issues them. The member engines take one buffer per I/O (no
 * scatter-gather), so a run whose pieces' buffers are not adjacent in
 * memory is moved through a bounce buffer: one memcpy of its bytes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vd/op.h"

static int by_member(const void *a, const void *b)
{
	const struct vd_mio *x = a, *y = b;
	if (x->member != y->member)
		return x->member < y->member ? -1 : 1;
	if (x->dir != y->dir)
		return x->dir < y->dir ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static bool joins(const struct vd_mio *run, const struct vd_mio *p)
{
	return p->member == run->member && p->dir == run->dir &&
	       p->off == run->off + run->len;
}

/* Pieces into runs (op->mios); returns the bounce bytes needed. */
static size_t form_runs(struct vd_op *op)
{
	size_t bounce = 0;
	unsigned n = 0;

	for (unsigned i = 0; i < op->nr_pieces; i++) {
		const struct vd_mio *p = &op->pieces[i];
		struct vd_mio *run = n ? &op->mios[n - 1] : NULL;
		if (run && joins(run, p)) {
			if ((uint8_t *)run->buf + run->len != p->buf)
				run->bounced = true;
			run->len += p->len;
			run->nr++;
			continue;
		}
		if (run && run->bounced)
			bounce += run->len;
		op->mios[n++] = (struct vd_mio){
			.member = p->member, .dir = p->dir, .off = p->off, .len = p->len,
			.buf = p->buf, .first = i, .nr = 1,
		};
	}
	if (n && op->mios[n - 1].bounced)
		bounce += op->mios[n - 1].len;
	op->nr_mios = n;
	return bounce;
}

static int bounce_reserve(struct vd_op *op, size_t need)
{
	if (need <= op->bounce_cap)
		return 0;
	free(op->bounce);
	op->bounce = NULL;
	op->bounce_cap = 0;
	if (posix_memalign((void **)&op->bounce, 4096, need))
		return -ENOMEM;
	op->bounce_cap = need;
	return 0;
}

/* Copy between a bounced run and its pieces (to_run: writes). */
static void copy_run(struct vd_op *op, const struct vd_mio *run, bool to_run)
{
	uint8_t *at = run->buf;
	for (unsigned i = run->first; i < run->first + run->nr; i++) {
		const struct vd_mio *p = &op->pieces[i];
		if (to_run)
			memcpy(at, p->buf, p->len);
		else
			memcpy(p->buf, at, p->len);
		at += p->len;
	}
}

int vd_op_merge(struct vd_op *op)
{
	op->nr_pieces = 0;
	if (op->nr_mios < 2)
		return 0;
	if (op->nr_mios > op->cap_pieces) {
		struct vd_mio *p = realloc(op->pieces, op->nr_mios * sizeof(*p));
		if (!p)
			return -ENOMEM;
		op->pieces = p;
		op->cap_pieces = op->nr_mios;
	}
	memcpy(op->pieces, op->mios, op->nr_mios * sizeof(*op->mios));
	op->nr_pieces = op->nr_mios;
	qsort(op->pieces, op->nr_pieces, sizeof(*op->pieces), by_member);
	size_t need = form_runs(op);
	if (bounce_reserve(op, need)) {
		memcpy(op->mios, op->pieces, op->nr_pieces * sizeof(*op->mios));
		op->nr_mios = op->nr_pieces;
		op->nr_pieces = 0;
		return -ENOMEM;
	}
	uint8_t *at = op->bounce;
	for (unsigned i = 0; i < op->nr_mios; i++) {
		struct vd_mio *run = &op->mios[i];
		if (!run->bounced)
			continue;
		run->buf = at;
		at += run->len;
		if (run->dir == DIR_WRITE)
			copy_run(op, run, true);
	}
	return 0;
}

void vd_op_unbounce(struct vd_op *op)
{
	if (!op->nr_pieces)
		return;
	for (unsigned i = 0; i < op->nr_mios; i++)
		if (op->mios[i].bounced && op->mios[i].dir == DIR_READ)
			copy_run(op, &op->mios[i], false);
	op->nr_pieces = 0;
}
