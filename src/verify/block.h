/* block.h - the on-disk format of verified data, and checking one unit.
 *
 * With verify=1 every block iochar writes is cut into units of 4096 bytes
 * (512 when bs is not a multiple of 4096), and each unit carries a 64-byte
 * header followed by a pattern, all little-endian:
 *
 *     off  size  field
 *       0     8  magic      "iocharv1" (0x3176726168636f69)
 *       8     8  offset     byte offset of this unit in the target
 *      16     8  seed       the job's randseed
 *      24     8  time_ns    CLOCK_REALTIME when the block was filled
 *      32     4  crc32c     CRC-32C of the whole unit, this field taken as 0
 *      36     4  run_id     random per worker run: tells this run's writes
 *                           from an earlier run's
 *      40     4  unit_len   512 or 4096
 *      44     4  block_len  bs of the write that carried the unit
 *      48     1  gen        write generation of the block, 1..255
 *      49     1  version    2 (1: before extent; still read)
 *      50     6  reserved   zero
 *      56     8  extent     end of the region the run verified in this
 *                           target (offset + size): `iochar verify`
 *                           reports a target that ends before it
 *      64     -  pattern    64-bit words keyed by offset, gen, seed,
 *                           run_id and time_ns: every byte of a unit is
 *                           unique to the write that made it, and a unit
 *                           can be checked without keeping a copy
 *
 * Version 1 keyed the pattern by offset, gen and seed only, so the
 * sectors after a unit's first were alike in two runs' writes of one
 * generation: a lost write of those sectors left a unit with a good CRC.
 * Version 1 units are still checked (their CRC and offset); a version
 * above VBLOCK_VERSION is reported as corrupted, naming the version.
 *
 * As in fio's verify.h (magic, offset, seed, sequence number, CRC) and
 * vdbench's data validation (every sector keyed with its LBA, a timestamp
 * and a write generation).
 */
#ifndef IOCHAR_VERIFY_BLOCK_H
#define IOCHAR_VERIFY_BLOCK_H

#include <stdbool.h>
#include <stdint.h>

#define VBLOCK_MAGIC	   0x3176726168636f69ull /* "iocharv1" */
#define VBLOCK_VERSION	   2
#define VBLOCK_VERSION_MIN 1 /* oldest block format still read */
#define VBLOCK_HDR_LEN	   64
#define VBLOCK_UNIT_SMALL  512
#define VBLOCK_UNIT_LARGE  4096
#define VBLOCK_DUMP_LEN	   32 /* bytes of a failed unit shown in reports */

/* The header, decoded to host order. */
struct vblock_hdr {
	uint64_t magic, offset, seed, time_ns, extent;
	uint32_t crc, run_id, unit_len, block_len;
	uint8_t gen, version;
};

/* What a write stamps on every unit of its block. */
struct vblock_stamp {
	uint64_t seed;
	uint64_t time_ns;
	uint32_t run_id;
	uint32_t block_len;
	uint64_t extent; /* end of the run's region in the target */
	uint8_t gen;	 /* 1..255 */
	uint8_t version; /* block format; 0 = VBLOCK_VERSION (1 rebuilds
			  * what an older iochar wrote, for its journal) */
};

/* How a unit fared. */
enum vkind {
	VK_OK,
	VK_UNVERIFIED,	  /* nothing to check it against */
	VK_CORRUPTED,	  /* bad CRC, or a header with a damaged magic */
	VK_MISPLACED,	  /* an intact unit that belongs at another offset */
	VK_STALE,	  /* intact and in place, but not the latest write */
	VK_NEVER_WRITTEN, /* a generation was expected; no iochar unit here */
};

/* What a unit should hold. gen 0 means nothing is known beyond the offset:
 * a unit with a header is checked on its own (CRC, offset), one without is
 * VK_UNVERIFIED. With gen > 0 (the run's map, later a journal) a missing
 * header is VK_NEVER_WRITTEN, and gen, and seed and run_id as `match`
 * says, must agree. */
struct vexpect {
	uint64_t offset;
	uint64_t seed;
	uint32_t run_id;
	uint8_t gen;
	unsigned match; /* VEXP_SEED | VEXP_RUN */
};

#define VEXP_SEED 1u
#define VEXP_RUN  2u

/* A unit that failed: everything a report names. */
struct vfailure {
	enum vkind kind;
	uint64_t offset; /* where the unit was read */
	uint32_t unit_len;
	uint8_t expected_gen;	 /* 0 = not known */
	bool header;		 /* the unit holds a header (magic intact) */
	struct vblock_hdr found; /* its header as read, valid or not */
	uint32_t crc;		 /* CRC computed over the unit */
	long first_diff;	 /* corrupted: first byte that differs from
				  * what its header says it should hold; -1 */
	const char *why;	 /* one phrase: "bad CRC", "older run" ... */
	const uint8_t *data;	 /* the unit; valid during the report only */
};

/* Unit length for a block size: 4096 when bs is a multiple of 4096, else
 * 512 when it is a multiple of 512, else 0 (bs cannot be verified). */
uint32_t vblock_unit_len(uint64_t bs);

/* Fill len bytes at buf (a multiple of unit_len), to be written at target
 * offset, with one stamped unit per unit_len bytes. */
void vblock_fill(void *buf, uint64_t len, uint32_t unit_len, uint64_t offset,
		 const struct vblock_stamp *st);

/* Make len bytes at buf, about to be written at target offset by a write
 * without verify, unable to pass for any verified unit: the buffer may
 * hold what a read brought in, another offset's units included. The
 * first 16 bytes of every 512-byte sector of the target get ~offset and
 * ~offset ^ salt (a time), which are never a header's magic or its own
 * offset (offsets are below 2^63) and keep sectors unique, as fio's
 * scramble_buffers does. The first word marks the sector: a verified
 * unit whose CRC fails because such a write replaced some of its sectors
 * was overwritten, not corrupted (vunit_check says VK_UNVERIFIED). */
void vblock_scrub(void *buf, uint64_t len, uint64_t offset, uint64_t salt);

/* Decode the header at the start of unit (no check). */
void vblock_hdr_decode(const void *unit, struct vblock_hdr *h);

/* CRC of the unit as its header's crc32c field is defined (that field
 * taken as zero). */
uint32_t vblock_unit_crc(const void *unit, uint32_t unit_len);

/* Check one unit of unit_len bytes against exp. Returns
 * its kind; for failures, *f (which may be NULL) says what was found. */
enum vkind vunit_check(const void *unit, uint32_t unit_len,
		       const struct vexpect *exp, struct vfailure *f);

/* "corrupted", "misplaced", "stale", "never_written", "unverified", "ok". */
const char *vkind_name(enum vkind k);

#endif
