/* verify_vd.h - `iochar verify --vd=DEF`: reading a RAID virtual drive
 * back for the verify passes (cmd/verify.c, cmd/verify_journal.c).
 *
 * The VD is opened read-only with the geometry `iochar run` gives it for
 * the same size= and offset= (vd/members.h), degraded when the
 * definition says failed=; its bytes are read as a host read sees them
 * (vd/sync.h: lost pieces rebuilt from parity or a mirror).
 */
#ifndef IOCHAR_CMD_VERIFY_VD_H
#define IOCHAR_CMD_VERIFY_VD_H

#include <stdint.h>
#include <stdio.h>

#include "util/err.h"
#include "verify/scan.h"

/* A journal's target that is a VD: "vd=" and the definition. */
#define VERIFY_VD_PREFIX "vd="

struct verify_vd;

/* Open the VD text defines (one VD, no ';') for the region size bytes
 * from offset (size 0: up to the VD's end). *capacity gets the VD's
 * bytes. 0, or -errno with one line (a usage one for bad input). */
int verify_vd_open(const char *text, uint64_t size, uint64_t offset,
		   struct verify_vd **out, uint64_t *capacity,
		   struct ioc_err *err);

void verify_vd_close(struct verify_vd *v);

/* Point p's read and where hooks at v. */
void verify_vd_hook(struct verify_vd *v, struct vscan *p);

/* The where hook itself: "  vd: offset=N member=M path=P member_offset=O". */
void verify_vd_where(void *arg, FILE *out, uint64_t offset);

#endif
