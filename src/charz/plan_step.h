/* plan_step.h - one step of a plan (charz/plan.h) as its keys and
 * options set it: its mode, targets, workloads and limits, the names of
 * its modes and the rows of its keys (plan_keys.c). Apart from plan.h so
 * the keys' parser fills a step without including the plan's parser. */
#ifndef IOCHAR_CHARZ_PLAN_STEP_H
#define IOCHAR_CHARZ_PLAN_STEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/job.h"
#include "charz/point.h"

#define PLAN_MAX_STEPS 4096
#define PLAN_MAX_POINTS 64
#define PLAN_LABEL_MAX 160
#define PLAN_MAX_WORKLOADS 8

/* Which directions of one workload of a multi-workload step the step's
 * latency limit applies to (latency_judge=): a DBA judges an OLTP
 * database by its data reads and its redo log writes, not by the data
 * files' background writes. */
enum wl_judge {
	WL_JUDGE_EACH,  /* every direction that did I/O */
	WL_JUDGE_READ,
	WL_JUDGE_WRITE,
	WL_JUDGE_NONE,  /* not judged: load beside the ones judged */
};

/* One workload of a multi-workload step (workloads=a:b): a section of
 * the plan run concurrently with the others, on the same targets, with
 * its own rw/bs/depth/flush and region (offset=, size=). */
struct step_workload {
	char name[64];             /* its [section] */
	struct job_spec job;       /* owned */
	enum wl_judge judge;
};

enum step_mode {
	STEP_FIXED,        /* run the workload as given */
	STEP_SEARCH,       /* best (iodepth, numjobs) inside the latency limit */
	STEP_CURVE,        /* max, then rate-controlled % of it */
	STEP_PRECONDITION, /* sequential fill, then random writes to steady state */
	STEP_REBUILD,      /* a RAID VD member rebuilt at each rate, under the workload */
	STEP_APP,          /* a real database benchmark on the target (charz/app_step.h) */
};

enum target_use {
	TARGETS_EACH,      /* each target alone, one after the other */
	TARGETS_PARALLEL,  /* all at once: per-target and summed figures */
	TARGETS_SCALING,   /* 1, 2, 4 ... N targets at once: where the sum stops growing */
};

enum precond_use {
	PRECOND_OFF,
	PRECOND_AUTO,
};

/* SNIA PTS's workload-dependent preconditioning defaults: what a
 * mode=precondition step (and precondition=auto before a search) runs
 * unless rw, iodepth or numjobs are given. */
#define PTS_RW "randwrite"
#define PTS_IODEPTH 32
#define PTS_NUMJOBS 4

struct plan_step {
	char section[64];          /* the [section] it came from */
	char label[PLAN_LABEL_MAX]; /* section plus the listed values of this
				      step, e.g. "random bs=8k rwmixread=70" */
	enum step_mode mode;
	enum target_use targets;
	struct job_spec job;       /* the workload; owned */

	uint64_t latency_limit_ns; /* 0 = none; search needs one */
	enum lat_stat latency_stat;
	enum lat_scope latency_scope; /* each direction (default) or the combined figure */

	/* search: the largest iodepth and numjobs it may try */
	unsigned max_iodepth, max_numjobs;

	/* targets=scaling: runs of each target count (charz/scaling.h) */
	unsigned scaling_repeats;

	/* curve: percentages of the maximum, ascending; arrivals */
	unsigned points[PLAN_MAX_POINTS];
	unsigned nr_points;
	uint64_t stop_latency_ns;  /* end the curve once latency passes it; 0 = never */

	/* precondition (SNIA PTS): fill passes, then rounds to steady state */
	unsigned fill_passes;
	unsigned max_rounds;
	uint64_t round_ns;
	/* precondition=auto: a step that writes randomly is preceded by a
	 * preconditioning of its targets (the fill once per target and plan,
	 * then rounds of the step's workload) */
	enum precond_use precondition;

	/* rebuild (charz/rebuild.h): the member rebuilt, and the rates swept
	 * as given ("" = one pass as fast as it goes) */
	unsigned replace;
	bool replace_set;
	char rebuild_rate[128];

	/* app (charz/app_step.h, app/app.h): the benchmark, its workload
	 * ("" its default), the thread counts as given, each point's time and
	 * the data set (sysbench's tables of table_size rows, pgbench's scale);
	 * the job's latency_target names the best thread count */
	char app_bench[32];
	char app_workload[32];
	char app_threads[128];
	uint64_t app_time_ns;
	unsigned app_tables, app_scale;
	int app_lat_device;        /* latency_metric=device: r_await, not p99 */
	uint64_t app_table_size;

	/* workloads= (charz/workloads.h): the sections run together in this
	 * step, ':'-separated, as written; "" = the step's own workload only.
	 * When set, job is a copy of wl[0].job (what a search scales: its
	 * iodepth and numjobs; the others run as given) */
	char workloads[256];
	/* raid_level= (vd/matrix.h): the step runs on VDs of this level made
	 * over its filename= drives (filename= becomes vd=); raid_options=
	 * goes into each RAID definition */
	char raid_level[16];
	char raid_options[256];
	enum wl_judge judge;       /* latency_judge= of a workload section */
	struct step_workload *wl;  /* nr_wl entries; owned */
	unsigned nr_wl;
};

struct option_def;

/* The plan keys (scope PLAN rows of struct plan_step), in --help order;
 * *nr gets their number. Static data. */
const struct option_def *plan_key_rows(size_t *nr);

const char *step_mode_name(enum step_mode m);
const char *target_use_name(enum target_use t);

#endif
