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

#include "core/batch.h"
#include "core/buf_fill.h"
#include "core/flow.h"
#include "core/lat_target.h"
#include "core/generator.h"
#include "base/job.h"
#include "engine/engine.h"
#include "engine/io_hooks.h"
#include "stats/fio_log.h"
#include "stats/stats.h"
#include "target/target_ops.h"
#include "util/err.h"
#include "base/verify_counts.h"
#include "core/worker_iolog.h"

/* Where a worker waits, set up, until the runner lets it go (each has its
 * own: its turn comes by stonewall, wait_for and startdelay, core/schedule.h). */
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


/* The optional per-I/O features. Which a worker uses is decided once,
 * at setup (worker_features), into worker.feat: the loop tests the mask,
 * and a job using none of them pays one test per I/O, not one per
 * feature. Each feature's state is its own member of struct worker. */
enum worker_feature {
	WF_PACED = 1u << 0,      /* rate-limited or a timed replay: pacing */
	WF_LAT_TARGET = 1u << 1, /* latency_target's depth search: lat_target */
	WF_HOOKS = 1u << 2,      /* per-I/O hooks (verification): io_state */
	WF_SPLIT = 1u << 3,      /* fio's slat and clat: fio.submitted_ns */
	WF_FIO_LOGS = 1u << 4,   /* fio's log files: fio.logs */
	WF_PRIO = 1u << 5,       /* fio's latency per priority: prio */
	WF_IOLOG_OUT = 1u << 6,  /* write_iolog: iolog.out */
	WF_REPLAY = 1u << 7,     /* read_iolog: iolog.replay is the op source */
	WF_REFILL = 1u << 8,     /* each write's buffer made (compress/dedupe): fill */
	WF_FLUSHES = 1u << 9,    /* fsync=N, fdatasync=N */
	WF_FLOW = 1u << 10,      /* flow=: flow */
	WF_BETWEEN = 1u << 11,   /* between passes: thinktime, rate_min, fio's log ticks */
	WF_SS = 1u << 12,        /* steadystate: ss_end */
	WF_OVERLAP = 1u << 13,   /* serialize_overlap: free_mark */
	WF_REUSE = 1u << 14,     /* hooks without a state: io->reuse per write */
};

/* What making a unit for an I/O does beyond its fields, and what a
 * completion does beyond the statistics: each under one test. */
#define WF_ON_UNIT (WF_PACED | WF_REFILL | WF_FLUSHES)
#define WF_ON_COMPLETE (WF_PACED | WF_LAT_TARGET | WF_SPLIT | WF_FIO_LOGS | WF_PRIO)

/* rate-limited, by unit index: when its I/O left, when it would have
 * left from a tool with no overhead (the same device service times,
 * core/pace.h) and when that ideal slot is free again */
struct paced_times {
	uint64_t issued_ns, ideal_ns, ideal_free_ns;
};

/* latency_target: its depth search and what the last completions asked */
struct worker_lat_target {
	struct lat_target search;
	enum lat_step pending;
};

/* fio's figures and files: by unit, when the submit call that took its
 * I/O returned (slat/clat; engines that queue), the units queued since
 * the last commit, and fio's log files (NULL when the job writes none) */
struct worker_fio {
	uint64_t *submitted_ns;
	unsigned *queued, nr_queued;
	struct fio_logs *logs;
};


struct worker {
	/* in: set by the runner before the thread starts */
	const struct job_spec *job;
	unsigned job_index, clone;
	unsigned thread_number;      /* 1-based over the run's workers (fio's log names) */
	uint64_t region;             /* bytes per file the generator may use */
	/* filesize=LOW-HIGH: each of the job's files' own region (the
	 * layout's, core/layout.h; region is then their largest); else NULL */
	const uint64_t *file_region;
	const struct engine_ops *eops;
	/* a job of another target kind (a RAID VD): the kind, and what its
	 * workers share (kind->start); else NULL and the job's files */
	const struct target_ops *kind;
	void *shared;
	const struct io_hooks *io;   /* per-I/O hooks (verification); may be NULL */
	atomic_bool *stop;           /* shared: stop soon when true */
	/* this worker only: another's end stopped it (exitall); the runner
	 * sets it, the worker ends as at its deadline */
	atomic_bool exit_now;
	unsigned ioprio;             /* its job's (job_ioprio): each I/O's, for the logs */
	struct start_gate *gate;     /* its own; the runner opens it */
	struct flow_member flow;     /* flow=: joined by the runner; left at the end */
	unsigned nr_threads;         /* the run's workers (dedupe_global) */
	atomic_bool ss_end;          /* its steady state is reached: end now */
	pthread_t tid;

	/* state, owned by the worker thread */
	unsigned feat;               /* enum worker_feature: decided at setup */
	int fds[JOB_MAX_FILES];
	unsigned nr_fds;
	void *engine_state;
	struct io_unit *units;
	struct io_unit **free_units;
	unsigned nr_free;
	struct io_unit **staged; /* room for depth units (worker_setup.c) */
	uint8_t *free_mark;      /* [depth], serialize_overlap's scratch */
	struct batch batch;          /* fio's iodepth_batch_* and iodepth_low */
	void *buffers;
	struct generator gen;
	void *io_state;              /* io's, NULL when the job checks nothing */
	bool flushing_end;           /* end_fsync's flushes: not counted */
	struct buf_fill fill;        /* WF_REFILL: fio's compress/dedupe contents */
	struct worker_lat_target lat_target; /* WF_LAT_TARGET */
	struct paced_times *pacing;  /* WF_PACED: by unit index */
	struct worker_fio fio;       /* WF_SPLIT, WF_FIO_LOGS */
	struct worker_iologs iolog;  /* WF_REPLAY, WF_IOLOG_OUT */

	/* out: valid after the thread is joined */
	struct worker_stats stats;
	struct stats_live live;      /* readable while it runs */
	struct verify_counts verify_counts; /* all zero without verify */
	void *target_stats;          /* kind's accounting (take_stats); the runner frees it */
	struct prio_stats *prio;     /* fio's latency per priority (cmdprio); NULL: none */
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
