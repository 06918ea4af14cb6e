/* steady_run.h - the runner's side of fio's steady-state end of jobs
 * (core/steady_job.h): a window per job with group_reporting (its clones
 * summed), else per worker; sampled once a second from the workers'
 * published counters while any of its workers has started and one runs;
 * a steady window ends its workers (worker.ss_end). */
#ifndef IOCHAR_CORE_STEADY_RUN_H
#define IOCHAR_CORE_STEADY_RUN_H

#include "core/schedule.h"
#include "core/steady_job.h"
#include "core/worker.h"
#include "stats/result.h"

struct steady_run {
	struct steady_job *by_worker; /* a window at each head; NULL: none */
	bool *head;
	uint64_t *due;                /* by head: its next sample; 0: not started */
	unsigned nr;
	uint64_t next_ns;             /* the earliest due (UINT64_MAX: none) */
};

/* Windows for the nr workers w (numjobs clones of a job are adjacent).
 * 0 or -ENOMEM; nothing allocated when no job has ss_dur. */
int steady_run_init(struct steady_run *sr, struct worker *w, unsigned nr);

/* Sample each window whose second is due at now (a second from its
 * job's start on); sw: which workers have started. */
void steady_run_tick(struct steady_run *sr, struct worker *w,
		     const struct sched_worker *sw, uint64_t now);

/* The windows into r->steady (r->nr_workers == nr). 0 or -ENOMEM. */
int steady_run_take(const struct steady_run *sr, struct run_result *r);

void steady_run_free(struct steady_run *sr);

#endif
