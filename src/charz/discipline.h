/* discipline.h - the submission discipline (io_uring ring setup, fio's
 * batching) a characterization runs a target with (issue 23).
 *
 * No discipline is best everywhere (bench/README.md "Submission
 * disciplines"): the papers report the device's best, so before a
 * target's measurements a short probe runs each candidate of the job's
 * engine at the step's first depth and keeps the one with the most IOPS:
 * each for DISC_PROBE_NS after DISC_PROBE_RAMP_NS, or, for a step whose
 * points are shorter, for its runtime after the shorter ramp (a plan of
 * 200 ms points is not held 3.6 s per target set). One run each is not a
 * choice (one noisy run decided it): the round repeats, DISC_PROBE_ROUNDS
 * at most, until the leader (the highest median) is decided, its median
 * above every other candidate's best run; undecided after the last round,
 * the default (the first candidate: ring_setup=auto's pick, iochar's pass
 * batching) is kept, and the record says which. The probe is skipped
 * when the user fixed the setting (ring_setup or a batching option on the
 * job, or --discipline=fixed|NAME). Written against measure_fn
 * (charz/point.h):
 * tests hand it a simulated device.
 */
#ifndef IOCHAR_CHARZ_DISCIPLINE_H
#define IOCHAR_CHARZ_DISCIPLINE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/json_writer.h"
#include "charz/point.h"

#define DISC_PROBE_NS 1000000000ull     /* each candidate's run */
#define DISC_PROBE_RAMP_NS 200000000ull /* before it: queues fill */
#define DISC_MAX_TRIED 4
#define DISC_PROBE_ROUNDS 3             /* runs of each candidate, at most */

/* One candidate: what it sets on a job of its engine (NULL: the job's). */
struct discipline {
	const char *name;    /* --discipline=NAME, results' "name" */
	const char *engine;  /* the ioengine it is for */
	const char *ring;    /* ring_setup value */
	const char *submit;  /* iodepth_batch_submit */
	const char *cmax;    /* iodepth_batch_complete_max */
};

/* --discipline: probe (the default), the job's own, or one by name. */
enum disc_mode {
	DISC_AUTO = 0,
	DISC_FIXED,
	DISC_NAMED,
};

struct disc_opt {
	enum disc_mode mode;
	const struct discipline *named; /* DISC_NAMED */
};

/* How a set's discipline was decided. */
enum disc_how {
	DISC_HOW_NONE = 0, /* nothing to choose: the engine has one, or the step measures nothing */
	DISC_HOW_PROBED,   /* the probe's best (or an earlier step's probe on the same targets) */
	DISC_HOW_USER,     /* the job sets ring_setup or batching itself */
	DISC_HOW_FIXED,    /* --discipline=fixed */
	DISC_HOW_NAMED,    /* --discipline=NAME */
};

struct disc_tried {
	const struct discipline *d;
	double iops, lat_mean_ns;   /* the median run's (by IOPS) */
	bool tool_limited;          /* that run's */
	double runs[DISC_PROBE_ROUNDS]; /* each run's IOPS, in order */
	double runs_lat[DISC_PROBE_ROUNDS]; /* and mean latency */
	bool runs_tool[DISC_PROBE_ROUNDS];  /* and tool_limited */
	unsigned nr_runs;
};

/* What a set ran with and why; plain data, copied freely. */
struct disc_choice {
	enum disc_how how;
	const struct discipline *d;     /* applied to every run; NULL: the job's own */
	bool reused;                    /* the probe of an earlier step */
	unsigned probe_iodepth, probe_numjobs;
	uint64_t probe_runtime_ns, probe_ramp_ns; /* each candidate's run */
	struct disc_tried tried[DISC_MAX_TRIED]; /* probe order */
	unsigned nr_tried;
	unsigned rounds;                /* runs of each candidate */
	bool decided;                   /* else d is the default, not the probe's */
	/* the effective settings, for the record ("" ring: not io_uring) */
	char engine[32], ring[24];
	unsigned submit, cmax;
	/* the same as the set's last step that had one said: the text
	 * tables and messages do not say it again (the JSON does) */
	bool unchanged;
};

/* Parse --discipline's value: auto, fixed, or a candidate's name. 0 or
 * -EINVAL with a usage message listing them. */
int discipline_opt_parse(const char *s, struct disc_opt *out, struct ioc_err *err);

/* Can o apply to job (a named one is its engine's)? 0 or -EINVAL with a
 * usage message naming the engine. */
int discipline_opt_check(const struct disc_opt *o, const struct job_spec *job,
			 struct ioc_err *err);

/* Did the job set ring_setup or any batching option itself? */
bool discipline_user_fixed(const struct job_spec *job);

/* How many candidates job's engine has (0 or 1: nothing to probe). */
unsigned discipline_candidates(const struct job_spec *job);

/* How long each candidate runs for job: DISC_PROBE_NS after
 * DISC_PROBE_RAMP_NS; for a job whose runtime is shorter, that runtime
 * after the shorter of the two ramps. */
void discipline_probe_time(const struct job_spec *job, uint64_t *runtime_ns,
			   uint64_t *ramp_ns);

/* Decide job's discipline under o into *out: without a probe when o or
 * the job fix it or the engine has one; else measure (through
 * measure/arg, a copy of job at its iodepth and numjobs, unpaced, time
 * based for discipline_probe_time's runtime after its ramp) every
 * candidate in order, in rounds until one is decided (above): the
 * decided one, else the default (a tie is undecided: the default).
 * job is not changed.
 * 0, or the measure's error. */
int discipline_choose(const struct disc_opt *o, const struct job_spec *job,
		      measure_fn measure, void *arg, struct disc_choice *out,
		      struct ioc_err *err);

/* Set c's discipline on job (nothing when c->d is NULL). 0 or -errno. */
int discipline_apply(const struct disc_choice *c, struct job_spec *job,
		     struct ioc_err *err);

/* Fill c's effective settings (engine, ring, submit, cmax) from job, the
 * job as it runs (after discipline_apply). */
void discipline_record(struct disc_choice *c, const struct job_spec *job);

/* c as results.json's "discipline" object. */
void discipline_json(const struct disc_choice *c, struct jw *w);

/* c in one line for the text summary, e.g. "io_uring ring_setup=none,
 * batch submit 0 / complete_max 65536 (probed at iodepth 1: none 112.4k,
 * coop_taskrun 87.7k, defer_taskrun 69.5k IOPS, medians of 2 rounds:
 * decided)"; undecided, "...: undecided, the default defer_taskrun)". */
void discipline_describe(const struct disc_choice *c, char *buf, size_t len);

#endif
