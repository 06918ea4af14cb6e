/* worker.h - one job clone: a thread that generates, issues and measures
 * I/O through one engine until its job is done, its time is up, or it is
 * told to stop.
 *
 * The runner fills the "in" fields, calls worker_setup from the worker's own
 * thread (engines such as io_uring tie their state to the thread that made
 * it), waits at the start gate until all workers are set up, then runs.
 */
#ifndef IOCHAR_CORE_WORKER_H
#define IOCHAR_CORE_WORKER_H

#include <pthread.h>
#include <stdatomic.h>

#include "core/generator.h"
#include "core/job.h"
#include "engine/engine.h"
#include "stats/stats.h"
#include "util/err.h"
#include "verify/counts.h"

struct verify_session;
struct vd;
struct vd_stats;

/* Where workers wait, set up, until the runner lets them all go at once. */
struct start_gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned ready;       /* workers done with setup */
	bool open;
	uint64_t start_ns;    /* the common start, set when the gate opens */
};

/* Runner side: wait for `expected` workers to be ready, then open the gate
 * at the current time. */
void start_gate_open(struct start_gate *g, unsigned expected);

struct worker {
	/* in: set by the runner before the thread starts */
	const struct job_spec *job;
	unsigned job_index, clone;
	uint64_t region;             /* bytes per file the generator may use */
	const struct engine_ops *eops;
	struct vd *vd;               /* shared: the VD job's drive, else NULL */
	atomic_bool *stop;           /* shared: stop soon when true */
	struct start_gate *gate;     /* shared: all workers start together */
	pthread_t tid;

	/* state, owned by the worker thread */
	int fds[JOB_MAX_FILES];
	unsigned nr_fds;
	void *engine_state;
	struct io_unit *units;
	struct io_unit **free_units;
	unsigned nr_free;
	struct io_unit **staged; /* room for depth units (worker.c) */
	void *buffers;
	struct generator gen;
	struct verify_session *verify; /* NULL unless the job has verify=1 */
	/* rate-limited: by unit index, when its I/O left, when it would have
	 * left from a tool with no overhead (the same device service times,
	 * core/pace.h) and when that ideal slot is free again; else NULL */
	struct paced_times { uint64_t issued_ns, ideal_ns, ideal_free_ns; } *paced;

	/* out: valid after the thread is joined */
	struct worker_stats stats;
	struct stats_live live;      /* readable while it runs */
	struct verify_counts verify_counts; /* all zero without verify */
	struct vd_stats *vd_stats;   /* VD jobs: member accounting; the runner frees it */
	uint64_t measure_start_ns;   /* start + ramp */
	uint64_t end_ns;             /* when its last I/O completed */
	_Atomic int finished;
	int error;
	struct ioc_err err;
};

/* The thread body (arg is a struct worker *): setup, wait at the start
 * line, run, tear down. Errors end up in w->error / w->err. */
void *worker_main(void *arg);

#endif
