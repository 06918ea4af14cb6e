/* options.c - the command line's own rows (scope OPT_SCOPE_CLI, stored
 * in struct run_config), and all rows as one list: these, then the job's
 * (base/job_rows.c), in --help order.
 *
 * Lookup, applying values, defaults and set_mask live in options_core.c;
 * the parse-time checks of job values that need layers above base/ in
 * options_checks.c; --help in options_help.c.
 */
#include "cli/options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/run_config_def.h"
#include "base/job_options.h"
#include "base/units.h"
#include "util/debug_log.h"

#define CLI_FIELD(f)                                                           \
	.scope = OPT_SCOPE_CLI, .off = offsetof(struct run_config, f),         \
	.size = sizeof(((struct run_config *)0)->f)

static int parse_output_format(void *obj, const struct option_def *o,
			       const char *v, struct ioc_err *err)
{
	struct run_config *cfg = obj;
	enum output_format fmt;

	if (output_format_parse(v, &fmt))
		return err_usage(err, EINVAL,
				 "--%s=%s: unknown format; accepted: normal, "
				 "json, json+, csv, terse, or several comma-separated",
				 o->name, v);
	cfg->format = fmt;
	return 0;
}

static int parse_output(void *obj, const struct option_def *o, const char *v,
			struct ioc_err *err)
{
	struct run_config *cfg = obj;
	char *copy;

	if (v[0] == '\0')
		return err_usage(err, EINVAL,
				 "--%s=: empty value; accepted: a file name",
				 o->name);
	copy = strdup(v);
	if (!copy)
		return err_set(err, ENOMEM, "--%s: out of memory", o->name);
	free(cfg->output);
	cfg->output = copy;
	return 0;
}

/* --status-interval=T: fio's "full status dump" every T; a plain number
 * is seconds. fio keeps it in ms and refuses less than 1 ms, 0 too
 * (init.c: "status interval too small"). */
static int parse_status_interval(void *obj, const struct option_def *o, const char *v,
				 struct ioc_err *err)
{
	struct run_config *cfg = obj;
	uint64_t ns;
	int ret = units_parse_time(o->name, v, &ns, err);
	if (ret)
		return ret;
	if (ns < 1000000ull)
		return err_usage(err, EINVAL, "--%s=%s: too small, at least 1ms (as fio)",
				 o->name, v);
	cfg->status_interval_ns = ns;
	return 0;
}

/* --section=NAME, repeatable: each adds a section to run. */
static int parse_section(void *obj, const struct option_def *o, const char *v,
			 struct ioc_err *err)
{
	struct run_config *cfg = obj;
	char **grown, *copy;

	if (!v || !v[0])
		return err_usage(err, EINVAL,
				 "--%s needs a value: a job section's name",
				 o->name);
	if (cfg->nr_sections >= 1024)
		return err_usage(err, E2BIG, "--%s: more than 1024 sections",
				 o->name);
	grown = realloc(cfg->sections,
			(cfg->nr_sections + 1) * sizeof(*cfg->sections));
	if (!grown)
		return err_set(err, ENOMEM, "--%s: out of memory", o->name);
	cfg->sections = grown;
	copy = strdup(v);
	if (!copy)
		return err_set(err, ENOMEM, "--%s: out of memory", o->name);
	cfg->sections[cfg->nr_sections++] = copy;
	return 0;
}

/* A string value kept in the run_config char * field at o->off; an
 * optional-value row (arg "[...]") keeps a bare key as "". */
static int parse_string(void *obj, const struct option_def *o, const char *v,
			struct ioc_err *err)
{
	char **field = (char **)((char *)obj + o->off);
	char *copy = strdup(v ? v : "");

	if (!copy)
		return err_set(err, ENOMEM, "--%s: out of memory", o->name);
	free(*field);
	*field = copy;
	return 0;
}

/* --terse-version=N: fio writes versions 2 to 5; iochar writes 3 (fio's
 * default) only, so 3 is accepted and the others are refused rather than
 * answered in another layout. */
static int parse_terse_version(void *obj, const struct option_def *o,
			       const char *v, struct ioc_err *err)
{
	struct run_config *cfg = obj;
	char *end;
	unsigned long n = strtoul(v, &end, 10);

	if (!v[0] || *end || n < 2 || n > 5)
		return err_usage(err, EINVAL,
				 "--%s=%s: bad terse version; fio's are 2, 3, "
				 "4 and 5", o->name, v);
	if (n != 3)
		return err_usage(err, EINVAL,
				 "--%s=%s: iochar writes terse version 3 only "
				 "(fio's default)", o->name, v);
	cfg->terse_version = (unsigned)n;
	return 0;
}

static bool debug_help(const char *v)
{
	return !strcmp(v, "help") || !strcmp(v, "?");
}

/* The index in debug_log_names of the len bytes at p, or -1. */
static int debug_type_of(const char *p, size_t len)
{
	for (int i = 0; debug_log_names[i]; i++)
		if (strlen(debug_log_names[i]) == len &&
		    !strncmp(debug_log_names[i], p, len))
			return i;
	return -1;
}

/* Trace type i (DEBUG_NR: all) and say so on stdout, as fio's
 * set_debug does. */
static void debug_turn_on(int i)
{
	debug_log_enable((enum debug_type)i);
	if (i == DEBUG_NR)
		printf("fio: set all debug options\n");
	else
		printf("fio: set debug option %s\n", debug_log_names[i]);
}

/* --debug=LIST: "help" (or "?"), or categories of fio's list,
 * comma-separated, each traced from now on; a name fio does not have
 * is refused, exit 2, before any is turned on (fio says it is not found
 * and runs on: a mistyped category there is easily missed). */
static int parse_debug(void *obj, const struct option_def *o, const char *v,
		       struct ioc_err *err)
{
	if (debug_help(v))
		return parse_string(obj, o, "help", err);
	for (int turn_on = 0; turn_on < 2; turn_on++)
		for (const char *p = v; *p;) {
			size_t len = strcspn(p, ",");
			int type = debug_type_of(p, len);

			if (type < 0)
				return err_usage(err, EINVAL,
						 "--%s=%s: debug mask '%.*s' not "
						 "found (--debug=help lists them)",
						 o->name, v, (int)len, p);
			if (turn_on)
				debug_turn_on(type);
			p += len + (p[len] == ',');
		}
	return parse_string(obj, o, v, err);
}

static const struct opt_enum eta_values[] = {
	{"auto", RUN_ETA_AUTO},
	{"always", RUN_ETA_ALWAYS},
	{"never", RUN_ETA_NEVER},
	{NULL, 0},
};

/* clang-format off */
static const struct option_def cli_rows[] = {
	{
		.name = "output-format",
		.type = OPT_CUSTOM, CLI_FIELD(format),
		.group = OPT_GROUP_CLI,
		.parse = parse_output_format,
		.def = "normal",
		.arg = "FMT",
		.help = "report format: normal, json (with fio's jobs[] layout), json+ (and fio's latency bins), csv, terse (fio's v3), or several comma-separated (json,normal)",
	},
	{
		.name = "minimal",
		.type = OPT_BOOL, CLI_FIELD(minimal),
		.group = OPT_GROUP_CLI,
		.help = "fio's alias of --output-format=terse",
	},
	{
		.name = "output",
		.type = OPT_CUSTOM, CLI_FIELD(output),
		.group = OPT_GROUP_CLI,
		.parse = parse_output,
		.arg = "FILE",
		.help = "write the results to FILE instead of standard output: "
			"a new file or a results file iochar wrote (--force: "
			"any), renamed into place when whole",
	},
	{
		.name = "progress-interval",
		.type = OPT_TIME, CLI_FIELD(progress_interval_ns),
		.group = OPT_GROUP_CLI,
		.def = "10s",
		.help = "with --verbose and without a terminal, a progress line this often; 0 = none",
		.fio = OPT_COMPAT_IOCHAR,
	},
	{
		/* fio's harnesses read any stderr as a failure: off a
		 * terminal the notes are only in the JSON unless asked */
		.name = "verbose",
		.type = OPT_BOOL, CLI_FIELD(verbose),
		.group = OPT_GROUP_CLI,
		.help = "iochar's notes (how the run differs from fio, files laid out before the run, progress lines) on stderr without a terminal too, where fio is silent; on a terminal they always are, and the JSON has them in notes",
		.fio = OPT_COMPAT_IOCHAR,
	},
	{
		.name = "status-interval",
		.type = OPT_CUSTOM, CLI_FIELD(status_interval_ns),
		.group = OPT_GROUP_CLI,
		.parse = parse_status_interval,
		.arg = "TIME",
		.help = "while jobs run, the full report (in --output-format) every TIME (at least 1ms), cumulative from the start",
	},
	/* fio's command line (jobfile area) */
	{
		.name = "section",
		.type = OPT_CUSTOM, CLI_FIELD(sections),
		.group = OPT_GROUP_CLI,
		.parse = parse_section,
		.arg = "NAME",
		.help = "run only this job section of the job file (repeatable; [global] sections are always read), as fio's",
	},
	{
		.name = "parse-only",
		.type = OPT_BOOL, CLI_FIELD(parse_only),
		.group = OPT_GROUP_CLI,
		.help = "parse and check the options, run nothing, as fio's",
	},
	{
		.name = "showcmd",
		.type = OPT_BOOL, CLI_FIELD(showcmd),
		.group = OPT_GROUP_CLI,
		.help = "print the job file as fio's command line and exit, as fio's",
	},
	{
		.name = "eta",
		.type = OPT_ENUM, CLI_FIELD(eta),
		.group = OPT_GROUP_CLI,
		.values = eta_values,
		.def = "auto",
		.arg = "WHEN",
		.help = "the live status line: auto (on a terminal), always, never",
	},
	{
		.name = "readonly",
		.type = OPT_BOOL, CLI_FIELD(readonly),
		.group = OPT_GROUP_CLI,
		.help = "refuse, before anything runs, every job that would write (fio's safety guard)",
	},
	{
		.name = "version",
		.type = OPT_BOOL, CLI_FIELD(version),
		.group = OPT_GROUP_CLI,
		.help = "print the version of fio iochar runs as (fio-3.33, as fio's, for tools that parse it) and exit; `iochar --version` prints iochar's",
	},
	/* fio 3.33's other command-line options (fio's init.c), each with
	 * fio's meaning where iochar has it, else accepted and said to do
	 * nothing here (docs/fio-compat.md has these helps) */
	{
		.name = "max-jobs",
		.type = OPT_UINT, CLI_FIELD(max_jobs),
		.group = OPT_GROUP_CLI,
		.min = 1,
		.max = UINT32_MAX,
		.arg = "NR",
		.help = "accepted, no effect: fio's pool size for jobs; fio 3.33 caps nothing with it either (it runs 2 jobs with --max-jobs=1) and iochar needs no pool",
	},
	{
		.name = "terse-version",
		.type = OPT_CUSTOM, CLI_FIELD(terse_version),
		.group = OPT_GROUP_CLI,
		.parse = parse_terse_version,
		.def = "3",
		.arg = "INT",
		.help = "the terse output's version, as fio's: 3 only (fio's default; 2, 4 and 5 are refused)",
	},
	{
		.name = "eta-newline",
		.type = OPT_TIME, CLI_FIELD(eta_newline_ns),
		.group = OPT_GROUP_CLI,
		.help = "end the live status line every TIME (it stays on screen, the next starts below) instead of redrawing it in place, as fio's ETA line; only where the live line shows (a terminal or --eta=always)",
	},
	{
		.name = "warnings-fatal",
		.type = OPT_BOOL, CLI_FIELD(warnings_fatal),
		.group = OPT_GROUP_CLI,
		.help = "accepted, no effect: fio's parser warnings become errors; iochar's parser refuses (exit 2) where it does not accept, so it has no warnings to make fatal",
	},
	{
		.name = "alloc-size",
		.type = OPT_UINT, CLI_FIELD(alloc_size_kb),
		.group = OPT_GROUP_CLI,
		.min = 1,
		.max = UINT32_MAX,
		.arg = "KB",
		.help = "accepted, no effect: the size of fio's shared-memory pool in KiB; iochar has no such pool",
	},
	{
		.name = "aux-path",
		.type = OPT_CUSTOM, CLI_FIELD(aux_path),
		.group = OPT_GROUP_CLI,
		.parse = parse_string,
		.arg = "PATH",
		.help = "the directory where verify_state_save writes and verify_state_load reads fio's local-NAME-INDEX-verify.state files (default: the current one), as fio's",
	},
	{
		.name = "bandwidth-log",
		.type = OPT_BOOL, CLI_FIELD(bandwidth_log),
		.group = OPT_GROUP_CLI,
		.help = "the aggregate bandwidth of all jobs in agg-read_bw.log, agg-write_bw.log, agg-trim_bw.log (fio's \"msec, KiB/s, dir, 0, 0\" lines; trims 0), made at start and sampled each second while the live status line shows (a terminal or --eta=always), as fio samples them with its ETA",
	},
	{
		.name = "inflate-log",
		.type = OPT_CUSTOM, CLI_FIELD(inflate_log),
		.group = OPT_GROUP_CLI,
		.parse = parse_string,
		.arg = "FILE",
		.help = "print a log fio stored compressed (log_compression with log_store_compressed=1: FILE.fz) as its text lines, as fio's, and exit (iochar's own too)",
	},
	{
		.name = "trigger-timeout",
		.type = OPT_TIME, CLI_FIELD(trigger_timeout_ns),
		.group = OPT_GROUP_CLI,
		.help = "at TIME into the run, stop the jobs, run --trigger's command and report what was done, exit 0, as fio's (checked each second)",
	},
	{
		.name = "trigger-file",
		.type = OPT_CUSTOM, CLI_FIELD(trigger_file),
		.group = OPT_GROUP_CLI,
		.parse = parse_string,
		.arg = "FILE",
		.help = "when FILE appears, remove it, stop the jobs, run --trigger's command and report, exit 0, as fio's (checked each second)",
	},
	{
		.name = "trigger",
		.type = OPT_CUSTOM, CLI_FIELD(trigger_cmd),
		.group = OPT_GROUP_CLI,
		.parse = parse_string,
		.arg = "CMD",
		.help = "the shell command --trigger-timeout or --trigger-file run once the jobs stopped, as fio's",
	},
	{
		.name = "debug",
		.type = OPT_CUSTOM, CLI_FIELD(debug),
		.group = OPT_GROUP_CLI,
		.parse = parse_debug,
		.arg = "LIST",
		.help = "fio's debug categories, comma-separated; --debug=help (or ?) lists them and exits; each one named prints fio's 'fio: set debug option' line, then its traces in fio's line shape on stdout, where iochar has them (parse: each option handled; file, io: each job's files and engine); one fio lacks is refused, exit 2, where fio says so and runs",
	},
	{
		.name = "cmdhelp",
		.type = OPT_CUSTOM, CLI_FIELD(cmdhelp),
		.group = OPT_GROUP_CLI,
		.parse = parse_string,
		.arg = "[OPTION]",
		.help = "print the help of OPTION (or of all, as 'all' or bare) and exit, as fio's",
	},
	{
		.name = "enghelp",
		.type = OPT_CUSTOM, CLI_FIELD(enghelp),
		.group = OPT_GROUP_CLI,
		.parse = parse_string,
		.arg = "[ENGINE[,OPTION]]",
		.help = "list the I/O engines (bare), an engine's options, or one of them, and exit, as fio's",
	},
	{
		.name = "crctest",
		.type = OPT_CUSTOM, CLI_FIELD(crctest),
		.group = OPT_GROUP_CLI,
		.parse = parse_string,
		.arg = "[TYPE]",
		.help = "time the verify checksums iochar has (or TYPE, a comma-separated list of them) and print each one's throughput, as fio's, and exit",
	},
	{
		.name = "fio-compat",
		.type = OPT_BOOL, CLI_FIELD(fio_compat),
		.group = OPT_GROUP_CLI,
		.help = "print docs/fio-compat.md (every fio option: supported, different or refused), made from the option rows, and exit",
		.fio = OPT_COMPAT_IOCHAR,
	},
};
/* clang-format on */

/* clang-format off */
const struct option_preset options_scratch_preset[] = {
	{ "rw", "randread" }, { "bs", "4k" },	    { "iodepth", "32" },
	{ "direct", "1" },    { "size", "1g" },	    { "runtime", "10s" },
	{ "time_based", "1" }, { "overwrite", "1" }, { NULL, NULL },
};
/* clang-format on */

const struct option_def *options_cli_rows(size_t *nr)
{
	*nr = sizeof(cli_rows) / sizeof(cli_rows[0]);
	return cli_rows;
}

const struct option_def *options_row(size_t i)
{
	size_t nr_cli, nr_job;
	const struct option_def *cli = options_cli_rows(&nr_cli);
	const struct option_def *job = job_option_rows(&nr_job);

	if (i < nr_cli)
		return &cli[i];
	return i - nr_cli < nr_job ? &job[i - nr_cli] : NULL;
}
