/* option.c - what a row does, whatever its table: parse a value into the
 * object of its scope, show it, write it to JSON. See option.h. */
#define _GNU_SOURCE
#include "base/option.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/json_writer.h"
#include "base/units.h"

static int key_char(char c)
{
	return c == '-' ? '_' : tolower((unsigned char)c);
}

bool option_key_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (key_char(*a) != key_char(*b))
			return false;
	return *a == *b;
}

bool option_matches(const struct option_def *o, const char *key)
{
	if (option_key_eq(o->name, key))
		return true;
	for (size_t i = 0; i < sizeof(o->alias) / sizeof(o->alias[0]); i++)
		if (o->alias[i] && option_key_eq(o->alias[i], key))
			return true;
	return false;
}

const struct option_def *option_find_in(const struct option_def *rows,
					size_t nr, const char *key)
{
	for (size_t i = 0; i < nr; i++)
		if (option_matches(&rows[i], key))
			return &rows[i];
	return NULL;
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
		       struct ioc_err *err);

/* A number field as the row stores it (unsigned or uint64_t). */
static uint64_t load_uint(const struct option_def *o, const void *field)
{
	if (o->size == sizeof(uint64_t))
		return *(const uint64_t *)field;
	return *(const unsigned *)field;
}

int option_check(const struct option_def *o, const void *obj,
		 struct ioc_err *err)
{
	const void *field = (const char *)obj + o->off;
	uint64_t v, max = o->max;
	char text[32];

	switch (o->type) {
	case OPT_PERCENT:
		max = 100;
		/* fall through */
	case OPT_SIZE:
	case OPT_TIME:
	case OPT_UINT:
		v = load_uint(o, field);
		if (v >= o->min && (!max || v <= max))
			return 0;
		if (o->type == OPT_TIME)
			units_format_time(text, sizeof(text), v);
		else
			snprintf(text, sizeof(text), "%" PRIu64, v);
		if (o->type == OPT_PERCENT)
			return err_usage(err, ERANGE,
					 "%s=%s: out of range; accepted: 0 to "
					 "100",
					 o->name, text);
		return range_error(o, text, err);
	case OPT_CUSTOM:
		return o->check ? o->check(obj, o, err) : 0;
	default:
		return 0;
	}
}

static int range_error(const struct option_def *o, const char *v,
		       struct ioc_err *err)
{
	char lo[32], hi[32];

	if (o->type == OPT_TIME) {
		units_format_time(lo, sizeof(lo), o->min);
		units_format_time(hi, sizeof(hi), o->max);
	} else {
		units_format_size(lo, sizeof(lo), o->min);
		units_format_size(hi, sizeof(hi), o->max);
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

static int parse_number(const struct option_def *o, void *field, const char *v,
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

static int parse_enum(const struct option_def *o, void *field, const char *v,
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

static int parse_string(const struct option_def *o, void *field, const char *v,
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
static int parse_row(const struct option_def *o, void *obj, const char *v,
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
		return parse_number(o, field, v, err);
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
		return parse_enum(o, field, v, err);
	case OPT_STRING:
		return parse_string(o, field, v, err);
	case OPT_CUSTOM:
		return o->parse(obj, o, v, err);
	case OPT_IGNORED:
		return 0;
	}
	return err_set(err, EINVAL, "%s: bad option table row", o->name);
}

int option_parse(const struct option_def *o, void *obj, const char *value,
		 struct ioc_err *err)
{
	if (!value && o->bare)
		value = o->bare;
	if (!value && options_takes_value(o))
		return err_usage(err, EINVAL,
				 "option '%s' needs a value (%s=%s)", o->name,
				 o->name, options_arg_name(o));
	return parse_row(o, obj, value ? value : "1", err);
}

void option_set_defaults(const struct option_def *rows, size_t nr,
			 enum opt_scope scope, void *obj)
{
	for (size_t i = 0; i < nr; i++)
		if (rows[i].scope == scope && rows[i].def)
			parse_row(&rows[i], obj, rows[i].def, NULL);
}

int options_show_str(FILE *f, const char *s, size_t max)
{
	size_t n = s ? strnlen(s, max) : 0;

	/* length first: no value can pass for the end of another */
	return fprintf(f, "%zu:%.*s", n, (int)n, s ? s : "") < 0 ? -EIO : 0;
}

static const char *enum_name(const struct option_def *o, int v)
{
	for (const struct opt_enum *e = o->values; e->name; e++)
		if (e->value == v)
			return e->name;
	return NULL;
}

int option_show(const struct option_def *o, const void *obj, FILE *f)
{
	const void *field = (const char *)obj + o->off;
	const char *name;
	int n = 0;

	switch (o->type) {
	case OPT_SIZE:
	case OPT_TIME:
	case OPT_UINT:
	case OPT_PERCENT:
		n = fprintf(f, "%" PRIu64, load_uint(o, field));
		break;
	case OPT_BOOL:
		n = fprintf(f, "%d", *(const bool *)field);
		break;
	case OPT_ENUM:
		name = enum_name(o, *(const int *)field);
		n = name ? fprintf(f, "%s", name)
			 : fprintf(f, "%d", *(const int *)field);
		break;
	case OPT_STRING:
		return options_show_str(f, field, o->size);
	case OPT_CUSTOM:
		return o->show ? o->show(obj, o, f) : -ENOSYS;
	case OPT_IGNORED:
		break;
	}
	return n < 0 ? -EIO : 0;
}

bool option_differs_from_default(const struct option_def *o, const void *obj)
{
	size_t end = o->off + o->size;
	char *scratch = calloc(1, end);
	bool differs;

	if (!scratch || o->type == OPT_CUSTOM) {
		free(scratch);
		return true; /* cannot tell: say it, never hide a value */
	}
	if (o->def)
		parse_row(o, scratch, o->def, NULL);
	differs = memcmp(scratch + o->off, (const char *)obj + o->off,
			 o->size) != 0;
	free(scratch);
	return differs;
}

void option_emit_json(const struct option_def *o, const void *obj,
		      struct jw *w)
{
	const void *field = (const char *)obj + o->off;
	const char *key = o->json ? o->json : o->name;
	bool inv = o->flags & OPT_F_INVERT;

	if (o->type == OPT_IGNORED || (inv && !(o->flags & OPT_F_OWN_FIELD)))
		return;
	switch (o->type) {
	case OPT_SIZE:
	case OPT_TIME:
	case OPT_UINT:
		jw_kv_uint(w, key, load_uint(o, field));
		break;
	case OPT_PERCENT:
		jw_kv_uint(w, key, inv ? 100 - load_uint(o, field)
				       : load_uint(o, field));
		break;
	case OPT_BOOL:
		jw_kv_bool(w, key, *(const bool *)field != inv);
		break;
	case OPT_ENUM:
		jw_kv_string(w, key, enum_name(o, *(const int *)field));
		break;
	case OPT_STRING:
		option_emit_chars(obj, o, w);
		break;
	case OPT_CUSTOM:
		if (o->emit)
			o->emit(obj, o, w);
		break;
	case OPT_IGNORED:
		break;
	}
}

void option_emit_chars(const void *obj, const struct option_def *o,
		       struct jw *w)
{
	const char *field = (const char *)obj + o->off;
	bool empty = field[0] == '\0';

	if (empty && (o->flags & OPT_F_JSON_OMIT_EMPTY))
		return;
	jw_key(w, o->json ? o->json : o->name);
	if (empty && (o->flags & OPT_F_JSON_NULL_EMPTY))
		jw_null(w);
	else
		jw_string_n(w, field, o->size);
}
