/* results.h - the results directory of a plan run (see plan_run.h for its
 * layout): per-step files written atomically, and the aggregate files
 * rebuilt from them after every step, so a crash loses nothing finished. */
#ifndef IOCHAR_CHARZ_RESULTS_H
#define IOCHAR_CHARZ_RESULTS_H

#include <stdbool.h>

#include "charz/outcome.h"
#include "inventory/environment.h"

struct results_dir {
	char path[4000];
	const struct plan *plan;
	const struct environment *env;
	/* a run over many hosts: each rank's environment as JSON text (NULL:
	 * none), set by the caller after results_open; not owned */
	const struct dist *dist;
	char *const *host_envs;
};

/* results_open's checks of dir, rd filled, nothing created: what
 * `iochar plan --dry-run` refuses exactly as the run would. */
int results_check(struct results_dir *rd, const char *dir, const struct plan *p,
		  const struct environment *env, bool resume, struct ioc_err *err);

/* The files --resume reads in dir (steps/NNN.key, .json, .csv, .txt of
 * p's steps): each there must be a regular file, steps/ a directory,
 * else a usage error naming it (a FIFO there left the plan waiting for a
 * writer, issue 37 H13). Nothing is opened. 0 or -errno + message. */
int results_resume_check(const char *dir, const struct plan *p, struct ioc_err *err);

/* Create (or, with resume, reuse) dir for plan p. 0 or -errno + message. */
int results_open(struct results_dir *rd, const char *dir, const struct plan *p,
		 const struct environment *env, bool resume, struct ioc_err *err);

/* The key of step i: its label, mode, limits and every workload parameter,
 * as text; *out is malloc'd. 0 or -ENOMEM. */
int results_step_key(const struct plan *p, unsigned i, char **out);

/* Is step i already in rd, with the same key? */
bool results_step_done(const struct results_dir *rd, unsigned i);

/* Write step o's files, then rebuild results.json and results.csv.
 * complete: every step of the plan is now done. 0 or -errno + message. */
int results_write_step(const struct results_dir *rd,
		       const struct step_outcome *o, bool complete,
		       struct ioc_err *err);

/* Mark the results complete (every step done, some perhaps by an earlier
 * run). 0 or -errno + message. */
int results_finish(const struct results_dir *rd, struct ioc_err *err);

/* Print the summary table of every finished step to f. */
void results_print_table(const struct results_dir *rd, FILE *f);

#endif
