/* io.h - one worker's VD instance: the state engine.c drives and the
 * policies (policy.c: read-ahead and write-back caches) hook into.
 * Internal to vd/. */
#ifndef IOCHAR_VD_IO_H
#define IOCHAR_VD_IO_H

#include "engine/engine.h"
#include "vd/cache.h"
#include "vd/op.h"
#include "vd/stats.h"
#include "vd/vd.h"

struct vd_queue {
	struct vd_op *head, *tail;
};

struct mio_ctx {
	struct vd_op *op;
	uint64_t start;
};

struct vd_io {
	struct vd *vd;
	const struct engine_ops *inner;
	void *inner_state;
	int fds[VD_MAX_MEMBERS];
	unsigned n;

	struct io_unit *munits;    /* member units, buf set per I/O */
	struct mio_ctx *mctx;      /* by member unit index */
	struct io_unit **mfree;
	unsigned nr_munits, nr_mfree;
	unsigned inflight, pending; /* in the member engine */
	unsigned reap_max;         /* host completions per getevents (engine_params); 0: all */

	struct vd_op *ops;         /* by host unit index */
	unsigned depth;
	unsigned host_reads;       /* host reads queued and not yet done */
	struct vd_queue blocked, ready;
	struct io_unit **done, **events;
	unsigned nr_done, nr_events;

	struct vd_plan_ctx ctx;
	struct vd_stats *stats;
	uint64_t measure_start;

	struct vd_queue waiting;   /* host ops held by the write-back cache */
	struct vd_ra ra;           /* read-ahead cache (def.readahead) */
	struct vd_queue ra_waiting; /* host reads waiting for strips being read ahead */
	unsigned internal;         /* destage / read-ahead ops in flight */
	bool finishing;            /* the end's counted flush (vd_engine_finish) */

	struct {                   /* the first member I/O that failed */
		bool set;
		unsigned member;
		enum io_dir dir;
		uint64_t off, len;
		int64_t result;    /* -errno, or the bytes moved */
	} failed;
};

/* Queue helpers. */
void vd_q_push(struct vd_queue *q, struct vd_op *op);
struct vd_op *vd_q_pop(struct vd_queue *q);

/* Send op (host or internal, fields set) on its way: lock its rows or
 * queue it behind them, then plan and submit. */
void vd_io_begin(struct vd_io *io, struct vd_op *op);

/* Complete a host op (served from a cache, or its member I/Os done):
 * result, counters, done list. now: the caller's clock read, which decides
 * whether it falls in the measured window (no second read per I/O). */
void vd_io_host_done(struct vd_io *io, struct vd_op *op, uint64_t now);

/* policy.c: called by engine.c */
int vd_policy_init(struct vd_io *io);
void vd_policy_free(struct vd_io *io);
/* A host op about to begin: true when the policy took it (served, absorbed
 * or held); false to go the normal way. */
bool vd_policy_host(struct vd_io *io, struct vd_op *op);
/* An op finished (before its locks are released). */
void vd_policy_finished(struct vd_io *io, struct vd_op *op);
/* Retry host ops held by the write-back cache. */
void vd_policy_retry(struct vd_io *io);
/* Release the row locks internal ops still hold (cleanup after a failure). */
void vd_policy_unlock_all(struct vd_io *io);
/* Anything of the policies' still pending (dirty data, held ops)? */
bool vd_policy_busy(const struct vd_io *io);
/* Destage the dirty rows up to mark (vd_wb_mark; orderly stop, fsync);
 * vd_wb_pending tells when they are done. */
void vd_policy_flush(struct vd_io *io, uint64_t mark);

/* readahead.c: the read-ahead cache (def.readahead). */
int vd_ra_init(struct vd_io *io);
void vd_ra_free(struct vd_io *io);
/* A host read arriving: follow its stream (read ahead past it), then
 * serve it from the cache or hold it until the strips it needs are in;
 * false: not the cache's (the normal path). */
bool vd_ra_host(struct vd_io *io, struct vd_op *op);
/* A read-ahead operation finished: its strip is in (or freed on error);
 * the reads waiting for it are served or sent on. */
void vd_ra_loaded(struct vd_io *io, struct vd_op *op);
void vd_ra_unlock_all(struct vd_io *io);

/* wb.c: the write-back cache (def.write = back, back-bbu). */
enum vd_wb_ret {
	WB_PASS,       /* not the cache's: the normal path */
	WB_DONE,       /* absorbed, or served from the cache */
	WB_WAIT,       /* hold it: destage must happen first */
};
enum vd_wb_ret vd_wb_host(struct vd_io *io, struct vd_op *op);
/* Background destage: rows past the high watermark or too old. */
void vd_wb_tick(struct vd_io *io);
/* A flush's mark: the slots taken so far. A flush destages the dirty
 * rows up to its mark (vd_wb_flush) and waits while any is left
 * (vd_wb_pending): writes of other workers after it do not hold it. */
uint64_t vd_wb_mark(struct vd_io *io);
void vd_wb_flush(struct vd_io *io, uint64_t upto);
bool vd_wb_pending(struct vd_io *io, uint64_t upto);
/* A destage operation of e finished. */
void vd_wb_destaged(struct vd_io *io, struct vd_wb_entry *e);
/* io goes away after a failure: its destages will not finish. */
void vd_wb_unlock_all(struct vd_io *io);
/* The first run [*a, *b) of set bits of a sector bitmap at or after from;
 * false when there is none. */
bool vd_wb_next_run(const uint64_t *bits, uint64_t sectors, uint64_t from,
		    uint64_t *a, uint64_t *b);

/* The store of wb's slots: its bytes, and where the row data starts. */
#define VD_WB_STORE_HDR 4096u
size_t vd_wb_store_len(const struct vd_wb *wb, size_t *data_off);

/* bbu.c: write=back-bbu keeps the store in a shared file mapping (it
 * survives the process: kill -9 is a power loss the battery rides
 * through). Map it afresh for vd (wb->map, map_len, path set; the file
 * was replayed by vd_bbu_replay before). 0 or -errno. */
int vd_bbu_map(struct vd *vd, struct vd_wb *wb, size_t len);
/* Unmap; the file is removed when nothing in it is dirty. */
void vd_bbu_unmap(struct vd_wb *wb);

#endif
