/* autogroup.h - the CPU weight of this process's scheduler autogroup.
 *
 * With kernel.sched_autogroup_enabled=1 the fair scheduler groups tasks by
 * session: each session's tasks share one group's weight (1024 at nice 0)
 * against every other group and the kernel's own threads. fio runs each
 * job not marked `thread` as a process that calls setsid(), so N such jobs
 * are N groups, N x 1024 against the loop workers and softirq threads that
 * complete their I/O; iochar's workers are threads of one session, one
 * group. On a host whose CPUs are saturated that share sets the IOPS:
 * 4 jobs over 4 loop devices on 2 CPUs got ~265k from fio's processes and
 * ~225k from its threads or iochar's (bench/README.md, "fio's sessions").
 * autogroup_weigh gives iochar's group the weight of that many groups
 * (its nice, /proc/self/autogroup) for the run, autogroup_release puts the
 * old nice back. The weight is the session's: while the run lasts the
 * other processes of the session (an idle shell) share it.
 */
#ifndef IOCHAR_UTIL_AUTOGROUP_H
#define IOCHAR_UTIL_AUTOGROUP_H

#include <stdbool.h>

/* What autogroup_weigh changed, for autogroup_release. */
struct autogroup_hold {
	bool held;    /* the nice was changed */
	int old_nice; /* to put back */
	int nice;     /* what was set */
};

/* The autogroup nice (-20..0) whose weight is nearest, by ratio, to
 * groups x the weight of nice 0 (the kernel's sched_prio_to_weight). */
int autogroup_nice_for(unsigned groups);

/* Give this process's autogroup the weight of `groups` groups: nothing
 * for fewer than 2, nor when the group's nice is not the default 0 (the
 * user's own, or another iochar's of the same session: theirs to keep).
 * 0 when applied or left; -ENOENT when autogroups are off or absent,
 * -EPERM without CAP_SYS_NICE, another -errno on a /proc error: then
 * nothing changed and h holds nothing. The caller owns h until
 * autogroup_release. A process killed before it leaves its session's
 * group at that weight until the session ends. */
int autogroup_weigh(unsigned groups, struct autogroup_hold *h);

/* Put back the nice autogroup_weigh replaced, if the group still has the
 * one it set (nothing if it held none). */
void autogroup_release(struct autogroup_hold *h);

#endif
