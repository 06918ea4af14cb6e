/* options_core.c - what the option table drives: lookup, values, defaults,
 * set_mask. See options.h; the rows are in options.c.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <string.h>
#include <strings.h>

#include "cli/options.h"
#include "cli/run_config.h"
#include "cli/units.h"

/* Well-known fio options iochar does not implement: naming them as such
 * tells a fio user the job file is fine but asks for something missing. */
/* clang-format off */
static const char *const fio_unsupported[] = {
	"norandommap", "randrepeat", "fsync", "fdatasync", "end_fsync", "sync",
	"do_verify", "iodepth_batch_submit", "iodepth_batch",
	"iodepth_batch_complete", "iodepth_low", "invalidate", "loops",
	"startdelay", "rate", "rate_min", "bssplit", "bsrange", "nrfiles",
	"directory", "stonewall", "new_group", "wait_for", "unlink",
	"refill_buffers", "zero_buffers", "buffer_compress_percentage",
	"write_bw_log", "write_lat_log", "write_iops_log", "log_avg_msec",
	"percentile_list", "cpumask", "numa_cpu_nodes", "kb_base",
	"gtod_reduce", "thinktime", "io_size", "filesize", "zonemode",
	"offset_increment", "fallocate", "include", NULL,
};
/* clang-format on */

static int key_char(char c)
{
	return c == '-' ? '_' : tolower((unsigned char)c);
}

/* Keys compare without case, with '-' and '_' alike. */
static bool key_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (key_char(*a) != key_char(*b))
			return false;
	return *a == *b;
}

static bool row_matches(const struct option_def *o, const char *key)
{
	if (key_eq(o->name, key))
		return true;
	for (size_t i = 0; i < sizeof(o->alias) / sizeof(o->alias[0]); i++)
		if (o->alias[i] && key_eq(o->alias[i], key))
			return true;
	return false;
}

const struct option_def *options_find(const char *key)
{
	size_t nr;
	const struct option_def *rows = options_rows(&nr);

	for (size_t i = 0; i < nr; i++)
		if (row_matches(&rows[i], key))
			return &rows[i];
	return NULL;
}

int options_lookup(const char *key, const struct option_def **out,
		   struct ioc_err *err)
{
	*out = options_find(key);
	if (*out)
		return 0;
	for (size_t i = 0; fio_unsupported[i]; i++)
		if (key_eq(fio_unsupported[i], key))
			return err_usage(err, EINVAL,
					 "fio option '%s' is not supported by "
					 "iochar",
					 key);
	return err_usage(err, EINVAL,
			 "unknown option '%s' (see 'iochar run --help')", key);
}

unsigned options_bit(const struct option_def *o)
{
	size_t nr;

	return (unsigned)(o - options_rows(&nr));
}

bool options_takes_value(const struct option_def *o)
{
	return o->type != OPT_BOOL && o->type != OPT_IGNORED;
}

const char *options_arg_name(const struct option_def *o)
{
	static const char *const names[] = {
	    [OPT_SIZE] = "SIZE",    [OPT_TIME] = "TIME",
	    [OPT_UINT] = "INT",	    [OPT_PERCENT] = "PCT",
	    [OPT_BOOL] = "BOOL",    [OPT_ENUM] = "VALUE",
	    [OPT_STRING] = "STR",   [OPT_CUSTOM] = "VALUE",
	    [OPT_IGNORED] = "BOOL",
	};

	return o->arg ? o->arg : names[o->type];
}

static int range_error(const struct option_def *o, const char *v,
		       struct ioc_err *err)
{
	char lo[32], hi[32];

	if (o->type == OPT_TIME) {
		units_format_time(o->min, lo, sizeof(lo));
		units_format_time(o->max, hi, sizeof(hi));
	} else {
		units_format_size(o->min, lo, sizeof(lo));
		units_format_size(o->max, hi, sizeof(hi));
	}
	if (o->max)
		return err_usage(err, ERANGE,
				 "%s=%s: out of range; accepted: %s to %s",
				 o->name, v, lo, hi);
	return err_usage(err, ERANGE,
			 "%s=%s: out of range; accepted: at least %s", o->name,
			 v, lo);
}

/* Store a number in an unsigned or uint64_t field. */
static void store_uint(void *field, size_t size, uint64_t v)
{
	if (size == sizeof(uint64_t))
		*(uint64_t *)field = v;
	else
		*(unsigned *)field = (unsigned)v;
}

static int apply_number(const struct option_def *o, void *field, const char *v,
			struct ioc_err *err)
{
	uint64_t n, max;
	int ret;

	switch (o->type) {
	case OPT_SIZE:
		ret = units_parse_size(o->name, v, &n, err);
		break;
	case OPT_TIME:
		ret = units_parse_time(o->name, v, &n, err);
		break;
	default:
		max = o->size == sizeof(uint64_t) ? UINT64_MAX : UINT_MAX;
		if (o->max)
			max = o->max;
		ret = units_parse_uint(o->name, v, o->min, max, &n, err);
		break;
	}
	if (ret)
		return ret;
	if (n < o->min || (o->max && n > o->max))
		return range_error(o, v, err);
	store_uint(field, o->size, n);
	return 0;
}

static int apply_enum(const struct option_def *o, void *field, const char *v,
		      struct ioc_err *err)
{
	char list[256] = "";
	size_t used = 0;

	for (const struct opt_enum *e = o->values; e->name; e++) {
		if (strcasecmp(e->name, v) == 0) {
			*(int *)field = e->value;
			return 0;
		}
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 "%s%s", used ? ", " : "", e->name);
		if (used >= sizeof(list))
			break;
	}
	return err_usage(err, EINVAL,
			 "%s=%s: not one of the accepted values: %s", o->name,
			 v, list);
}

static int apply_string(const struct option_def *o, void *field, const char *v,
			struct ioc_err *err)
{
	size_t len = strlen(v);

	if (len == 0)
		return err_usage(err, EINVAL, "%s=: empty value; accepted: %s",
				 o->name, "a non-empty string");
	if (len >= o->size)
		return err_usage(err, ERANGE,
				 "%s=%s: too long; accepted: at most %zu "
				 "characters",
				 o->name, v, o->size - 1);
	memcpy(field, v, len + 1);
	return 0;
}

/* Parse v and store it through row o into obj. */
static int apply_row(const struct option_def *o, void *obj, const char *v,
		     struct ioc_err *err)
{
	void *field = (char *)obj + o->off;
	unsigned pct;
	bool b;
	int ret;

	switch (o->type) {
	case OPT_SIZE:
	case OPT_TIME:
	case OPT_UINT:
		return apply_number(o, field, v, err);
	case OPT_PERCENT:
		ret = units_parse_percent(o->name, v, &pct, err);
		if (!ret)
			*(unsigned *)field =
			    (o->flags & OPT_F_INVERT) ? 100 - pct : pct;
		return ret;
	case OPT_BOOL:
		ret = units_parse_bool(o->name, v, &b, err);
		if (!ret)
			*(bool *)field = (o->flags & OPT_F_INVERT) ? !b : b;
		return ret;
	case OPT_ENUM:
		return apply_enum(o, field, v, err);
	case OPT_STRING:
		return apply_string(o, field, v, err);
	case OPT_CUSTOM:
		return o->parse(obj, o, v, err);
	case OPT_IGNORED:
		return 0;
	}
	return err_set(err, EINVAL, "%s: bad option table row", o->name);
}

/* A bare key is "1" for booleans and an error for the rest. */
static int apply_value(const struct option_def *o, void *obj, const char *v,
		       struct ioc_err *err)
{
	if (!v && options_takes_value(o))
		return err_usage(err, EINVAL,
				 "option '%s' needs a value (%s=%s)", o->name,
				 o->name, options_arg_name(o));
	return apply_row(o, obj, v ? v : "1", err);
}

static void set_defaults(enum opt_scope scope, void *obj)
{
	size_t nr;
	const struct option_def *rows = options_rows(&nr);

	/* The table's defaults are known to parse (tests/test_options.c). */
	for (size_t i = 0; i < nr; i++)
		if (rows[i].scope == scope && rows[i].def)
			apply_row(&rows[i], obj, rows[i].def, NULL);
}

void options_set_defaults(struct job_spec *spec)
{
	set_defaults(OPT_SCOPE_JOB, spec);
}

void options_set_cli_defaults(struct run_config *cfg)
{
	set_defaults(OPT_SCOPE_CLI, cfg);
}

int options_apply(struct job_spec *spec, const char *key, const char *value,
		  struct ioc_err *err)
{
	const struct option_def *o;
	unsigned bit;
	int ret;

	ret = options_lookup(key, &o, err);
	if (ret)
		return ret;
	if (o->scope != OPT_SCOPE_JOB)
		return err_usage(err, EINVAL,
				 "option '%s' is only valid on the command "
				 "line (--%s=%s)",
				 key, o->name, options_arg_name(o));
	ret = apply_value(o, spec, value, err);
	if (ret)
		return ret;
	bit = options_bit(o);
	spec->set_mask[bit / 64] |= 1ull << (bit % 64);
	return 0;
}

int options_apply_cli(struct run_config *cfg, const struct option_def *o,
		      const char *value, struct ioc_err *err)
{
	if (o->scope != OPT_SCOPE_CLI)
		return err_set(err, EINVAL, "--%s is a job option", o->name);
	return apply_value(o, cfg, value, err);
}

static bool bit_is_set(const struct job_spec *spec, unsigned bit)
{
	return spec->set_mask[bit / 64] & (1ull << (bit % 64));
}

bool options_is_set(const struct job_spec *spec, const char *key)
{
	const struct option_def *o = options_find(key);
	size_t nr;
	const struct option_def *rows = options_rows(&nr);

	if (!o || o->scope != OPT_SCOPE_JOB || o->type == OPT_IGNORED)
		return o && bit_is_set(spec, options_bit(o));
	for (size_t i = 0; i < nr; i++)
		if (rows[i].scope == OPT_SCOPE_JOB &&
		    rows[i].type != OPT_IGNORED && rows[i].off == o->off &&
		    bit_is_set(spec, (unsigned)i))
			return true;
	return false;
}

int options_set_default(struct job_spec *spec, const char *key,
			const char *value, struct ioc_err *err)
{
	const struct option_def *o;
	int ret;

	ret = options_lookup(key, &o, err);
	if (ret || options_is_set(spec, key))
		return ret;
	if (o->scope != OPT_SCOPE_JOB)
		return err_set(err, EINVAL, "%s: not a job option", key);
	return apply_value(o, spec, value, err);
}
