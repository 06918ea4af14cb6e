/* policy.c - the controller policies of a VD instance: read-ahead and
 * write-back (see cache.h for the data and its rules).
 *
 * Read-ahead (readahead.c) follows sequential streams as host reads
 * arrive and serves them from its cache.
 *
 * Write-back (wb.c) comes first: host ops it holds wait in `waiting`, in
 * host order, and are retried as destages finish.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "vd/io.h"

int vd_policy_init(struct vd_io *io)
{
	const struct vd_def *def = &io->vd->def;

	return def->readahead ? vd_ra_init(io) : 0;
}

void vd_policy_free(struct vd_io *io)
{
	if (!io)
		return;
	vd_ra_free(io);
}

void vd_policy_unlock_all(struct vd_io *io)
{
	vd_ra_unlock_all(io);
	vd_wb_unlock_all(io);
}

bool vd_policy_busy(const struct vd_io *io)
{
	return io->waiting.head || io->ra_waiting.head || io->internal;
}

void vd_policy_flush(struct vd_io *io, uint64_t mark)
{
	if (io->vd->wb)
		vd_wb_flush(io, mark);
}

/* ---- write-back ---- */

static void wb_done(struct vd_io *io, struct vd_op *op)
{
	uint64_t now = fast_ns();
	if (now >= io->measure_start && op->dir == DIR_WRITE)
		io->stats->wb_absorbed++;
	vd_io_host_done(io, op, now);
}

bool vd_policy_host(struct vd_io *io, struct vd_op *op)
{
	if (io->vd->wb) {
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
	return vd_ra_host(io, op);
}

void vd_policy_retry(struct vd_io *io)
{
	if (!io->vd->wb)
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
		else if (!vd_ra_host(io, op))
			vd_io_begin(io, op);
	}
}

void vd_policy_finished(struct vd_io *io, struct vd_op *op)
{
	switch (op->kind) {
	case OP_HOST:
		break;
	case OP_READAHEAD:
		vd_ra_loaded(io, op);
		break;
	case OP_DESTAGE:
		vd_wb_destaged(io, op->owner);
		break;
	}
}
