/* worker_iolog.c - a worker's fio iologs (core/worker_iolog.h). */
#include "core/worker_iolog.h"

#include <errno.h>
#include <stdlib.h>

#include "core/replay.h"
#include "stats/iolog_write.h"

int worker_iolog_setup(struct worker_iologs *l, const struct job_spec *j,
		       const char *const *files, unsigned nr, uint64_t now_ns,
		       struct ioc_err *err)
{
	int ret;
	if (j->read_iolog[0]) {
		if (!(l->replay = calloc(1, sizeof(*l->replay))))
			return err_set(err, ENOMEM, "out of memory");
		if ((ret = replay_init(l->replay, j, err)))
			return ret;
	}
	if (j->write_iolog[0]) {
		if (!(l->out = calloc(1, sizeof(*l->out))))
			return err_set(err, ENOMEM, "out of memory");
		l->out->fd = -1;
		return iolog_writer_open(l->out, j->write_iolog, files,
					 nr, now_ns, err);
	}
	return 0;
}

bool worker_iolog_timed(const struct worker_iologs *l)
{
	return l->replay && replay_timed(l->replay);
}

void worker_iolog_issued(struct worker_iologs *l, const struct io_unit *u, uint64_t now_ns)
{
	if (!l->out)
		return;
	enum iolog_act a = u->op == IO_OP_FSYNC ? IOLOG_ACT_SYNC :
			   u->op == IO_OP_FDATASYNC ? IOLOG_ACT_DATASYNC :
			   u->op == IO_OP_TRIM ? IOLOG_ACT_TRIM :
			   u->dir == DIR_READ ? IOLOG_ACT_READ : IOLOG_ACT_WRITE;
	iolog_writer_io(l->out, now_ns, u->file, a, u->offset, u->len);
}

int worker_iolog_end(struct worker_iologs *l, uint64_t now_ns, struct ioc_err *err)
{
	int ret = 0;
	if (l->out)
		ret = iolog_writer_close(l->out, now_ns, err);
	if (!ret) /* a chunk that could not be read ended the replay early */
		ret = replay_error(l->replay, err);
	free(l->out);
	l->out = NULL;
	replay_free(l->replay);
	free(l->replay);
	l->replay = NULL;
	return ret;
}
