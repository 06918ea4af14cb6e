/* generator.h - the next logical I/O of a job: which file, where, which
 * way, how big; fio's semantics (io_u.c's get_next_offset/get_next_buflen).
 *
 * Each file gives the region [base, base + region), base = offset (or
 * offset=N% of the file's size, gen_set_file_size) + clone x
 * offset_increment. Files are chosen as fio's file_service_type says
 * (core/file_service.h). Sequential modes keep, per file and direction, where
 * the last I/O ended; rw=MODE:SIZE skips SIZE after each I/O (wrapping to
 * the start past the file's end, as fio; a pass ends at the region's end;
 * a negative SIZE goes backwards). Random modes draw a block
 * of blockalign (default: the smallest bs) from the distribution
 * (core/distribution.h); with the random map (the default; norandommap,
 * blockalign or a non-uniform distribution turn it off, as in fio) a
 * block already used is replaced by the next free one, so each block is
 * used once per pass. rw=randread:N: a new random offset every N I/Os,
 * sequential (rw_sequencer=sequential) or the same offset (identical) in
 * between; percentage_random mixes sequential I/Os in. Mixed modes choose
 * reads with probability rwmixread %. Sizes: core/blocksize.h. Without
 * time_based the job ends once io_size bytes (default: the regions) or
 * number_ios I/Os are issued; with it, never, each pass starting over.
 * zonemode=strided (sequential jobs of one file, as fio's): zonesize bytes
 * in a zone of zonerange, then the zone zonerange + zoneskip on, from the
 * start again past the file's end; the job still ends after io_size.
 * Trims (rw=trim, randtrim) are placed and sized as writes and come out as
 * DIR_TRIM; trimwrite and randtrimwrite follow each trim with a write of
 * the same range, as fio's, which does not count towards io_size.
 */
#ifndef IOCHAR_CORE_GENERATOR_H
#define IOCHAR_CORE_GENERATOR_H

#include <stdbool.h>
#include <stdint.h>

#include "base/job.h"
#include "core/blocksize.h"
#include "core/file_service.h"
#include "core/distribution.h"
#include "core/lfsr.h"
#include "core/randmap.h"
#include "util/rng.h"

/* One I/O to issue. dir DIR_TRIM: the worker makes it a trim unit
 * (engine.h IO_OP_TRIM) of [offset, offset + len); anything that feeds the
 * worker ops (an iolog replay too) asks for a trim so. */
struct gen_op {
	unsigned file;
	enum io_dir dir;
	uint64_t offset;
	uint64_t len;
};

struct gen_file {
	uint64_t last_pos[DIR_COUNT];   /* end of the last I/O, in the region */
	uint64_t last_start[DIR_COUNT]; /* start of the last I/O */
	bool started[DIR_COUNT];
	uint64_t base;                  /* first byte of the region */
	uint64_t end;                   /* the file's bytes after base (fio's
					 * real_file_size); UINT64_MAX: unknown */
	uint64_t region;                /* the file's own region (fio's
					 * f->io_size); the generator's region
					 * unless gen_init_files says */
	struct randmap map;             /* only with the random map */
	struct lfsr lfsr;               /* only with random_generator=lfsr */
	/* [DIR_COUNT]: a non-uniform distribution over the file's own blocks
	 * (regions of their own, as fio's per-file zipf); NULL: the
	 * generator's; owned */
	struct gen_dist *dist;
};

struct generator {
	enum rw_mode rw;
	unsigned rwmixread;
	uint64_t clone_off;     /* clone x offset_increment */
	unsigned offset_pct;    /* offset=N%: each file's base by its size */
	uint64_t pct_align;     /* ... rounded up to this (fio: the smallest bs) */
	uint64_t region;        /* bytes of the region in each file (the
				 * largest, with regions of their own) */
	bool per_file;          /* files' regions differ (gen_init_files) */
	unsigned nr_files;
	struct gen_file *files; /* [nr_files]; owned */
	struct file_service fsvc; /* which file each I/O goes to */
	bool loop;              /* time_based, or io_size beyond the regions */
	uint64_t issued, bytes;
	uint64_t limit_ios;     /* UINT64_MAX = none */
	uint64_t limit_bytes;   /* UINT64_MAX = none */
	struct gen_bs bs[DIR_COUNT];
	bool bs_is_seq_rand;
	bool map_on;
	bool lfsr_on;           /* random_generator=lfsr (gen_start_lfsr) */
	uint64_t lfsr_seed;     /* each file's register's, every pass */
	uint64_t map_unit;      /* bytes per random-map block */
	int map_shift;          /* log2(map_unit), -1 when not a power of 2 */
	unsigned seq_nr, seq_left; /* rw=randread:N */
	enum rw_sequencer sequencer;
	int64_t hole;           /* rw=MODE:SIZE; < 0: backwards */
	unsigned perc_seq[DIR_COUNT];
	struct gen_dist dist[DIR_COUNT];
	struct rng rng;         /* offsets */
	struct bs_rng rng_bs[DIR_COUNT]; /* sizes, fio's per direction */
	struct rng rng_mix;     /* directions, percentage_random */
	/* zonemode=strided (core/generator.c zone_place): 0 size: off */
	uint64_t zone_size, zone_range, zone_skip;
	uint64_t zone_start, zone_bytes; /* the zone, what went to it */
	/* trimwrite: the trim just issued, whose write comes next */
	struct gen_op tw_op;
	bool tw_pending;
};

/* Prepare for job spec: region_bytes is the usable bytes per file after
 * offset, clone the worker's clone number (offset_increment). seed makes
 * each worker's stream distinct yet repeatable (randrepeat=0: mixed with
 * the clock). Returns 0, -ENOMEM, or -EINVAL when the region holds no
 * whole block (or a zoned_abs zone lies past it). */
int gen_init(struct generator *g, const struct job_spec *spec,
	     uint64_t region_bytes, unsigned clone, uint64_t seed);

/* gen_init, with file i's region regions[i] (<= region_bytes, a multiple
 * of bs; fio's filesize=LOW-HIGH): its sequential passes, random map,
 * uniform random offsets, share of the file service and the job's default
 * io_size (the sum) and random_distribution (each file's own, as fio's)
 * follow each file's own. regions NULL: gen_init. -EINVAL also when a
 * zoned_abs zone lies past a file's region. */
int gen_init_files(struct generator *g, const struct job_spec *spec,
		   uint64_t region_bytes, const uint64_t *regions,
		   unsigned clone, uint64_t seed);

/* random_generator=lfsr on a random job of uniform offsets (else a
 * no-op, as fio): each file's blocks (its region in the smallest bs)
 * drawn by fio's register (core/lfsr.h) from fio_seed, the job's
 * FIO_RAND_BLOCK_OFF seed; no random map (fio keeps none: the register
 * draws each block once a pass) and each file's share of the file
 * service its blocks. After gen_init_files. 0, or -EINVAL when fio's
 * register would not start either. */
int gen_start_lfsr(struct generator *g, const struct job_spec *spec,
		   uint64_t fio_seed);

/* Seed the size generators as fio seeds a job's (td->bsrange_state: the
 * job's first three seeds, the write's the read's with verify, fio's
 * constant with allrandrepeat) for fio's thread_number thread; the job
 * then draws fio's sizes. After gen_init_files. */
void gen_seed_as_fio(struct generator *g, const struct job_spec *spec,
		     unsigned thread);

/* The size of file (< nr_files) is size bytes: a hole (rw=write:4k) that
 * passes the file's end wraps to the region's start, as fio's does;
 * without it (or past the region, when the file goes on) the pass ends at
 * the region's end. With offset=N% it places the file's region. */
void gen_set_file_size(struct generator *g, unsigned file, uint64_t size);

/* Where spec's region starts in a file of file_size bytes (offset=N%:
 * N% of it rounded up to the smallest bs, as fio), before
 * offset_increment. */
uint64_t gen_file_offset(const struct job_spec *spec, uint64_t file_size);

/* Release what gen_init allocated; g may be NULL. */
void gen_free(struct generator *g);

/* Fill op with the next I/O. Returns true, or false once the job has
 * issued all it should (never with time_based). */
bool gen_next(struct generator *g, struct gen_op *op);

#endif
