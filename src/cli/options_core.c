/* options_core.c - what the option rows drive: lookup, values, defaults,
 * set_mask. See options.h; the rows are base/job_rows.c's (the job's) and
 * options.c's (the command line's own).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <string.h>
#include <strings.h>

#include "cli/fio_names.h"
#include "cli/options.h"
#include "cli/run_config_def.h"
#include "base/job_options.h"
#include "base/ss_opts.h"
#include "util/closest.h"
#include "util/debug_log.h"
#include "base/units.h"
#include "engine/engine.h"

/* fio options refused with their own reason (fio logs: logs helper). */
static const struct {
	const char *name, *why;
} fio_refused_why[] = {
	{"log_unix_epoch", "iochar's fio logs count from the job's start"},
	{"log_alternate_epoch", "iochar's fio logs count from the job's start"},
	{"log_alternate_epoch_clock_id", "iochar's fio logs count from the job's start"},
};

/* fio 3.33's command-line options (init.c's l_opts) iochar has no row
 * for yet: refused as such, not as options fio lacks. */
const struct options_missing options_fio_cli_missing[] = {
	{"idle-prof", "fio's CPU idleness profiling: system, percpu, calibrate"},
	{"trigger-remote", "fio's remote trigger command"},
	{"server", "fio's backend server; iochar spreads a run over hosts with MPI"},
	{"daemonize", "fio's backgrounded server"},
	{"client", "fio's client of backend servers"},
	{"remote-config", "fio's job file loaded by a server"},
	{"cpuclock-test", "fio's CPU clock check"},
	{"merge-blktrace-only", "fio's merge of blktraces without I/O; iochar has merge_blktrace_file"},
	{NULL, NULL},
};

const struct option_def *options_find(const char *key)
{
	const struct option_def *o;

	for (size_t i = 0; (o = options_row(i)); i++)
		if (option_matches(o, key))
			return o;
	return engine_option_find(key, NULL);
}

const struct fio_name *fio_name_find(const char *key)
{
	for (const struct fio_name *n = fio_names; n->name; n++)
		if (option_key_eq(n->name, key) ||
		    (n->alias[0] && option_key_eq(n->alias, key)))
			return n;
	return NULL;
}

int options_given_add(struct job_spec *spec, const char *key, const char *value)
{
	const struct fio_name *n = fio_name_find(key);
	const struct option_def *o = n ? NULL : options_find(key);

	spec->given_kept = true;
	if (!value)
		return 0;
	return job_given_add(spec, n ? n->name : o ? o->name : key, value);
}

int options_given_rank(const char *name)
{
	const struct option_def *o = options_find(name);
	const struct fio_name *n = fio_name_find(name);

	if (o && o->scope == OPT_SCOPE_ENGINE)
		return -100; /* fio parses an engine's once it is loaded */
	return n ? n->prio : 0;
}

int options_lookup(const char *key, const struct option_def **out,
		   struct ioc_err *err)
{
	const struct fio_name *n;

	*out = options_find(key);
	if (*out)
		return 0;
	for (size_t i = 0; i < sizeof(fio_refused_why) / sizeof(fio_refused_why[0]); i++)
		if (option_key_eq(fio_refused_why[i].name, key))
			return err_usage(err, EINVAL, "fio option '%s' is not "
					 "supported by iochar: %s", key,
					 fio_refused_why[i].why);
	for (const struct options_missing *m = options_fio_cli_missing; m->name; m++)
		if (option_key_eq(m->name, key))
			return err_usage(err, ENOSYS,
					 "--%s: fio's command-line option is not "
					 "implemented in iochar yet (%s; "
					 "docs/fio-compat.md)", m->name, m->what);
	n = fio_name_find(key);
	if (n && n->where[0])
		return err_usage(err, EINVAL,
				 "fio option '%s' (of %s) is not supported by "
				 "iochar (docs/fio-compat.md)",
				 key, n->where);
	if (n)
		return err_usage(err, EINVAL,
				 "fio option '%s' is not supported by iochar "
				 "(docs/fio-compat.md)",
				 key);
	struct closest c;
	closest_init(&c, key);
	for (size_t i = 0; options_row(i); i++) { /* aliases too, as fio's command line */
		closest_offer(&c, options_row(i)->name);
		closest_offer(&c, options_row(i)->alias[0]);
		closest_offer(&c, options_row(i)->alias[1]);
	}
	const char *guess = closest_name(&c);
	return err_usage(err, EINVAL,
			 "unknown option '%s': not an option of fio %s either%s%s%s "
			 "(see 'iochar run --help')",
			 key, fio_names_version + 4, guess ? "; did you mean " : "",
			 guess ? guess : "", guess ? "?" : "");
}

bool options_value_optional(const struct option_def *o)
{
	return o->scope == OPT_SCOPE_CLI && o->arg && o->arg[0] == '[';
}

unsigned options_bit(const struct option_def *o)
{
	size_t nr;

	return (unsigned)(o - job_option_rows(&nr));
}

void options_set_defaults(struct job_spec *spec)
{
	job_options_set_defaults(spec);
}

void options_set_cli_defaults(struct run_config *cfg)
{
	size_t nr;
	const struct option_def *rows = options_cli_rows(&nr);

	option_set_defaults(rows, nr, OPT_SCOPE_CLI, cfg);
}

/* A job row's value into spec: what base/ cannot check first. */
static int parse_job(struct job_spec *spec, const struct option_def *o,
		     const char *value, struct ioc_err *err)
{
	int ret = options_check_value(o, value, err);

	return ret ? ret : option_parse(o, spec, value, err);
}

/* An engine's own option: into the job's engine_opts, which hold one
 * engine's options at a time (options_check_job: the job's engine's). */
static int apply_engine(struct job_spec *spec, const struct option_def *o,
			const char *value, bool mark, struct ioc_err *err)
{
	const struct engine_ops *e;
	int ret;

	/* a name several engines have is the job's engine's option */
	o = engine_option_resolve(o->name, spec->ioengine, &e);
	if (spec->engine_opts_of[0] && strcmp(spec->engine_opts_of, e->name))
		return err_usage(err, EINVAL,
				 "option '%s' is an option of ioengine=%s, "
				 "but this job has options of ioengine=%s",
				 o->name, e->name, spec->engine_opts_of);
	ret = option_parse(o, spec->engine_opts, value, err);
	if (ret || !mark)
		return ret;
	snprintf(spec->engine_opts_of, sizeof(spec->engine_opts_of), "%s",
		 e->name);
	spec->engine_opts_set |= 1u << (o - e->options);
	return 0;
}

/* --debug=parse: the option handled, as fio's handle_option traces it
 * (the type is iochar's row type: fio's own is not iochar's to say). */
static void trace_option(const char *key, const struct option_def *o,
			 const char *value)
{
	static const char *const types[] = {
	    [OPT_SIZE] = "OPT_SIZE",	 [OPT_TIME] = "OPT_TIME",
	    [OPT_UINT] = "OPT_UINT",	 [OPT_PERCENT] = "OPT_PERCENT",
	    [OPT_BOOL] = "OPT_BOOL",	 [OPT_ENUM] = "OPT_ENUM",
	    [OPT_STRING] = "OPT_STRING", [OPT_CUSTOM] = "OPT_CUSTOM",
	    [OPT_IGNORED] = "OPT_IGNORED",
	};
	const char *type = (unsigned)o->type < sizeof(types) / sizeof(types[0]) &&
				   types[o->type]
			       ? types[o->type]
			       : "OPT_UNKNOWN";

	debug_log(DEBUG_PARSE, "handle_option=%s, ptr=%s", key,
		  value ? value : "(null)");
	debug_log(DEBUG_PARSE, "__handle_option=%s, type=%s, ptr=%s", o->name,
		  type, value ? value : "(null)");
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
	if (debug_log_on(DEBUG_PARSE))
		trace_option(key, o, value);
	if (o->scope == OPT_SCOPE_ENGINE)
		return apply_engine(spec, o, value, true, err);
	if (o->scope != OPT_SCOPE_JOB)
		return err_usage(err, EINVAL,
				 "option '%s' is only valid on the command "
				 "line (--%s=%s)",
				 key, o->name, options_arg_name(o));
	ret = parse_job(spec, o, value, err);
	if (ret)
		return ret;
	if (o->parse == ss_opts_parse) /* fio traces its criterion */
		ss_opts_trace(spec, o);
	bit = options_bit(o);
	job_row_mark_set(spec, bit);
	return 0;
}

int options_apply_cli(struct run_config *cfg, const struct option_def *o,
		      const char *value, struct ioc_err *err)
{
	if (o->scope != OPT_SCOPE_CLI)
		return err_set(err, EINVAL, "--%s is a job option", o->name);
	return option_parse(o, cfg, value, err);
}

static bool engine_is_set(const struct job_spec *spec,
			  const struct option_def *o)
{
	const struct engine_ops *e;

	o = engine_option_resolve(o->name, spec->ioengine, &e);
	return strcmp(spec->engine_opts_of, e->name) == 0 &&
	       (spec->engine_opts_set & (1u << (o - e->options)));
}

bool options_is_set(const struct job_spec *spec, const char *key)
{
	const struct option_def *o = options_find(key);
	size_t nr;
	const struct option_def *rows = job_option_rows(&nr);

	if (o && o->scope == OPT_SCOPE_ENGINE)
		return engine_is_set(spec, o);
	/* the command line's own rows are never set on a job */
	if (!o || o->scope != OPT_SCOPE_JOB)
		return false;
	if (o->type == OPT_IGNORED)
		return job_row_was_set(spec, options_bit(o));
	for (size_t i = 0; i < nr; i++)
		if (rows[i].type != OPT_IGNORED && rows[i].off == o->off &&
		    job_row_was_set(spec, i))
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
	if (o->scope == OPT_SCOPE_ENGINE)
		return apply_engine(spec, o, value, false, err);
	if (o->scope != OPT_SCOPE_JOB)
		return err_set(err, EINVAL, "%s: not a job option", key);
	return parse_job(spec, o, value, err);
}
