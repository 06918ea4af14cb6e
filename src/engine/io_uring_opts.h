/* io_uring_opts.h - the io_uring engine's own options (fio's names), kept
 * in the job's engine_opts area as struct uring_opts. */
#ifndef IOCHAR_ENGINE_IO_URING_OPTS_H
#define IOCHAR_ENGINE_IO_URING_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/cmdprio.h"
#include "engine/engine.h"

/* All zero is every default: buffers and files registered (iochar always
 * did; fio's fixedbufs and registerfiles default to 0), no polling. */
struct uring_opts {
	bool no_fixedbufs;     /* fixedbufs=0: plain read/write SQEs */
	bool no_registerfiles; /* registerfiles=0: SQEs carry fds */
	bool sqthread_poll;    /* IORING_SETUP_SQPOLL: a kernel thread submits */
	bool hipri;	       /* IORING_SETUP_IOPOLL: completions are polled */
	bool sq_aff;	       /* sqthread_poll_cpu given: IORING_SETUP_SQ_AFF */
	uint32_t sq_cpu;       /* ... on this CPU */
	int vectored;	       /* enum uring_vec: nonvectored as fio's */
	unsigned uncached;     /* fio's RWF_UNCACHED: refused unless 0 */
	bool nowait;	       /* RWF_NOWAIT on every read and write */
	unsigned force_async;  /* IOSQE_ASYNC on every Nth SQE; 0 none */
	struct cmdprio_opts prio; /* fix-opts: fio's cmdprio options */
	int ring;              /* enum uring_ring: ring_setup (iochar's) */
};

/* ring_setup: how completions' task work runs (issue 23). AUTO: the best
 * the kernel has (DEFER_TASKRUN, else COOP_TASKRUN, else none); the rest
 * ask for that one, refused at start if the kernel lacks it. */
enum uring_ring {
	URING_RING_AUTO = 0,
	URING_RING_DEFER,       /* SINGLE_ISSUER | DEFER_TASKRUN */
	URING_RING_COOP_SINGLE, /* SINGLE_ISSUER | COOP_TASKRUN */
	URING_RING_COOP,        /* COOP_TASKRUN */
	URING_RING_SINGLE,      /* SINGLE_ISSUER */
	URING_RING_NONE,        /* none: IPIs and task-work interrupts */
};

/* ring_setup's value name of r, for messages. */
const char *uring_ring_name(int r);

/* fio's nonvectored=-1 (its default: non-vectored when the kernel has
 * IORING_OP_READ, which every kernel iochar runs on has), 1, or 0
 * (IORING_OP_READV/WRITEV with one iovec). */
enum uring_vec {
	URING_VEC_AUTO = 0,
	URING_VEC_NON = 1,
	URING_VEC_VECTORED = 2,
};

/* The rows, {NULL}-terminated: engine_io_uring.options. */
extern const struct option_def uring_options[];

/* engine_io_uring.check: hipri needs direct=1; sqthread_poll needs a
 * kernel (and privileges) that grant a polling thread. */
int uring_check(const struct job_spec *job, struct ioc_err *err);

#endif
