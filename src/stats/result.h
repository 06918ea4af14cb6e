/* result.h - the outcome of one run: the result types of the ground floor.
 *
 * Filled by the runner (core/runner_run) and, over many hosts, by dist/;
 * read by output/ (text, json, csv) and charz/. It sits with the
 * statistics it is made of, below core/, so whatever reads a result
 * needs nothing of the code that ran it.
 * Everything here is plain data owned by the struct; release with
 * run_result_free.
 */
#ifndef IOCHAR_STATS_RESULT_H
#define IOCHAR_STATS_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/job.h"
#include "stats/disk_util.h"
#include "stats/prio_stats.h"
#include "stats/stats.h"
#include "base/verify_counts.h"

struct environment; /* inventory/environment.h, through core/seams.h */

/* One worker (a job clone, numjobs of them per job). It travels between
 * MPI ranks as its bytes (dist/wire.c): a pointer added here must be
 * remade in wire_unpack. */
struct worker_result {
	unsigned job;          /* index into run_result.jobs */
	unsigned clone;        /* 0 .. numjobs-1 */
	uint64_t elapsed_ns;   /* measured phase of this worker */
	struct worker_stats stats;
	int error;             /* 0, or -errno of the failure that stopped it */
	char error_msg[256];
	unsigned host;         /* index into run_result.hosts (0 on one host) */
	/* groups (issue 14): its job's reporting group (fio's groupid), and
	 * when it started and its last I/O ended, since the run's start */
	unsigned group;
	uint64_t start_ns, end_ns;
	/* latency_target: the depth its search ended at; 0 = none ran */
	unsigned latency_depth;
	/* fio's latency per I/O priority (cmdprio), owned; NULL: none */
	struct prio_stats *prio;
};

/* One host (MPI rank) of a run over many hosts; filled by src/dist. */
struct host_result {
	char host[64];         /* its hostname */
	int rank;
	bool lost;             /* stopped responding: no figures from it */
	int error;             /* 0, or -errno of what stopped it */
	char error_msg[256];
	uint64_t elapsed_ns;
	uint64_t cpu_usr_ns, cpu_sys_ns;
	int64_t start_offset_ns; /* its start minus the earliest host's (clocks corrected) */
	int64_t clock_offset_ns; /* its wall clock minus rank 0's, as measured */
	uint64_t clock_error_ns; /* bound of that measurement (half the best round trip) */
	struct worker_stats stats; /* its workers merged */
	char *env_json;          /* its environment as JSON text, owned; NULL: none (lost) */
};

/* A job's steady-state window as fio reports it ("steadystate"):
 * kept by its first worker (by its worker without group_reporting). */
struct steady_result {
	bool on, attained;
	struct job_ss rule;
	unsigned dur;            /* seconds in the window */
	double criterion, deviation, slope;
	unsigned n;              /* samples in iops[], bw[] (at most dur) */
	uint64_t *iops, *bw;     /* oldest first; owned */
};

struct run_result {
	struct job_spec *jobs; /* copies of the jobs that ran; owned */
	unsigned nr_jobs;

	struct worker_result *workers; /* owned */
	unsigned nr_workers;

	struct worker_stats total;     /* all workers merged; intervals too */
	uint64_t elapsed_ns;           /* wall time of the measured phase */
	uint64_t ramp_ns;              /* excluded before it */
	double cpu_usr_pct, cpu_sys_pct; /* whole process, % of one CPU */
	uint64_t cpu_usr_ns, cpu_sys_ns;
	/* context switches (voluntary + involuntary), major and minor page
	 * faults of the whole process over the measured phase (RUSAGE_SELF);
	 * on many hosts, rank 0's */
	uint64_t ctx, majf, minf;
	bool partial;                  /* stopped early by a signal or an error */
	bool open_loop;                /* a rate (pace_job_paced): latency counts from the scheduled time */
	/* Rate-limited runs whose issue lag is a material share of their
	 * latency (core/tool_limited.h): the figures are iochar's lateness as
	 * much as the device's. The reason is one line; "" when false. */
	bool tool_limited;
	char tool_limited_reason[256];
	unsigned cpus_usable;          /* CPUs this process may run on; 0: unknown */
	/* The scheduler groups the workers weighed as (util/autogroup.h) and
	 * the autogroup nice that gave it; 0 groups: the autogroup was left
	 * as it was */
	unsigned sched_groups;
	int sched_nice;
	double machine_busy_pct;       /* all CPUs, % busy over the measured phase; < 0: unknown */
	int64_t start_unix_ms;         /* wall-clock start, for reports */
	bool verify;                   /* some job ran with verify=1 */
	struct verify_counts verify_counts; /* all workers merged */
	/* what the run was measured on (the installed environment hook), owned,
	 * released with env_free; NULL when there is no hook */
	struct environment *env;
	void (*env_free)(struct environment *env);
	/* by job: what its target kind accounted beyond the workers' figures
	 * (a RAID VD job: struct vd_stats, vd/stats.h), else NULL; owned, free() */
	void **target_stats;

	/* A run over many hosts (MPI): one entry per rank, workers tagged with
	 * theirs, totals over all of them. nr_hosts is 0 on one host. */
	struct host_result *hosts; /* owned */
	unsigned nr_hosts;
	uint64_t start_skew_ns;    /* latest host's start minus the earliest's */
	/* by worker: fio's steady-state windows (on: a head of one); NULL
	 * when no job has ss_dur; owned */
	struct steady_result *steady;
	/* fio's disk_util: the devices under the jobs' files over the run
	 * (stats/disk_util.h), owned; on many hosts, rank 0's */
	struct disk_util *disks;
	unsigned nr_disks;
	/* iochar's notes on the run (util/note.h: how it differs from fio,
	 * files laid out, a depth capped), in the order said, for the JSON's
	 * "notes": off a terminal they are not on stderr (fio's harnesses
	 * read any stderr as a failure). Owned (each string and the array);
	 * NULL and 0 when none. On many hosts, rank 0's. */
	char **notes;
	unsigned nr_notes;
};

void run_result_free(struct run_result *r);

#endif
