/* cache.h - a VD instance's bounded caches (the paper's controller
 * policies), as plain data; policy.c moves data through them.
 *
 * Read-ahead: whole strips, keyed by VD strip number, loaded when a
 * sequential stream is seen. An entry is good only while the strip's write
 * generation (struct vd, bumped by every finished write to the strip, from
 * any worker) is the one it was loaded under, so a cached strip is never
 * older than a write that finished before the read was issued.
 *
 * Write-back: dirty extents of host writes, acknowledged from memory and
 * destaged in the background; at most `cap` bytes. Extents never overlap:
 * a host I/O that would overlap one waits until it is destaged (or, for a
 * read inside one extent, is served from it).
 */
#ifndef IOCHAR_VD_CACHE_H
#define IOCHAR_VD_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "vd/op.h"

enum vd_ra_state { RA_FREE, RA_LOADING, RA_VALID };

struct vd_ra_entry {
	uint64_t strip;
	uint32_t gen;
	enum vd_ra_state state;
	uint64_t used;          /* LRU tick */
	uint8_t *buf;           /* one strip */
	struct vd_op op;
};

struct vd_ra {
	struct vd_ra_entry *e;
	unsigned n;
	uint64_t tick;
	uint64_t next_off;      /* where a sequential stream would read next */
	unsigned run;           /* sequential reads in a row */
	uint64_t ahead;         /* first strip not yet asked for */
};

struct vd_wb_entry {
	uint64_t off, len;
	uint8_t *buf;
	bool destaging;
	struct vd_op op;
	struct vd_wb_entry *next;
};

struct vd_wb {
	struct vd_wb_entry *head;
	uint64_t used, cap;     /* bytes */
};

#endif
