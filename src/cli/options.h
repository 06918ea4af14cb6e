/* options.h - the one declarative table of options, and what it drives.
 *
 * Every option iochar knows is one row (options.c): name, aliases, type,
 * where it is stored, default, range, help, scope. The rows drive defaults
 * (options_set_defaults is the only place defaults are written), the command
 * line and job files (options_apply), checks on values, and --help.
 * Names and value syntax are fio's. In keys '-' and '_' are alike and case
 * does not matter ("time-based" == "time_based" == "Time_Based").
 */
#ifndef IOCHAR_CLI_OPTIONS_H
#define IOCHAR_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/job.h"
#include "util/err.h"

struct run_config;

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
	OPT_SCOPE_JOB, /* command line and job files; in struct job_spec */
	OPT_SCOPE_CLI, /* command line only; in struct run_config */
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
	const char *help; /* one line for --help */
};

/* Defaults scratch mode applies to options the user did not set (see
 * run_config.h), {NULL} terminated. */
extern const struct option_preset options_scratch_preset[];

/* All rows, in --help order; *nr gets their number. Static data. */
const struct option_def *options_rows(size_t *nr);

/* Write every job option's default into spec, by parsing the row's default
 * string. spec must have been through job_spec_init. Does not mark options
 * as set. */
void options_set_defaults(struct job_spec *spec);

/* Same for the command-line-only options in cfg (e.g. output format). */
void options_set_cli_defaults(struct run_config *cfg);

/* Apply key=value to spec and mark the option as set in spec->set_mask.
 * value NULL means a bare key, allowed for booleans ("time_based").
 * Returns 0, or -EINVAL/-ERANGE/-ENOMEM with a one-line message in err
 * (a usage error for bad input): unknown option 'foo', fio option 'x' is not
 * supported by iochar, command-line-only option, or a bad value. */
int options_apply(struct job_spec *spec, const char *key, const char *value,
		  struct ioc_err *err);

/* The row for key (name or alias), or NULL when unknown. The row is static:
 * it stays valid for the life of the program. */
const struct option_def *options_find(const char *key);

/* Like options_find, but an unknown key is an error (-EINVAL) with the
 * message options_apply gives. */
int options_lookup(const char *key, const struct option_def **out,
		   struct ioc_err *err);

/* Apply value to cfg through a command-line-only row o (from options_find).
 * 0 or -errno with a message. */
int options_apply_cli(struct run_config *cfg, const struct option_def *o,
		      const char *value, struct ioc_err *err);

/* Does o need a value (false: a bare key is enough)? */
bool options_takes_value(const struct option_def *o);

/* The name of o's value in help and messages: "SIZE", "TIME", "BOOL"... */
const char *options_arg_name(const struct option_def *o);

/* Did the user set key, or another option stored in the same field (e.g.
 * "buffered" for "direct"), on spec? false for unknown keys. */
bool options_is_set(const struct job_spec *spec, const char *key);

/* Apply key=value only when options_is_set(spec, key) is false, without
 * marking it set: for defaults chosen later (scratch mode). 0 or -errno. */
int options_set_default(struct job_spec *spec, const char *key,
			const char *value, struct ioc_err *err);

/* The set_mask bit of row o. */
unsigned options_bit(const struct option_def *o);

/* Every job option's value in spec, one "name=value" line per row of the
 * table (rows that store another row's field inverted are that row's), in
 * table order: the whole job as text, equal for two specs exactly when
 * they run the same job. Used to check that MPI ranks agree. 0, -ENOSYS
 * for a custom row without a show function, or -errno from writing f. */
int options_write_job(const struct job_spec *spec, FILE *f);

/* Write string s (at most max bytes of it) to f as a show function
 * should: "LEN:TEXT". NULL is the empty string. 0 or -EIO. */
int options_show_str(FILE *f, const char *s, size_t max);

/* Print every option, grouped, with value type, default and range, to f. */
void options_print_help(FILE *f);

#endif
