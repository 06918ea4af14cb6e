/* option.h - the option row: one declarative description of one setting.
 *
 * A row says what a setting is called (fio's name, aliases), its type,
 * where it is stored (an offset into the object of its scope), its default,
 * range and help, and how it reads from text, shows as text and writes to
 * JSON. Tables of rows describe a job (base/job_rows.c), the command
 * line's own settings (cli/options.c), an engine's own options
 * (engine_ops.options) and a plan step's keys (charz/plan.c); the
 * functions here work on any row of any table, so every table parses,
 * checks, prints and emits the same way. Plain data; no global state.
 */
#ifndef IOCHAR_BASE_OPTION_H
#define IOCHAR_BASE_OPTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/err.h"

struct jw;

enum opt_type {
	OPT_SIZE,    /* uint64_t bytes (units_parse_size) */
	OPT_TIME,    /* uint64_t nanoseconds (units_parse_time) */
	OPT_UINT,    /* unsigned or uint64_t, by the field's size */
	OPT_PERCENT, /* unsigned 0..100 */
	OPT_BOOL,    /* bool; a bare key means true */
	OPT_ENUM,    /* an enum (int-sized), named by the row's values */
	OPT_STRING,  /* a char array: the value must fit with its NUL */
	OPT_CUSTOM,  /* the row's parse function does it all */
	OPT_IGNORED, /* a fio option that changes nothing here: accepted */
};

enum opt_scope {
	OPT_SCOPE_JOB,	  /* command line and job files; in struct job_spec */
	OPT_SCOPE_CLI,	  /* command line only; in struct run_config */
	OPT_SCOPE_ENGINE, /* an engine's own (engine_ops.options); in the
			   * job's engine_opts area, as the engine's struct */
	OPT_SCOPE_PLAN,	  /* a plan step's own key; in struct plan_step */
};

enum opt_group {
	OPT_GROUP_CLI,
	OPT_GROUP_TARGET,
	OPT_GROUP_WORKLOAD,
	OPT_GROUP_TIME,
	OPT_GROUP_ENGINE,
	OPT_GROUP_COMPAT,
	OPT_GROUP_COUNT,
};

struct opt_enum {
	const char *name;
	int value;
};

enum opt_flags {
	/* The row stores the opposite of what it is given: a BOOL stores !v
	 * ("buffered" is !direct), a PERCENT stores 100 - v ("rwmixwrite"). */
	OPT_F_INVERT = 1u << 0,
	/* JSON: a STRING row that is "" is left out ("vd") ... */
	OPT_F_JSON_OMIT_EMPTY = 1u << 1,
	/* ... or written as null ("journal"). */
	OPT_F_JSON_NULL_EMPTY = 1u << 2,
	/* INVERT rows that store a field of their own (an engine's
	 * "fixedbufs" kept as "no fixed buffers", so that zero is the
	 * default): shown and emitted as the row's own value. */
	OPT_F_OWN_FIELD = 1u << 3,
	/* In a plan file, where ',' makes a list of values (one step each):
	 * ',' is part of this row's value ("0-3,6", "raid5,strip=64k") ... */
	OPT_F_COMMAS = 1u << 4,
	/* ... or refused: the row takes one value ("filename": ':'). */
	OPT_F_ONE_VALUE = 1u << 5,
	/* JSON: files written before the row existed lack its member; a
	 * reader takes its absence as the default. */
	OPT_F_JSON_OPTIONAL = 1u << 6,
	/* The report's repeat-this-run command line names the row even at
	 * its default (the rest are named where they differ from it). */
	OPT_F_CMD_ALWAYS = 1u << 7,
	/* A plan key that takes a ',' list, a step per value, as workload
	 * options do (plan keys otherwise take one value). */
	OPT_F_LIST = 1u << 8,
};

/* How a row stands to fio's option of the same name (docs/fio-compat.md
 * is generated from it). */
enum opt_compat {
	OPT_COMPAT_SAME = 0, /* fio's option, fio's meaning (the default) */
	OPT_COMPAT_DIFFERENT, /* fio's option, but not quite: compat says how */
	OPT_COMPAT_IOCHAR,    /* iochar's own: fio has no such option */
};

/* One key=value pair, e.g. a default chosen for a mode. */
struct option_preset {
	const char *key;
	const char *value;
};

struct option_def;

/* Parse value into the object (struct job_spec or struct run_config, by the
 * row's scope). 0, or -errno with a usage message naming the option. */
typedef int (*opt_parse_fn)(void *obj, const struct option_def *o,
			    const char *value, struct ioc_err *err);

/* Write the value the row stores in obj to f, so that two objects give the
 * same text exactly when their values are the same. 0 or -errno. */
typedef int (*opt_show_fn)(const void *obj, const struct option_def *o,
			   FILE *f);

/* Write the row's member(s) of the JSON object being written (key and
 * value; any number of members, none included). */
typedef void (*opt_emit_fn)(const void *obj, const struct option_def *o,
			    struct jw *w);

/* Is the value obj holds through the row acceptable? For values stored
 * without parsing (a plan's search sets iodepth itself). 0, or -errno with
 * a usage message naming the option and the value. */
typedef int (*opt_check_fn)(const void *obj, const struct option_def *o,
			    struct ioc_err *err);

struct option_def {
	const char *name;
	const char *alias[2]; /* other names, NULL when unused */
	enum opt_type type;
	enum opt_scope scope;
	enum opt_group group;
	size_t off;		       /* offsetof the field in its struct */
	size_t size;		       /* sizeof that field */
	opt_parse_fn parse;	       /* OPT_CUSTOM only */
	opt_show_fn show;	       /* OPT_CUSTOM only; every job row has one */
	const struct opt_enum *values; /* OPT_ENUM: {NULL} terminated */
	unsigned flags;		       /* enum opt_flags */
	const char *def;	       /* default value; NULL = none */
	uint64_t min, max;	       /* SIZE, TIME, UINT: max 0 = no limit */
	const char *arg;  /* value name in --help; NULL = by type */
	const char *example; /* a value, for "needs a value, e.g." */
	const char *help; /* one line for --help */
	/* JSON (job and engine rows): the member's name (NULL: the row's),
	 * an OPT_CUSTOM row's writer (NULL: not in the JSON), and where the
	 * member goes among the job's (docs/output.md keeps the order of
	 * older files; 0: after those, in table order). */
	const char *json;
	opt_emit_fn emit;
	unsigned json_seq;
	opt_check_fn check; /* OPT_CUSTOM: the stored value's check; NULL: none */
	/* docs/fio-compat.md: the row against fio's option, and for
	 * OPT_COMPAT_DIFFERENT how it differs (one sentence). */
	enum opt_compat fio;
	const char *compat;
	/* The value a bare key (no '=') takes, for a row that needs one
	 * (fio's bare write_bw_log: the job's name); NULL: booleans' "1",
	 * an error for the rest. */
	const char *bare;
};

/* Keys compare without case, with '-' and '_' alike. */
bool option_key_eq(const char *a, const char *b);

/* Is key o's name or one of its aliases? */
bool option_matches(const struct option_def *o, const char *key);

/* The row of rows[0..nr) that key names, or NULL. */
const struct option_def *option_find_in(const struct option_def *rows,
					size_t nr, const char *key);

/* The typed parse: value into obj (the object of o's scope) through row o.
 * value NULL is a bare key: the row's bare value, else "1" for booleans,
 * an error for the rest.
 * 0, or -EINVAL/-ERANGE/-ENOMEM with a one-line usage message naming the
 * option. obj is changed only in o's field(s), and only on success (custom
 * rows: as their parse function says). */
int option_parse(const struct option_def *o, void *obj, const char *value,
		 struct ioc_err *err);

/* Check the value obj holds through o as parsing it would have: the range
 * of a number (min, max; a percentage at most 100), a custom row's check.
 * 0, or -ERANGE/-EINVAL with a usage message "NAME=VALUE: ...". */
int option_check(const struct option_def *o, const void *obj,
		 struct ioc_err *err);

/* Write the default of every row of rows[0..nr) of the given scope into
 * obj (by parsing it, as a user's value). The defaults are known to parse
 * (tests/test_options.c). */
void option_set_defaults(const struct option_def *rows, size_t nr,
			 enum opt_scope scope, void *obj);

/* Write o's value in obj to f as text, equal for two objects exactly when
 * their values are (options_write_job). 0, -ENOSYS for a custom row
 * without a show function, or -EIO. */
int option_show(const struct option_def *o, const void *obj, FILE *f);

/* Does o's value in obj differ from its default (all bytes zero when o has
 * none)? For rows of a plain type (not OPT_CUSTOM): compares the field. */
bool option_differs_from_default(const struct option_def *o, const void *obj);

/* Write o's member of the JSON object being written from obj: the row's
 * own value (INVERT rows not stored in a field of their own write
 * nothing: the row of their field does). */
void option_emit_json(const struct option_def *o, const void *obj,
		      struct jw *w);

/* An opt_emit_fn for a char-array row (OPT_CUSTOM with the field of an
 * OPT_STRING): what option_emit_json writes for OPT_STRING. */
void option_emit_chars(const void *obj, const struct option_def *o,
		       struct jw *w);

/* Write string s (at most max bytes of it) to f as a show function
 * should: "LEN:TEXT". NULL is the empty string. 0 or -EIO. */
int options_show_str(FILE *f, const char *s, size_t max);

/* Does o need a value (false: a bare key is enough)? */
bool options_takes_value(const struct option_def *o);

/* The name of o's value in help and messages: "SIZE", "TIME", "BOOL"... */
const char *options_arg_name(const struct option_def *o);

#endif
