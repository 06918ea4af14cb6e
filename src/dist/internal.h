/* internal.h - what the files of src/dist share: the handle, the message
 * tags and the wait loop. Not for use outside src/dist. */
#ifndef IOCHAR_DIST_INTERNAL_H
#define IOCHAR_DIST_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/result.h"
#include "util/err.h"

#define DIST_HOST_MAX 64
#define DIST_HB_NS 200000000ull          /* heartbeat period */
#define DIST_TIMEOUT_DEFAULT_MS 10000u   /* silence that declares a rank lost */

/* Message tags. Step-scoped messages start with the step's sequence
 * number, so a late message of an earlier step is recognised and dropped. */
enum dist_tag {
	TAG_PING = 1, TAG_PONG, /* clock offsets, at start */
	TAG_HB,                 /* heartbeat, both ways, during a step */
	TAG_READY,              /* rank -> 0: set up, waiting to start */
	TAG_RELEASE,            /* 0 -> rank: start */
	TAG_STOP,               /* 0 -> rank: stop now (why) */
	TAG_DONE,               /* rank -> 0: finished (status + its result) */
	TAG_VERDICT,            /* 0 -> rank: the step's outcome */
	TAG_SHARE,              /* 0 -> rank: dist_share's bytes */
	TAG_END,                /* 0 -> rank: the exit status */
	TAG_SYNC,               /* rank -> 0: arrived, with a status (pairs.c) */
	TAG_SYNC_GO,            /* 0 -> rank: go on, with the common status */
	TAG_P2P,                /* between two ranks: dist_send / dist_recv */
	TAG_GATHER,             /* rank -> 0: dist_gather's bytes */
	TAG_ALL,                /* 0 -> rank: dist_allgather's result */
};

struct dist {
	int rank, size;
	char (*hosts)[DIST_HOST_MAX];   /* every rank's hostname */
	int64_t *clock_offset_ns;       /* rank 0: rank r's clock minus its own */
	uint64_t *clock_error_ns;       /* rank 0: bound of that */
	bool *lost;                     /* ranks found dead; never talked to again */
	uint32_t seq;                   /* steps run so far */
	uint64_t timeout_ns;
};

/* The status line every step-scoped message starts with. */
struct msg_head {
	uint32_t seq;
	int32_t status;   /* 0 or -errno */
	int32_t usage;
	int32_t flags;
	char msg[IOC_ERR_MAX];
};

/* Rank 0's word in h (a sync go or a verdict) as this rank's outcome: 0,
 * or h's status with its message and usage flag in err (share.c). */
int msg_head_outcome(struct msg_head *h, struct ioc_err *err);

/* Wait up to timeout_ns for a message with tag from rank `from` whose
 * first 4 bytes (the step sequence) are seq or later — earlier ones are
 * dropped — and receive it into a malloc'd *buf of *len bytes. Sends keep
 * progressing meanwhile. 0, -ETIMEDOUT, -ENOMEM or -EIO. */
int dist_wait_msg(struct dist *d, int from, int tag, uint32_t seq,
		  uint64_t timeout_ns, void **buf, size_t *len);

/* Every rank's len bytes at mine, in rank order, into all (size * len)
 * on every rank, through rank 0 with deadlines (wait_ns per message): a
 * rank that never sends is named in err instead of hanging everyone, as
 * MPI_Allgather would. 0 or -errno with a message. */
int dist_allgather(struct dist *d, const void *mine, size_t len, void *all,
		   uint64_t wait_ns, struct ioc_err *err);

/* Send the same bytes to every rank but 0 that is not lost. */
int dist_post_all(struct dist *d, int tag, const void *buf, size_t len);

/* Measure every rank's clock offset from rank 0 (NTP-style ping-pong, the
 * round trip with the least delay kept). A collective at start. */
int dist_clock_sync(struct dist *d, struct ioc_err *err);

/* Wall clock (CLOCK_REALTIME) in ns. */
int64_t dist_wall_ns(void);

/* The members of struct run_result a rank's header carries: those rank 0
 * folds (the rest are rank 0's own, or pointers). One list, so the header,
 * its packing and its unpacking cannot disagree. */
#define WIRE_HEAD_MEMBERS(X)                                                 \
	X(partial) X(open_loop) X(verify) X(tool_limited) X(elapsed_ns)      \
	X(ramp_ns) X(cpu_usr_ns) X(cpu_sys_ns) X(start_unix_ms)              \
	X(verify_counts) X(tool_limited_reason)

/* A rank's result as bytes (wire.c): the figures of every worker, with
 * histograms and series, and the run's header. *buf is malloc'd. */
int wire_pack(const struct run_result *r, void **buf, size_t *len);

/* The reverse, into an empty r (workers, header; no jobs, no env).
 * 0, -EPROTO on malformed bytes, -ENOMEM. */
int wire_unpack(const void *buf, size_t len, struct run_result *r);

/* Rank 0: fold the results of the other ranks (peers[r] for r >= 1; an
 * empty one for a rank that reported nothing) into own, which becomes the
 * cluster's: workers tagged with their host, totals merged exactly, one
 * hosts[] entry per rank (meta: lost/error/start offsets already set in
 * hosts_in, moved into own). jobs are copied into own when it has none.
 * peers' workers move into own. 0 or -ENOMEM. */
int merge_cluster(struct run_result *own, struct run_result *peers,
		  struct host_result *hosts_in, unsigned nr,
		  const struct job_spec *jobs, unsigned nr_jobs);

/* IOCHAR_DIST_HIST_DIR set: write this rank's total latency histogram
 * there (dump.c), for tests that check the exact merge. */
void dist_dump_hist(const struct dist *d, const struct run_result *r);

#endif
