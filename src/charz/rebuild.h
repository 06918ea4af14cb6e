/* rebuild.h - a rebuild-rate sweep: how fast a RAID VD rebuilds a member
 * at each rebuild rate, and what each rate costs the foreground.
 *
 * With a workload, the workload first runs alone on the VD as defined
 * (the baseline), then again during each rebuild pass, one pass per rate
 * in order, until that pass ends; without one the passes run alone.
 * Afterwards every row is scrubbed: the rebuilt member must agree with
 * the others. `iochar vd rebuild` (cmd/vd.c) and a plan step with
 * mode=rebuild (charz/plan_run.c) are its two callers.
 */
#ifndef IOCHAR_CHARZ_REBUILD_H
#define IOCHAR_CHARZ_REBUILD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/job.h"
#include "base/json_writer.h"
#include "output/summary.h"
#include "util/err.h"
#include "vd/members.h"
#include "vd/rebuild.h"

#define REBUILD_MAX_RATES 16

/* The workload's figures over one run (ran: it ran and measured). */
struct rebuild_fg {
	bool ran;
	struct stats_summary s;
	uint64_t elapsed_ns;
};

/* One rebuild at one rate, and the foreground during it. */
struct rebuild_pass {
	char label[32];             /* as given: "50m", "30%", or "max" */
	double rate_bytes, rate_pct;
	struct vd_rebuild_result res;
	struct rebuild_fg during;
};

struct rebuild_sweep {
	struct rebuild_pass p[REBUILD_MAX_RATES];
	unsigned n;
	struct rebuild_fg base;     /* the workload alone */
	uint64_t bad, rows;         /* the scrub after the last pass */
	unsigned member;            /* the member rebuilt */
	const struct vd_members *m; /* the VD; the caller's */
};

/* rates "R[,R...]" (each as vd_rebuild_rate_parse takes it) into sw's
 * passes; NULL: one pass as fast as the rebuilder goes. 0 or -EINVAL with
 * a usage message naming `key` (the option's spelling, for messages). */
int rebuild_sweep_rates(const char *rates, const char *key,
			struct rebuild_sweep *sw, struct ioc_err *err);

/* Everything looked at before anything is written: job's --vd, member n
 * (a redundant level; no other member failed; its new target creatable or
 * big enough, and passing the destructive-write guard). Fills m. 0 or
 * -errno (usage errors marked). */
int rebuild_sweep_check(const struct job_spec *job, long n, bool workload,
			struct vd_members *m, struct ioc_err *err);

/* After rebuild_sweep_check(job, member, workload, m): prepare the VD's
 * cache, open (create) the new member, run the baseline and the passes,
 * scrub. job is changed (time_based during the passes). stop (may be
 * NULL) ends the sweep early: -EINTR. 0 or -errno with err. */
int rebuild_sweep_run(struct job_spec *job, unsigned member, bool workload,
		      atomic_bool *stop, const struct vd_members *m,
		      struct rebuild_sweep *sw, struct ioc_err *err);

/* The sweep as text lines: per pass its rebuild MB/s and the foreground
 * before and during, then the scrub's verdict. */
void rebuild_sweep_text(const struct rebuild_sweep *sw, FILE *f);

/* The sweep as members of the current JSON object: "rebuild" (the last
 * pass, member, path, level, the scrub), "foreground" (before and during
 * the last pass) and "rates" (every pass). */
void rebuild_sweep_json(const struct rebuild_sweep *sw, struct jw *w);

#endif
