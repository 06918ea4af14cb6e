/* pvsync.c - fio's "pvsync" (preadv(2)/pwritev(2)) and "pvsync2"
 * (preadv2(2)/pwritev2(2) with per-I/O RWF_ flags) engines.
 *
 * One iovec per call, as fio's. pvsync2's options are fio's: hipri
 * (RWF_HIPRI on hipri_percentage % of the I/Os, drawn at random) and
 * nowait (RWF_NOWAIT); uncached is refused (engine/rwf.h says why). Both
 * complete in queue() (ENGINE_SYNC): the runner caps iodepth at 1.
 */
#define _GNU_SOURCE /* preadv2 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engine/engine.h"
#include "engine/pvsync2_opts.h"
#include "engine/sync_io.h"

struct pvsync_state {
	const int *fds; /* owned by the caller, valid until cleanup */
	unsigned nr_fds;
	struct pvsync2_opts opts;
	uint64_t rng; /* hipri_percentage's draw (xorshift64) */
};

static void pvsync_cleanup(void *state)
{
	free(state);
}

static int pvsync_init_opts(const struct engine_params *p, const void *options,
			    void **out, struct ioc_err *err)
{
	struct pvsync_state *s = calloc(1, sizeof(*s));

	if (!s)
		return err_set(err, ENOMEM, "ioengine=pvsync: out of memory");
	s->fds = p->fds;
	s->nr_fds = p->fds ? p->nr_fds : 0;
	if (options)
		memcpy(&s->opts, options, sizeof(s->opts));
	s->rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)s;
	*out = s;
	return 0;
}

static int pvsync_init(const struct engine_params *p, void **out,
		       struct ioc_err *err)
{
	return pvsync_init_opts(p, NULL, out, err);
}

static ssize_t pvsync_xfer(void *ctx, int fd, enum io_dir dir, void *buf,
			   size_t len, off_t off)
{
	struct iovec iov = {.iov_base = buf, .iov_len = len};

	(void)ctx;
	return dir == DIR_READ ? preadv(fd, &iov, 1, off)
			       : pwritev(fd, &iov, 1, off);
}

/* The RWF_ flags of one I/O, as fio's pvsync2 sets them. */
static int pvsync2_flags(struct pvsync_state *s)
{
	int flags = 0;

	if (s->opts.hipri) {
		s->rng ^= s->rng << 13;
		s->rng ^= s->rng >> 7;
		s->rng ^= s->rng << 17;
		if (s->rng % 100 < 100u - s->opts.hipri_pct_off)
			flags |= RWF_HIPRI;
	}
	if (s->opts.nowait)
		flags |= RWF_NOWAIT;
	return flags;
}

static ssize_t pvsync2_xfer(void *ctx, int fd, enum io_dir dir, void *buf,
			    size_t len, off_t off)
{
	struct iovec iov = {.iov_base = buf, .iov_len = len};
	int flags = pvsync2_flags(ctx);

	return dir == DIR_READ ? preadv2(fd, &iov, 1, off, flags)
			       : pwritev2(fd, &iov, 1, off, flags);
}

static enum engine_queue_ret pvsync_queue(void *state, struct io_unit *u)
{
	struct pvsync_state *s = state;

	if (u->file >= s->nr_fds) {
		u->result = -EBADF;
		return ENGINE_COMPLETED;
	}
	return sync_io_move(u, s->fds[u->file], pvsync_xfer, s);
}

static enum engine_queue_ret pvsync2_queue(void *state, struct io_unit *u)
{
	struct pvsync_state *s = state;

	if (u->file >= s->nr_fds) {
		u->result = -EBADF;
		return ENGINE_COMPLETED;
	}
	return sync_io_move(u, s->fds[u->file], pvsync2_xfer, s);
}

const struct engine_ops engine_pvsync = {
	.name = "pvsync",
	.help = "preadv/pwritev (fio's pvsync), one I/O at a time per job",
	.flags = ENGINE_SYNC,
	.probe = sync_io_probe,
	.init = pvsync_init,
	.cleanup = pvsync_cleanup,
	.queue = pvsync_queue,
};

const struct engine_ops engine_pvsync2 = {
	.name = "pvsync2",
	.help = "preadv2/pwritev2 with RWF_ flags (fio's pvsync2: hipri, "
		"nowait), one I/O at a time per job",
	.flags = ENGINE_SYNC,
	.options = pvsync2_options,
	.probe = sync_io_probe,
	.check = pvsync2_check,
	.init = pvsync_init,
	.init_opts = pvsync_init_opts,
	.cleanup = pvsync_cleanup,
	.queue = pvsync2_queue,
};
