/* plan.c - plan files into steps: INI sections, [global] inheritance,
 * ','-separated lists expanded into cross products, plan keys, and
 * command-line overrides. See plan.h; the built-in plans are in
 * plan_builtin.c.
 *
 * Parsing keeps every key=value as an entry (validated when it is read, so
 * a bad value is reported at its own line) and each section as an ordered
 * map from key to entry. Steps are built only once the whole file and the
 * overrides are in, since a list anywhere multiplies the section's steps.
 */
#include "charz/plan.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/ini.h"
#include "cli/options.h"
#include "base/units.h"
#include "charz/rebuild.h"
#include "vd/def.h"

/* ---- plan keys: rows of scope PLAN, parsed as the job's rows are ---- */

/* clang-format off */
static const struct opt_enum mode_values[] = {
	{ "fixed", STEP_FIXED },	  { "search", STEP_SEARCH },
	{ "curve", STEP_CURVE },	  { "precondition", STEP_PRECONDITION },
	{ "rebuild", STEP_REBUILD },	  { NULL, 0 },
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
	  .help = "what the step does: run each point, find the most IOPS or MB/s inside latency_limit, draw latency against load, precondition to steady state (SNIA PTS), or rebuild a RAID VD member at each rebuild_rate under the workload", .type = OPT_ENUM, STEP_FIELD(mode),
	  .values = mode_values, .def = "fixed", .example = "search" },
	{ .name = "targets",
	  .help = "one target at a time; all at once, summed, per-target rows kept; or 1, 2, ... N targets at once", .type = OPT_ENUM, STEP_FIELD(targets),
	  .values = target_values, .def = "each", .example = "parallel" },
	{ .name = "latency_limit", .arg = "TIME",
	  .help = "search: the latency a point must stay within; a unit is required (2 alone is refused)", .type = OPT_CUSTOM,
	  STEP_FIELD(latency_limit_ns), .parse = parse_time_ms, .min = 1,
	  .example = "2ms" },
	{ .name = "latency_stat", .arg = "STAT",
	  .help = "search: the figure the limit applies to: mean, p99 or p99.9", .type = OPT_CUSTOM, STEP_FIELD(latency_stat),
	  .parse = parse_lat_stat, .def = "mean", .example = "p99" },
	{ .name = "latency_scope",
	  .help = "search: every direction that did I/O meets the limit, or all I/O combined does", .type = OPT_ENUM, STEP_FIELD(latency_scope),
	  .values = scope_values, .def = "each", .example = "total" },
	{ .name = "max_iodepth",
	  .help = "search: the deepest queue tried, per target per job", .type = OPT_UINT, STEP_FIELD(max_iodepth),
	  .min = 1, .max = 65536, .def = "256", .example = "256" },
	{ .name = "max_numjobs",
	  .help = "search: the most jobs tried, per target", .type = OPT_UINT, STEP_FIELD(max_numjobs),
	  .min = 1, .max = 1024, .def = "8", .example = "8" },
	{ .name = "points", .arg = "LIST",
	  .help = "curve: the loads, as % of the measured closed-loop maximum", .type = OPT_CUSTOM, STEP_FIELD(points),
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
	{ .name = "workloads", .arg = "A:B:...",
	  .help = "run these sections together as one step (each its own rw, bs, depth, flush and offset/size region), reported per workload and in total; a search scales the first one's iodepth and numjobs, the others run as given (mode=fixed or search)", .type = OPT_STRING,
	  STEP_FIELD(workloads), .example = "data:redo" },
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

static const struct option_def *plan_key_find(const char *key)
{
	return option_find_in(plan_keys, NR_PLAN_KEYS, key);
}

/* ---- values: one, or a ','-separated list ---- */

/* A value split into its elements; a bare key is one NULL element. */
struct list {
	char *buf;	/* the elements, NUL-separated; owned */
	const char **v; /* nr pointers into buf; owned */
	unsigned nr;
};

static void list_free(struct list *l)
{
	free(l->buf);
	free(l->v);
	l->buf = NULL;
	l->v = NULL;
	l->nr = 0;
}

/* Split value at ',' (split false: keep it whole) into l, trimming each
 * element. An empty element is an error naming key. */
static int list_make(struct list *l, const char *key, const char *value,
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
		list_free(l);
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
			list_free(l);
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
	struct list l;
	uint64_t x;
	int ret;

	ret = list_make(&l, k->name, v, true, err);
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
	list_free(&l);
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
static void step_defaults(struct plan_step *st)
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

/* ---- entries: one key=value each, and ordered maps of them ---- */

struct entry {
	const struct option_def *row; /* a workload option, or NULL */
	const struct option_def *pk;  /* a plan key, or NULL */
	struct list vals;	      /* one step per element */
	unsigned line;		      /* 0: from the command line */
};

/* Same setting? Rows that store into one field (rwmixread and rwmixwrite,
 * direct and buffered) are one setting: the later one replaces the other. */
static bool entry_same_key(const struct entry *a, const struct entry *b)
{
	if (a->pk || b->pk)
		return a->pk == b->pk;
	if (a->row == b->row)
		return true;
	return a->row->scope == OPT_SCOPE_JOB && b->row->scope == OPT_SCOPE_JOB &&
	       a->row->type != OPT_IGNORED && b->row->type != OPT_IGNORED &&
	       a->row->off == b->row->off;
}

static const char *entry_key(const struct entry *e)
{
	return e->pk ? e->pk->name : e->row->name;
}

/* Settings of a section in the order their keys first appeared; the
 * entries belong to the parser. */
struct keymap {
	struct entry **e;
	unsigned nr, cap;
};

/* Set e in m: it replaces the entry for the same key in place, or comes
 * last. 0 or -ENOMEM. */
static int keymap_set(struct keymap *m, struct entry *e)
{
	for (unsigned i = 0; i < m->nr; i++) {
		if (entry_same_key(m->e[i], e)) {
			m->e[i] = e;
			return 0;
		}
	}
	if (m->nr == m->cap) {
		unsigned cap = m->cap ? 2 * m->cap : 16;
		struct entry **grown = realloc(m->e, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		m->e = grown;
		m->cap = cap;
	}
	m->e[m->nr++] = e;
	return 0;
}

static int keymap_copy(struct keymap *dst, const struct keymap *src)
{
	memset(dst, 0, sizeof(*dst));
	for (unsigned i = 0; i < src->nr; i++)
		if (keymap_set(dst, src->e[i]))
			return -ENOMEM;
	return 0;
}

/* ---- the parser ---- */

struct section {
	char name[JOB_NAME_MAX];
	unsigned line;
	struct keymap keys;
	bool is_wl;          /* named in some step's workloads=: not a step */
};

enum where {
	IN_NOTHING, /* before the first [header] */
	IN_GLOBAL,
	IN_STEP,
};

struct parser {
	const char *origin;
	struct plan_step defaults; /* what every step starts from; no memory */
	struct keymap global;	   /* what the next section starts from */
	struct section *secs;
	unsigned nr_secs, cap_secs;
	enum where where;
	struct entry **all; /* every entry made; owned */
	unsigned nr_all, cap_all;
};

static void parser_free(struct parser *p)
{
	for (unsigned i = 0; i < p->nr_secs; i++)
		free(p->secs[i].keys.e);
	free(p->secs);
	free(p->global.e);
	for (unsigned i = 0; i < p->nr_all; i++) {
		list_free(&p->all[i]->vals);
		free(p->all[i]);
	}
	free(p->all);
	job_spec_free(&p->defaults.job);
}

/* Prefix err with where entry e was written. */
static void prefix_origin(const struct parser *p, unsigned line,
			  struct ioc_err *err)
{
	if (line)
		err_prefix(err, "%s:%u", p->origin, line);
	else
		err_prefix(err, "command line");
}

static int unknown_key(const char *key, struct ioc_err *err)
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

/* The workload option row for key; an unknown key, a fio option iochar
 * lacks or a command-only option is an error. */
static int find_option(const char *key, const struct option_def **row,
		       struct ioc_err *err)
{
	struct ioc_err why = {0};
	int ret;

	ret = options_lookup(key, row, &why);
	if (ret == 0 && ((*row)->scope == OPT_SCOPE_JOB ||
			 (*row)->scope == OPT_SCOPE_ENGINE))
		return 0;
	if (ret == 0)
		return err_usage(err, EINVAL,
				 "%s: an option of the command itself, not "
				 "of a plan step",
				 key);
	if (strncmp(why.msg, "unknown option", 14) == 0)
		return unknown_key(key, err);
	return err_usage(err, -ret, "%s",
			 why.msg); /* fio option not supported */
}

/* How a key's value may hold ',': a list, part of the value, or never. */
enum comma_rule {
	COMMA_LIST,
	COMMA_WHOLE,
	COMMA_REFUSE,
};

/* The row says (OPT_F_COMMAS, OPT_F_ONE_VALUE); plan keys take one value
 * unless their row says otherwise. */
static enum comma_rule comma_rule(const struct entry *e)
{
	const struct option_def *o = e->pk ? e->pk : e->row;

	if (o->flags & OPT_F_COMMAS)
		return COMMA_WHOLE;
	if (e->pk || (o->flags & OPT_F_ONE_VALUE))
		return COMMA_REFUSE;
	return COMMA_LIST;
}

/* Apply value v of e (NULL: a bare key) to st. */
static int entry_apply(struct plan_step *st, const struct entry *e,
		       const char *v, struct ioc_err *err)
{
	if (e->row)
		return options_apply(&st->job, e->row->name, v, err);
	if (!v)
		return err_usage(err, EINVAL, "%s: needs a value, e.g. %s=%s",
				 e->pk->name, e->pk->name, e->pk->example);
	return option_parse(e->pk, st, v, err);
}

/* Check every value of e on a scratch step, so a bad one is reported at
 * its own line even when no step would use it. */
static int entry_check(const struct parser *p, const struct entry *e,
		       struct ioc_err *err)
{
	struct plan_step scratch = p->defaults;
	int ret = 0;

	for (unsigned i = 0; i < e->vals.nr && !ret; i++)
		ret = entry_apply(&scratch, e, e->vals.v[i], err);
	job_spec_free(&scratch.job);
	return ret;
}

static int entry_split(struct entry *e, const char *key, const char *value,
		       struct ioc_err *err)
{
	const char *name = entry_key(e);

	switch (comma_rule(e)) {
	case COMMA_REFUSE:
		if (value && strchr(value, ','))
			return err_usage(err, EINVAL,
					 "%s=%s: a list where one value is "
					 "required%s",
					 name, value,
					 e->row && strcmp(name, "filename") == 0
					     ? " (separate files with ':')"
					     : "");
		return list_make(&e->vals, key, value, false, err);
	case COMMA_WHOLE:
		return list_make(&e->vals, key, value, false, err);
	case COMMA_LIST:
		break;
	}
	return list_make(&e->vals, name, value, true, err);
}

/* Make a checked entry for key=value (value NULL: a bare key) written at
 * line (0: the command line). The parser owns it. */
static int entry_make(struct parser *p, const char *key, const char *value,
		      unsigned line, struct entry **out, struct ioc_err *err)
{
	struct entry *e;
	int ret;

	if (p->nr_all == p->cap_all) {
		unsigned cap = p->cap_all ? 2 * p->cap_all : 32;
		struct entry **grown = realloc(p->all, cap * sizeof(*grown));

		if (!grown)
			return err_set(err, ENOMEM, "%s: out of memory", key);
		p->all = grown;
		p->cap_all = cap;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return err_set(err, ENOMEM, "%s: out of memory", key);
	p->all[p->nr_all++] = e;
	e->line = line;
	e->pk = plan_key_find(key);
	if (!e->pk) {
		ret = find_option(key, &e->row, err);
		if (ret)
			return ret;
	}
	ret = entry_split(e, key, value, err);
	if (ret)
		return ret;
	ret = entry_check(p, e, err);
	if (ret)
		return ret;
	*out = e;
	return 0;
}

/* ---- ini callbacks ---- */

static int on_section(void *arg, const char *name, unsigned line,
		      struct ioc_err *err)
{
	struct parser *p = arg;
	struct section *s;
	struct job_spec scratch = p->defaults.job;
	int ret;

	if (strcmp(name, "global") == 0) {
		p->where = IN_GLOBAL;
		return 0;
	}
	/* the section names the step's job: it must be a valid name */
	ret = options_apply(&scratch, "name", name, err);
	if (ret)
		return ret;
	if (p->nr_secs == p->cap_secs) {
		unsigned cap = p->cap_secs ? 2 * p->cap_secs : 8;
		struct section *grown = realloc(p->secs, cap * sizeof(*grown));

		if (!grown)
			return err_set(err, ENOMEM, "out of memory");
		p->secs = grown;
		p->cap_secs = cap;
	}
	s = &p->secs[p->nr_secs];
	if (keymap_copy(&s->keys, &p->global)) {
		free(s->keys.e);
		return err_set(err, ENOMEM, "out of memory");
	}
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->line = line;
	s->is_wl = false;
	p->nr_secs++;
	p->where = IN_STEP;
	return 0;
}

static int on_key(void *arg, const char *key, const char *value, unsigned line,
		  struct ioc_err *err)
{
	struct parser *p = arg;
	struct keymap *m;
	struct entry *e;
	int ret;

	if (p->where == IN_NOTHING)
		return err_usage(err, EINVAL,
				 "%s: outside a section (start one with "
				 "[global] or [stepname])",
				 key);
	ret = entry_make(p, key, value, line, &e, err);
	if (ret)
		return ret;
	m = p->where == IN_GLOBAL ? &p->global : &p->secs[p->nr_secs - 1].keys;
	if (keymap_set(m, e))
		return err_set(err, ENOMEM, "out of memory");
	return 0;
}

static const struct ini_ops plan_ini = {
    .section = on_section,
    .key = on_key,
};

/* One override, "key=value", "--key=value" or a bare "key", into every
 * section after the file's own values. */
static int add_override(struct parser *p, const char *arg, struct ioc_err *err)
{
	char *copy = strdup(arg[0] == '-' && arg[1] == '-' ? arg + 2 : arg);
	char *key, *value = NULL, *eq;
	struct entry *e;
	int ret = 0;

	if (!copy)
		return err_set(err, ENOMEM, "out of memory");
	eq = strchr(copy, '=');
	if (eq) {
		*eq = '\0';
		value = ini_trim(eq + 1);
	}
	key = ini_trim(copy);
	if (key[0] == '\0') {
		ret = err_usage(err, EINVAL, "missing key in '%s'", arg);
		goto out;
	}
	ret = entry_make(p, key, value, 0, &e, err);
	for (unsigned i = 0; i < p->nr_secs && !ret; i++)
		if (keymap_set(&p->secs[i].keys, e))
			ret = err_set(err, ENOMEM, "out of memory");
out:
	free(copy);
	return ret;
}

/* ---- expanding sections into steps ---- */

/* Steps of section s, at most PLAN_MAX_STEPS + 1. */
static unsigned section_steps(const struct section *s)
{
	uint64_t n = 1;

	for (unsigned i = 0; i < s->keys.nr; i++) {
		n *= s->keys.e[i]->vals.nr;
		if (n > PLAN_MAX_STEPS)
			return PLAN_MAX_STEPS + 1;
	}
	return (unsigned)n;
}

static int count_steps(const struct parser *p, unsigned *total,
		       struct ioc_err *err)
{
	unsigned n = 0;

	for (unsigned i = 0; i < p->nr_secs; i++) {
		if (p->secs[i].is_wl)
			continue;
		n += section_steps(&p->secs[i]);
		if (n > PLAN_MAX_STEPS)
			return err_usage(err, E2BIG,
					 "%s:%u: [%s]: more than %d steps (a "
					 "list multiplies its section's steps)",
					 p->origin, p->secs[i].line,
					 p->secs[i].name, PLAN_MAX_STEPS);
	}
	*total = n;
	return 0;
}

/* Append " key=value" to a label; once it does not fit, end the label with
 * "..." without cutting a UTF-8 character, and add nothing more. */
static void label_add(char *label, bool *full, const char *key, const char *v)
{
	size_t used = strlen(label), end = PLAN_LABEL_MAX - 4;
	int n;

	if (*full)
		return;
	n = snprintf(label + used, PLAN_LABEL_MAX - used, " %s=%s", key, v);
	if (n >= 0 && (size_t)n < PLAN_LABEL_MAX - used)
		return;
	while (end > 0 && ((unsigned char)label[end] & 0xc0) == 0x80)
		end--;
	memcpy(label + end, "...", 4);
	*full = true;
}

/* Did section s set the workload option named key (or an alias)? */
static bool section_sets(const struct section *s, const char *key)
{
	const struct option_def *row = options_find(key);

	if (!row)
		return false;
	for (unsigned i = 0; i < s->keys.nr; i++)
		if (s->keys.e[i]->row && s->keys.e[i]->row->off == row->off)
			return true;
	return false;
}

/* A precondition step runs PTS's workload unless told otherwise: the
 * option table's defaults (rw=read, QD 1 x 1 job) would write nothing or
 * precondition at a depth no SSD is measured at. */
static int pts_defaults(const struct section *s, struct plan_step *st,
			struct ioc_err *err)
{
	char v[16];
	int ret = 0;

	if (st->mode != STEP_PRECONDITION)
		return 0;
	if (!section_sets(s, "rw"))
		ret = options_apply(&st->job, "rw", PTS_RW, err);
	snprintf(v, sizeof(v), "%u", PTS_IODEPTH);
	if (!ret && !section_sets(s, "iodepth"))
		ret = options_apply(&st->job, "iodepth", v, err);
	snprintf(v, sizeof(v), "%u", PTS_NUMJOBS);
	if (!ret && !section_sets(s, "numjobs"))
		ret = options_apply(&st->job, "numjobs", v, err);
	return ret;
}

/* ---- multi-workload steps (workloads=) ---- */

static int build_one(const struct parser *p, const struct section *s,
		     const unsigned *pick, struct plan_step *st,
		     struct ioc_err *err);

static void plan_step_free(struct plan_step *st)
{
	job_spec_free(&st->job);
	for (unsigned i = 0; i < st->nr_wl; i++)
		job_spec_free(&st->wl[i].job);
	free(st->wl);
	st->wl = NULL;
	st->nr_wl = 0;
}

/* The entry of plan key name in s, or NULL. */
static const struct entry *section_pk(const struct section *s, const char *name)
{
	for (unsigned i = 0; i < s->keys.nr; i++)
		if (s->keys.e[i]->pk && !strcmp(s->keys.e[i]->pk->name, name))
			return s->keys.e[i];
	return NULL;
}

static struct section *section_named(const struct parser *p, const char *name,
				     size_t len)
{
	for (unsigned i = 0; i < p->nr_secs; i++)
		if (strlen(p->secs[i].name) == len && !strncmp(p->secs[i].name, name, len))
			return &p->secs[i];
	return NULL;
}

/* Mark the sections named by step e's workloads= of section s. */
static int wl_mark_one(struct parser *p, const struct section *s,
		       const struct entry *e, struct ioc_err *err)
{
	const char *v = e->vals.v[0] ? e->vals.v[0] : "";
	unsigned n = 0;

	for (const char *a = v; *a;) {
		size_t len = strcspn(a, ":");
		struct section *w = section_named(p, a, len);
		if (!w || w == s)
			return err_usage(err, EINVAL, "%s:%u: workloads: %s [%.*s]", p->origin,
					 e->line, w ? "a step cannot be its own workload"
						    : "no such section", (int)len, a);
		if (++n > PLAN_MAX_WORKLOADS)
			return err_usage(err, E2BIG, "%s:%u: workloads: more than %d",
					 p->origin, e->line, PLAN_MAX_WORKLOADS);
		w->is_wl = true;
		a += len + (a[len] == ':');
	}
	if (!n)
		return err_usage(err, EINVAL, "%s:%u: workloads: empty (name sections, e.g. "
				 "workloads=data:redo)", p->origin, e->line);
	return 0;
}

/* What a section may not hold: a workload section takes one value per key,
 * no plan key but latency_judge and no workloads= of its own; a step with
 * workloads= no workload option of its own (its workloads have them). */
static int wl_check_section(const struct parser *p, const struct section *s,
			    struct ioc_err *err)
{
	bool multi = section_pk(s, "workloads") != NULL;
	for (unsigned i = 0; i < s->keys.nr; i++) {
		const struct entry *e = s->keys.e[i];
		bool own = e->line > s->line;
		const char *why = NULL;
		if (s->is_wl && e->vals.nr > 1)
			why = "a list in a workload section (one value per key)";
		else if (s->is_wl && e->pk && !strcmp(e->pk->name, "workloads"))
			why = "a workload section cannot run workloads of its own";
		else if (s->is_wl && own && e->pk && strcmp(e->pk->name, "latency_judge"))
			why = "a plan key in a workload section (set it in the step's section)";
		else if (!s->is_wl && own && e->pk && !strcmp(e->pk->name, "latency_judge"))
			why = "only a workload section takes it";
		else if (!s->is_wl && multi && own && e->row)
			why = "the step runs workloads=: set workload options in its workload "
			      "sections or [global]";
		if (why)
			return err_usage(err, EINVAL, "%s:%u: %s: [%s]: %s", p->origin, e->line,
					 entry_key(e), s->name, why);
	}
	return 0;
}

static int plan_wl_mark(struct parser *p, struct ioc_err *err)
{
	int ret = 0;
	for (unsigned i = 0; i < p->nr_secs && !ret; i++) {
		const struct entry *e = section_pk(&p->secs[i], "workloads");
		if (e && e->line > p->secs[i].line)
			ret = wl_mark_one(p, &p->secs[i], e, err);
	}
	for (unsigned i = 0; i < p->nr_secs && !ret; i++)
		ret = wl_check_section(p, &p->secs[i], err);
	return ret;
}

/* Build st's workloads from their sections; st->job becomes the first's. */
static int plan_wl_build(const struct parser *p, struct plan_step *st,
			 struct ioc_err *err)
{
	/* a curve paces the first workload only, against a maximum of all:
	 * its points would not be what they say */
	if (st->mode != STEP_FIXED && st->mode != STEP_SEARCH) {
		const struct section *s = section_named(p, st->section, strlen(st->section));
		const struct entry *e = s ? section_pk(s, "workloads") : NULL;
		return err_usage(err, EINVAL, "%s:%u: workloads: [%s]: workloads= runs with "
				 "mode=fixed or search, not %s", p->origin, e ? e->line : 0,
				 st->section, step_mode_name(st->mode));
	}
	if (!(st->wl = calloc(PLAN_MAX_WORKLOADS, sizeof(*st->wl))))
		return err_set(err, ENOMEM, "out of memory");
	for (const char *a = st->workloads; *a;) {
		size_t len = strcspn(a, ":");
		const struct section *w = section_named(p, a, len);
		unsigned *pick = calloc(w->keys.nr + 1, sizeof(*pick));
		struct plan_step tmp;
		int ret = pick ? build_one(p, w, pick, &tmp, err)
			       : err_set(err, ENOMEM, "out of memory");
		free(pick);
		if (ret)
			return ret;
		struct step_workload *wl = &st->wl[st->nr_wl++];
		snprintf(wl->name, sizeof(wl->name), "%s", w->name);
		wl->job = tmp.job;
		wl->judge = tmp.judge;
		a += len + (a[len] == ':');
	}
	job_spec_free(&st->job);
	if (job_spec_copy(&st->job, &st->wl[0].job))
		return err_set(err, ENOMEM, "out of memory");
	return 0;
}

/* Build the step of section s that takes element pick[i] of each entry. */
static int build_step(const struct parser *p, const struct section *s,
		      const unsigned *pick, struct plan_step *st,
		      struct ioc_err *err)
{
	int ret = build_one(p, s, pick, st, err);

	if (!ret && st->workloads[0] && (ret = plan_wl_build(p, st, err)))
		plan_step_free(st);
	return ret;
}

/* The step of section s alone (its workloads= not yet built). */
static int build_one(const struct parser *p, const struct section *s,
		     const unsigned *pick, struct plan_step *st,
		     struct ioc_err *err)
{
	bool full = false;
	int ret;

	*st = p->defaults;
	snprintf(st->section, sizeof(st->section), "%s", s->name);
	snprintf(st->label, sizeof(st->label), "%s", s->name);
	ret = options_apply(&st->job, "name", s->name, err);
	if (ret) {
		prefix_origin(p, s->line, err);
		goto fail;
	}
	for (unsigned i = 0; i < s->keys.nr; i++) {
		const struct entry *e = s->keys.e[i];
		const char *v = e->vals.v[pick[i]];

		ret = entry_apply(st, e, v, err);
		if (ret) {
			prefix_origin(p, e->line, err);
			goto fail;
		}
		if (e->vals.nr > 1)
			label_add(st->label, &full, entry_key(e), v);
	}
	ret = pts_defaults(s, st, err);
	if (ret)
		goto fail;
	if (st->mode == STEP_SEARCH && st->latency_limit_ns == 0 && !s->is_wl) {
		ret = err_usage(err, EINVAL,
				"%s:%u: latency_limit: missing in [%s] "
				"(mode=search needs one, e.g. "
				"latency_limit=2ms)",
				p->origin, s->line, s->name);
		goto fail;
	}
	return 0;
fail:
	job_spec_free(&st->job);
	return ret;
}

/* The next combination, the last listed key turning fastest; false after
 * the last one. */
static bool next_pick(const struct section *s, unsigned *pick)
{
	for (unsigned i = s->keys.nr; i-- > 0;) {
		if (++pick[i] < s->keys.e[i]->vals.nr)
			return true;
		pick[i] = 0;
	}
	return false;
}

static int expand_section(const struct parser *p, const struct section *s,
			  struct plan *out, struct ioc_err *err)
{
	unsigned *pick = calloc(s->keys.nr ? s->keys.nr : 1, sizeof(*pick));
	int ret = 0;

	if (!pick)
		return err_set(err, ENOMEM, "out of memory");
	do {
		ret = build_step(p, s, pick, &out->steps[out->nr_steps], err);
		if (ret)
			break;
		out->nr_steps++;
	} while (next_pick(s, pick));
	free(pick);
	return ret;
}

/* The last path component of path, cut to fit name[len]. */
static void set_name(char *name, size_t len, const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash && slash[1] ? slash + 1 : path;
	size_t n = strlen(base);

	if (n >= len) {
		n = len - 1;
		while (n > 0 && ((unsigned char)base[n] & 0xc0) == 0x80)
			n--;
	}
	memcpy(name, base, n);
	name[n] = '\0';
}

static int build_plan(const struct parser *p, const char *text,
		      struct plan *out, struct ioc_err *err)
{
	unsigned total = 0;
	int ret;

	if (p->nr_secs == 0)
		return err_usage(err, EINVAL,
				 "%s: no steps (a step is a [name] section "
				 "with its workload)",
				 p->origin);
	ret = plan_wl_mark((struct parser *)p, err);
	if (!ret)
		ret = count_steps(p, &total, err);
	if (ret)
		return ret;
	if (total == 0)
		return err_usage(err, EINVAL,
				 "%s: no steps (every section is a workload of another)",
				 p->origin);
	out->source = strdup(text);
	out->steps = calloc(total, sizeof(*out->steps));
	if (!out->source || !out->steps)
		return err_set(err, ENOMEM, "%s: out of memory", p->origin);
	set_name(out->name, sizeof(out->name), p->origin);
	for (unsigned i = 0; i < p->nr_secs && !ret; i++)
		if (!p->secs[i].is_wl)
			ret = expand_section(p, &p->secs[i], out, err);
	return ret;
}

int plan_parse(const char *text, const char *origin,
	       const char *const *overrides, unsigned nr_overrides,
	       struct plan *out, struct ioc_err *err)
{
	struct parser p = {.origin = origin, .where = IN_NOTHING};
	int ret;

	memset(out, 0, sizeof(*out));
	step_defaults(&p.defaults);
	ret = ini_parse(text, origin, &plan_ini, &p, err);
	for (unsigned i = 0; i < nr_overrides && !ret; i++) {
		ret = add_override(&p, overrides[i], err);
		if (ret)
			prefix_origin(&p, 0, err);
	}
	if (!ret)
		ret = build_plan(&p, text, out, err);
	if (ret)
		plan_free(out);
	parser_free(&p);
	return ret;
}

void plan_free(struct plan *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->nr_steps; i++)
		plan_step_free(&p->steps[i]);
	free(p->steps);
	free(p->source);
	memset(p, 0, sizeof(*p));
}

/* ---- loading: a file, else a built-in ---- */

static const struct plan_builtin *builtin_find(const char *name)
{
	for (const struct plan_builtin *b = plan_builtins; b->name; b++)
		if (strcmp(b->name, name) == 0)
			return b;
	return NULL;
}

static int no_such_plan(const char *path, struct ioc_err *err)
{
	char names[256] = "";
	size_t used = 0;

	for (const struct plan_builtin *b = plan_builtins;
	     b->name && used < sizeof(names); b++)
		used += (size_t)snprintf(names + used, sizeof(names) - used,
					 "%s%s", used ? ", " : "", b->name);
	return err_usage(err, ENOENT,
			 "%s: no such plan file or built-in plan (built-ins: "
			 "%s)",
			 path, names);
}

int plan_load(const char *path, const char *const *overrides,
	      unsigned nr_overrides, struct plan *out, struct ioc_err *err)
{
	const struct plan_builtin *b;
	char origin[96];
	char *text = NULL;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = ini_read_file(path, &text);
	if (ret == 0) {
		ret = plan_parse(text, path, overrides, nr_overrides, out, err);
		free(text);
		return ret;
	}
	b = ret == -ENOENT ? builtin_find(path) : NULL;
	if (!b && ret == -ENOENT)
		return no_such_plan(path, err);
	if (!b)
		return err_usage(err, -ret, "%s: cannot read plan file: %s",
				 path, strerror(-ret));
	snprintf(origin, sizeof(origin), "plan %s", b->name);
	ret = plan_parse(b->text, origin, overrides, nr_overrides, out, err);
	if (ret == 0)
		set_name(out->name, sizeof(out->name), b->name);
	return ret;
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
