/* null.c - an engine that moves no data.
 *
 * Every queued unit completes at the next getevents, so the worker loop,
 * timing and statistics run exactly as for a real engine. Its IOPS are the
 * measure of iochar's own per-I/O cost.
 */
#include <errno.h>
#include <stdlib.h>

#include "engine/engine.h"

struct null_state {
	struct io_unit **pending; /* queued or committed, capacity depth */
	struct io_unit **done;    /* returned by the last getevents */
	unsigned nr_pending, nr_committed, depth;
};

static int null_probe(struct ioc_err *err)
{
	(void)err;
	return 0;
}

static void null_cleanup(void *state)
{
	struct null_state *s = state;
	if (!s)
		return;
	free(s->pending);
	free(s->done);
	free(s);
}

static int null_init(const struct engine_params *p, void **out,
		     struct ioc_err *err)
{
	struct null_state *s = calloc(1, sizeof(*s));
	if (!s)
		return err_set(err, ENOMEM, "null engine: out of memory");
	s->depth = p->depth;
	s->pending = calloc(p->depth, sizeof(*s->pending));
	s->done = calloc(p->depth, sizeof(*s->done));
	if (!s->pending || !s->done) {
		null_cleanup(s);
		return err_set(err, ENOMEM, "null engine: out of memory");
	}
	*out = s;
	return 0;
}

static enum engine_queue_ret null_queue(void *state, struct io_unit *u)
{
	struct null_state *s = state;
	if (s->nr_pending >= s->depth)
		return ENGINE_BUSY;
	u->result = (int64_t)u->len;
	s->pending[s->nr_pending++] = u;
	return ENGINE_QUEUED;
}

static int null_commit(void *state)
{
	struct null_state *s = state;
	s->nr_committed = s->nr_pending;
	return 0;
}

/* Committed units complete now; units queued but not committed stay. */
static int null_getevents(void *state, unsigned min)
{
	struct null_state *s = state;
	unsigned n = s->nr_committed;
	(void)min;
	struct io_unit **tmp = s->done;
	s->done = s->pending;
	s->pending = tmp;
	/* move the uncommitted tail (if any) back to pending */
	for (unsigned i = n; i < s->nr_pending; i++)
		s->pending[i - n] = s->done[i];
	s->nr_pending -= n;
	s->nr_committed = 0;
	return (int)n;
}

static struct io_unit *null_event(void *state, unsigned i)
{
	struct null_state *s = state;
	return s->done[i];
}

const struct engine_ops engine_null = {
	.name = "null",
	.help = "no I/O at all: measures iochar's own per-I/O cost",
	.flags = ENGINE_NO_TARGET,
	.probe = null_probe,
	.init = null_init,
	.cleanup = null_cleanup,
	.queue = null_queue,
	.commit = null_commit,
	.getevents = null_getevents,
	.event = null_event,
};
