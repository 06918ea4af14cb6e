/* journal_fmt.h - encoding and decoding the journal's header and records
 * (the layout is in journal.h, its constants in journal_layout.h). Internal to src/verify/journal*.c and
 * their tests.
 */
#ifndef IOCHAR_VERIFY_JOURNAL_FMT_H
#define IOCHAR_VERIFY_JOURNAL_FMT_H

#include <endian.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "util/le.h"

#include "verify/crc32c.h"
#include "verify/journal_layout.h"

/* Header field offsets. */
enum {
	JH_MAGIC = 0,
	JH_VERSION = 8,
	JH_HDR_LEN = 12,
	JH_REC_LEN = 16,
	JH_RUN = 20,
	JH_SEED = 24,
	JH_BS = 32,
	JH_UNIT = 40,
	JH_NR_FILES = 44,
	JH_OFFSET = 48,
	JH_REGION = 56,
	JH_CREATED = 64,
	JH_CRC = 72,
	JH_PATHS_LEN = 76,
	JH_JOB = 80,
	JH_PATHS = JOURNAL_HDR_FIXED,
};

/* One record, decoded. */
struct journal_rec {
	uint8_t type, gen;
	uint16_t file;
	uint32_t seq, run_id;
	uint64_t block, time_ns;
};

static inline void journal_rec_encode(uint8_t *p, const struct journal_rec *r)
{
	uint16_t file = htole16(r->file);

	p[0] = r->type;
	p[1] = r->gen;
	memcpy(p + 2, &file, 2);
	le_put32(p + 4, r->seq);
	le_put64(p + 8, r->block);
	le_put64(p + 16, r->time_ns);
	le_put32(p + 24, r->run_id);
	le_put32(p + 28, crc32c(0, p, 28));
}

/* Decode the record at p. false when its CRC does not hold. */
static inline bool journal_rec_decode(const uint8_t *p, struct journal_rec *r)
{
	uint16_t file;

	if (crc32c(0, p, 28) != le_get32(p + 28))
		return false;
	r->type = p[0];
	r->gen = p[1];
	memcpy(&file, p + 2, 2);
	r->file = le16toh(file);
	r->seq = le_get32(p + 4);
	r->block = le_get64(p + 8);
	r->time_ns = le_get64(p + 16);
	r->run_id = le_get32(p + 24);
	return true;
}

/* Bytes of the header for these paths (a multiple of JOURNAL_HDR_ALIGN),
 * and the paths' own length in *paths_len. */
static inline uint32_t journal_hdr_len(const struct journal_info *info,
				       uint32_t *paths_len)
{
	size_t n = 0;

	for (unsigned i = 0; i < info->nr_files; i++)
		n += strlen(info->files[i]) + 1;
	*paths_len = (uint32_t)n;
	n += JOURNAL_HDR_FIXED;
	return (uint32_t)((n + JOURNAL_HDR_ALIGN - 1) / JOURNAL_HDR_ALIGN *
			  JOURNAL_HDR_ALIGN);
}

#endif
