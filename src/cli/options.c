/* options.c - the option table: every option iochar knows, as data.
 *
 * Adding an option is adding a row here (and a field in struct job_spec).
 * Lookup, applying values, defaults and set_mask live in options_core.c;
 * --help in options_help.c. Names, value syntax and defaults follow fio.
 */
#define _GNU_SOURCE /* CPU_ISSET, CPU_SETSIZE */
#include "cli/options.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/run_config.h"
#include "cli/units.h"
#include "engine/engine.h"
#include "vd/def.h"

#define JOB_FIELD(f)                                                           \
	.scope = OPT_SCOPE_JOB, .off = offsetof(struct job_spec, f),           \
	.size = sizeof(((struct job_spec *)0)->f)
#define CLI_FIELD(f)                                                           \
	.scope = OPT_SCOPE_CLI, .off = offsetof(struct run_config, f),         \
	.size = sizeof(((struct run_config *)0)->f)

/* clang-format off */
static const struct opt_enum rw_values[] = {
	{ "read", RW_READ },	     { "write", RW_WRITE },
	{ "randread", RW_RANDREAD }, { "randwrite", RW_RANDWRITE },
	{ "rw", RW_RW },	     { "readwrite", RW_RW },
	{ "randrw", RW_RANDRW },     { NULL, 0 },
};
static const struct opt_enum rate_process_values[] = {
	{ "linear", RATE_LINEAR }, { "poisson", RATE_POISSON }, { NULL, 0 },
};
/* clang-format on */

static int parse_filename(void *obj, const struct option_def *o, const char *v,
			  struct ioc_err *err)
{
	int ret;

	if (v[strspn(v, ":")] == '\0')
		return err_usage(err, EINVAL,
				 "%s=%s: no path; accepted: a path, or paths "
				 "separated by ':'",
				 o->name, v);
	ret = job_spec_set_files(obj, v);
	if (ret == -E2BIG)
		return err_usage(err, E2BIG, "%s=%s: more than %d files",
				 o->name, v, JOB_MAX_FILES);
	if (ret)
		return err_set(err, ret, "%s=%s: %s", o->name, v,
			       strerror(-ret));
	return 0;
}

static int show_filename(const void *obj, const struct option_def *o, FILE *f)
{
	(void)o;
	return options_show_str(f, ((const struct job_spec *)obj)->filename,
				SIZE_MAX);
}

/* A char array field, as OPT_STRING shows it (vd, ioengine). */
static int show_chars(const void *obj, const struct option_def *o, FILE *f)
{
	return options_show_str(f, (const char *)obj + o->off, o->size);
}

/* Syntax and arithmetic now (one line, exit 2); the members are looked at
 * when the job is validated. */
static int parse_vd(void *obj, const struct option_def *o, const char *v,
		    struct ioc_err *err)
{
	struct job_spec *job = obj;
	struct vd_def *def = malloc(sizeof(*def));
	int ret;

	if (!def)
		return err_set(err, ENOMEM, "out of memory");
	char *one = malloc(strlen(v) + 1);
	ret = one ? 0 : err_set(err, ENOMEM, "out of memory");
	for (unsigned i = 0; !ret && i < vd_list_count(v); i++)
		if (!(ret = vd_list_item(v, i, one, strlen(v) + 1)))
			ret = vd_def_parse(one, def, err);
	free(one);
	free(def);
	if (ret)
		return ret;
	if (strlen(v) >= sizeof(job->vd))
		return err_usage(err, E2BIG, "%s: longer than %zu characters",
				 o->name, sizeof(job->vd) - 1);
	strcpy(job->vd, v);
	return 0;
}

static int parse_ioengine(void *obj, const struct option_def *o, const char *v,
			  struct ioc_err *err)
{
	struct job_spec *spec = obj;
	size_t len = strlen(v);

	if (!engine_find(v) || len >= sizeof(spec->ioengine))
		return err_usage(err, EINVAL,
				 "%s=%s: unknown engine; accepted: %s", o->name,
				 v, engine_names());
	memcpy(spec->ioengine, v, len + 1);
	return 0;
}

/* "random" / "uniform", or "zipf:THETA". fio rejects theta 1.0, where its
 * zipf generator divides by zero; so does iochar. */
static int parse_distribution(void *obj, const struct option_def *o,
			      const char *v, struct ioc_err *err)
{
	static const char accepted[] =
	    "random (or uniform), or zipf:THETA with 0 < THETA <= 100 and "
	    "THETA != 1, e.g. zipf:1.2";
	struct job_spec *spec = obj;
	const char *t = v + 5;
	char *end;
	double theta;

	if (strcasecmp(v, "random") == 0 || strcasecmp(v, "uniform") == 0) {
		spec->dist = DIST_UNIFORM;
		spec->zipf_theta = 0;
		return 0;
	}
	if (strncasecmp(v, "zipf:", 5) != 0 ||
	    !(isdigit((unsigned char)t[0]) || t[0] == '.'))
		goto bad;
	errno = 0;
	theta = strtod(t, &end);
	if (*end != '\0' || errno || !isfinite(theta))
		goto bad;
	if (!(theta > 0 && theta <= 100) || theta == 1.0)
		return err_usage(err, ERANGE,
				 "%s=%s: zipf theta out of range; accepted: %s",
				 o->name, v, accepted);
	spec->dist = DIST_ZIPF;
	spec->zipf_theta = theta;
	return 0;
bad:
	return err_usage(err, EINVAL, "%s=%s: not a distribution; accepted: %s",
			 o->name, v, accepted);
}

/* The exact theta (%a): two ranks agree only on the same generator. */
static int show_distribution(const void *obj, const struct option_def *o,
			     FILE *f)
{
	const struct job_spec *spec = obj;

	(void)o;
	if (spec->dist == DIST_ZIPF)
		return fprintf(f, "zipf:%a", spec->zipf_theta) < 0 ? -EIO : 0;
	return fprintf(f, "random") < 0 ? -EIO : 0;
}

/* verify=0|1 (any boolean). fio's verify methods (crc32c, md5, ...) write
 * fio's own block format, which iochar does not: they are refused by name
 * rather than taken as "1", so a fio job file's intent is not misread. */
static int parse_verify(void *obj, const struct option_def *o, const char *v,
			struct ioc_err *err)
{
	struct job_spec *spec = obj;
	bool on;

	if (units_parse_bool(o->name, v, &on, NULL) == 0) {
		spec->verify = on;
		return 0;
	}
	return err_usage(err, EINVAL,
			 "%s=%s: fio verify method '%s' is not supported by "
			 "iochar; accepted: 0 or 1 (iochar's CRC32C-keyed "
			 "blocks, see docs/output.md)",
			 o->name, v, v);
}

static int show_verify(const void *obj, const struct option_def *o, FILE *f)
{
	(void)o;
	return fprintf(f, "%d", ((const struct job_spec *)obj)->verify) < 0
		   ? -EIO
		   : 0;
}

/* The CPUs, one number each ("" when not set: all of them). */
static int show_cpus(const void *obj, const struct option_def *o, FILE *f)
{
	const struct job_spec *spec = obj;

	(void)o;
	for (int cpu = 0; spec->cpus_set && cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &spec->cpus_allowed) && fprintf(f, "%d,", cpu) < 0)
			return -EIO;
	return 0;
}

static int parse_cpus(void *obj, const struct option_def *o, const char *v,
		      struct ioc_err *err)
{
	struct job_spec *spec = obj;
	cpu_set_t set;
	int ret;

	ret = units_parse_cpus(o->name, v, &set, err);
	if (ret)
		return ret;
	spec->cpus_allowed = set;
	spec->cpus_set = true;
	return 0;
}

static int parse_output_format(void *obj, const struct option_def *o,
			       const char *v, struct ioc_err *err)
{
	struct run_config *cfg = obj;
	enum output_format fmt;

	if (output_format_parse(v, &fmt))
		return err_usage(err, EINVAL,
				 "--%s=%s: unknown format; accepted: normal, "
				 "json, json+, csv",
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

/* clang-format off */
static const struct option_def option_table[] = {
	{
		.name = "output-format",
		.type = OPT_CUSTOM, CLI_FIELD(format),
		.group = OPT_GROUP_CLI,
		.parse = parse_output_format,
		.def = "normal",
		.arg = "FMT",
		.help = "report format: normal, json (with fio's jobs[] layout), json+ (and fio's latency bins) or csv",
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
		.help = "without a terminal, a progress line this often; 0 = none",
	},
	{
		.name = "name",
		.type = OPT_STRING, JOB_FIELD(name),
		.group = OPT_GROUP_TARGET,
		.def = "job0",
		.arg = "NAME",
		.help = "job name; in a job file the [section] names the job",
	},
	{
		.name = "filename",
		.type = OPT_CUSTOM, JOB_FIELD(filename),
		.group = OPT_GROUP_TARGET,
		.parse = parse_filename,
		.show = show_filename,
		.arg = "PATH[:PATH]",
		.help = "files or block devices, ':'-separated; none: a scratch "
			"file (see below)",
	},
	{
		.name = "size",
		.type = OPT_SIZE, JOB_FIELD(size),
		.group = OPT_GROUP_TARGET,
		.def = "0",
		.help = "bytes per job, split over its files; 0 = the whole "
			"target",
	},
	{
		.name = "offset",
		.type = OPT_SIZE, JOB_FIELD(offset),
		.group = OPT_GROUP_TARGET,
		.def = "0",
		.help = "start of the region in each file",
	},
	{
		.name = "force",
		.type = OPT_BOOL, JOB_FIELD(force),
		.group = OPT_GROUP_TARGET,
		.def = "0",
		.help = "write even to targets that hold data, and extend files iochar did not create (README: Safety)",
	},
	{
		.name = "rw",
		.alias = { "readwrite" },
		.type = OPT_ENUM, JOB_FIELD(rw),
		.group = OPT_GROUP_WORKLOAD,
		.values = rw_values,
		.def = "read",
		.arg = "MODE",
		.help = "I/O pattern",
	},
	{
		.name = "bs",
		.alias = { "blocksize" },
		.type = OPT_SIZE, JOB_FIELD(bs),
		.group = OPT_GROUP_WORKLOAD,
		.def = "4k",
		.min = 1,
		.max = 1ull << 30,
		.help = "block size of each I/O",
	},
	{
		.name = "rwmixread",
		.type = OPT_PERCENT, JOB_FIELD(rwmixread),
		.group = OPT_GROUP_WORKLOAD,
		.def = "50",
		.help = "percent of reads in rw and randrw",
	},
	{
		.name = "rwmixwrite",
		.type = OPT_PERCENT, JOB_FIELD(rwmixread),
		.flags = OPT_F_INVERT,
		.group = OPT_GROUP_WORKLOAD,
		.help = "percent of writes in rw and randrw (100 - rwmixread)",
	},
	{
		.name = "iodepth",
		.type = OPT_UINT, JOB_FIELD(iodepth),
		.group = OPT_GROUP_WORKLOAD,
		.def = "1",
		.min = 1,
		.max = 65536,
		.help = "I/Os in flight per worker",
	},
	{
		.name = "numjobs",
		.type = OPT_UINT, JOB_FIELD(numjobs),
		.group = OPT_GROUP_WORKLOAD,
		.def = "1",
		.min = 1,
		.max = 1024,
		.help = "worker threads running this job, each on its own",
	},
	{
		.name = "random_distribution",
		.type = OPT_CUSTOM, JOB_FIELD(dist),
		.group = OPT_GROUP_WORKLOAD,
		.parse = parse_distribution,
		.show = show_distribution,
		.def = "random",
		.arg = "DIST",
		.help = "random offsets: random (uniform), or zipf:THETA with "
			"0 < THETA <= 100, THETA != 1",
	},
	{
		.name = "randseed",
		.type = OPT_UINT, JOB_FIELD(randseed),
		.group = OPT_GROUP_WORKLOAD,
		.def = "0x89",
		.help = "seed of the offset generator: same seed, same offsets",
	},
	{
		.name = "rate_iops",
		.type = OPT_UINT, JOB_FIELD(rate_iops),
		.group = OPT_GROUP_WORKLOAD,
		.def = "0",
		.help = "I/Os per second per worker, open loop; 0 = unlimited",
	},
	{
		.name = "rate_process",
		.type = OPT_ENUM, JOB_FIELD(rate_process),
		.group = OPT_GROUP_WORKLOAD,
		.values = rate_process_values,
		.def = "linear",
		.arg = "PROCESS",
		.help = "arrivals with rate_iops: linear (evenly spaced) or "
			"poisson (random, exponential gaps)",
	},
	{
		.name = "verify",
		.type = OPT_CUSTOM, JOB_FIELD(verify),
		.group = OPT_GROUP_WORKLOAD,
		.parse = parse_verify,
		.show = show_verify,
		.def = "0",
		.arg = "BOOL",
		.help = "stamp every written block (offset, generation, CRC32C) "
			"and check blocks read back; needs numjobs=1",
	},
	{
		.name = "verify_fatal",
		.type = OPT_BOOL, JOB_FIELD(verify_fatal),
		.group = OPT_GROUP_WORKLOAD,
		.def = "0",
		.help = "stop the run at the first verify failure",
	},
	{
		.name = "vd",
		.type = OPT_CUSTOM, .parse = parse_vd, JOB_FIELD(vd),
		.show = show_chars,
		.group = OPT_GROUP_TARGET,
		.arg = "LEVEL,strip=S,members=A:B:..",
		.help = "RAID virtual drive as the target (raid0/1/5/6/10, jbod); "
			"see docs/vd.md",
	},
	{
		.name = "journal",
		.type = OPT_STRING, JOB_FIELD(journal),
		.group = OPT_GROUP_WORKLOAD,
		.arg = "FILE",
		.help = "verify: crash journal, made durable before each "
			"write; check with iochar verify --journal=FILE",
	},
	{
		.name = "runtime",
		.type = OPT_TIME, JOB_FIELD(runtime_ns),
		.group = OPT_GROUP_TIME,
		.def = "0",
		.help = "stop after this long; 0 = when size is done",
	},
	{
		.name = "ramp_time",
		.type = OPT_TIME, JOB_FIELD(ramp_ns),
		.group = OPT_GROUP_TIME,
		.def = "0",
		.help = "run this long before measuring; not in the results",
	},
	{
		.name = "time_based",
		.type = OPT_BOOL, JOB_FIELD(time_based),
		.group = OPT_GROUP_TIME,
		.def = "0",
		.help = "repeat over the region until runtime has passed",
	},
	{
		.name = "ioengine",
		.type = OPT_CUSTOM, JOB_FIELD(ioengine),
		.group = OPT_GROUP_ENGINE,
		.parse = parse_ioengine,
		.show = show_chars,
		.def = "io_uring",
		.arg = "ENGINE",
		.help = "how I/O is issued (engines are listed below)",
	},
	{
		.name = "direct",
		.type = OPT_BOOL, JOB_FIELD(direct),
		.group = OPT_GROUP_ENGINE,
		.def = "0",
		.help = "O_DIRECT: bypass the page cache",
	},
	{
		.name = "buffered",
		.type = OPT_BOOL, JOB_FIELD(direct),
		.flags = OPT_F_INVERT,
		.group = OPT_GROUP_ENGINE,
		.help = "use the page cache (the opposite of direct)",
	},
	{
		.name = "cpus_allowed",
		.type = OPT_CUSTOM, JOB_FIELD(cpus_allowed),
		.group = OPT_GROUP_ENGINE,
		.parse = parse_cpus,
		.show = show_cpus,
		.arg = "CPUS",
		.help = "run workers only on these online CPUs, e.g. 0-3,6",
	},
	{
		.name = "group_reporting",
		.type = OPT_IGNORED,
		.group = OPT_GROUP_COMPAT,
		.help = "iochar always reports each job with its workers merged",
	},
	{
		.name = "thread",
		.type = OPT_IGNORED,
		.group = OPT_GROUP_COMPAT,
		.help = "iochar workers are always threads",
	},
};
/* clang-format on */

_Static_assert(sizeof(option_table) / sizeof(option_table[0]) <=
		   sizeof(((struct job_spec *)0)->set_mask) * 8,
	       "set_mask needs a bit per option row");

/* clang-format off */
const struct option_preset options_scratch_preset[] = {
	{ "rw", "randread" }, { "bs", "4k" },	    { "iodepth", "32" },
	{ "direct", "1" },    { "size", "1g" },	    { "runtime", "10s" },
	{ "time_based", "1" }, { NULL, NULL },
};
/* clang-format on */

const struct option_def *options_rows(size_t *nr)
{
	*nr = sizeof(option_table) / sizeof(option_table[0]);
	return option_table;
}
