/* hooks.c - verification behind the worker's per-I/O hooks. See hooks.h. */
#include "verify/hooks.h"

#include <errno.h>
#include <stdlib.h>

#include "verify/block.h"
#include "verify/fio_session.h"
#include "verify/jobs.h"
#include "verify/session.h"

/* A worker's state: iochar's own session, or one in fio's format. */
struct hook_state {
	struct verify_session *own;
	struct fio_vsession *fio;
};

static int hooks_create(const struct io_hooks_params *p, void **state,
			struct ioc_err *err)
{
	struct hook_state *h;
	int ret;

	*state = NULL;
	if (!p->job->verify)
		return 0;
	if (!(h = calloc(1, sizeof(*h))))
		return err_set(err, ENOMEM, "job %s: verify: out of memory",
			       p->job->name);
	if (p->job->verify_type) {
		ret = fio_vsession_create(p, &h->fio, err);
	} else {
		struct verify_session_params vp = {
			.job = p->job, .region = p->region, .depth = p->depth,
			.counts = p->counts, .report = p->report,
		};
		ret = verify_session_create(&vp, &h->own, err);
	}
	if (ret)
		free(h);
	else
		*state = h;
	return ret;
}

static void hooks_destroy(void *state)
{
	struct hook_state *h = state;

	if (!h)
		return;
	verify_session_free(h->own);
	fio_vsession_free(h->fio);
	free(h);
}

static bool hooks_prepare(void *state, struct io_unit *u)
{
	struct hook_state *h = state;

	return h->fio ? fio_vsession_prepare(h->fio, u)
		      : verify_session_prepare(h->own, u);
}

static int hooks_flush(void *state, struct ioc_err *err)
{
	struct hook_state *h = state;

	return h->fio ? 0 : verify_session_flush(h->own, err);
}

static int hooks_complete(void *state, struct io_unit *u, struct ioc_err *err)
{
	struct hook_state *h = state;

	return h->fio ? fio_vsession_complete(h->fio, u, err)
		      : verify_session_complete(h->own, u, err);
}

static bool hooks_readback(void *state)
{
	struct hook_state *h = state;

	return h->fio && fio_vsession_readback(h->fio);
}

static bool hooks_interpose(void *state, bool writes_done,
			    struct io_hooks_op *op)
{
	struct hook_state *h = state;

	return h->fio && fio_vsession_interpose(h->fio, writes_done, op);
}

static bool hooks_admit(void *state, const struct io_hooks_op *op)
{
	struct hook_state *h = state;

	return !h->fio || fio_vsession_admit(h->fio, op);
}

/* A write without verify (about to reuse u) must not carry another
 * block's verified units, which only a read (u's last I/O) can have left
 * in the buffer, and must mark the sectors it writes into a verified unit
 * it does not cover whole (block.h). Writes of whole 4 KiB units from a
 * buffer no read filled need neither. */
static void hooks_reuse(struct io_unit *u, uint64_t offset, uint64_t len,
			uint64_t now_ns)
{
	if (u->dir == DIR_WRITE && (offset | len) % VBLOCK_UNIT_LARGE == 0)
		return;
	vblock_scrub(u->buf, len, offset, now_ns);
}

const struct io_hooks verify_io_hooks = {
	.check_jobs = verify_check_jobs,
	.create = hooks_create,
	.destroy = hooks_destroy,
	.prepare = hooks_prepare,
	.flush = hooks_flush,
	.complete = hooks_complete,
	.reuse = hooks_reuse,
	.readback = hooks_readback,
	.interpose = hooks_interpose,
	.admit = hooks_admit,
};
