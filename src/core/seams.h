/* seams.h - what the runner reaches in the layers above it, installed once.
 *
 * core/ includes nothing from vd/, verify/ or inventory/: the program
 * hands it, before its first run, the target kinds beyond files (a RAID
 * virtual drive: target/target_ops.h), the per-I/O hooks (verification:
 * engine/io_hooks.h) and the environment snapshot every result carries.
 * The program's wiring (cmd/seams.c) installs them from main(), like
 * fio's engine list: a table set at start and only read afterwards.
 * Without it the runner runs file jobs, verifies nothing and collects no
 * environment (jobs that need a seam are refused).
 */
#ifndef IOCHAR_CORE_SEAMS_H
#define IOCHAR_CORE_SEAMS_H

#include "base/job.h"
#include "engine/io_hooks.h"
#include "target/target_ops.h"

struct environment;

struct runner_seams {
	/* Target kinds, NULL-terminated; the first that claims a job drives
	 * it. NULL: only files. */
	const struct target_ops *const *targets;
	/* Per-I/O hooks of every worker; NULL: none. */
	const struct io_hooks *io;
	/* The environment of a run over paths (its targets), *out owned by
	 * the result and released with env_free. 0 or -ENOMEM. NULL: none. */
	int (*env_collect)(const char *const *paths, unsigned nr,
			   struct environment **out);
	void (*env_free)(struct environment *env);
};

/* Install s (static, it is not copied) for every later run; call before
 * the first, from one thread. NULL uninstalls. */
void runner_seams_install(const struct runner_seams *s);

/* What was installed (an empty set when nothing was); never NULL. */
const struct runner_seams *runner_seams(void);

/* The installed target kind that claims job, or NULL (its files). */
const struct target_ops *runner_target_kind(const struct job_spec *job);

#endif
