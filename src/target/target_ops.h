/* target_ops.h - targets that are not the job's files: the seam through
 * which the runner drives a RAID virtual drive (vd/target.c) without
 * knowing what one is.
 *
 * A job names its files, or a target of a kind the program installed
 * (core/seams.h). A kind says which jobs are its own (claims), may split
 * one job into several (a vd= list of VDs runs one job per VD), looks at
 * its targets while the job is validated (layout: read-only, like
 * target_inspect), prepares them before the run (prepare: create, fill,
 * initialize), makes the state its workers share for the run (start,
 * stop), and gives each worker an engine that maps the job's I/Os onto
 * its own, issued through the job's real engine (engine_init, engine).
 * What its engine instances accounted beyond the worker's figures (the
 * members' I/Os) is taken from each and summed per job (take_stats,
 * stats_add): opaque here, read by the emitters of the kind.
 *
 * The order for one job: claims, count/split, layout, prepare, start, per
 * worker engine_init .. take_stats .. engine->cleanup, stop, release.
 * Every hook runs on the runner's thread except the engine's and
 * measure_from, take_stats and io_error, which run on the worker's.
 */
#ifndef IOCHAR_TARGET_TARGET_OPS_H
#define IOCHAR_TARGET_TARGET_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/job.h"
#include "target/target.h"
#include "util/err.h"

struct engine_ops;
struct engine_params;

/* What a kind found about one job's targets (layout). */
struct target_layout {
	uint64_t region;	/* bytes the job may address, a multiple of bs */
	/* the paths the run's environment describes (the live members); they
	 * point into state and live as long as it */
	const char *paths[JOB_MAX_FILES];
	unsigned nr_paths;
	char note[256];		/* said before the run ("note: job X: ..."); "" none */
	void *state;		/* the kind's; released by release() */
};

struct target_ops {
	/* How messages name the target of one of its jobs ("the --vd drive"). */
	const char *name;
	/* Is job one of this kind's? */
	bool (*claims)(const struct job_spec *job);
	/* How many jobs job stands for (>= 1). */
	unsigned (*count)(const struct job_spec *job);
	/* out, a copy of job, becomes the i-th of its n jobs (name, target,
	 * its share of a rate). 0 or -ENOMEM. */
	int (*split)(const struct job_spec *job, unsigned i, unsigned n,
		     struct job_spec *out);
	/* Check job's targets without writing anything, with eops the job's
	 * engine (already probed), and fill out. 0, or -errno with a usage
	 * message naming the job; out->state may be set either way. */
	int (*layout)(const struct job_spec *job, const struct engine_ops *eops,
		      struct target_layout *out, struct ioc_err *err);
	/* Make the targets ready (c: progress and stop of the pre-write).
	 * 0, -EINTR when stopped, or -errno with a message. */
	int (*prepare)(void *state, const struct target_fill_ctl *c,
		       struct ioc_err *err);
	/* The state the job's workers share while they run; *shared is
	 * released by stop (after the workers are joined). 0 or -ENOMEM. */
	int (*start)(void *state, void **shared);
	void (*stop)(void *shared);
	/* Release layout's state; state may be NULL. */
	void (*release)(void *state);

	/* The engine of the job's workers, and its init: inner is the job's
	 * own engine, which moves the kind's I/Os (engine/engine.h). */
	const struct engine_ops *engine;
	int (*engine_init)(void *shared, const struct engine_ops *inner,
			   const struct job_spec *job,
			   const struct engine_params *p, void **estate,
			   struct ioc_err *err);
	/* The instance counts what completes from ns on (the measured phase). */
	void (*measure_from)(void *estate, uint64_t ns);
	/* The instance's own accounting, owned by the caller (free()); NULL
	 * when none. Called before the engine's cleanup. */
	void *(*take_stats)(void *estate);
	/* *into += from; *into is made (free()) when NULL. 0 or -ENOMEM. */
	int (*stats_add)(void **into, const void *from);
	/* The failure behind the instance's last failed I/O, in buf; false
	 * when there is none to tell. */
	bool (*io_error)(void *estate, char *buf, size_t len);
};

#endif
