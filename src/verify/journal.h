/* journal.h - the crash journal of a verifying job (journal=FILE): what
 * each write was about to put on disk and which writes completed, made
 * durable in order, so that after a crash (kill -9, a power cut)
 * `iochar verify --journal=FILE` knows what every block must hold and what
 * it may hold. vdbench's journal is the model.
 *
 * The file is a header and then fixed-size records, all little-endian:
 *
 *   header (header_len bytes, a multiple of 512)
 *     off  size  field
 *       0     8  magic       "iocjrnl1" (0x316c6e726a636f69)
 *       8     4  version     2: the units are block format 2 (block.h);
 *                            1 (an older iochar): block format 1, still
 *                            read
 *      12     4  header_len  where the records start
 *      16     4  record_len  32
 *      20     4  run_id      the run id stamped in every unit written
 *      24     8  seed        the job's randseed (stamped in the units)
 *      32     8  bs          block size: a block is bs bytes
 *      40     4  unit_len    4096 or 512 (block.h)
 *      44     4  nr_files    targets, 1..256
 *      48     8  offset      start of the region in each target
 *      56     8  region      bytes of the region per target (n * bs)
 *      64     8  created_ns  CLOCK_REALTIME when the journal was made
 *      72     4  crc32c      of the header_len bytes, this field as 0
 *      76     4  paths_len   bytes of the path list below
 *      80    64  job         the job's name, NUL-padded
 *     144     -  paths       nr_files NUL-terminated target paths (made
 *                            absolute when they resolve), zero padding
 *
 *   record (32 bytes; record n at header_len + 32 * n)
 *       0     1  type        'I' INTENT or 'D' DONE
 *       1     1  gen         the block's write generation, 1..255
 *       2     2  file        index of the target in the header's list
 *       4     4  seq         n, the record's own number (low 32 bits)
 *       8     8  block       block number in the region
 *      16     8  time_ns     INTENT: the time_ns stamped in the block's
 *                            units (so both the old and the new content
 *                            of a block can be rebuilt byte for byte);
 *                            DONE: 0
 *      24     4  run_id      the header's
 *      28     4  crc32c      of bytes 0..27
 *
 * Ordering. An INTENT is appended, and made durable with fdatasync,
 * before its write is submitted: the worker gathers the intents of one
 * loop pass and writes them with one write() and one fdatasync() just
 * before the pass's writes go to the kernel. A DONE is appended after the
 * write completed, with the next batch, and is not synced on its own: a
 * DONE lost in a crash only leaves its write "in flight", which widens
 * what the block may hold (old or new) and never hides a lost write that
 * the journal recorded as done. The file grows in pre-zeroed steps, so a
 * fdatasync is an overwrite of allocated blocks (no metadata to commit);
 * an all-zero record slot is unused space.
 */
#ifndef IOCHAR_VERIFY_JOURNAL_H
#define IOCHAR_VERIFY_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/job.h"
#include "util/err.h"

#include "verify/journal_layout.h"

/* Release info's paths; info may be NULL. */
void journal_info_free(struct journal_info *info);

/* May path become a journal? Yes when it does not exist (and its
 * directory does), is empty, or already holds an iochar journal; not when
 * it holds anything else, which iochar refuses to overwrite. Only reads.
 * 0, or -errno with a usage message naming what (the option) is set to. */
int journal_probe(const char *what, const char *path, struct ioc_err *err);

/* --- writing (the worker's session) --- */

struct journal_writer;

/* Create (or truncate an earlier journal at) path, write info's header
 * and make it and its directory entry durable. depth bounds the records
 * one loop pass adds (intents plus completions). Returns 0 and *out, or
 * -errno with a message (a usage one when journal_probe refuses path). */
int journal_create(const char *path, const struct journal_info *info,
		   unsigned depth, struct journal_writer **out,
		   struct ioc_err *err);

/* Queue an INTENT (a write of generation gen to block of target file,
 * stamped time_ns) / a DONE (that write completed). Kept in memory until
 * journal_flush; a full buffer is written out (not synced) on the way.
 * Errors are kept and returned by the next journal_flush. */
void journal_intent(struct journal_writer *j, unsigned file, uint64_t block,
		    uint8_t gen, uint64_t time_ns);
void journal_done(struct journal_writer *j, unsigned file, uint64_t block,
		  uint8_t gen);

/* Append what is queued and, when it holds an INTENT (now or since the
 * last sync), fdatasync: on return 0 every intent queued so far is
 * durable. Cheap when nothing is queued. -errno with a message otherwise;
 * the journal then no longer covers the run (it says so at verify). */
int journal_flush(struct journal_writer *j, struct ioc_err *err);

/* Flush, sync and free j (which may be NULL). 0 or -errno with a message;
 * j is freed either way. */
int journal_close(struct journal_writer *j, struct ioc_err *err);

/* --- reading: replay into per-block expectations --- */

/* What the records said, and what was skipped. */
struct journal_stats {
	uint64_t records; /* valid records replayed */
	uint64_t intents, dones;
	uint64_t bad_records; /* invalid records followed by valid ones */
	uint64_t torn_tail;   /* invalid records (or a partial one) after the
			       * last valid record: a crash mid-append */
	uint64_t blocks;      /* blocks named by the journal */
	uint64_t unknown;     /* of which whose history has a gap (a DONE
			       * without its INTENT): checked on their own */
};

struct journal_replay;

/* Parse and replay the journal in buf[0..len) (e.g. the whole file).
 * Returns 0 and *out (free with journal_replay_free), or -EINVAL (not a
 * journal, a bad header: a usage error) / -ENOMEM with a message. Records
 * that fail their CRC or name no block of the header are skipped and
 * counted, never trusted. */
int journal_replay_mem(const void *buf, size_t len, struct journal_replay **out,
		       struct ioc_err *err);

/* The same for the file at path, read in chunks. */
int journal_replay_file(const char *path, struct journal_replay **out,
			struct ioc_err *err);

void journal_replay_free(struct journal_replay *r);

const struct journal_info *journal_replay_info(const struct journal_replay *r);
const struct journal_stats *
journal_replay_stats(const struct journal_replay *r);

/* One generation a block may hold, and whether holding it is fine. */
struct journal_cand {
	uint8_t gen;
	uint64_t time_ns;
	char role; /* 'd' acknowledged (last DONE), 'n' in flight
		    * (INTENT without DONE), 'p' the acknowledged one
		    * before 'd': known, but holding it is a lost write */
	bool acceptable;
};

#define JOURNAL_MAYBE_MAX 3 /* intents without DONE kept per block */
#define JOURNAL_CAND_MAX  (JOURNAL_MAYBE_MAX + 2)

/* The replayed expectation for one block. */
struct journal_expect {
	bool known;	/* the journal names the block with a whole history */
	bool prerun_ok; /* no DONE: its content from before the run (unknown)
			 * is an acceptable "old" */
	bool in_flight; /* a write was in flight: old or new per sector */
	unsigned nr;
	struct journal_cand cand[JOURNAL_CAND_MAX];
};

/* Fill *e for block of target file. */
void journal_expect_block(const struct journal_replay *r, unsigned file,
			  uint64_t block, struct journal_expect *e);

/* --- checking units against the replay --- */

enum journal_kind {
	JK_OK,
	JK_UNVERIFIED, /* not in the journal, no iochar header: not checkable */
	JK_LOST,       /* the block (or a sector) lacks an acknowledged write:
			* an older generation, an earlier run, foreign data */
	JK_TORN,       /* a 512-byte sector mixes two contents */
	JK_CORRUPTED,  /* bytes that match nothing the block may hold */
	JK_MISPLACED,  /* an intact unit of another offset */
};

/* How a unit that passed turned out (for the counters). */
enum journal_outcome {
	JO_NONE,
	JO_ACKED,	/* acknowledged write, held whole */
	JO_OLD,		/* in flight, all old */
	JO_NEW,		/* in flight, all new */
	JO_MIXED,	/* in flight, some sectors old, some new */
	JO_UNJOURNALED, /* not in the journal: intact on its own */
};

#define JOURNAL_SECTOR	512
#define JOURNAL_MAP_LEN (4096 / JOURNAL_SECTOR)

/* A unit's verdict, with what a report names. */
struct journal_verdict {
	enum journal_kind kind;
	enum journal_outcome outcome;
	uint64_t offset; /* of the unit in the target */
	uint32_t unit_len;
	const char *why;
	int found_gen;	   /* intact unit (or header) of this run; -1 */
	char expected[32]; /* acceptable generations: "4", "4|5", "old|5" */
	char map[JOURNAL_MAP_LEN + 1]; /* per sector: d n o (fine), p f
					* (lost), t (torn), x (damaged);
					* "" when not analysed */
	int first_bad_sector;	       /* -1 */
	const uint8_t *data; /* the unit; valid during the report only */
};

/* Check the unit_len bytes at unit, read at target offset of target file,
 * against r. unit_len must be the journal's. Pure: no I/O, no output. */
enum journal_kind journal_check_unit(const struct journal_replay *r,
				     unsigned file, uint64_t offset,
				     const uint8_t *unit,
				     struct journal_verdict *v);

/* What a journal check found, in units. */
struct journal_counts {
	uint64_t checked_units; /* compared with an expectation */
	uint64_t failures; /* lost + torn + corrupted + misplaced + missing */
	uint64_t lost, torn, corrupted, misplaced;
	uint64_t missing_units;	     /* past the target's end, in the region */
	uint64_t acknowledged_units; /* passed: the acknowledged write */
	uint64_t old_units, new_units, mixed_units; /* passed, in flight */
	uint64_t unjournaled_units; /* passed: not in the journal, intact */
	uint64_t unverified_units;  /* not in the journal, no header */
};

/* Count v in c. */
void journal_count(struct journal_counts *c, const struct journal_verdict *v);

void journal_counts_add(struct journal_counts *to,
			const struct journal_counts *from);

/* "ok", "unverified", "lost", "torn", "corrupted", "misplaced". */
const char *journal_kind_name(enum journal_kind k);

/* Write v's failure line for target to out, in one write:
 *   verify failure: target=F offset=N kind=lost why="..." expected_gen=4
 *   found_gen=3 sectors=pppppppp unit=4096 data=... */
void journal_print_failure(FILE *out, const char *target,
			   const struct journal_verdict *v);

#endif
