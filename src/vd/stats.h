/* stats.h - what a VD's members did: per member and direction, I/Os, bytes
 * and latency (member submission to completion), and the host I/Os they
 * served, so the amplification (member I/Os per host I/O) can be shown.
 *
 * One struct per worker, filled only by its thread during the measured
 * phase; merged exactly after the run (like stats/stats.h).
 */
#ifndef IOCHAR_VD_STATS_H
#define IOCHAR_VD_STATS_H

#include <stdint.h>

#include "base/job.h"
#include "stats/stats.h"

struct vd_member_stats {
	struct dir_stats dir[DIR_COUNT]; /* latency: member submit to completion */
};

struct vd_stats {
	unsigned nr_members;
	uint64_t capacity;              /* VD bytes */
	uint64_t member_bytes;          /* bytes used on each member */
	uint64_t host_ios[DIR_COUNT];   /* host I/Os completed while measured */
	uint64_t rmw_rows;              /* parity rows written by read-modify-write */
	uint64_t rcw_rows;              /* ... by reconstruct-write (reads others) */
	uint64_t full_rows;             /* ... as full stripes (nothing read) */
	uint64_t degraded_rows;         /* rows rebuilt from parity on read or write */
	uint64_t uninit_rows;           /* ... written while uninitialized (fast init): reconstruct-write */
	uint64_t ra_hits;               /* host reads served by read-ahead */
	uint64_t ra_strips;             /* strips read ahead (member reads issued) */
	uint64_t ra_used;               /* ... of which served a host read */
	uint64_t ra_copied;             /* bytes copied out of the read-ahead cache into host buffers */
	uint64_t wb_absorbed;           /* host writes acknowledged from the cache */
	uint64_t wb_end_bytes;          /* ... bytes still cached at the end, destaged then (counted) */
	struct vd_member_stats member[]; /* nr_members */
};

/* Zeroed stats for n members; NULL when out of memory. Free with free(). */
struct vd_stats *vd_stats_new(unsigned n);

/* to += from (same member count). */
void vd_stats_add(struct vd_stats *to, const struct vd_stats *from);

/* Member I/Os of direction d per host I/O (both directions), 0 when no
 * host I/O completed. */
double vd_stats_amplification(const struct vd_stats *s, enum io_dir d);

#endif
