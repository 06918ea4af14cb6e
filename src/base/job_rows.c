/* job_rows.c - the job's option rows: every setting of struct job_spec,
 * as data (job_options.h), in one table; each area's rows stand in its own
 * job_rows_AREA.inc, included in place below. Adding a job option is
 * adding a row here or in its area's file (and a field in struct
 * job_spec). Names, value syntax and defaults follow
 * fio. Only base/ and util/ are used: the command line's own rows are
 * cli/options.c's, and the checks of a value that need the engine table
 * or the VD grammar are cli/options_checks.c's.
 */
#define _GNU_SOURCE /* CPU_ISSET, CPU_SETSIZE */
#include "base/iolog.h"
#include "base/job_options.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/file_opts.h"
#include "base/job_gen.h"
#include "base/json_writer.h"
#include "base/pace_opts.h"
#include "base/place_opts.h"
#include "base/error_opts.h"
#include "base/lat_opts.h"
#include "base/logz_opts.h"
#include "base/ss_opts.h"
#include "base/core_opts.h"
#include "base/units.h"
#include "base/verify_opts.h"

#define JOB_FIELD(f)                                                           \
	.scope = OPT_SCOPE_JOB, .off = offsetof(struct job_spec, f),           \
	.size = sizeof(((struct job_spec *)0)->f)

/* A fio file option iochar refuses unless off (base/file_opts.c) */
#define FILE_REFUSED_ROW(nm, a, h)                                             \
	{                                                                      \
		.name = nm, .type = OPT_CUSTOM, .scope = OPT_SCOPE_JOB,        \
		.group = OPT_GROUP_COMPAT, .parse = file_opts_parse_refused,   \
		.show = file_opts_show_refused, .arg = a, .help = h,           \
	}

/* clang-format off */
static const struct opt_enum fallocate_values[] = {
	{ "native", FALLOC_NATIVE }, { "none", FALLOC_NONE },
	{ "posix", FALLOC_POSIX },   { "keep", FALLOC_KEEP },
	{ "truncate", FALLOC_TRUNCATE }, { "0", FALLOC_NONE },
	{ "1", FALLOC_POSIX },       { NULL, 0 },
};
static const struct opt_enum rw_values[] = {
	{ "read", RW_READ },	     { "write", RW_WRITE },
	{ "randread", RW_RANDREAD }, { "randwrite", RW_RANDWRITE },
	{ "rw", RW_RW },	     { "readwrite", RW_RW },
	{ "randrw", RW_RANDRW },     { "trim", RW_TRIM },
	{ "randtrim", RW_RANDTRIM }, { "trimwrite", RW_TRIMWRITE },
	{ "randtrimwrite", RW_RANDTRIMWRITE }, { NULL, 0 },
};
/* sync=: fio's names, 0 and 1 among them */
static const struct opt_enum sync_open_values[] = {
	{"none", SYNC_OPEN_NONE},   {"sync", SYNC_OPEN_SYNC},
	{"0", SYNC_OPEN_NONE},      {"1", SYNC_OPEN_SYNC},
	{"dsync", SYNC_OPEN_DSYNC}, {NULL, 0},
};

static const struct opt_enum thinktime_type_values[] = {
	{ "complete", THINK_COMPLETE }, { "issue", THINK_ISSUE }, { NULL, 0 },
};
/* fix-opts (issue 14) */
static const struct opt_enum zone_mode_values[] = {
	{ "none", ZONE_MODE_NONE }, { "strided", ZONE_MODE_STRIDED },
	{ NULL, 0 },
};
/* fio's names, then its former booleans' (0, 1) and 2 */
static const struct opt_enum unified_rw_values[] = {
	{ "none", UNIFIED_RW_NONE }, { "mixed", UNIFIED_RW_MIXED },
	{ "both", UNIFIED_RW_BOTH }, { "0", UNIFIED_RW_NONE },
	{ "1", UNIFIED_RW_MIXED }, { "2", UNIFIED_RW_BOTH }, { NULL, 0 },
};
static const struct opt_enum exit_what_values[] = {
	{ "group", EXIT_WHAT_GROUP }, { "stonewall", EXIT_WHAT_STONEWALL },
	{ "all", EXIT_WHAT_ALL }, { NULL, 0 },
};
static const struct opt_enum rw_sequencer_values[] = {
	{ "sequential", RW_SEQ_SEQUENTIAL }, { "identical", RW_SEQ_IDENTICAL },
	{ NULL, 0 },
};
static const struct opt_enum random_generator_values[] = {
	{ "tausworthe", GEN_TAUSWORTHE }, { "lfsr", GEN_LFSR },
	{ "tausworthe64", GEN_TAUSWORTHE64 }, { NULL, 0 },
};
static const struct opt_enum io_submit_mode_values[] = {
	{"inline", SUBMIT_INLINE}, {"offload", SUBMIT_OFFLOAD}, {NULL, 0},
};
static const struct opt_enum dedupe_mode_values[] = {
	{"repeat", DEDUPE_REPEAT}, {"working_set", DEDUPE_WORKING_SET}, {NULL, 0},
};
static const struct opt_enum rate_process_values[] = {
	{ "linear", RATE_LINEAR }, { "poisson", RATE_POISSON }, { NULL, 0 },
};
/* clang-format on */

static const struct opt_enum cpus_policy_values[] = {
	{ "shared", CPUS_SHARED }, { "split", CPUS_SPLIT }, { NULL, 0 },
};

/* clang-format off */
static const struct option_def job_rows[] = {
	{
		.name = "name",
		.flags = OPT_F_ONE_VALUE | OPT_F_CMD_ALWAYS,
		.json_seq = 1,
		.type = OPT_STRING, JOB_FIELD(name),
		.group = OPT_GROUP_TARGET,
		.def = "job0",
		.arg = "NAME",
		.help = "job name; in a job file the [section] names the job",
	},
	{
		.name = "filename",
		.flags = OPT_F_ONE_VALUE | OPT_F_JSON_OPTIONAL,
		.emit = core_opts_emit_filename,
		.json_seq = 2,
		.type = OPT_CUSTOM, JOB_FIELD(filename),
		.group = OPT_GROUP_TARGET,
		.parse = core_opts_parse_filename,
		.show = core_opts_show_filename,
		.arg = "PATH[:PATH]",
		.help = "files or block devices, ':'-separated; none: a scratch "
			"file (see below)",
	},
	{
		.name = "size",
		.json_seq = 4,
		.type = OPT_CUSTOM, JOB_FIELD(size),
		.parse = job_gen_parse_size,
		.show = job_gen_show_size,
		.emit = job_gen_emit_size,
		.arg = "SIZE|N%",
		.group = OPT_GROUP_TARGET,
		.def = "0",
		.help = "bytes per job, split over its files, or N% of each "
			"file (fio); 0 = the whole target",
	},
	{
		.name = "offset",
		.flags = OPT_F_JSON_OPTIONAL,
		.json_seq = 5,
		.type = OPT_CUSTOM, JOB_FIELD(offset),
		.parse = job_gen_parse_size,
		.show = job_gen_show_size,
		.emit = job_gen_emit_size,
		.arg = "SIZE|N%",
		.group = OPT_GROUP_TARGET,
		.def = "0",
		.help = "start of the region in each file, or N% of each file "
			"(fio)",
		.alias = { "fileoffset" },
	},
	{
		.name = "force",
		.flags = OPT_F_JSON_OPTIONAL,
		.json_seq = 24,
		.type = OPT_BOOL, JOB_FIELD(force),
		.group = OPT_GROUP_TARGET,
		.def = "0",
		.help = "write even to targets that hold data, and extend files iochar did not create (README: Safety)",
		.fio = OPT_COMPAT_IOCHAR,
	},
	{
		.name = "rw",
		.flags = OPT_F_CMD_ALWAYS,
		.json_seq = 7,
		.alias = { "readwrite" },
		.type = OPT_CUSTOM, JOB_FIELD(rw),
		.parse = job_gen_parse_rw,
		.show = job_gen_show_rw,
		.emit = job_gen_emit_rw,
		.group = OPT_GROUP_WORKLOAD,
		.values = rw_values,
		.def = "read",
		.arg = "MODE[:N|:SIZE]",
		.help = "I/O pattern; randread:8: a new random offset every 8 "
			"I/Os; write:4k: a 4k hole after each I/O; trim modes "
			"discard (falloc: punch holes)",
	},
	{
		.name = "bs",
		.flags = OPT_F_CMD_ALWAYS,
		.json_seq = 6,
		.alias = { "blocksize" },
		.type = OPT_CUSTOM, JOB_FIELD(bs),
		.parse = job_gen_parse_bs,
		.show = job_gen_show_bs,
		.emit = job_gen_emit_bs,
		.check = job_gen_check_bs,
		.group = OPT_GROUP_WORKLOAD,
		.def = "4k",
		.min = 1,
		.max = 1ull << 30,
		.arg = "SIZE",
		.help = "block size of each I/O; R,W[,T]: reads', writes', trims' "
			"(fio's separators: R:W and R-W too; an empty value is "
			"fio's 4k)",
	},
	{
		.name = "rwmixread",
		.json_seq = 8,
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
		.flags = OPT_F_CMD_ALWAYS,
		.json_seq = 9,
		.type = OPT_UINT, JOB_FIELD(iodepth),
		.group = OPT_GROUP_WORKLOAD,
		.def = "1",
		.min = 1,
		.max = 65536,
		.help = "I/Os in flight per worker",
	},
	/* issue 23: fio's batching. The defaults are iochar's (submit what a
	 * loop pass queued in one call, take every completion there is);
	 * a fio-style job gets fio's (cli/run_config.c). */
	{
		.name = "iodepth_batch_submit",
		.alias = {"iodepth_batch"},
		.type = OPT_UINT, JOB_FIELD(iodepth_batch_submit),
		.group = OPT_GROUP_WORKLOAD,
		.flags = OPT_F_JSON_OPTIONAL,
		.def = "0",
		.max = 65536,
		.help = "submit once this many I/Os are queued (0: iodepth); "
			"fio's default is 1",
	},
	{
		.name = "iodepth_batch_complete_min",
		.alias = {"iodepth_batch_complete"},
		.type = OPT_UINT, JOB_FIELD(iodepth_batch_complete_min),
		.group = OPT_GROUP_WORKLOAD,
		.flags = OPT_F_JSON_OPTIONAL,
		.def = "1",
		.max = 65536,
		.help = "wait for at least this many completions per reaping "
			"call (0: poll, never wait)",
	},
	{
		.name = "iodepth_batch_complete_max",
		.type = OPT_UINT, JOB_FIELD(iodepth_batch_complete_max),
		.group = OPT_GROUP_WORKLOAD,
		.flags = OPT_F_JSON_OPTIONAL,
		.def = "65536",
		.max = 65536,
		.help = "take at most this many completions per reaping call "
			"(below iodepth_batch_complete_min: that; above the "
			"depth: all); fio's default is 0",
	},
	{
		.name = "iodepth_low",
		.type = OPT_UINT, JOB_FIELD(iodepth_low),
		.group = OPT_GROUP_WORKLOAD,
		.flags = OPT_F_JSON_OPTIONAL,
		.def = "0",
		.max = 65536,
		.help = "once the queue is full, reap down to this depth "
			"before queuing again (0: iodepth)",
	},
	{
		.name = "numjobs",
		.flags = OPT_F_CMD_ALWAYS,
		.json_seq = 10,
		.type = OPT_UINT, JOB_FIELD(numjobs),
		.group = OPT_GROUP_WORKLOAD,
		.def = "1",
		.min = 1,
		.max = 1024,
		.help = "worker threads running this job, each on its own",
	},
	{
		.name = "random_distribution",
		.flags = OPT_F_JSON_OPTIONAL,
		.emit = job_gen_emit_dist,
		.check = job_gen_check_dist,
		.json_seq = 18,
		.type = OPT_CUSTOM, JOB_FIELD(dist),
		.group = OPT_GROUP_WORKLOAD,
		.parse = job_gen_parse_dist,
		.show = job_gen_show_dist,
		.def = "random",
		.arg = "DIST",
		.help = "random offsets: random (uniform), zipf[:THETA], "
			"pareto[:H], normal[:SIGMA%], zoned:A/B:.., "
			"zoned_abs:A/SIZE:.. (',': per direction)",
	},
	{
		.name = "randseed",
		.flags = OPT_F_JSON_OPTIONAL | OPT_F_CMD_ALWAYS,
		.json_seq = 20,
		.type = OPT_UINT, JOB_FIELD(randseed),
		.group = OPT_GROUP_WORKLOAD,
		.def = "0x89",
		.help = "seed of the offset generator: same seed, same offsets",
	},
	{
		.name = "rate_iops",
		/* no OPT_F_COMMAS: in a plan file, rate_iops=A,B is a list of
		 * steps (curves), as before; R,W is for job files and argv */
		.flags = OPT_F_JSON_OPTIONAL,
		.max = 1000000000,
		.json_seq = 16,
		.type = OPT_CUSTOM, JOB_FIELD(rate_iops),
		.parse = pace_parse_rate_iops,
		.show = pace_show_rate_iops,
		.emit = pace_emit_rate_iops, .check = pace_check_rate_iops,
		.group = OPT_GROUP_WORKLOAD,
		.def = "0",
		.arg = "N|R,W",
		.help = "I/Os per second per worker, open loop; N: both "
			"directions together, R,W: each (fio's); 0 = unlimited",
	},
	{
		.name = "rate_process",
		.flags = OPT_F_JSON_OPTIONAL,
		.json_seq = 17,
		.type = OPT_ENUM, JOB_FIELD(rate_process),
		.group = OPT_GROUP_WORKLOAD,
		.values = rate_process_values,
		.def = "linear",
		.arg = "PROCESS",
		.help = "arrivals with rate or rate_iops: linear (evenly spaced) or "
			"poisson (random, exponential gaps)",
	},
	{
		.name = "verify",
		.flags = OPT_F_JSON_OPTIONAL,
		.emit = verify_opts_emit,
		.json_seq = 21,
		.type = OPT_CUSTOM, JOB_FIELD(verify),
		.group = OPT_GROUP_WORKLOAD,
		.parse = verify_opts_parse,
		.show = verify_opts_show,
		.def = "0",
		.arg = "BOOL",
		.help = "stamp every written block (offset, generation, CRC32C) "
			"and check blocks read back; needs numjobs=1",
		.fio = OPT_COMPAT_DIFFERENT,
		.compat = "verify=1 (iochar's own block stamp and check) is accepted; fio's methods are named where supported",
	},
	{
		.name = "verify_fatal",
		.flags = OPT_F_JSON_OPTIONAL,
		.json_seq = 22,
		.type = OPT_BOOL, JOB_FIELD(verify_fatal),
		.group = OPT_GROUP_WORKLOAD,
		.def = "0",
		.help = "stop the run at the first verify failure",
	},
	{
		.name = "vd",
		.emit = option_emit_chars,
		.flags = OPT_F_JSON_OMIT_EMPTY | OPT_F_COMMAS | OPT_F_JSON_OPTIONAL, /* only VD jobs */
		.json_seq = 3,
		.type = OPT_CUSTOM, .parse = core_opts_parse_chars, JOB_FIELD(vd),
		.show = core_opts_show_chars,
		.group = OPT_GROUP_TARGET,
		.arg = "LEVEL,strip=S,members=A:B:..",
		.help = "RAID virtual drive as the target (raid0/1/5/6/10, jbod, span); "
			"see docs/vd.md",
		.fio = OPT_COMPAT_IOCHAR,
	},
	{
		.name = "journal",
		.flags = OPT_F_JSON_NULL_EMPTY | OPT_F_JSON_OPTIONAL,
		.json_seq = 23,
		.type = OPT_STRING, JOB_FIELD(journal),
		.group = OPT_GROUP_WORKLOAD,
		.arg = "FILE",
		.help = "verify: crash journal, made durable before each "
			"write; check with iochar verify --journal=FILE",
		.fio = OPT_COMPAT_IOCHAR,
	},
	{
		.name = "runtime",
		.json = "runtime_ns",
		.json_seq = 11,
		.type = OPT_TIME, JOB_FIELD(runtime_ns),
		.group = OPT_GROUP_TIME,
		.def = "0",
		.help = "stop after this long; 0 = when size is done",
		.alias = { "timeout" },
	},
	{
		.name = "ramp_time",
		.flags = OPT_F_JSON_OPTIONAL,
		.json = "ramp_ns",
		.json_seq = 12,
		.type = OPT_TIME, JOB_FIELD(ramp_ns),
		.group = OPT_GROUP_TIME,
		.def = "0",
		.help = "run this long before measuring; not in the results",
	},
	{
		.name = "time_based",
		.flags = OPT_F_JSON_OPTIONAL,
		.json_seq = 13,
		.type = OPT_BOOL, JOB_FIELD(time_based),
		.group = OPT_GROUP_TIME,
		.def = "0",
		.help = "repeat over the region until runtime has passed",
	},
	{
		.name = "ioengine",
		.flags = OPT_F_CMD_ALWAYS,
		.emit = option_emit_chars,
		.json_seq = 14,
		.type = OPT_CUSTOM, JOB_FIELD(ioengine),
		.group = OPT_GROUP_ENGINE,
		.parse = core_opts_parse_chars,
		.show = core_opts_show_chars,
		.def = "io_uring",
		.arg = "ENGINE",
		.help = "how I/O is issued (engines are listed below)",
	},
	{
		.name = "direct",
		.flags = OPT_F_JSON_OPTIONAL | OPT_F_CMD_ALWAYS,
		.json_seq = 15,
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
		.flags = OPT_F_COMMAS | OPT_F_JSON_OPTIONAL,
		.emit = core_opts_emit_cpus,
		.json_seq = 19,
		.type = OPT_CUSTOM, JOB_FIELD(cpus_allowed),
		.group = OPT_GROUP_ENGINE,
		.parse = core_opts_parse_cpus,
		.show = core_opts_show_cpus,
		.arg = "CPUS",
		.help = "run workers only on these online CPUs, e.g. 0-3,6",
	},
	{
		.name = "cpus_allowed_policy",
		.flags = OPT_F_JSON_OPTIONAL,
		.type = OPT_ENUM, JOB_FIELD(cpus_policy),
		.group = OPT_GROUP_ENGINE,
		.values = cpus_policy_values,
		.def = "shared",
		.arg = "POLICY",
		.help = "cpus_allowed for each worker: shared (the whole set) or split "
			"(worker N on the set's CPU N mod count, over the run's workers)",
	},
	{
		.name = "numa_cpu_nodes",
		.flags = OPT_F_COMMAS | OPT_F_JSON_OPTIONAL | OPT_F_JSON_OMIT_EMPTY,
		.emit = option_emit_chars,
		.type = OPT_CUSTOM, JOB_FIELD(numa_cpu_nodes),
		.group = OPT_GROUP_ENGINE,
		.parse = place_opts_parse_cpu_nodes,
		.show = core_opts_show_chars,
		.arg = "NODES",
		.help = "run workers on these NUMA nodes' CPUs (libnuma's list: 0-1,3); "
			"after cpus_allowed, as fio",
	},
	{
		.name = "numa_mem_policy",
		.flags = OPT_F_COMMAS | OPT_F_JSON_OPTIONAL | OPT_F_JSON_OMIT_EMPTY,
		.emit = option_emit_chars,
		.type = OPT_CUSTOM, JOB_FIELD(numa_mem_policy),
		.group = OPT_GROUP_ENGINE,
		.parse = place_opts_parse_mem_policy,
		.show = core_opts_show_chars,
		.arg = "MODE[:NODES]",
		.help = "each worker's memory policy: default, prefer:N, bind:NODES, "
			"interleave[:NODES], local",
		.fio = OPT_COMPAT_DIFFERENT,
		.compat = "prefer:N naming a node that does not exist is refused; fio "
			  "accepts it, warns at run time and keeps the default policy",
	},
	{
		.name = "group_reporting",
		.flags = OPT_F_JSON_OPTIONAL,
		.type = OPT_BOOL, JOB_FIELD(group_reporting),
		.group = OPT_GROUP_COMPAT,
		.def = "0",
		.help = "report each group's workers as one entry, as fio",
		.fio = OPT_COMPAT_DIFFERENT,
		.compat = "fio's empty trailing JSON entry is not written; in the text output a job's clones are always one block",
	},
	{
		.name = "thread",
		.flags = OPT_F_JSON_OPTIONAL,
		.type = OPT_BOOL, JOB_FIELD(thread),
		.group = OPT_GROUP_COMPAT,
		.def = "0",
		.help = "the job's workers weigh as one scheduler group, as fio's threads; without it each weighs as a group of its own, as fio's process jobs",
		.fio = OPT_COMPAT_DIFFERENT,
		.compat = "iochar workers are always threads; fio runs a job without thread as processes, each in a session and so a scheduler autogroup of its own, and iochar gives its autogroup that many groups' weight for the run (util/autogroup.h)",
	},
#include "base/job_rows_groups.inc"
#include "base/job_rows_verify.inc"
	/* fio's job-file syntax (jobfile area) */
	{
		.name = "description",
		.flags = OPT_F_JSON_OMIT_EMPTY | OPT_F_JSON_OPTIONAL,
		.type = OPT_STRING, JOB_FIELD(description),
		.group = OPT_GROUP_TARGET,
		.arg = "TEXT",
		.help = "a text describing the job, kept in its results",
	},
	{
		.name = "threads",
		.type = OPT_IGNORED,
		.group = OPT_GROUP_COMPAT,
		.help = "fio's tiobench profile option; changes nothing in a job",
	},
	/* engines: flushes and synchronous opens (fio's names and values) */
	{
		.name = "fsync",
		.flags = OPT_F_JSON_OPTIONAL,
		.type = OPT_UINT, JOB_FIELD(fsync_blocks),
		.group = OPT_GROUP_ENGINE,
		.def = "0",
		.arg = "N",
		.help = "an fsync of the file after every N writes (through "
			"the engine: IORING_OP_FSYNC with io_uring); 0: never",
	},
	{
		.name = "fdatasync",
		.flags = OPT_F_JSON_OPTIONAL,
		.type = OPT_UINT, JOB_FIELD(fdatasync_blocks),
		.group = OPT_GROUP_ENGINE,
		.def = "0",
		.arg = "N",
		.help = "an fdatasync of the file after every N writes; 0: "
			"never",
	},
	{
		.name = "end_fsync",
		.flags = OPT_F_JSON_OPTIONAL,
		.type = OPT_BOOL, JOB_FIELD(end_fsync),
		.group = OPT_GROUP_ENGINE,
		.def = "0",
		.help = "fsync each file when the job's writes are done (a "
			"RAID VD destages its write-back cache)",
	},
	{
		.name = "fsync_on_close",
		.flags = OPT_F_JSON_OPTIONAL,
		.type = OPT_BOOL, JOB_FIELD(fsync_on_close),
		.group = OPT_GROUP_ENGINE,
		.def = "0",
		.help = "fsync each file as it is closed",
	},
	{
		.name = "sync",
		.flags = OPT_F_JSON_OPTIONAL,
		.type = OPT_ENUM, JOB_FIELD(sync_open),
		.group = OPT_GROUP_ENGINE,
		.values = sync_open_values,
		.def = "none",
		.arg = "MODE",
		.help = "open written files O_SYNC (sync or 1) or O_DSYNC "
			"(dsync); none or 0: neither",
	},
#include "base/job_rows_pace_logs.inc"
#include "base/job_rows_files.inc"
#include "base/job_rows_gen.inc"
#include "base/job_rows_examples.inc"
#include "base/job_rows_iolog.inc"
#include "base/job_rows_report.inc"
};
/* clang-format on */

_Static_assert(sizeof(job_rows) / sizeof(job_rows[0]) <=
		   sizeof(((struct job_spec *)0)->set_mask) * 8,
	       "set_mask needs a bit per job row");

const struct option_def *job_option_rows(size_t *nr)
{
	*nr = sizeof(job_rows) / sizeof(job_rows[0]);
	return job_rows;
}
