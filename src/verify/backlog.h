/* backlog.h - fio's verify_backlog for a write job checked in fio's
 * format (verify/fio_session.h): the written blocks not yet read back,
 * and when to read them (fio's iolog.c log_io_piece, io_u.c
 * check_get_verify, verify.c get_next_verify).
 *
 * A write is logged when it is issued, in flight until it completes (a
 * failed one is dropped). Once the log holds a multiple of
 * verify_backlog blocks and the last I/O completed was not a read, the
 * next verify_backlog_batch I/Os (default verify_backlog) are reads of
 * logged blocks, each leaving the log; a block still in flight is not
 * read: the job's own I/O goes first and the batch waits. After the
 * writes the rest are read (fio's verify phase). The block read is the
 * oldest logged one when fio 3.33 keeps a list (a random job with its
 * random map: file_randommap), else the lowest (file, offset), a newer
 * write then replacing the blocks it overlaps, as fio's sorted log does.
 * Owned by one worker's session, on its thread.
 */
#ifndef IOCHAR_VERIFY_BACKLOG_H
#define IOCHAR_VERIFY_BACKLOG_H

#include <stdbool.h>
#include <stdint.h>

#include "base/job.h"
#include "engine/engine.h"
#include "engine/io_hooks.h"

struct vbacklog_ent {
	unsigned file;
	uint64_t offset, len;
	bool inflight;
	unsigned unit; /* while in flight: its io_unit's index */
	uint64_t seq;  /* order of issue */
};

struct vbacklog {
	unsigned every, batch_size; /* verify_backlog, its batch */
	bool sorted;		    /* fio's sorted log (offsets may repeat) */
	unsigned batch;		    /* reads still due in this batch */
	enum io_dir last_dir;	    /* of the last I/O completed */
	struct vbacklog_ent *ent;   /* ent[head .. end): oldest first */
	unsigned head, end, cap;
	unsigned nr_inflight;	    /* logged writes not yet completed */
	uint64_t seq;		    /* the next write's order of issue */
	bool settled;		    /* every == 0: the phase's log is final */
};

/* Set b up for job j (region: bytes per file). verify_backlog 0 logs
 * for fio's verify phase alone (do_verify=1): nothing is read before
 * every write is done, then the whole log, the sorted one resolved and
 * sorted once (not per write). No allocation yet. */
void vbacklog_init(struct vbacklog *b, const struct job_spec *j,
		   uint64_t region);
void vbacklog_free(struct vbacklog *b);

/* A write u is issued: logged, in flight. -ENOMEM (not logged). */
int vbacklog_issued(struct vbacklog *b, const struct io_unit *u);

/* u completed (any direction): a logged write is done, or dropped
 * when it failed; the direction counts for the next batch. */
void vbacklog_completed(struct vbacklog *b, const struct io_unit *u);

/* The read the job issues next instead of its own I/O, into *op: true
 * when a batch is due (or writes_done: fio's verify phase) and a logged
 * block is done. */
bool vbacklog_next(struct vbacklog *b, bool writes_done,
		   struct io_hooks_op *op);

#endif
