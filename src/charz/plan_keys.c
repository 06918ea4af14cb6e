/* plan_keys.c - see plan_keys.h: the plan keys' rows and parsers, and
 * value lists. */
#include "charz/plan_keys.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ini.h"
#include "cli/options.h"
#include "base/units.h"
#include "charz/rebuild.h"
#include "vd/def.h"

/* ---- plan keys: rows of scope PLAN, parsed as the job's rows are ---- */

/* clang-format off */
static const struct opt_enum mode_values[] = {
	{ "fixed", STEP_FIXED },	  { "search", STEP_SEARCH },
	{ "curve", STEP_CURVE },	  { "precondition", STEP_PRECONDITION },
	{ "rebuild", STEP_REBUILD },	  { "app", STEP_APP },
	{ NULL, 0 },
};
static const struct opt_enum app_metric_values[] = {
	{ "p99", 0 }, { "device", 1 }, { NULL, 0 },
};
static const struct opt_enum scope_values[] = {
	{ "each", LAT_SCOPE_EACH }, { "total", LAT_SCOPE_TOTAL }, { NULL, 0 },
};
static const struct opt_enum precond_values[] = {
	{ "off", PRECOND_OFF }, { "auto", PRECOND_AUTO }, { NULL, 0 },
};
static const struct opt_enum judge_values[] = {
	{ "each", WL_JUDGE_EACH }, { "read", WL_JUDGE_READ },
	{ "write", WL_JUDGE_WRITE }, { "none", WL_JUDGE_NONE }, { NULL, 0 },
};
static const struct opt_enum target_values[] = {
	{ "each", TARGETS_EACH },	  { "parallel", TARGETS_PARALLEL },
	{ "scaling", TARGETS_SCALING }, { NULL, 0 },
};
/* clang-format on */

static int parse_lat_stat(void *obj, const struct option_def *o,
			  const char *v, struct ioc_err *err);
static int parse_time_ms(void *obj, const struct option_def *o,
			 const char *v, struct ioc_err *err);
static int parse_time_s(void *obj, const struct option_def *o, const char *v,
			struct ioc_err *err);
static int parse_points(void *obj, const struct option_def *o, const char *v,
			struct ioc_err *err);
static int parse_replace(void *obj, const struct option_def *o, const char *v,
			 struct ioc_err *err);
static int parse_rebuild_rate(void *obj, const struct option_def *o,
			      const char *v, struct ioc_err *err);

#define STEP_FIELD(f)                                                          \
	.scope = OPT_SCOPE_PLAN, .off = offsetof(struct plan_step, f),         \
	.size = sizeof(((struct plan_step *)0)->f)

/* Plan keys take one value each (',' is refused), but points: a list of
 * its own. */
/* clang-format off */
static const struct option_def plan_keys[] = {
	{ .name = "mode",
	  .help = "what the step does: run each point, find the most IOPS or MB/s inside latency_limit, draw latency against load, precondition to steady state (SNIA PTS), or rebuild a RAID VD member at each rebuild_rate under the workload; or run a real database benchmark (app: bench=, threads=, time=)", .type = OPT_ENUM, STEP_FIELD(mode),
	  .values = mode_values, .def = "fixed", .example = "search" },
	{ .name = "targets",
	  .help = "one target at a time; all at once, summed, per-target rows kept; or 1, 2, ... N targets at once", .type = OPT_ENUM, STEP_FIELD(targets),
	  .values = target_values, .def = "each", .example = "parallel" },
	{ .name = "scaling_repeats",
	  .help = "targets=scaling: runs of each target count (the mode once, then its headline point again); the knee is named only when their spread decides it (Welch's 95 % interval), so 1 never names one", .type = OPT_UINT, STEP_FIELD(scaling_repeats),
	  .min = 1, .max = 20, .def = "3", .example = "5" },
	{ .name = "latency_limit", .arg = "TIME",
	  .help = "search: the latency a point must stay within; a unit is required (2 alone is refused)", .type = OPT_CUSTOM,
	  STEP_FIELD(latency_limit_ns), .parse = parse_time_ms, .min = 1,
	  .example = "2ms" },
	{ .name = "latency_stat", .arg = "STAT",
	  .help = "search: the figure the limit applies to: mean, p99 or p99.9", .type = OPT_CUSTOM, STEP_FIELD(latency_stat),
	  .parse = parse_lat_stat, .def = "mean", .example = "p99" },
	{ .name = "latency_scope",
	  .help = "search: every direction that did I/O meets the limit, or all I/O combined does (not with workloads=: each workload is judged by its latency_judge)", .type = OPT_ENUM, STEP_FIELD(latency_scope),
	  .values = scope_values, .def = "each", .example = "total" },
	{ .name = "max_iodepth",
	  .help = "search: the deepest queue tried, per target per job", .type = OPT_UINT, STEP_FIELD(max_iodepth),
	  .min = 1, .max = 65536, .def = "256", .example = "256" },
	{ .name = "max_numjobs",
	  .help = "search: the most jobs tried, per target", .type = OPT_UINT, STEP_FIELD(max_numjobs),
	  .min = 1, .max = 1024, .def = "8", .example = "8" },
	{ .name = "points", .arg = "LIST",
	  .help = "curve: the loads, as % of the measured closed-loop maximum; every run lasts runtime (time_based)", .type = OPT_CUSTOM, STEP_FIELD(points),
	  .parse = parse_points, .flags = OPT_F_COMMAS, .min = 1, .max = 1000,
	  .def = "10,20,30,40,50,60,70,80,90,100", .example = "10,50,100" },
	{ .name = "stop_latency", .arg = "TIME",
	  .help = "curve: end it once a point's latency passes this (none by default)", .type = OPT_CUSTOM,
	  STEP_FIELD(stop_latency_ns), .parse = parse_time_ms, .min = 0,
	  .example = "100ms" },
	/* at most 8: struct precond_result keeps one point per pass */
	{ .name = "fill_passes",
	  .help = "precondition: whole-target sequential 128K write passes first", .type = OPT_UINT, STEP_FIELD(fill_passes),
	  .min = 0, .max = 8, .def = "2", .example = "2" },
	{ .name = "max_rounds",
	  .help = "precondition: rounds at most while waiting for steady state", .type = OPT_UINT, STEP_FIELD(max_rounds),
	  .min = 1, .max = 10000, .def = "25", .example = "25" },
	{ .name = "round_time", .arg = "TIME",
	  .help = "precondition: the length of one round", .type = OPT_CUSTOM, STEP_FIELD(round_ns),
	  .parse = parse_time_s, .min = 1, .def = "60s", .example = "60s" },
	{ .name = "precondition",
	  .help = "precondition the targets of each step that writes randomly (auto) or never", .type = OPT_ENUM, STEP_FIELD(precondition),
	  .values = precond_values, .def = "off", .example = "auto" },
	{ .name = "replace", .arg = "N",
	  .help = "rebuild: the VD member rebuilt (from 0), onto the target given in its place", .type = OPT_CUSTOM,
	  STEP_FIELD(replace), .parse = parse_replace, .example = "2" },
	{ .name = "rebuild_rate", .arg = "LIST",
	  .help = "rebuild: the rates swept, MB/s or % of the time busy; one pass each, in order (none: as fast as it goes)", .type = OPT_CUSTOM,
	  STEP_FIELD(rebuild_rate), .parse = parse_rebuild_rate, .flags = OPT_F_COMMAS,
	  .example = "10%,50%,100%" },
	{ .name = "bench", .arg = "BENCH",
	  .help = "app: the database benchmark (sysbench-oltp, sysbench-read, sysbench-write, pgbench; docs/app.md)", .type = OPT_STRING,
	  STEP_FIELD(app_bench), .example = "sysbench-oltp" },
	{ .name = "workload", .arg = "W",
	  .help = "app: sysbench's read_write, read_only, write_only, point_select or pgbench's tpcb-like, select-only, simple-update (none: the bench's first)", .type = OPT_STRING,
	  STEP_FIELD(app_workload), .example = "read_write" },
	{ .name = "threads", .arg = "LIST",
	  .help = "app: the client counts swept, one point each, rising", .type = OPT_STRING,
	  STEP_FIELD(app_threads), .flags = OPT_F_COMMAS, .def = "1,2,4,8", .example = "1,2,4,8" },
	{ .name = "time", .arg = "TIME",
	  .help = "app: how long each point runs", .type = OPT_CUSTOM, STEP_FIELD(app_time_ns),
	  .parse = parse_time_s, .min = 1, .def = "60s", .example = "60s" },
	{ .name = "tables", .arg = "N",
	  .help = "app, sysbench: tables of the data set", .type = OPT_UINT, STEP_FIELD(app_tables),
	  .min = 1, .max = 1024, .def = "4", .example = "4" },
	{ .name = "table_size", .arg = "N",
	  .help = "app, sysbench: rows per table", .type = OPT_UINT, STEP_FIELD(app_table_size),
	  .min = 100, .max = 1000000000, .def = "100000", .example = "100000" },
	{ .name = "scale", .arg = "N",
	  .help = "app, pgbench: the scale factor (about 15 MiB each)", .type = OPT_UINT, STEP_FIELD(app_scale),
	  .min = 1, .max = 100000, .def = "10", .example = "10" },
	{ .name = "latency_metric",
	  .help = "app: what latency_target judges: the benchmark's p99, or the device's average read latency (r_await, SLOB's criterion)", .type = OPT_ENUM,
	  STEP_FIELD(app_lat_device), .values = app_metric_values, .def = "p99", .example = "device" },
	{ .name = "workloads", .arg = "A:B:...",
	  .help = "run these sections together as one step (each its own rw, bs, depth, flush and offset/size region), reported per workload and in total; a search scales the first one's iodepth and numjobs, the others run as given (mode=fixed or search)", .type = OPT_STRING,
	  STEP_FIELD(workloads), .example = "data:redo" },
	{ .name = "raid_level", .arg = "LIST",
	  .help = "run the step on RAID VDs of this level over its filename= drives: raid0 (a VD per drive), raid5 (VDs of 8, or of all when fewer), raid10 (VDs of 4 in 2 spans), jbod (each drive passed through); a list makes a step per level", .type = OPT_STRING,
	  STEP_FIELD(raid_level), .flags = OPT_F_LIST, .example = "raid0,raid5,raid10,jbod" },
	{ .name = "raid_options", .arg = "KEY=V,...",
	  .help = "with raid_level=: added to each RAID VD's definition (not jbod's), e.g. readahead=on,write=back", .type = OPT_STRING,
	  STEP_FIELD(raid_options), .flags = OPT_F_COMMAS, .example = "readahead=on,write=back" },
	{ .name = "latency_judge",
	  .help = "in a workload section: the directions of this workload the step's latency_limit applies to (each that did I/O, read, write, or none)", .type = OPT_ENUM, STEP_FIELD(judge),
	  .values = judge_values, .def = "each", .example = "read" },
};
/* clang-format on */

#define NR_PLAN_KEYS (sizeof(plan_keys) / sizeof(plan_keys[0]))

const struct option_def *plan_key_rows(size_t *nr)
{
	*nr = NR_PLAN_KEYS;
	return plan_keys;
}

const struct option_def *plan_key_find(const char *key)
{
	return option_find_in(plan_keys, NR_PLAN_KEYS, key);
}

/* ---- values: one, or a ','-separated list ---- */


void plan_list_free(struct plan_list *l)
{
	if (!l)
		return;
	free(l->buf);
	free(l->v);
	l->buf = NULL;
	l->v = NULL;
	l->nr = 0;
}

/* Split value at ',' (split false: keep it whole) into l, trimming each
 * element. An empty element is an error naming key. */
int plan_list_make(struct plan_list *l, const char *key, const char *value,
		     bool split, struct ioc_err *err)
{
	unsigned nr = 1;
	char *p;

	memset(l, 0, sizeof(*l));
	if (value && split)
		for (const char *c = value; *c; c++)
			nr += *c == ',';
	l->v = calloc(nr, sizeof(*l->v));
	l->buf = value ? strdup(value) : NULL;
	if (!l->v || (value && !l->buf)) {
		plan_list_free(l);
		return err_set(err, ENOMEM, "%s: out of memory", key);
	}
	l->nr = nr;
	if (!value)
		return 0;
	p = l->buf;
	for (unsigned i = 0; i < nr; i++) {
		char *comma = split ? strchr(p, ',') : NULL;

		if (comma)
			*comma = '\0';
		l->v[i] = ini_trim(p);
		if (split && nr > 1 && l->v[i][0] == '\0') {
			plan_list_free(l);
			return err_usage(err, EINVAL,
					 "%s=%s: empty value in the list (a "
					 "list is values separated by ',', "
					 "e.g. bs=4k,8k)",
					 key, value);
		}
		p = comma ? comma + 1 : p;
	}
	return 0;
}

/* ---- the plan keys' own parsers ---- */

/* A time that must carry its unit: "2" could mean 2 s (fio's runtime) or
 * 2 ms (what a latency limit usually is), so it means neither. */
static int parse_time(const struct option_def *k, const char *v,
		      const char *unit, uint64_t *ns, struct ioc_err *err)
{
	size_t len = strlen(v);
	uint64_t t;
	int ret;

	if (len && isdigit((unsigned char)v[len - 1]))
		return err_usage(err, EINVAL, "%s=%s: give a unit, e.g. %s%s",
				 k->name, v, v, unit);
	/* fio's "m" is minutes: never what a latency means */
	if (strcmp(unit, "ms") == 0 && len > 1 &&
	    tolower((unsigned char)v[len - 1]) == 'm' &&
	    isdigit((unsigned char)v[len - 2]))
		return err_usage(err, EINVAL,
				 "%s=%s: 'm' means minutes; write %.*sms for "
				 "milliseconds or %.*smin for minutes",
				 k->name, v, (int)(len - 1), v, (int)(len - 1),
				 v);
	ret = units_parse_time(k->name, v, &t, err);
	if (ret)
		return ret;
	if (t < k->min)
		return err_usage(err, ERANGE, "%s=%s: must be more than 0",
				 k->name, v);
	*ns = t;
	return 0;
}

/* A latency: the unit suggested for a bare number is ms. */
static int parse_time_ms(void *obj, const struct option_def *o,
			 const char *v, struct ioc_err *err)
{
	return parse_time(o, v, "ms", (uint64_t *)((char *)obj + o->off), err);
}

/* A duration (a round): the unit suggested is s. */
static int parse_time_s(void *obj, const struct option_def *o, const char *v,
			struct ioc_err *err)
{
	return parse_time(o, v, "s", (uint64_t *)((char *)obj + o->off), err);
}

static int parse_lat_stat(void *obj, const struct option_def *o,
			  const char *v, struct ioc_err *err)
{
	struct plan_step *st = obj;
	enum lat_stat stat;

	if (lat_stat_parse(v, &stat))
		return err_usage(err, EINVAL,
				 "%s=%s: not one of the accepted values: "
				 "mean, p99, p99.9",
				 o->name, v);
	st->latency_stat = stat;
	return 0;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

/* Percentages of the maximum: sorted, duplicates dropped. */
static int parse_points(void *obj, const struct option_def *k, const char *v,
			struct ioc_err *err)
{
	struct plan_step *st = obj;
	unsigned pts[PLAN_MAX_POINTS], nr = 0;
	struct plan_list l;
	uint64_t x;
	int ret;

	ret = plan_list_make(&l, k->name, v, true, err);
	if (ret)
		return ret;
	if (l.nr > PLAN_MAX_POINTS) {
		ret = err_usage(err, E2BIG, "%s=%s: more than %d points",
				k->name, v, PLAN_MAX_POINTS);
		goto out;
	}
	for (unsigned i = 0; i < l.nr; i++) {
		ret =
		    units_parse_uint(k->name, l.v[i], k->min, k->max, &x, err);
		if (ret)
			goto out;
		pts[i] = (unsigned)x;
	}
	qsort(pts, l.nr, sizeof(pts[0]), cmp_unsigned);
	for (unsigned i = 0; i < l.nr; i++)
		if (nr == 0 || pts[i] != pts[nr - 1])
			pts[nr++] = pts[i];
	memcpy(st->points, pts, nr * sizeof(pts[0]));
	st->nr_points = nr;
out:
	plan_list_free(&l);
	return ret;
}

static int parse_replace(void *obj, const struct option_def *k, const char *v,
			 struct ioc_err *err)
{
	struct plan_step *st = obj;
	uint64_t n;
	int ret = units_parse_uint(k->name, v, 0, VD_MAX_MEMBERS - 1, &n, err);

	if (ret)
		return ret;
	st->replace = (unsigned)n;
	st->replace_set = true;
	return 0;
}

/* Checked now, with the line it came from; swept when the step runs. */
static int parse_rebuild_rate(void *obj, const struct option_def *k,
			      const char *v, struct ioc_err *err)
{
	struct plan_step *st = obj;
	struct rebuild_sweep *sw = calloc(1, sizeof(*sw));
	int ret;

	if (!sw)
		return err_set(err, ENOMEM, "out of memory");
	ret = rebuild_sweep_rates(v, k->name, sw, err);
	free(sw);
	if (ret)
		return ret;
	if (strlen(v) >= sizeof(st->rebuild_rate))
		return err_usage(err, E2BIG, "%s=%s: longer than %zu characters",
				 k->name, v, sizeof(st->rebuild_rate) - 1);
	snprintf(st->rebuild_rate, sizeof(st->rebuild_rate), "%s", v);
	return 0;
}

/* A step with every default: the option table's for the workload, the
 * plan keys' own for the rest. */
void plan_step_defaults(struct plan_step *st)
{
	memset(st, 0, sizeof(*st));
	job_spec_init(&st->job);
	options_set_defaults(&st->job);
	/* The defaults are known to parse (tests/test_plan.c). */
	for (size_t i = 0; i < NR_PLAN_KEYS; i++)
		if (plan_keys[i].def)
			option_parse(&plan_keys[i], st, plan_keys[i].def,
				     NULL);
}

int plan_unknown_key(const char *key, struct ioc_err *err)
{
	char names[256] = "";
	size_t used = 0;

	for (size_t i = 0; i < NR_PLAN_KEYS && used < sizeof(names); i++)
		used +=
		    (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
				     i ? ", " : "", plan_keys[i].name);
	return err_usage(err, EINVAL,
			 "unknown key '%s' (neither a workload option, see "
			 "'iochar run --help', nor a plan key: %s)",
			 key, names);
}

/* The name of value v among values; "?" when none has it. */
static const char *value_name(const struct opt_enum *values, int v)
{
	for (; values->name; values++)
		if (values->value == v)
			return values->name;
	return "?";
}

const char *step_mode_name(enum step_mode m)
{
	return value_name(mode_values, (int)m);
}

const char *target_use_name(enum target_use t)
{
	return value_name(target_values, (int)t);
}
