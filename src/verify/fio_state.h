/* fio_state.h - fio 3.33's verify state files (verify.c, verify-state.h,
 * version 3): a write job checked in fio's format records how many
 * writes it issued and, per file, the offsets of its last iodepth
 * completed writes; when interrupted it leaves
 * local-JOBNAME-INDEX-verify.state in the current directory (INDEX: the worker's, 0-based over the run,
 * fio's thread_number - 1). A later job with verify_state_load=1 reads
 * the file of its own name and index and checks only what was written:
 * fio's verify_state_should_stop ends its reads once, within the last
 * depth reads of the count, a read is not of a completed write.
 *
 * The file: a header (version 3, size, crc as fio's crc32c: the CRC-32C
 * register without the final inversion) and fio's thread_io_list: the
 * number of completions listed, depth, files, writes issued, index, a
 * random state (zero here: fio 3.33 never reads it back), the job's name
 * (64 bytes) and depth x files (file number, offset) pairs, all little
 * endian. */
#ifndef IOCHAR_VERIFY_FIO_STATE_H
#define IOCHAR_VERIFY_FIO_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "util/err.h"

/* A write job's record (owned by its session, on its thread). */
struct fio_vstate_rec {
	unsigned depth, nofiles;
	uint64_t issued, completed; /* writes */
	uint64_t *last;             /* nofiles x depth completed offsets */
	unsigned *next;             /* per file: the ring's next slot */
};

/* 0, or -ENOMEM. fio_vstate_rec_free releases it. */
int fio_vstate_rec_init(struct fio_vstate_rec *r, unsigned depth,
			unsigned nofiles);
void fio_vstate_rec_free(struct fio_vstate_rec *r);

static inline void fio_vstate_rec_issued(struct fio_vstate_rec *r)
{
	r->issued++;
}

/* A write of file at offset completed. */
void fio_vstate_rec_done(struct fio_vstate_rec *r, unsigned file,
			 uint64_t offset);

/* fio's --aux-path: save and load the state files in dir (NULL or "":
 * the current directory, the default). Call before any job runs. */
void fio_vstate_set_dir(const char *dir);

/* Write r as local-NAME-INDEX-verify.state ('/' in the name as '.'). 0,
 * or -errno with a message naming the file. */
int fio_vstate_save(const struct fio_vstate_rec *r, const char *name,
		    unsigned index, struct ioc_err *err);

/* A loaded state. */
struct fio_vstate {
	uint64_t numberio; /* writes issued */
	uint32_t depth;
	uint64_t nr;       /* completions listed */
	struct fio_vstate_comp {
		uint64_t file, offset;
	} *comps;
};

/* Read the state file of job name, worker index: 0, or -errno with a
 * usage message naming the file (missing, not version 3, corrupt). */
int fio_vstate_load(const char *name, unsigned index, struct fio_vstate *st,
		    struct ioc_err *err);
void fio_vstate_free(struct fio_vstate *st);

/* fio's verify_state_should_stop: may the read of file at offset be
 * issued after reads_done completed reads? false: the job's reads end. */
bool fio_vstate_admit(const struct fio_vstate *st, uint64_t reads_done,
		      unsigned file, uint64_t offset);

#endif
