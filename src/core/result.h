/* result.h - the outcome of one run, as the emitters see it.
 *
 * Filled by the runner (runner_run), read by output/ (text, json, csv).
 * Everything here is plain data owned by the struct; release with
 * run_result_free.
 */
#ifndef IOCHAR_CORE_RESULT_H
#define IOCHAR_CORE_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/job.h"
#include "inventory/environment.h"
#include "stats/stats.h"
#include "verify/counts.h"

struct vd_stats;

/* One worker (a job clone, numjobs of them per job). */
struct worker_result {
	unsigned job;          /* index into run_result.jobs */
	unsigned clone;        /* 0 .. numjobs-1 */
	uint64_t elapsed_ns;   /* measured phase of this worker */
	struct worker_stats stats;
	int error;             /* 0, or -errno of the failure that stopped it */
	char error_msg[256];
	unsigned host;         /* index into run_result.hosts (0 on one host) */
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
	bool partial;                  /* stopped early by a signal or an error */
	bool open_loop;                /* rate_iops set: latency counts from the scheduled time */
	/* Rate-limited runs whose issue lag is a material share of their
	 * latency (core/tool_limited.h): the figures are iochar's lateness as
	 * much as the device's. The reason is one line; "" when false. */
	bool tool_limited;
	char tool_limited_reason[256];
	unsigned cpus_usable;          /* CPUs this process may run on; 0: unknown */
	double machine_busy_pct;       /* all CPUs, % busy over the measured phase; < 0: unknown */
	int64_t start_unix_ms;         /* wall-clock start, for reports */
	bool verify;                   /* some job ran with verify=1 */
	struct verify_counts verify_counts; /* all workers merged */
	struct environment env;
	struct vd_stats **vd;          /* by job: member accounting of VD jobs, else NULL; owned */

	/* A run over many hosts (MPI): one entry per rank, workers tagged with
	 * theirs, totals over all of them. nr_hosts is 0 on one host. */
	struct host_result *hosts; /* owned */
	unsigned nr_hosts;
	uint64_t start_skew_ns;    /* latest host's start minus the earliest's */
};

void run_result_free(struct run_result *r);

#endif
