/* batch.c - fio's batching values resolved (see batch.h). */
#include "core/batch.h"

void batch_init(struct batch *b, const struct job_spec *j, unsigned depth)
{
	/* fio's fixup_options: 0 or above the depth means the depth */
	b->submit = j->iodepth_batch_submit && j->iodepth_batch_submit < depth
			    ? j->iodepth_batch_submit : depth;
	/* at the depth the pass's end commits anyway, and io_uring then
	 * submits and waits in one call */
	b->submit_now = b->submit < depth;
	b->low = j->iodepth_low && j->iodepth_low < depth ? j->iodepth_low
							  : depth;
	b->cmin = j->iodepth_batch_complete_min;
	/* fio: a max below the min is the min; td_io_getevents clamps it to
	 * what is in flight */
	unsigned max = j->iodepth_batch_complete_max;
	if (max < b->cmin)
		max = b->cmin;
	b->cmax = max && max < depth ? max : depth;
}

unsigned batch_reap_min(const struct batch *b, unsigned inflight)
{
	/* fio's wait_for_completions: min 0 (polling) still takes one, the
	 * engine spinning for it rather than sleeping */
	unsigned min = b->cmin < inflight ? b->cmin : inflight;
	return min ? min : 1;
}
