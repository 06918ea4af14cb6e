/* members.h - a VD job's members on disk: do they exist, how large, may
 * they be written, which must be created or extended first.
 *
 * Looks only (target_inspect, the write guard): nothing is created or
 * written, so a VD job is validated completely before any member changes.
 */
#ifndef IOCHAR_VD_MEMBERS_H
#define IOCHAR_VD_MEMBERS_H

#include <stdbool.h>
#include <stdint.h>

#include "vd/def.h"
#include "target/target.h"
#include "vd/geom.h"

struct vd_members {
	struct vd_def def;
	struct vd_geom geom;
	uint64_t member_bytes;         /* bytes the VD uses on each member */
	bool fill[VD_MAX_MEMBERS];     /* live member file to create/extend to member_bytes */
	unsigned dio_align;            /* largest of the members' */
	uint64_t init_from;            /* after filling: member bytes from which the
					* redundancy must be made consistent */
	uint64_t uninit_rows;          /* rows its initialization map marks uninitialized */
	bool sizes_differ;             /* existing members differ: smallest used */
	uint64_t smallest;
};

struct vd_members_params {
	const char *text;       /* the --vd definition */
	uint64_t size;          /* VD bytes the job wants from offset; 0 = all */
	uint64_t offset;
	bool writes;            /* the job writes */
	bool force;             /* --force: the guard lets data be overwritten */
	bool direct;
	uint64_t skip_mask;     /* members not looked at (a rebuild's target) */
	bool maintenance;       /* vd init / rebuild without a workload: access=blocked is fine */
};

/* Parse p->text and look at every live member. 0, or -errno with one
 * usage line: a member listed twice (also through a symlink or another
 * name of the same file), a member that is missing without size=, a
 * block device smaller than size= needs, a strip smaller than a member's
 * logical block, a write refused by the guard (target/guard.h), access=ro
 * with a writing job, access=blocked (unless p->maintenance), an
 * initialization map of another geometry, require_init=1 with rows left
 * uninitialized. */
int vd_members_inspect(const struct vd_members_params *p, struct vd_members *out,
		       struct ioc_err *err);

/* Before the VD is used: write a battery-backed cache a crash left behind
 * (vd/bbu.h) to the members; with members to create, drop it. Called by
 * vd_prepare; verify and vd commands call it themselves. 0 or -errno. */
int vd_prepare_cache(const struct vd_members *m, struct ioc_err *err);

/* Create or extend the members m->fill marks (target_fill_ctl: random
 * data, iochar's mark, progress and a stop flag from c, which may be
 * NULL), then make the redundancy of the new rows consistent (parity from
 * the data, mirror copies equal), as a controller initializes a new VD.
 * 0, -EINTR when c's stop flag ended the pre-write, or -errno with a
 * message. */
int vd_prepare(const struct vd_members *m, const struct target_fill_ctl *c,
	       struct ioc_err *err);

#endif
