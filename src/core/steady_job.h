/* steady_job.h - fio's steady-state end of a job (steadystate=, ss_dur,
 * ss_ramp; fio's steadystate.c): once a second the job's I/Os/s and
 * bytes/s of the last second go into a window of ss_dur samples; once
 * full, each new sample judges it: the largest deviation from the mean
 * (iops, bw) or the least-squares slope (iops_slope, bw_slope), as a
 * percent of the mean with '%', below the limit ends the job. Samples
 * begin one second after ss_ramp from the job's start. (iochar's SNIA
 * steady state of preconditioning is charz/steady.c, another rule.) */
#ifndef IOCHAR_CORE_STEADY_JOB_H
#define IOCHAR_CORE_STEADY_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "base/job.h"

struct steady_job {
	struct job_ss rule;
	unsigned dur;             /* samples in the window */
	uint64_t ramp_ns;
	uint64_t *iops, *bw;      /* rings of dur samples */
	unsigned next, filled;    /* where the next goes; how many there are */
	bool started, ramp_over, attained;
	uint64_t start_ns, prev_ns, prev_ios, prev_bytes;
	double criterion, deviation, slope; /* the last judgement */
};

/* Set s up for job j (ss_dur set). 0 or -ENOMEM; steady_job_free after. */
int steady_job_init(struct steady_job *s, const struct job_spec *j);
void steady_job_free(struct steady_job *s);

/* The job's I/Os and bytes so far at now_ns (its workers' counters
 * summed), the job having started at start_ns (read at the first call:
 * the first sample counts from there, from zero). true once steady: the
 * job must end. Call about once a second. */
bool steady_job_sample(struct steady_job *s, uint64_t start_ns,
		       uint64_t now_ns, uint64_t ios, uint64_t bytes);

/* The window oldest first into iops[], bw[] (room for s->dur each);
 * returns the number of samples (s->filled). */
unsigned steady_job_window(const struct steady_job *s, uint64_t *iops, uint64_t *bw);

#endif
