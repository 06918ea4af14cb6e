/* prio_stats.h - fio's completion latency per I/O priority ("prios" in
 * its JSON, "clat prio C/L" in its normal output): for each direction a
 * few priority values (class << 13 | level), each with its histogram, in
 * fio's order (the job's own first, then cmdprio's as its options list
 * them). Kept only for workers whose engine gives I/Os priorities of
 * their own (cmdprio_percentage, cmdprio_bssplit); one worker's, or
 * merged by one thread after the workers stop (dist/wire.c carries it
 * between ranks).
 */
#ifndef IOCHAR_STATS_PRIO_STATS_H
#define IOCHAR_STATS_PRIO_STATS_H

#include <stdbool.h>

#include "base/job.h"
#include "stats/hist.h"

/* the job's own and up to 3 cmdprio_bssplit entries' (engine/cmdprio.h) */
#define PRIO_STATS_MAX 4

struct prio_hist {
	unsigned ioprio;
	struct hist h;
};

struct prio_stats {
	unsigned nr[DIR_COUNT];
	struct prio_hist e[DIR_COUNT][PRIO_STATS_MAX];
};

/* A new, empty table (free()), or NULL when out of memory. */
struct prio_stats *prio_stats_new(void);

/* The slot of ioprio in direction d, added after the others when new;
 * NULL when the table is full. */
struct prio_hist *prio_stats_slot(struct prio_stats *ps, enum io_dir d, unsigned ioprio);

/* Record value v (ns) of an I/O of direction d with priority ioprio (a
 * table that is full: not recorded). Trims are not recorded (fio keeps
 * no priorities for them). */
void prio_stats_record(struct prio_stats *ps, enum io_dir d, unsigned ioprio, uint64_t v);

/* Add src's direction sd into *dst's direction dd, slot by slot by
 * priority, in src's order (fio's sum_clat_prio_stats); *dst is made
 * when NULL. src NULL adds nothing. 0 or -ENOMEM. */
int prio_stats_add(struct prio_stats **dst, enum io_dir dd, const struct prio_stats *src,
		   enum io_dir sd);

/* How many priorities of direction d have samples (fio shows them per
 * priority from two on). */
unsigned prio_stats_with_samples(const struct prio_stats *ps, enum io_dir d);

#endif
