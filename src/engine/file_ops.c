/* file_ops.c - the shared part of the file-operation engines. See
 * file_ops.h. */
#include "engine/file_ops.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

struct file_ops_state {
	const char *const *paths; /* the caller's, valid until cleanup */
	unsigned nr;
	file_op_fn op;
	const void *opts;
	int *fds;                 /* what op left open, -1 when none */
	unsigned char *done;      /* by file: its operation was made */
};

void file_ops_cleanup(void *state)
{
	struct file_ops_state *s = state;

	if (!s)
		return;
	for (unsigned i = 0; s->fds && i < s->nr; i++)
		if (s->fds[i] >= 0)
			close(s->fds[i]);
	free(s->fds);
	free(s->done);
	free(s);
}

int file_ops_init(const struct engine_params *p, file_op_fn op,
		  const void *opts, void **out, struct ioc_err *err)
{
	struct file_ops_state *s = calloc(1, sizeof(*s));

	if (!s || !p->paths)
		goto fail;
	s->paths = p->paths;
	s->nr = p->nr_fds;
	s->op = op;
	s->opts = opts;
	s->fds = calloc(s->nr ? s->nr : 1, sizeof(*s->fds));
	s->done = calloc(s->nr ? s->nr : 1, 1);
	if (!s->fds || !s->done)
		goto fail;
	for (unsigned i = 0; i < s->nr; i++)
		s->fds[i] = -1;
	*out = s;
	return 0;
fail:
	file_ops_cleanup(s);
	return err_set(err, p->paths ? ENOMEM : EINVAL,
		       p->paths ? "file-operation engine: out of memory"
				: "file-operation engine: no file paths given");
}

enum engine_queue_ret file_ops_queue(void *state, struct io_unit *u)
{
	struct file_ops_state *s = state;

	if (u->op != IO_OP_RW && u->op != IO_OP_TRIM) { /* fio's: any ddir */
		u->result = 0;
		return ENGINE_COMPLETED;
	}
	if (u->file >= s->nr) {
		u->result = -EBADF;
		return ENGINE_COMPLETED;
	}
	u->result = (int64_t)u->len;
	if (!s->done[u->file]) {
		s->done[u->file] = 1;
		int ret = s->op(s->paths[u->file], s->opts, &s->fds[u->file]);
		if (ret < 0)
			u->result = ret;
	}
	return ENGINE_COMPLETED;
}
