/* journal_layout.h - the crash journal's on-disk constants and its
 * decoded header (the layout is described in journal.h): what the record
 * codec (journal_fmt.h) and the journal's API (journal.h) both need, below
 * both. */
#ifndef IOCHAR_VERIFY_JOURNAL_LAYOUT_H
#define IOCHAR_VERIFY_JOURNAL_LAYOUT_H

#include <stdint.h>

#include "base/job.h"

#define JOURNAL_MAGIC	    0x316c6e726a636f69ull /* "iocjrnl1" */
#define JOURNAL_VERSION	    2
#define JOURNAL_VERSION_MIN 1 /* oldest journal still read */
#define JOURNAL_REC_LEN	    32
#define JOURNAL_HDR_FIXED   144 /* header bytes before the paths */
#define JOURNAL_HDR_ALIGN   512
#define JOURNAL_HDR_MAX	    (2u << 20)
#define JOURNAL_REC_INTENT  'I'
#define JOURNAL_REC_DONE    'D'

/* The header, decoded. */
struct journal_info {
	uint32_t version, header_len, run_id, unit_len;
	uint64_t seed, bs, offset, region, created_ns;
	unsigned nr_files;
	char job[JOB_NAME_MAX];
	char *files[JOB_MAX_FILES]; /* owned (journal_info_free) */
};

/* The block format (block.h) of the units a journal describes. */
static inline uint8_t journal_block_version(const struct journal_info *info)
{
	return info->version == 1 ? 1 : 2;
}

#endif
