/* fio_block.h - fio's on-disk verify format (fio 3.33 verify.c/verify.h):
 * filling a block to be written and checking one read back.
 *
 * A block is cut into intervals of verify_interval bytes (bs when 0).
 * Each interval starts with fio's 40-byte verify header, little-endian:
 *
 *     off size field
 *       0    2 magic      0xacca
 *       2    2 verify_type fio's method number (fio_sum.h)
 *       4    4 len        the interval's length
 *       8    8 rand_seed  seed of the random data
 *      16    8 offset     the interval's offset in the file
 *      24    4 time_sec   when the block was filled
 *      28    4 time_nsec
 *      32    2 thread     the job's number, from 1
 *      34    2 numberio   the worker's count of writes (truncated)
 *      36    4 crc32      fio's crc32c of bytes 0..35
 *
 * then the method's checksum (fio_sum_len bytes) of the rest of the
 * interval, which holds random bytes or the verify_pattern (laid from
 * the block's first byte, %o replaced by the block's offset). With
 * verify_offset=N the header and checksum are swapped with the bytes at
 * N once the checksum is made. verify=pattern has no header at all;
 * verify=meta (and a bare verify_pattern) has the header and no checksum.
 */
#ifndef IOCHAR_VERIFY_FIO_BLOCK_H
#define IOCHAR_VERIFY_FIO_BLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "verify/fio_sum.h"

#define FIO_HDR_MAGIC 0xacca
#define FIO_HDR_LEN   40
#define FIO_HDR_CRC_OFF 36

/* How a job verifies, from its options (all borrowed from the job). */
struct fio_vcfg {
	enum fio_vtype type;
	uint32_t interval;     /* bytes per header; divides every block */
	uint32_t swap_at;      /* verify_offset; 0 = none */
	const uint8_t *pattern; /* verify_pattern, NULL when none */
	uint32_t pattern_len;
	const uint16_t *fmt;   /* where %o goes in the pattern (8 bytes each) */
	unsigned nr_fmt;
	uint16_t thread;       /* fio's thread number, from 1 */
};

/* What a write stamps into each header of its block. */
struct fio_vstamp {
	uint64_t rand_seed;
	uint64_t time_ns; /* CLOCK_REALTIME */
	uint16_t numberio;
};

/* Bytes at the start of an interval that are header and checksum. */
unsigned fio_vhdr_size(enum fio_vtype t);

/* Fill len bytes at buf (a multiple of c->interval), to be written at
 * file offset. 0, or -EIO when the digest library fails. */
int fio_block_fill(const struct fio_vcfg *c, uint8_t *buf, uint64_t len,
		   uint64_t offset, const struct fio_vstamp *st);

/* One failed interval, as fio and iochar report it. */
struct fio_vfail {
	uint64_t offset;     /* the interval's offset in the file */
	uint32_t len;	     /* its length */
	bool misplaced;	     /* an intact header of another offset */
	char what[48];	     /* fio's word: "md5", "bad magic header" */
	char detail[96];     /* "0, wanted acca" and the like; may be "" */
	char expected[2 * FIO_SUM_MAX + 1]; /* checksum stored, hex; "" */
	char got[2 * FIO_SUM_MAX + 1];	    /* checksum computed, hex; "" */
	long first_diff;     /* pattern: first bad byte in the interval; -1 */
};

/* Check the interval of c->interval bytes at p, read from file offset
 * off of a block read at block_off (the %o of a pattern). p is changed
 * (a verify_offset swap is undone). Returns 0 when good, 1 with *f
 * filled when not, -EIO when the digest library fails. */
int fio_interval_check(const struct fio_vcfg *c, uint8_t *p, uint64_t off,
		       uint64_t block_off, struct fio_vfail *f);

#endif
