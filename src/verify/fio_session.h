/* fio_session.h - a worker's verification in fio's format (verify=md5,
 * crc32c, ... : fio_block.h), behind the same hooks as iochar's own
 * (hooks.c picks one by the job's verify_type).
 *
 * Writes get fio's headers and checksums; with verify_only they become
 * reads of the same blocks. Reads are checked interval by interval when
 * the job only reads (or verify_only), as fio checks every read of a job
 * that does not write, and in the read-back after a write job with
 * do_verify=1 (fio's verify phase: the worker replays the job's blocks as
 * reads, io_hooks.h). A mixed job is refused with do_verify=1. A
 * failure is printed as fio prints it, then as iochar's key=value line:
 *
 *   md5: verify failed at file F offset 8192, length 4096 (requested
 *   block: offset=8192, length=4096)
 *          Expected CRC: 9a0e...
 *          Received CRC: 11c3...
 *   verify failure: target=F offset=8192 kind=corrupted method=md5
 *   why="md5" expected=9a0e... got=11c3... unit=4096
 *
 * Everything runs on the worker's thread.
 */
#ifndef IOCHAR_VERIFY_FIO_SESSION_H
#define IOCHAR_VERIFY_FIO_SESSION_H

#include <stdbool.h>

#include "engine/io_hooks.h"

struct fio_vsession;

/* A session for p's job (verify_type set). 0 and *out (free with
 * fio_vsession_free), or -ENOMEM, or the state file's error
 * (verify_state_load=1), with a message. */
int fio_vsession_create(const struct io_hooks_params *p,
			struct fio_vsession **out, struct ioc_err *err);

/* Release s; s may be NULL. */
void fio_vsession_free(struct fio_vsession *s);

/* Ready u to be queued: a write is filled (or, with verify_only, made a
 * read). Always true: no block waits for another here. */
bool fio_vsession_prepare(struct fio_vsession *s, struct io_unit *u);

/* Check a completed read. 0, or -EILSEQ when an interval failed and the
 * job has verify_fatal (err names it). */
int fio_vsession_complete(struct fio_vsession *s, struct io_unit *u,
			  struct ioc_err *err);

/* The generator has ended (so the writes were not interrupted): true
 * (once) when the job wants fio's verify
 * phase, its blocks read back and checked (do_verify=1 on a write job);
 * from then on s checks reads. */
bool fio_vsession_readback(struct fio_vsession *s);

/* fio's verify_backlog (verify/backlog.h): true with the read of a
 * written block to issue now, in *op (writes_done: the generator has
 * ended, the rest are read). Reads of a write job are checked. */
bool fio_vsession_interpose(struct fio_vsession *s, bool writes_done,
			    struct io_hooks_op *op);

/* fio's verify_state_load (verify/fio_state.h): may the job's next I/O
 * be issued? A write job with verify_state_save=1 that was interrupted
 * (runtime, a signal, an error: readback was never asked) leaves its
 * state file when s is freed. */
bool fio_vsession_admit(struct fio_vsession *s, const struct io_hooks_op *op);

/* The job's checks as fio_block.h needs them, before anything is written:
 * 0, or -EINVAL with a usage message naming the job and option. */
int fio_vsession_check_job(const struct job_spec *j, struct ioc_err *err);

#endif
