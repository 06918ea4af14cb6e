/* raid.h - the RAID closed forms: what one host I/O costs the members.
 *
 * A host I/O of bs covers k = ceil(bs / strip) strips. Reads cost k
 * member reads at every level (a mirror reads one copy). Writes:
 *   JBOD, R0        k writes
 *   R1, R10         2k writes
 *   R5/R50, R6/R60  a small write (k < d data strips per stripe) reads and
 *                   writes k + p (p = 1 or 2 parity strips), or reads the
 *                   d - k other strips instead when that is fewer
 *                   (reconstruct-write): 4 member I/Os for a 4 KiB RAID 5
 *                   write, 6 for RAID 6; a full-stripe write (k >= d, and
 *                   every sequential write, coalesced in the controller's
 *                   cache) reads nothing and writes n/d of its bytes.
 * Sequential I/O is counted in bytes: member bytes per host byte.
 */
#ifndef IOCHAR_MODEL_RAID_H
#define IOCHAR_MODEL_RAID_H

#include <stdbool.h>

#include "model/model.h"

struct mdl_io_cost {
	double reads, writes;       /* member I/Os per host I/O */
	double rbytes, wbytes;      /* member bytes per host byte */
	/* parity-path work in RAID 5 small writes: 1 for a 4 KiB RAID 5
	 * write, 1.5 for RAID 6 (its 6 member I/Os over 4); 0 full-stripe */
	double parity;
};

/* Members per span: what a level needs at least (R5 3, R6 4, R1 2). */
unsigned mdl_raid_min_disks(enum mdl_level l);

/* The cost of one host read and one host write of bs_kib, sequential or
 * random, on one span of n disks (n raised to the level's minimum) with
 * strip strip_kib. */
void mdl_raid_cost(enum mdl_level l, unsigned n, double bs_kib,
		   unsigned strip_kib, bool sequential, struct mdl_io_cost *rd,
		   struct mdl_io_cost *wr);

#endif
