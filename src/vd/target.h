/* target.h - a RAID virtual drive as a target kind (target/target_ops.h).
 *
 * Jobs with vd= are the kind's: a list of VDs runs one job per VD, the
 * members are inspected (members.h) and prepared (vd_prepare) like a
 * job's files, the running drive (vd.h) is shared by the job's workers,
 * each of which talks to the VD engine (engine.h) over the job's own
 * engine, and the members' accounting is summed per job (stats.h: the
 * result's target_stats are struct vd_stats).
 */
#ifndef IOCHAR_VD_TARGET_H
#define IOCHAR_VD_TARGET_H

#include "target/target_ops.h"

extern const struct target_ops vd_target_ops;

#endif
