/* report_parts.h - the sections of the HTML report (report.h), shared
 * between the files that draw them. Internal to src/report. */
#ifndef IOCHAR_REPORT_REPORT_PARTS_H
#define IOCHAR_REPORT_REPORT_PARTS_H

#include <stdbool.h>
#include <stdio.h>

#include "report/compare.h"
#include "report/report_preds.h"
#include "report/results_model.h"

struct report_app_extras;

struct report_ctx {
	FILE *f;
	const struct rs_set *sets;
	unsigned nr_sets;
	struct cmp_table cmp;       /* workloads matched over the sets */
	const struct report_preds *preds; /* nr_sets, or NULL: none */
	int ret;                    /* first chart error */
	unsigned said;              /* REPORT_SAID_*: explanations given once */
	const struct report_app_extras *app_x; /* replays, shapes; NULL: none */
};

/* Explanations the report gives once, at their first chart. */
enum {
	REPORT_SAID_SEARCH = 1 << 0,
	REPORT_SAID_CURVE = 1 << 1,
	REPORT_SAID_BARS = 1 << 2,
	REPORT_SAID_PCTS = 1 << 3,
	REPORT_SAID_ROUNDS = 1 << 4,
};

/* text the first time bit is asked for, NULL after. report_charts.c. */
const char *report_once(struct report_ctx *r, unsigned bit, const char *text);

/* report_charts.c */
void report_bar_charts(struct report_ctx *r);
void report_curve_charts(struct report_ctx *r);
void report_percentile_charts(struct report_ctx *r);
void report_scaling_charts(struct report_ctx *r);
/* report_series.c: per-second series and preconditioning rounds */
void report_series_charts(struct report_ctx *r);

struct chart;
/* Chart c ended into a <figure> with caption (NULL: none); an error
 * drawing it is kept in r->ret. report_charts.c. */
void report_figure(struct report_ctx *r, struct chart *c, const char *caption);

/* A workload's headline point: step st's target set k, point p. */
struct wl_ref {
	const struct rs_step *st;
	unsigned k;
	const struct rs_point *p;
};

/* The headline points of set s, in step order. *n of them, malloc'd
 * (NULL on ENOMEM). report_charts.c. */
struct wl_ref *report_headlines(const struct rs_set *set, unsigned *n);

/* report_present.c: has a section anything to show; is a headline
 * point's per-second series long enough to draw (REPORT_SERIES_MIN
 * seconds with I/O: a 1 s run is one dot), has it percentiles. */
#define REPORT_SERIES_MIN 3
bool report_series_worth(const struct rs_point *p);
bool report_pcts_worth(const struct rs_point *p);
bool report_has_series(const struct report_ctx *r);
bool report_has_percentiles(const struct report_ctx *r);
bool report_has_bars(const struct report_ctx *r);
/* report_raid.c: the RAID levels of raid_level= steps side by side, a
 * grouped bar chart per set and kind (IOPS, MB/s); report_has_raid says
 * whether any set has such steps. */
void report_raid_charts(struct report_ctx *r);
bool report_has_raid(const struct report_ctx *r);

/* report_tables.c */
void report_summary_table(struct report_ctx *r);
void report_compare_table(struct report_ctx *r);
void report_parameters(struct report_ctx *r);

/* report_hosts.c: runs over many hosts: a table per workload of each
 * host's figures at the headline point, the total and the start skew;
 * report_has_hosts says whether any set has one. */
void report_host_tables(struct report_ctx *r);
bool report_has_hosts(const struct report_ctx *r);

/* Calls fn for every target set's headline point of every step of every
 * set of r (skipping sets without one), in order. report_tables.c. */
typedef void (*report_headline_fn)(struct report_ctx *r, const struct rs_set *set,
				   const struct rs_step *st, unsigned k,
				   const struct rs_point *p, void *arg);
void report_each_headline(struct report_ctx *r, report_headline_fn fn, void *arg);

/* "SET / WORKLOAD" of target set k of st, HTML-escaped, to f. */
void report_point_name(FILE *f, const struct rs_set *set, const struct rs_step *st,
		       unsigned k);

/* report_replay.c: every headline point of a replay: per replaying job
 * its issue lag beside its latency and its verdict; report_has_replay
 * says whether there is any. */
void report_replay_section(struct report_ctx *r);
bool report_has_replay(const struct report_ctx *r);

/* report_paced.c: every step's rate-limited (open-loop) points, per
 * point and direction: rate asked and achieved, on rate or not, response
 * latency (from the schedule) beside service latency (from submission),
 * issue and tool lag, tool-limited and why; report_has_paced says
 * whether there is any. report_max_note: a curve's re-measured or
 * underestimated maximum, a paragraph (nothing when neither). */
void report_paced_tables(struct report_ctx *r);
bool report_has_paced(const struct report_ctx *r);
void report_max_note(FILE *f, const struct rs_tset *ts);

/* report_vd.c: every headline point on several targets or on RAID VDs:
 * a row per target, each VD's amplification and a row per member;
 * report_has_targets says whether there is any. */
void report_target_tables(struct report_ctx *r);
bool report_has_targets(const struct report_ctx *r);

/* report_rebuild.c: every rebuild step's rates: rebuild speed and the
 * foreground against the healthy VD; report_has_rebuilds says whether
 * there is any. */
void report_rebuild_tables(struct report_ctx *r);
bool report_has_rebuilds(const struct report_ctx *r);

/* report_model.c: predicted beside measured (report_preds.h);
 * report_has_preds: is there any prediction to show. */
void report_model_section(struct report_ctx *r);
bool report_has_preds(const struct report_ctx *r);

/* report_net.c: network results (rs_set.net): a throughput bar per set,
 * the streams, the interface and the parameters of each. */
void report_network(struct report_ctx *r);
/* report_app.c: application runs (rs_set.app): the setup, a table of
 * the points, TPS and p99 against threads beside the device's figures,
 * the largest point per second, and with r->app_x a replay against its
 * trace and a synthetic plan's shapes against the traces. */
void report_app_section(struct report_ctx *r);

/* Network sets side by side: settings and costs, differing rows marked
 * (report_net_side.c). */
void report_net_side_by_side(struct report_ctx *r);

/* report_env.c: each set's environment, grouped (report_env_groups),
 * then the whole JSON record as nested tables, folded. */
void report_environment(struct report_ctx *r);

/* report_env_groups.c: host, targets (each once), disks, PCIe links and
 * NICs of one environment record, as tables. */
void report_env_groups(FILE *f, struct json_object *env);

/* report_host_env.c: a run over many hosts: a table comparing the hosts'
 * environments (set->host_envs), cells that differ from the most common
 * value flagged, with a one-line summary; nothing when none recorded.
 * report_has_host_envs: does any set have one (for the style sheet). */
void report_host_envs(struct report_ctx *r, const struct rs_set *set);
bool report_has_host_envs(const struct report_ctx *r);

/* report_cmdline.c: an `iochar run` command line that repeats the
 * headline point p of step st on target set ts, shell-quoted; malloc'd
 * (NULL on ENOMEM). */
char *report_run_cmdline(const struct rs_step *st, const struct rs_tset *ts,
			 const struct rs_point *p);

/* ", after no steady state (step N)" for a target set measured after a
 * preconditioning that reached none, "" otherwise (a chart's title). */
const char *report_unsteady_mark(char *buf, size_t len, const struct rs_tset *ts);


#endif
