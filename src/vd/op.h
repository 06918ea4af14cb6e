/* op.h - one host I/O on its way through a VD: the member I/Os it needs,
 * in at most two phases (reads, then writes), and the stripe rows it
 * computes parity for. Internal to vd/ (plan.c builds and finishes ops,
 * engine.c moves them through the member engine).
 */
#ifndef IOCHAR_VD_OP_H
#define IOCHAR_VD_OP_H

#include <stdbool.h>
#include <stdint.h>

#include "base/job.h"
#include "vd/vd.h"

/* A member I/O. After vd_op_merge, a run of pieces (op->pieces
 * [first, first + nr)) contiguous on its member; bounced: the pieces'
 * buffers are not contiguous, so buf is in op->bounce. */
struct vd_mio {
	unsigned member;
	enum io_dir dir;
	uint64_t off, len;
	void *buf;
	unsigned first, nr;
	bool bounced;
};

enum vd_row_mode {
	ROW_RMW,          /* read old data + parity, write new data + parity */
	ROW_RCW,          /* read the untouched data, write new data + parity */
	ROW_RECON,        /* degraded: read every live member, rebuild, write */
	ROW_DATA_ONLY,    /* no live parity: write the data, read nothing */
	ROW_READ_RECON,   /* degraded read: rebuild the lost strip */
};

/* One stripe row a parity op computes over, for in-strip bytes [lo, hi). */
struct vd_row {
	uint64_t row;
	uint64_t lo, hi;
	uint64_t touched;      /* data indexes with host bytes */
	uint64_t full;         /* ... whose host bytes cover all of [lo, hi) */
	bool active;           /* needs row buffers (parity write, degraded read) */
	enum vd_row_mode mode;
	int miss[2];           /* lost row indexes (data i, P = k, Q = k+1), -1 */
	uint8_t *buf[VD_MAX_MEMBERS]; /* row index -> hi-lo bytes (k data, P, Q) */
};

enum vd_op_phase {
	OP_WAIT_LOCK,
	OP_READS,
	OP_WRITES,
	OP_DONE,
};

enum vd_op_kind {
	OP_HOST,               /* a host I/O */
	OP_DESTAGE,            /* write-back: dirty data to the members */
	OP_READAHEAD,          /* read-ahead: strips into the cache */
};

struct vd_op {
	enum vd_op_kind kind;
	void *owner;           /* internal ops: their cache entry */
	struct io_unit *host;  /* OP_HOST only */
	enum io_dir dir;
	uint64_t off, len;
	uint8_t *data;         /* host bytes */
	enum vd_op_phase phase;
	bool locked, excl;
	uint64_t lock_first, lock_last;
	int error;             /* first member error, -errno */
	bool ra_miss;          /* read-ahead: a host read that loaded its own strips */

	struct vd_mio *mios;   /* this phase's member I/Os */
	unsigned nr_mios, cap_mios;
	struct vd_mio *pieces; /* ... before vd_op_merge, by member and offset */
	unsigned nr_pieces, cap_pieces;
	uint8_t *bounce;       /* merged runs of scattered pieces, 4 KiB aligned */
	size_t bounce_cap;
	unsigned submitted, outstanding;

	struct vd_row *rows;   /* parity levels: rows lock_first.. */
	unsigned nr_rows, cap_rows;
	uint8_t *scratch;      /* row buffers, 4 KiB aligned */
	size_t scratch_cap;

	struct vd_op *next;    /* in the engine's queues */
};

struct vd_plan_ctx {
	struct vd *vd;
	uint64_t fail_mask;    /* members not to touch */
	unsigned rr;           /* mirror read balancing */
	struct vd_stats *stats;
	bool counting;         /* inside the measured phase */
};

/* Rows an op on [off, off+len) locks, and whether it needs locks at all
 * (raid0 and jbod do not: no member holds anything another one derives). */
bool vd_op_lock_range(const struct vd *vd, struct vd_op *op);

/* Build the first phase of op (op->dir, off, len, data set). Sets
 * op->phase to OP_READS or OP_WRITES (or OP_DONE: nothing to do) and fills
 * op->mios. 0 or -ENOMEM. */
int vd_op_start(struct vd_plan_ctx *c, struct vd_op *op);

/* The phase's member I/Os are all done: compute and build the next phase,
 * or set OP_DONE. 0 or -errno (a row that cannot be rebuilt). */
int vd_op_advance(struct vd_plan_ctx *c, struct vd_op *op);

/* Member holding row index j (data 0..k-1, P = k, Q = k+1) of row r. */
unsigned vd_row_member(const struct vd_geom *g, uint64_t r, unsigned j);

void vd_op_free(struct vd_op *op);

/* merge.c: replace op's member I/Os by one per run of pieces contiguous
 * on a member (what a controller issues: one I/O per member per stripe
 * run). Runs whose pieces' buffers are scattered use op->bounce, filled
 * now for writes. 0 or -ENOMEM (op unchanged). */
int vd_op_merge(struct vd_op *op);

/* The read phase op merged is done: copy bounced runs out to their
 * pieces' buffers. */
void vd_op_unbounce(struct vd_op *op);

#endif
