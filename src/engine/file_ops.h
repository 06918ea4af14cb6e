/* file_ops.h - what fio's file-operation engines share (filecreate,
 * filestat, filedelete: fio's engines/fileoperations.c): the I/O is an
 * operation on a whole file, made on its path, not a transfer.
 *
 * fio makes the operation when it opens a file and then issues the job's
 * I/Os as fakes that complete at once (FIO_FAKEIO): one operation per
 * file, and size/bs I/Os counted. Here the first I/O issued to each file
 * makes the operation (so its latency is the operation's), the others
 * complete at once with every byte "moved". */
#ifndef IOCHAR_ENGINE_FILE_OPS_H
#define IOCHAR_ENGINE_FILE_OPS_H

#include "engine/engine.h"

/* The operation on path; opts is the job's engine_opts. Returns 0 or
 * -errno; may leave in *fd a descriptor to close at cleanup (else -1). */
typedef int (*file_op_fn)(const char *path, const void *opts, int *fd);

/* Set up an engine that makes op once per file of p->paths (nr_fds of
 * them); opts is kept (the job's, valid until cleanup). As engine init. */
int file_ops_init(const struct engine_params *p, file_op_fn op,
		  const void *opts, void **out, struct ioc_err *err);

/* u: op on its file at the file's first I/O, then u->result = u->len
 * (or the op's -errno); a flush completes at once, as fio's fake I/O.
 * Always ENGINE_COMPLETED. */
enum engine_queue_ret file_ops_queue(void *state, struct io_unit *u);

/* Close what the ops left open, free the state; NULL is fine. */
void file_ops_cleanup(void *state);

#endif
