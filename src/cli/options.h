/* options.h - the declarative rows of every option, and what they drive.
 *
 * Every option iochar knows is one row: name, aliases, type, where it is
 * stored, default, range, help, scope. The job's rows are the ground
 * floor's (base/job_rows.c, job_option_rows); the command line's own rows,
 * which store into struct run_config, are options.c's; options_row walks
 * both as one list, those first (an engine's own rows are engine/'s and
 * found by options_find too). The rows drive defaults
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

#include "base/job.h"
#include "base/option.h" /* the row type and the typed parse */
#include "util/err.h"

struct run_config;

/* Defaults scratch mode applies to options the user did not set (see
 * run_config.h), {NULL} terminated. */
extern const struct option_preset options_scratch_preset[];

/* Row i of all rows, in --help order: the command line's own rows, then
 * the job's (job_option_rows); NULL for i past the last. Static data. */
const struct option_def *options_row(size_t i);

/* The command line's own rows (scope OPT_SCOPE_CLI, in struct
 * run_config); *nr gets their number. Static data. */
const struct option_def *options_cli_rows(size_t *nr);

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

/* Record key=value (after options_apply took it) among spec's given
 * options (job.h given) under fio's name for key, for fio's JSON; a bare
 * key is not recorded (fio lists none). 0 or -ENOMEM. */
int options_given_add(struct job_spec *spec, const char *key, const char *value);

/* Where fio parses option name among a section's: its priority (fio's
 * parse.c sort_options), an engine's options after all the others. For
 * job_given_sort. */
int options_given_rank(const char *name);

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

/* Did the user set key, or another option stored in the same field (e.g.
 * "buffered" for "direct"), on spec? false for unknown keys. */
bool options_is_set(const struct job_spec *spec, const char *key);

/* Apply key=value only when options_is_set(spec, key) is false, without
 * marking it set: for defaults chosen later (scratch mode). 0 or -errno. */
int options_set_default(struct job_spec *spec, const char *key,
			const char *value, struct ioc_err *err);

/* Is value acceptable for job row o, as far as base/ cannot tell: the
 * engine ioengine names, the VD definition(s) vd gives? Run before
 * option_parse wherever a job value is parsed (options_apply,
 * options_set_default): same moment, same messages as a row's own parse.
 * 0 for other rows and for a bare key (value NULL); else -errno with a
 * one-line usage message naming the option. */
int options_check_value(const struct option_def *o, const char *value,
			struct ioc_err *err);

/* The set_mask bit of job row o (scope OPT_SCOPE_JOB): its place among
 * job_option_rows. Other rows have none. */
unsigned options_bit(const struct option_def *o);

/* Every job option's value in spec, one "name=value" line per job row (rows that store another row's field inverted are that row's), in
 * row order: the whole job as text, equal for two specs exactly when
 * they run the same job. Used to check that MPI ranks agree. 0, -ENOSYS
 * for a custom row without a show function, or -errno from writing f. */
int options_write_job(const struct job_spec *spec, FILE *f);

/* Print "\nTITLE:\n", then each of rows (any table: plan keys, say) as
 * --help prints an option: names, value, help, default and range. */
void options_print_rows(FILE *f, const char *title,
			const struct option_def *rows, size_t nr);

/* Write docs/fio-compat.md: the general differences from fio, every fio
 * option (fio_names.h) with iochar's status (the rows' opt_compat), and
 * iochar's own options. */
void options_write_compat(FILE *f);

/* Does command-line row o take a value only after '=' (its arg is
 * "[...]": --cmdhelp, --enghelp, --crctest), a bare key being ""? */
bool options_value_optional(const struct option_def *o);

/* fio 3.33's command-line options iochar does not implement yet, with
 * what each does in fio; {NULL} terminated. Looking one up is refused
 * saying so (exit 2); docs/fio-compat.md lists them. */
struct options_missing {
	const char *name, *what;
};
extern const struct options_missing options_fio_cli_missing[];


/* --cmdhelp=name: fio's layout, one "name: help" block with the alias,
 * value, default and range; name "" or "all" lists every option, one
 * line each. 0, or -ENOENT (nothing printed) when unknown. */
int options_print_cmdhelp(FILE *f, const char *name);

/* --enghelp: "" lists the engines; "engine" its options, one line each;
 * "engine,option" that option as --cmdhelp. 0, or -ENOENT with a line
 * naming what is unknown. */
int options_print_enghelp(FILE *f, const char *arg);

/* Print every option, grouped, with value type, default and range, to f. */
void options_print_help(FILE *f);

/* README.md's option table (options_readme.c) to f, its option names
 * checked against the rows first. 0, -EINVAL naming a name no row has
 * (nothing written), -EIO. */
int options_readme_table(FILE *f, struct ioc_err *err);

#endif
