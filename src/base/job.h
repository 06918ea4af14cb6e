/* job.h - the job spec: one workload, as plain data.
 *
 * A job spec is filled through the job's rows (base/job_rows.c) by the
 * command line or a job file, validated, then handed to the runner. It owns
 * all its memory (no pointers into argv or a parsed file): copy it with
 * job_spec_copy, release it with job_spec_free.
 */
#ifndef IOCHAR_BASE_JOB_H
#define IOCHAR_BASE_JOB_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#define JOB_NAME_MAX 64
#define JOB_ENGINE_MAX 16
#define JOB_MAX_FILES 256
#define JOB_MAX_MERGE 20 /* fio's FIO_IO_U_LIST_MAX_LEN: traces one merge takes */
#define JOB_MAX_PLIST 20 /* fio's FIO_IO_U_LIST_MAX_LEN */
#define JOB_MAX_IGNORE 16 /* ignore_error: errors per class */

/* fio's error classes (continue_on_error's bits, ignore_error's lists) */
enum err_class { ERR_CLASS_READ, ERR_CLASS_WRITE, ERR_CLASS_VERIFY, ERR_CLASS_COUNT };
#define JOB_ENGINE_OPTS_MAX 384 /* bytes of an engine's own options (net: a host name) */

enum rw_mode {
	RW_READ,      /* sequential read */
	RW_WRITE,     /* sequential write */
	RW_RANDREAD,
	RW_RANDWRITE,
	RW_RW,        /* sequential mixed ("rw", "readwrite") */
	RW_RANDRW,
	/* trims (fio's DDIR_TRIM): discard on block devices, a punched hole
	 * with the falloc engine; trimwrite trims a block, then writes it */
	RW_TRIM,
	RW_RANDTRIM,
	RW_TRIMWRITE,
	RW_RANDTRIMWRITE,
};

/* fio's random_generator= values, in fio's order */
enum random_gen { GEN_TAUSWORTHE, GEN_LFSR, GEN_TAUSWORTHE64 };

enum rand_dist {
	DIST_UNIFORM,
	DIST_ZIPF,
	DIST_PARETO,   /* dist_param: h, 0 < h < 1 */
	DIST_NORMAL,   /* dist_param: sigma, percent of the region */
	DIST_ZONED,    /* zones: percent of accesses / percent of the region */
	DIST_ZONED_ABS, /* zones: percent of accesses / bytes */
};

/* cpus_allowed_policy: every worker on the whole set, or one CPU each. */
enum cpus_policy {
	CPUS_SHARED, /* fio's default */
	CPUS_SPLIT,  /* worker N (over the run, from 0) on the set's CPU N mod count */
};

enum rate_process {
	RATE_LINEAR,  /* one I/O every 1/rate seconds */
	RATE_POISSON, /* exponential gaps of mean 1/rate: random arrivals */
};

/* sync=: how written files are opened (fio's none/0, sync/1, dsync). */
enum sync_open {
	SYNC_OPEN_NONE,
	SYNC_OPEN_SYNC,  /* O_SYNC */
	SYNC_OPEN_DSYNC, /* O_DSYNC */
};

enum thinktime_type {
	THINK_COMPLETE, /* thinktime_blocks counts completed I/Os (fio's default) */
	THINK_ISSUE,    /* ... or issued ones */
};

enum fallocate_mode {
	FALLOC_NATIVE,   /* fallocate(fd, 0, ...): fio's default on Linux */
	FALLOC_NONE,
	FALLOC_POSIX,    /* posix_fallocate */
	FALLOC_KEEP,     /* fallocate(FALLOC_FL_KEEP_SIZE) */
	FALLOC_TRUNCATE, /* ftruncate to the size */
};

enum file_service_type {
	FSVC_ROUNDROBIN, /* fio's default: next file every file_service_nr I/Os */
	FSVC_SEQUENTIAL, /* each file until its share is done, then the next */
	FSVC_RANDOM,     /* a uniformly drawn file every file_service_nr I/Os */
	FSVC_ZIPF,       /* fio's nonuniform choices: file_service_param is */
	FSVC_PARETO,     /* zipf's theta, pareto's h, gauss's deviation in */
	FSVC_GAUSS,      /* percent; file_service_center 0..1 if centered */
};

/* DIR_COUNT counts the data directions: the options given per direction
 * (bs=R,W, rate=R,W, ...) and the read/write loops of the outputs. A trim
 * (DIR_TRIM) is the third direction of the statistics only, which hold
 * DIR_ALL; an output shows it where fio does (its JSON always, text when
 * the job trimmed). */
enum io_dir {
	DIR_READ = 0,
	DIR_WRITE = 1,
	DIR_COUNT = 2,
	DIR_TRIM = 2,
	DIR_ALL = 3,
};

/* generator (issue 14, gen): a list of "value/percent" pairs, fio's
 * bssplit (value: a block size) and zoned distributions (value: a share
 * of the region in percent, or bytes for zoned_abs). */
#define JOB_SPLIT_MAX 16
struct job_split {
	unsigned nr;
	unsigned perc[JOB_SPLIT_MAX];
	uint64_t val[JOB_SPLIT_MAX];
};

/* exit_what: whom a job's end stops when exitall is set (fio's TERMINATE_*) */
enum exit_what {
	EXIT_WHAT_GROUP,     /* the workers of its reporting group */
	EXIT_WHAT_STONEWALL, /* every running worker; the next stonewall goes on */
	EXIT_WHAT_ALL,       /* every worker, those not started too */
};

/* zonemode: fio's strided zones (zbd needs a zoned device: not here) */
enum zone_mode {
	ZONE_MODE_NONE,
	ZONE_MODE_STRIDED,
};

/* unified_rw_reporting: fio's figures per direction, the directions
 * summed as one "mixed", or both (fio's UNIFIED_SPLIT/MIXED/BOTH) */
enum unified_rw {
	UNIFIED_RW_NONE,
	UNIFIED_RW_MIXED,
	UNIFIED_RW_BOTH,
};

enum rw_sequencer {
	RW_SEQ_SEQUENTIAL, /* rw=randread:N: sequential between random offsets */
	RW_SEQ_IDENTICAL,  /* ... the same offset N times */
};

/* io_submit_mode= (fio's names) */
enum io_submit_mode { SUBMIT_INLINE = 0, SUBMIT_OFFLOAD };
/* steadystate= criteria (fio's names) */
enum ss_kind { SS_NONE = 0, SS_IOPS, SS_IOPS_SLOPE, SS_BW, SS_BW_SLOPE };
struct job_ss {
	enum ss_kind kind;
	double limit;  /* I/Os/s, bytes/s, or percent of the mean (pct) */
	bool pct;
};
/* dedupe_mode= (fio's names) */
enum dedupe_mode { DEDUPE_REPEAT = 0, DEDUPE_WORKING_SET };

struct job_spec {
	char name[JOB_NAME_MAX];
	char *filename;        /* as given: ':'-separated list, or NULL */
	char *files[JOB_MAX_FILES]; /* filename split; owned */
	unsigned nr_files;

	uint64_t size;         /* bytes per job, split evenly over files; 0 = whole target */
	uint64_t offset;       /* start of the region in each file */
	uint64_t bs;           /* block size in bytes */
	enum rw_mode rw;
	unsigned rwmixread;    /* percent of reads in mixed modes */
	unsigned iodepth;
	/* fio's submission/completion discipline, as fio stores them (0s
	 * resolved at run time by core/batch.h): commit after this many
	 * queued (0: iodepth), wait for at least min completions and take at
	 * most max per reaping call, and once full reap down to iodepth_low
	 * before queuing again (0: iodepth) */
	unsigned iodepth_batch_submit;
	unsigned iodepth_batch_complete_min;
	unsigned iodepth_batch_complete_max;
	unsigned iodepth_low;
	bool serialize_overlap; /* fio's: an I/O overlapping one in flight waits */
	unsigned numjobs;
	uint64_t runtime_ns;   /* 0 = until size is done */
	uint64_t ramp_ns;
	bool time_based;       /* loop over the region until runtime */
	char ioengine[JOB_ENGINE_MAX];
	/* The engine's own options (engine_ops.options) as its struct, all
	 * zero = every default; engine_opts_of names the engine they were
	 * given for ("" = none given), so a job whose ioengine is another is
	 * refused (options_check_job). Plain bytes: copied with the spec. */
	_Alignas(8) unsigned char engine_opts[JOB_ENGINE_OPTS_MAX];
	char engine_opts_of[JOB_ENGINE_MAX];
	uint32_t engine_opts_set; /* bit i: row i of that engine's options */
	bool direct;
	uint64_t rate_iops;    /* per worker, both directions; 0 = unlimited (closed loop) */
	enum rate_process rate_process;
	bool verify;           /* stamp written blocks, check them when read back */
	bool verify_fatal;     /* stop the run at the first verify failure */
	char journal[1024];    /* verify: crash journal path; "" = none (verify/journal.h) */
	enum rand_dist dist;
	double zipf_theta;
	bool cpus_set;
	cpu_set_t cpus_allowed;
	enum cpus_policy cpus_policy;
	char numa_cpu_nodes[256];  /* as given ("" = unset), checked by libnuma */
	char numa_mem_policy[256]; /* MODE[:NODES] as given ("" = unset) */
	uint64_t randseed;
	bool create_parent;    /* make a file's missing directories at layout (fio's create_work_dirs; the scratch target) */
	bool force;            /* write even to targets holding data (target/guard.h) */
	char vd[4096];         /* RAID virtual drive definition (vd/def.h); "" = none */

	/* groups (issue 14): when the job starts and how it is reported, as fio */
	bool stonewall;        /* start after every earlier job ended; new group */
	bool new_group;        /* start a new reporting group */
	bool group_reporting;  /* report the group's workers as one entry */
	bool thread;           /* fio's threads: the workers weigh as one scheduler group (util/autogroup.h) */
	char wait_for[JOB_NAME_MAX]; /* start after every worker of this earlier job ended; "" = none */
	uint64_t startdelay_ns;     /* from the run's start ... */
	uint64_t startdelay_max_ns; /* ... or, when above it, a random time in [startdelay_ns, this] per worker */
	unsigned loops;        /* passes over the region of a size-bounded job */
	/* verify methods as fio's (verify/fio_block.h) */
	uint8_t verify_type;      /* fio's method number; 0 = iochar's own (verify=1) */
	bool do_verify;           /* fio: read back after writing (refused for now) */
	bool verify_only;         /* writes become reads that check fio's headers */
	bool verify_dump;         /* print the failed interval's first bytes */
	bool verify_state_save;   /* fio's state file at a write job's end */
	bool verify_state_load;   /* check only what the state file says */
	bool verify_header_seed;  /* accepted: the seed is never checked */
	bool experimental_verify; /* refused when 1 */
	uint64_t verify_interval; /* bytes per header; 0 = bs */
	uint64_t verify_offset;   /* header swapped to this offset; 0 = none */
	unsigned verify_async;    /* accepted: checks run on the worker */
	unsigned verify_backlog;  /* fio: check written blocks after every N; 0 = at the end */
	unsigned verify_backlog_batch; /* blocks per such check; 0 = verify_backlog */
	uint16_t verify_pattern_len; /* bytes in verify_pattern; 0 = none */
	uint8_t verify_pattern_nr_fmt;
	uint16_t verify_pattern_fmt[8]; /* where each %o goes (8 bytes) */
	uint8_t verify_pattern[512];
	/* fio's job-file syntax (jobfile area) */
	char description[256]; /* description=: text, "" = none */
	char source[320];      /* "FILE:LINE" of the job's [section]; "" = the command line */
	/* engines: flushes and synchronous opens, as fio's options */
	unsigned fsync_blocks;     /* fsync=N: an fsync after every N writes; 0 never */
	unsigned fdatasync_blocks; /* fdatasync=N: the same with fdatasync */
	bool end_fsync;            /* fsync every file when the job's I/O is done */
	bool fsync_on_close;       /* fsync every file as it is closed */
	enum sync_open sync_open;  /* sync=: O_SYNC or O_DSYNC opens */
	/* pacing (issue 14, logs helper): fio's rate options, per direction */
	uint64_t rate_bps[DIR_COUNT];      /* rate=R,W: bytes/s; 0 = no limit */
	uint64_t rate_iops_rw[DIR_COUNT];  /* rate_iops=R,W: I/Os/s per direction */
	uint64_t rate_min_bps[DIR_COUNT];  /* rate_min: fail below, per rate_cycle */
	uint64_t rate_iops_min[DIR_COUNT];
	uint64_t rate_cycle_ns;
	bool rate_ignore_thinktime;
	uint64_t thinktime_ns, thinktime_spin_ns, thinktime_iotime_ns;
	uint64_t thinktime_blocks;
	enum thinktime_type thinktime_blocks_type;
	/* fio's log files (issue 15, logs helper): file prefixes, "" = none */
	char write_bw_log[256], write_iops_log[256], write_lat_log[256];
	char write_hist_log[256];
	/* appended to each of those logs' names: ".HOST.RANK" on a rank of a
	 * run over many hosts (fio's client names them NAME.HOST), so ranks
	 * on one host do not write one file; "" otherwise */
	char log_suffix[96];
	/* fio's iolog (base/iolog.h): "" = none */
	char write_iolog[1024], read_iolog[1024], replay_redirect[1024];
	bool read_iolog_chunked, replay_no_stall;
	unsigned replay_scale;      /* offsets divided by it; 0, 1: as logged */
	unsigned replay_time_scale; /* % of the logged gaps' speed; 100 = as logged */
	uint64_t replay_align;      /* offsets aligned down to it; 0 = none */
	unsigned replay_skip;       /* 1 << enum iolog_op: ops left out of the replay */
	/* merge_blktrace_file: read_iolog's ':'-separated block traces merged
	 * into it by time (base/blktrace_merge.h), each trace's times scaled
	 * by its merge_blktrace_scalars % and repeated merge_blktrace_iters
	 * times; "" = no merge; the lists empty = 100 % and once each */
	char merge_blktrace_file[1024];
	double merge_scalars[JOB_MAX_MERGE];
	unsigned merge_iters[JOB_MAX_MERGE];
	unsigned nr_merge_scalars, nr_merge_iters;
	uint64_t log_avg_ns;   /* log_avg_msec; 0 = a line per I/O */
	uint64_t log_hist_ns;  /* log_hist_msec; 0 = no histogram lines */
	unsigned log_hist_coarseness; /* 0..6: fio's bins merged 2^N at a time */
	bool log_max_value, log_offset, log_prio, per_job_logs;
	uint64_t log_gz;       /* log_compression: chunk bytes; 0: not given */
	bool log_gz_store;     /* log_store_compressed: FILE.fz, fio's binary samples */
	/* files (issue 14): fio's naming, layout and lifecycle of files */
	unsigned nrfiles;      /* files named per job when no filename given */
	uint64_t filesize;     /* bytes per file; 0 = size / files; with a
				* range, its LOW */
	uint64_t filesize_high; /* filesize=LOW-HIGH: HIGH (each file's size
				 * drawn, core/file_sizes.h); 0 = one size */
	char directory[1024];  /* ':'-separated; "" = the working directory */
	char filename_format[256]; /* "" = fio's $jobname.$jobnum.$filenum */
	bool unique_filename;
	bool unlink;           /* remove the job's files when it ends */
	bool invalidate;       /* drop the files' page cache at job start */
	bool overwrite;        /* write jobs: lay files out with data too */
	bool no_file_create;   /* allow_file_create=0 (zero: allowed) */
	bool create_serialize;
	unsigned openfiles;    /* files in service at once (core/file_service.h) */
	bool create_on_open;   /* write jobs: files made empty, no layout */
	bool pre_read;         /* read the region once before the job: cached */
	bool create_only;      /* lay the files out, issue no I/O */
	bool file_append;      /* write jobs: offset = the files' current size */
	enum fallocate_mode fallocate;
	enum file_service_type file_service;
	unsigned file_service_nr; /* I/Os per file before switching; >= 1 */
	double file_service_param;  /* FSVC_ZIPF/PARETO/GAUSS (above) */
	double file_service_center; /* with file_service_centered: 0..1 */
	bool file_service_centered; /* else fio's default placement */
	/* fio's names with numjobs > 1: clone k has its own files, those
	 * from k * files_per_clone on; 0 = every clone uses all the files */
	unsigned files_per_clone;
	/* generator (issue 14, gen): block sizes, offsets, random map */
	uint64_t bs_dir[DIR_COUNT];     /* bs=R,W; bs_dir[DIR_READ] == bs */
	uint64_t bs_trim;               /* bs=R,W,T's T; 0 = the write's, as fio */
	uint64_t bs_range[DIR_COUNT][2]; /* bsrange min, max; 0 = bs_dir */
	struct job_split bssplit[DIR_COUNT]; /* nr 0 = none */
	uint64_t blockalign[DIR_COUNT]; /* 0 = the direction's smallest bs */
	bool bs_unaligned;
	bool bs_is_seq_rand;   /* sizes by sequential (READ) / random (WRITE) */
	unsigned size_pct;     /* size=N%: of the target after offset; 0 = bytes */
	unsigned offset_pct;   /* offset=N%: of the target; 0 = bytes */
	uint64_t offset_increment; /* clone c starts at offset + c * this */
	uint64_t io_size;      /* bytes to transfer; 0 = size */
	uint64_t number_ios;   /* I/Os before the job ends; 0 = no limit */
	unsigned rw_seq_nr;    /* rw=randread:N; 0 = plain */
	int64_t rw_hole;       /* rw=write:SIZE: skipped after each I/O; < 0: back */
	enum rw_sequencer rw_sequencer;
	bool norandommap;
	bool randrepeat_off;   /* randrepeat=0: seeded from the clock too */
	bool allrandrepeat;
	unsigned random_generator; /* enum random_gen: lfsr draws offsets
				    * (core/lfsr.h); the others as fio's names */
	unsigned percentage_seq[DIR_COUNT]; /* 100 - percentage_random: 0 = all random */
	double dist_param;     /* pareto h, normal sigma % */
	struct job_split zones[DIR_COUNT];
	/* fix-opts (issue 14): options that blocked one fio example each */
	bool gtod_reduce;      /* fio's layout reports no latency, no bw samples */
	/* fio's layout's percentiles: which blocks carry them, and the list
	 * (nr_plist 0: fio's 17 defaults), ascending */
	bool clat_percentiles, lat_percentiles, slat_percentiles;
	bool disk_util;        /* fio's: its files' devices are watched (stats/disk_util.h) */
	enum unified_rw unified_rw; /* fio's formats: directions apart, mixed or both */
	/* fio's continue_on_error: a bit per err_class (1u << class) whose
	 * errors in ignore_errs (none given: EIO, EILSEQ) are counted and
	 * passed over (base/error_opts.h) */
	unsigned continue_on_error;
	bool error_dump;       /* each error passed over: a line on stderr, as fio's */
	unsigned nr_ignore[ERR_CLASS_COUNT];
	int ignore_errs[ERR_CLASS_COUNT][JOB_MAX_IGNORE];
	unsigned nr_plist;
	double plist[JOB_MAX_PLIST];
	bool exitall;          /* any job's: a worker's end stops others */
	enum exit_what exit_what;
	bool fill_device;      /* write until ENOSPC; the job then ends well */
	enum zone_mode zonemode;
	uint64_t zonesize, zonerange, zoneskip; /* strided zones; range 0 = size */
	unsigned prio, prioclass; /* ioprio_set of the workers, when either is set */
	/* job options behind single fio examples (issue 14, fix-opts2) */
	unsigned flow_id;      /* flow=: jobs sharing this id keep their ratio */
	unsigned flow;         /* weight in the flow; 0 = not in one */
	unsigned flow_sleep_us; /* held back: quiesce, sleep this, retry */
	enum io_submit_mode io_submit_mode; /* accepted; iochar submits inline */
	/* write buffers' contents (core/buf_fill.h): fio's dedupe and
	 * compressible fills; all zero = random data, filled once */
	unsigned compress_pct;    /* buffer_compress_percentage: zeros per chunk */
	uint64_t compress_chunk;  /* buffer_compress_chunk: bytes */
	unsigned dedupe_pct;      /* dedupe_percentage: buffers that repeat one */
	enum dedupe_mode dedupe_mode;
	unsigned dedupe_ws_pct;   /* dedupe_working_set_percentage of size */
	bool dedupe_global;       /* the working set spans every job's buffers */
	/* fio's steady-state end of a job (core/steady_job.h); ss_dur 0 = off */
	struct job_ss ss;
	uint64_t ss_dur_ns, ss_ramp_ns;
	/* fio's latency-target depth search (core/lat_target.h); 0 = off */
	uint64_t latency_target_ns, latency_window_ns;
	double latency_percentile; /* (0, 100] */

	/* The options as given, for fio's JSON "global options" and "job
	 * options": pairs of fio's name and the value as given, each
	 * NUL-ended, in fio's order (base/job_given.c); the globals the job
	 * started from before given_own, its own after. given_kept: the job
	 * came from fio-style input (a job file, fio's command line), which
	 * recorded them. Owned. */
	char *given;
	size_t given_len, given_own;
	bool given_kept;

	/* Which options the user set explicitly (bit per job row,
	 * options_bit), so
	 * defaults can be chosen later without overriding the user. */
	uint64_t set_mask[4];
};

/* Zero spec. Defaults come from the job's rows (job_options_set_defaults),
 * which are the one place they are written down. */
void job_spec_init(struct job_spec *spec);

/* Deep-copy src into dst (dst must not hold memory). Returns 0 or -ENOMEM. */
int job_spec_copy(struct job_spec *dst, const struct job_spec *src);

/* Release the memory spec owns; spec may be NULL. */
void job_spec_free(struct job_spec *spec);

/* Add name=value to spec's given options (job.h given). 0 or -ENOMEM. */
int job_given_add(struct job_spec *spec, const char *name, const char *value);

/* The given option at *pos (start at 0) within [*pos, end): its name,
 * its value in *value, *pos moved past it; NULL at end. */
const char *job_given_next(const struct job_spec *spec, size_t *pos, size_t end,
			   const char **value);

/* Reorder the given options from byte from on by rank (highest first),
 * keeping their order among equal ranks (fio's sort of a section's
 * options). 0 or -ENOMEM (then left as they were). */
int job_given_sort(struct job_spec *spec, size_t from, int (*rank)(const char *name));

/* A copy of src's given options into dst (dst's own are dropped). 0 or
 * -ENOMEM (dst then has none). */
int job_given_copy(struct job_spec *dst, const struct job_spec *src);

/* Replace spec's filename list with a copy of list (':'-separated; "\:" is a
 * literal colon, as in fio). Returns 0, -ENOMEM, or -E2BIG past JOB_MAX_FILES. */
int job_spec_set_files(struct job_spec *spec, const char *list);

static inline bool rw_is_random(enum rw_mode rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW ||
	       rw == RW_RANDTRIM || rw == RW_RANDTRIMWRITE;
}

/* Does rw trim (fio's td_trim)? */
static inline bool rw_trims(enum rw_mode rw)
{
	return rw == RW_TRIM || rw == RW_RANDTRIM || rw == RW_TRIMWRITE ||
	       rw == RW_RANDTRIMWRITE;
}

/* trimwrite and randtrimwrite: each block trimmed, then written */
static inline bool rw_trimwrite(enum rw_mode rw)
{
	return rw == RW_TRIMWRITE || rw == RW_RANDTRIMWRITE;
}

static inline bool rw_is_mixed(enum rw_mode rw)
{
	return rw == RW_RW || rw == RW_RANDRW;
}

static inline bool rw_writes(enum rw_mode rw)
{
	return rw == RW_WRITE || rw == RW_RANDWRITE || rw_is_mixed(rw) ||
	       rw_trimwrite(rw);
}

/* Does the job change its targets (writes or trims: opened for writing,
 * under the destructive-write guard)? Not with verify_only and a fio
 * verify method: its writes become reads (verify/fio_session.h). */
static inline bool job_writes(const struct job_spec *j)
{
	return rw_trims(j->rw) ||
	       (rw_writes(j->rw) && !(j->verify_only && j->verify_type));
}

static inline bool rw_reads(enum rw_mode rw)
{
	return rw == RW_READ || rw == RW_RANDREAD || rw_is_mixed(rw);
}

const char *rw_name(enum rw_mode rw);

/* "read", "write", "trim": fio's names of the directions. */
const char *io_dir_name(enum io_dir d);

#endif
