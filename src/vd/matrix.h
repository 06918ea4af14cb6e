/* matrix.h - the paper's RAID level comparison over one set of drives.
 *
 * Given the drives (in order) and a level, the VDs a controller would be
 * configured with, as one vd= list (';'):
 *   raid0   one VD per drive (strip 64k)
 *   raid5   VDs of 8 drives (of all of them when fewer than 8; at least 3)
 *   raid10  VDs of 4 drives, two mirrored pairs in 2 spans (at least 4)
 *   jbod    every drive passed through, each its own job
 * Drives left over (12 drives: one VD of 8 for raid5, 4 unused) are
 * counted in *unused. opts ("readahead=on,write=back") is appended to
 * every RAID definition (not jbod: an HBA has no cache).
 */
#ifndef IOCHAR_VD_MATRIX_H
#define IOCHAR_VD_MATRIX_H

#include <stddef.h>

#include "util/err.h"

/* The vd= list for level over drives[0..n) into out (len bytes). 0, or
 * a usage error naming raid_level= (unknown level, too few drives, too
 * long). */
int vd_matrix_def(const char *level, const char *const *drives, unsigned n,
		  const char *opts, char *out, size_t len, unsigned *unused,
		  struct ioc_err *err);

#endif
