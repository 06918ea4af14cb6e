/* job.h - the job spec: one workload, as plain data.
 *
 * A job spec is filled from the option table (cli/options.c) by the
 * command line or a job file, validated, then handed to the runner. It owns
 * all its memory (no pointers into argv or a parsed file): copy it with
 * job_spec_copy, release it with job_spec_free.
 */
#ifndef IOCHAR_CORE_JOB_H
#define IOCHAR_CORE_JOB_H

#include <sched.h>
#include <stdbool.h>
#include <stdint.h>

#define JOB_NAME_MAX 64
#define JOB_ENGINE_MAX 16
#define JOB_MAX_FILES 256

enum rw_mode {
	RW_READ,      /* sequential read */
	RW_WRITE,     /* sequential write */
	RW_RANDREAD,
	RW_RANDWRITE,
	RW_RW,        /* sequential mixed ("rw", "readwrite") */
	RW_RANDRW,
};

enum rand_dist {
	DIST_UNIFORM,
	DIST_ZIPF,
};

enum rate_process {
	RATE_LINEAR,  /* one I/O every 1/rate seconds */
	RATE_POISSON, /* exponential gaps of mean 1/rate: random arrivals */
};

enum io_dir {
	DIR_READ = 0,
	DIR_WRITE = 1,
	DIR_COUNT = 2,
};

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
	unsigned numjobs;
	uint64_t runtime_ns;   /* 0 = until size is done */
	uint64_t ramp_ns;
	bool time_based;       /* loop over the region until runtime */
	char ioengine[JOB_ENGINE_MAX];
	bool direct;
	uint64_t rate_iops;    /* per worker; 0 = unlimited (closed loop) */
	enum rate_process rate_process;
	bool verify;           /* stamp written blocks, check them when read back */
	bool verify_fatal;     /* stop the run at the first verify failure */
	char journal[1024];    /* verify: crash journal path; "" = none (verify/journal.h) */
	enum rand_dist dist;
	double zipf_theta;
	bool cpus_set;
	cpu_set_t cpus_allowed;
	uint64_t randseed;
	bool create_parent;    /* the scratch target: make its directory if missing */
	bool force;            /* write even to targets holding data (verify/guard.h) */
	char vd[4096];         /* RAID virtual drive definition (vd/def.h); "" = none */

	/* Which options the user set explicitly (bit per option-table row), so
	 * defaults can be chosen later without overriding the user. */
	uint64_t set_mask[2];
};

/* Zero spec. Defaults come from the option table (options_set_defaults),
 * which is the one place they are written down. */
void job_spec_init(struct job_spec *spec);

/* Deep-copy src into dst (dst must not hold memory). Returns 0 or -ENOMEM. */
int job_spec_copy(struct job_spec *dst, const struct job_spec *src);

/* Release the memory spec owns; spec may be NULL. */
void job_spec_free(struct job_spec *spec);

/* Replace spec's filename list with a copy of list (':'-separated; "\:" is a
 * literal colon, as in fio). Returns 0, -ENOMEM, or -E2BIG past JOB_MAX_FILES. */
int job_spec_set_files(struct job_spec *spec, const char *list);

static inline bool rw_is_random(enum rw_mode rw)
{
	return rw == RW_RANDREAD || rw == RW_RANDWRITE || rw == RW_RANDRW;
}

static inline bool rw_is_mixed(enum rw_mode rw)
{
	return rw == RW_RW || rw == RW_RANDRW;
}

static inline bool rw_writes(enum rw_mode rw)
{
	return rw == RW_WRITE || rw == RW_RANDWRITE || rw_is_mixed(rw);
}

static inline bool rw_reads(enum rw_mode rw)
{
	return rw == RW_READ || rw == RW_RANDREAD || rw_is_mixed(rw);
}

const char *rw_name(enum rw_mode rw);

#endif
