/* results_model.h - what `iochar report` and `compare` know of a result
 * set: a plan results directory or one `iochar run --output-format=json`
 * file, read back into plain structs (results_read.h fills them).
 *
 * A run file becomes a set with one fixed step. Every string is malloc'd
 * and owned by the set; rs_set_free releases everything. The environment
 * is kept as the parsed JSON tree (json-c), because the report renders it
 * generically: whatever members it gains show up without a change here.
 */
#ifndef IOCHAR_REPORT_RESULTS_MODEL_H
#define IOCHAR_REPORT_RESULTS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;
struct option_def;
struct rs_net;
struct rs_mesh;
struct rs_app;

enum { RS_P50, RS_P90, RS_P95, RS_P99, RS_P99_9, RS_P99_99, RS_NR_PCT };

/* The percentiles of rs_lat.pct, as numbers (50, 90, ... 99.99) and as
 * the JSON keys ("p50", ... "p99_99"). */
extern const double rs_pct_value[RS_NR_PCT];
extern const char *const rs_pct_key[RS_NR_PCT];

struct rs_lat {
	double mean, stdev;        /* ns; NaN when the file said null */
	uint64_t min, max;
	uint64_t pct[RS_NR_PCT];   /* ns */
};

struct rs_dir {
	uint64_t ios, bytes;
	double iops, bw_bytes;
	struct rs_lat lat;         /* response time ("lat_ns") */
	/* rate-limited runs: the issue lag ("lag"), iochar's share of it
	 * ("tool_lag") and the service time from submission
	 * ("service_latency"); absent from older files */
	struct rs_lat lag, tool_lag, service;
	bool has_lag, has_tool_lag, has_service;
};

/* One second of a point's measured phase, all directions together. */
struct rs_interval {
	double iops;
	double lat_mean_ns;
};

/* One host (MPI rank) of a run over many hosts. A run JSON's "hosts[]"
 * gives everything; a plan point's "per_host[]" only host, rank and total
 * (detail false: the other members are zero). */
struct rs_host {
	char *host;                /* hostname */
	char *label;               /* host, or "host rank R" when the name is
				    * not unique in the point: how hosts match */
	unsigned rank;
	bool detail;               /* from a run's hosts[]: the members below */
	bool lost;                 /* stopped answering: no figures */
	char *error;               /* what stopped it; NULL: nothing */
	uint64_t elapsed_ns;
	int64_t start_offset_ns;   /* its start minus the earliest host's */
	struct rs_dir read, write, total;
};

/* One target of a plan point run on several (a step point's
 * "per_target"): a file, device or RAID VD (named by its definition). */
struct rs_target {
	char *target;
	double amp;                /* a VD's member I/Os per host I/O; 0 otherwise */
	struct rs_dir total;
};

/* One workload of a multi-workload plan point ("per_workload",
 * charz/workloads.h): its figures and the latency its judge names. */
struct rs_workload {
	char *name, *rw, *judge;
	bool judged;
	double judged_mean_ns, judged_p99_ns;
	struct rs_dir read, write, total;
};

/* One member of a RAID VD in a point ("vd"[].members[]). */
struct rs_vd_member {
	char *path;
	bool failed;
	struct rs_dir read, write;
};

/* One RAID VD of a point ("vd"[], docs/vd.md): as `iochar run` writes it. */
struct rs_vd {
	char *level;
	uint64_t strip;
	unsigned nr_members;
	uint64_t host_ios;
	double reads_per_host_io, writes_per_host_io, member_ios_per_host_io;
	struct rs_vd_member *members;
	unsigned nr_member_rows;
};

/* One replaying job of a run ("replay"[], docs/output.md): the issue lag
 * against its log's schedule beside its latency. */
struct rs_replay {
	char *name, *read_iolog;
	bool timed;
	uint64_t ios_timed, ios_behind, behind_limit_ns;
	struct rs_lat lag, tool_lag, lat;
};

/* One measured run: the figures of a fixed step, a search probe, a curve
 * point. */
struct rs_point {
	unsigned iodepth, numjobs;
	uint64_t rate_iops, elapsed_ns;
	bool partial, inside;
	bool tool_limited;         /* its lag was a material share of its latency */
	char *tool_limited_reason; /* why; NULL when not tool-limited */
	/* a rate-limited point: the IOPS asked of all its workers together
	 * (0: closed loop), and of its whole seconds how many were on that
	 * rate ("seconds", "seconds_on_rate"; has_sec false when the file
	 * has none: a run JSON, older files) */
	double asked_iops;
	bool has_sec;
	unsigned nr_sec, sec_on_rate;
	/* where its latency starts, as a run JSON's "latency_origin" says
	 * ("submit" or "scheduled"); NULL in plan points (rs_point_open_loop) */
	char *latency_origin;
	bool repeat_missed;        /* a search's point whose repeat missed the limit */
	/* a search: run twice, inside both times (these figures the lower
	 * run); ran well under runtime; the other run of a point run twice
	 * ("other_run", owned; NULL: none) */
	bool confirmed, ended_early;
	struct rs_point *other;
	/* a multi-workload step's judged latency ("judged_lat_*_ns"): the
	 * figure its limit is on; has_judged false when absent */
	bool has_judged;
	double judged_mean_ns, judged_p99_ns;
	struct rs_dir read, write, total;
	struct rs_interval *iv;
	unsigned nr_iv;
	/* a run over many hosts: each host, in rank order; 0 on one host */
	struct rs_host *hosts;
	unsigned nr_hosts;
	uint64_t start_skew_ns;    /* latest host's start minus the earliest's */
	/* fio's results: the jobs' usr_cpu and sys_cpu (%), summed */
	bool has_cpu;
	double usr_cpu, sys_cpu;
	/* a plan point: each target's (or VD's) total; its VDs' figures and
	 * their member I/Os per host I/O (0: no VD); absent: none */
	struct rs_target *per_target;
	unsigned nr_per_target;
	struct rs_vd *vds;
	unsigned nr_vds;
	double member_ios_per_host_io;
	/* a multi-workload step: each workload's figures; absent: none */
	struct rs_workload *per_wl;
	unsigned nr_per_wl;
	/* a run's replaying jobs (read_iolog); absent: none */
	struct rs_replay *replay;
	unsigned nr_replay;
};

struct rs_curve_point {
	unsigned pct;
	double asked_iops;
	bool reached;
	struct rs_point p;
};

/* The outcome of a step on one target set. */
struct rs_tset {
	char **targets;
	unsigned nr_targets;
	bool done;
	/* fixed: points[0]; search: every probe, best the chosen one (-1:
	 * none inside the limit); precondition: the fill passes */
	struct rs_point *points;
	unsigned nr_points;
	int best;
	/* search: the best run again ("repeat", "confirmed") and the spread
	 * of the two runs' scores, (max - min) / mean; bests dropped because
	 * their repeat missed the limit. Absent from older files. */
	bool confirmed, has_repeat;
	struct rs_point repeat;
	double spread;
	/* best_run "repeat": the repeat scored less and is best, the first
	 * run is in repeat; unsteady: spread over the search's 10 % */
	bool best_is_repeat, unsteady;
	unsigned nr_dropped;
	/* curve: the maximum run, then the percentages */
	bool has_max;
	struct rs_point max;
	/* the maximum run again when a point was reached above it
	 * ("max_again"), the most IOPS a point reached, and by how much the
	 * maximum still came out low (0: it did not) */
	bool has_max_again;
	struct rs_point max_again;
	double top_reached_iops, max_underestimated;
	struct rs_curve_point *curve;
	unsigned nr_curve;
	/* precondition */
	double *rounds_iops;
	unsigned nr_rounds;
	bool steady;
	/* rebuild: points[0] the baseline, points[1 + i] the foreground
	 * during the pass at rebuild_rates[i], which rebuilt at
	 * rebuild_bw[i] bytes/s; rows that disagreed afterwards */
	char **rebuild_rates;
	double *rebuild_bw;
	unsigned nr_rebuild;
	uint64_t rebuild_bad;
	/* the discipline the set ran with, as its "discipline" object's
	 * "summary" says it (issue 23); NULL in older files */
	char *discipline;
	/* measured after a preconditioning of its targets that reached no
	 * steady state: that step's number ("after_no_steady_state"); 0 none */
	unsigned after_unsteady;
};

/* The job parameters of a step (the "options" object). */
struct rs_job {
	char *name, *filename, *rw, *ioengine, *rate_process;
	char *random_distribution, *cpus_allowed; /* filename, cpus: NULL if unset */
	char **files;
	unsigned nr_files;
	uint64_t size, offset, bs, runtime_ns, ramp_ns, rate_iops, randseed;
	unsigned rwmixread, iodepth, numjobs;
	bool time_based, direct;
};

/* How rs_job keeps the job members it has: the field, and as what. The
 * members' names, and whether older files may lack them, are those of the
 * job's option rows (base/job_options.h): the reader (results_parse.c)
 * and the repeat-this-run command line (report_cmdline.c) go by both. */
enum rs_kind {
	RS_STR,
	RS_U64,
	RS_UINT,
	RS_BOOL,
	RS_FILES, /* filename, then the "files" it names (the row writes both) */
};

struct rs_job_field {
	const char *row; /* the option row's name */
	size_t off;	 /* in struct rs_job */
	enum rs_kind kind;
};

/* Every field of rs_job that holds a job member, in the order they are
 * read; *nr gets their number. Static data. */
const struct rs_job_field *rs_job_fields(size_t *nr);

/* The option row of f (static; NULL only if the table lost it). */
const struct option_def *rs_job_field_row(const struct rs_job_field *f);

struct rs_scaling {
	bool present;
	bool metric_iops;          /* else bw_bytes */
	unsigned nr;
	unsigned *targets;         /* number of targets of each point */
	double *iops, *bw_bytes;
	double *lat_ns;            /* the latency_stat at each point; NaN: not
				    * recorded (older files) */
	double *stdev;             /* of the metric over its runs; NaN: one run */
	unsigned *runs;            /* runs of each point (older files: 1) */
	char *latency_stat;        /* "mean", "p99", ...; NULL: older files */
	char *verdict;             /* "stops growing after", "still grows",
				    * "undecided"; NULL: older files */
	unsigned devices;          /* devices the targets are on; 0 unknown */
	int saturation;            /* index into the points; -1: none */
	char *message;
};

/* A scaling step's "model" member in results.json (docs/output.md):
 * what the model fitted on the plan's own steps predicted once the plan
 * finished. Absent from older files and from steps/NNN.json. */
struct rs_step_model {
	bool present;
	bool metric_iops;          /* else bw_bytes */
	unsigned targets;          /* the step's largest target count */
	double predicted;          /* there, IOPS or bytes/s */
	double utilization;        /* of what binds there, 0..1 */
	char *bound_by;
	unsigned knee_targets;     /* where the targets stop binding; 0 none */
	char *knee_cause;          /* what binds from there; NULL: none */
	char *why;
};

/* RS_APP: a database benchmark step (no target sets; its app run is a
 * results directory of its own, "app.dir" in the step) */
enum rs_mode { RS_FIXED, RS_SEARCH, RS_CURVE, RS_PRECONDITION, RS_REBUILD, RS_APP };

struct rs_step {
	unsigned index;
	char *section, *label, *targets_use, *latency_stat;
	char *latency_scope;       /* "each" (NULL: absent, the same) or "total" */
	enum rs_mode mode;
	uint64_t latency_limit_ns;
	struct rs_job job;
	bool partial;
	char *error;               /* NULL: none */
	char *app_dir;             /* RS_APP: its app run's directory, the plan's
				    * subdirectory (NULL: none) */
	struct rs_tset *sets;
	unsigned nr_sets;
	struct rs_scaling scaling;
	struct rs_step_model model;
};

/* One host's environment in a run over many hosts: a run JSON's
 * hosts[].environment or a results.json's top-level hosts[]. */
struct rs_host_env {
	char *host;
	unsigned rank;
	struct json_object *env;   /* owned; NULL: none recorded (lost rank) */
};

struct rs_set {
	char *path;                /* as given */
	char *name;                /* short name for tables: the last component */
	bool is_run;               /* a single run file, not a plan directory */
	char *iochar_version;      /* "" for fio's results */
	char *fio_version;         /* fio's results (report/results_fio.h): its
				    * "fio version"; NULL: iochar's */
	unsigned format_version;
	char *plan, *source;       /* plan name and text ("" for a run) */
	bool complete;
	unsigned nr_steps_planned;
	struct json_object *environment; /* owned; NULL if absent */
	struct rs_host_env *host_envs;   /* every host's, in file order; 0 on one host */
	unsigned nr_host_envs;
	struct rs_step *steps;
	unsigned nr_steps;
	struct rs_net *net;        /* a network result (net_model.h); NULL: none */
	struct rs_mesh *mesh;      /* a net mesh result (net_model.h); NULL: none */
	struct rs_app *app;        /* an application run (app_model.h); NULL: none */
	/* a plan's mode=app steps' runs, each a set of its own (app set) */
	struct rs_set *step_apps;
	unsigned nr_step_apps;
};

const char *rs_mode_name(enum rs_mode m);

/* Is step's workload random (its headline is IOPS) or sequential (MB/s)? */
bool rs_step_is_random(const struct rs_step *st);

/* The point a step's figures stand for on set ts: the fixed run, the
 * search's best, the curve's maximum, a rebuild's baseline; NULL if there is none (a search that
 * found nothing inside its limit, a precondition step). */
const struct rs_point *rs_tset_headline(const struct rs_step *st,
					const struct rs_tset *ts);

/* The latency figure the step is judged by (its latency_stat: mean, p99
 * or p99.9) of p's total, ns. */
double rs_point_latency(const struct rs_step *st, const struct rs_point *p);

/* The latency the step's limit was judged on for p: a workloads= step's
 * judged figure; with latency_scope each (the default) the worst
 * direction that did I/O; else the total's. What makes a search point
 * inside or not, so its chart draws it. ns. */
double rs_point_judged_latency(const struct rs_step *st, const struct rs_point *p);

/* The latency figure of one direction block d by the step's latency_stat. */
double rs_dir_latency(const struct rs_step *st, const struct rs_dir *d);

/* Is p an open-loop (rate-limited) point, its latency the response time
 * from the scheduled time: by its run's latency_origin, else by its
 * service_latency block, which only such runs have. */
bool rs_point_open_loop(const struct rs_point *p);

/* Release what p owns (series, hosts); p itself is not freed. */
void rs_point_free(struct rs_point *p);
/* Release p's per_target and vds (results_parse_vd.c); rs_point_free
 * calls it. */
void rs_point_free_targets(struct rs_point *p);

/* Release the strings of j and zero it. */
void rs_job_free(struct rs_job *j);

/* Release everything s owns; s itself is not freed. s may be NULL. */
void rs_set_free(struct rs_set *s);

/* "label" or "label #N" for target set k of several ("label (N
 * targets)" on a scaling step); into buf. */
const char *report_workload_name(char *buf, size_t len, const struct rs_step *st, unsigned k);

#endif
