/* cache.h - a VD instance's bounded caches (the paper's controller
 * policies), as plain data; policy.c moves data through them.
 *
 * Read-ahead: whole strips, keyed by VD strip number, loaded when a
 * sequential stream is seen. An entry is good only while the strip's write
 * generation (struct vd, bumped by every finished write to the strip, from
 * any worker) is the one it was loaded under, so a cached strip is never
 * older than a write that finished before the read was issued.
 *
 * Write-back: stripe rows of dirty host data, acknowledged from memory and
 * destaged in the background (wb.c): a row whose every sector is dirty at
 * once, as a full-stripe write; the others when the cache passes its high
 * watermark, when they are older than WB_AGE_NS, and on a flush.
 */
#ifndef IOCHAR_VD_CACHE_H
#define IOCHAR_VD_CACHE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "vd/op.h"

enum vd_ra_state { RA_FREE, RA_LOADING, RA_VALID };

struct vd_ra_entry {
	uint64_t strip;
	uint32_t gen;
	enum vd_ra_state state;
	bool hit;               /* served a host read since it was loaded */
	bool hashed;            /* in the strip hash (under strip) */
	bool spent_listed;      /* on the spent stack */
	struct vd_ra_entry *hnext; /* hash chain */
	uint64_t used;          /* LRU tick */
	uint8_t *buf;           /* one strip */
	struct vd_op op;
};

struct vd_ra {
	struct vd_ra_entry *e;
	unsigned n;
	struct vd_ra_entry **hash; /* by strip; nb buckets, a power of two */
	unsigned nb;
	uint64_t tick;
	uint64_t next_off;      /* where a sequential stream would read next */
	unsigned run;           /* sequential reads in a row */
	uint64_t ahead;         /* first strip not yet asked for */
	struct vd_ra_entry **spent; /* entries that served a read, last on top */
	unsigned nr_spent;
	unsigned depth_cur, depth_prev; /* most host reads in flight seen this and last epoch */
	unsigned depth_arrivals;        /* reads arrived this epoch */
};

/* What a write-back slot keeps in the cache store (wb.c): in anonymous
 * memory for write=back, in a shared file mapping for write=back-bbu so
 * that it outlives the process (the "battery"). Sectors are 512 bytes. */
struct vd_wb_hdr {
	uint64_t row;           /* stripe row (jbod: strip) of VD bytes */
	_Atomic uint64_t valid; /* 1: the slot holds dirty data of row */
};

/* One stripe row of dirty data: the row's VD bytes, and which of its
 * sectors are dirty. Destaged one contiguous dirty run at a time; while a
 * slot destages, host writes to its row wait (reads of dirty sectors are
 * still served from it). */
struct vd_wb_entry {
	struct vd_wb_hdr *hdr;  /* in the store */
	uint64_t *dirty;        /* sector bitmap, in the store */
	uint8_t *buf;           /* row bytes, in the store */
	uint64_t row;
	uint64_t ndirty;        /* dirty sectors */
	uint64_t born;          /* ns: when the row first became dirty */
	uint64_t seq;           /* order the slot was taken in (flushes wait for older) */
	void *by;               /* struct vd_io destaging it (its engine finishes it) */
	uint64_t run_lo, run_hi; /* sectors the destage in flight writes */
	bool busy;              /* destaging */
	bool used;
	struct vd_op op;
	struct vd_wb_entry *hnext;       /* hash chain */
	struct vd_wb_entry *prev, *next; /* idle list (oldest first) or free list */
};

/* The VD's one write-back cache (struct vd's wb), shared by every worker
 * of every job on the VD; everything in it is under mu. */
struct vd_wb {
	pthread_mutex_t mu;     /* recursive (wb.c) */
	uint64_t seq;           /* slots taken so far */
	struct vd_wb_entry *e;  /* n slots */
	unsigned n, inuse, busy;
	struct vd_wb_entry **hash;
	unsigned nb;            /* buckets, a power of two */
	struct vd_wb_entry *free;
	struct vd_wb_entry *idle_head, *idle_tail; /* dirty, not destaging */
	uint64_t row_bytes, sectors, words; /* per slot */
	void *map;              /* the store */
	size_t map_len;
	char *path;             /* write=back-bbu: its file (malloc'd) */
};

#endif
