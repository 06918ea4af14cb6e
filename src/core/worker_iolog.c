/* worker_iolog.c - a worker's fio iologs (core/worker_iolog.h). */
#include "core/worker_iolog.h"

#include <errno.h>
#include <stdlib.h>

#include "core/replay.h"
#include "stats/iolog_write.h"

int worker_iolog_setup(struct worker *w, const char *const *files, unsigned nr,
		       uint64_t now_ns, struct ioc_err *err)
{
	int ret;
	if (w->job->read_iolog[0]) {
		if (!(w->iolog.replay = calloc(1, sizeof(*w->iolog.replay))))
			return err_set(err, ENOMEM, "out of memory");
		if ((ret = replay_init(w->iolog.replay, w->job, err)))
			return ret;
	}
	if (w->job->write_iolog[0]) {
		if (!(w->iolog.out = calloc(1, sizeof(*w->iolog.out))))
			return err_set(err, ENOMEM, "out of memory");
		w->iolog.out->fd = -1;
		return iolog_writer_open(w->iolog.out, w->job->write_iolog, files,
					 nr, now_ns, err);
	}
	return 0;
}

bool worker_iolog_timed(const struct worker *w)
{
	return w->iolog.replay && replay_timed(w->iolog.replay);
}

void worker_iolog_issued(struct worker *w, const struct io_unit *u, uint64_t now_ns)
{
	if (!w->iolog.out)
		return;
	enum iolog_act a = u->op == IO_OP_FSYNC ? IOLOG_ACT_SYNC :
			   u->op == IO_OP_FDATASYNC ? IOLOG_ACT_DATASYNC :
			   u->op == IO_OP_TRIM ? IOLOG_ACT_TRIM :
			   u->dir == DIR_READ ? IOLOG_ACT_READ : IOLOG_ACT_WRITE;
	iolog_writer_io(w->iolog.out, now_ns, u->file, a, u->offset, u->len);
}

int worker_iolog_end(struct worker *w, uint64_t now_ns, struct ioc_err *err)
{
	int ret = 0;
	if (w->iolog.out)
		ret = iolog_writer_close(w->iolog.out, now_ns, err);
	if (!ret) /* a chunk that could not be read ended the replay early */
		ret = replay_error(w->iolog.replay, err);
	free(w->iolog.out);
	w->iolog.out = NULL;
	replay_free(w->iolog.replay);
	free(w->iolog.replay);
	w->iolog.replay = NULL;
	return ret;
}
