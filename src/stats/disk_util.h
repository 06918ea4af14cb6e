/* disk_util.h - the block devices' own counters over a run, as fio's
 * diskutil.c takes them: for each device under the job's files (the
 * device of a block-device target, else of the filesystem holding the
 * file; a partition counts as its disk; a dm/md device brings its slaves,
 * each an entry of its own), the deltas of /sys/block/<dev>/stat between
 * the start of the run and its end. Read by output/ (fio's "disk_util"
 * and "Disk stats (read/write):").
 *
 * A watch is plain data owned by its caller: disk_watch_add at the start,
 * disk_watch_stop at the end, then its entries go to the result (or
 * disk_watch_free). Files on a filesystem without a device (tmpfs,
 * overlay) add nothing, as in fio. */
#ifndef IOCHAR_STATS_DISK_UTIL_H
#define IOCHAR_STATS_DISK_UTIL_H

#include <stdint.h>

/* What /sys/block/<dev>/stat counts, [0] read, [1] write; ticks in ms. */
struct disk_counts {
	uint64_t ios[2], merges[2], sectors[2], ticks[2];
	uint64_t io_ticks;  /* ms the device had I/O in flight */
	uint64_t in_queue;  /* ms of I/O time, weighted by the I/Os in flight */
};

struct disk_util {
	char name[64];      /* the device's sysfs name: "vda", "loop3", "dm-0" */
	char sysfs[256];    /* its /sys directory */
	unsigned major, minor;
	int master;         /* index of the dm/md device it is a slave of, or -1 */
	struct disk_counts start; /* at disk_watch_add */
	struct disk_counts delta; /* over the run, after disk_watch_stop */
	uint64_t start_ns;  /* CLOCK_MONOTONIC of the start sample */
	uint64_t msec;      /* the span of delta, ms */
};

struct disk_watch {
	struct disk_util *v; /* owned */
	unsigned n, cap;
};

/* Watch the device holding path (a block device, a file, or a file yet to
 * be made: its directory's), and its slaves; a device already watched is
 * not added twice. Takes the start sample. Returns 0 (also when path has
 * no device: nothing is added) or -ENOMEM. */
int disk_watch_add(struct disk_watch *dw, const char *path);

/* Take the end sample of every device: delta and msec. A device whose stat
 * can no longer be read keeps zero deltas. */
void disk_watch_stop(struct disk_watch *dw);

/* Release dw's entries. */
void disk_watch_free(struct disk_watch *dw);

/* fio's util: % of the span the device was busy (io_ticks / msec), at
 * most 100. */
double disk_util_pct(const struct disk_util *d);

/* fio's aggregate of the slaves of entry m of v[0..n): their counts summed
 * into *sum, the busiest one's util in *max_util; returns how many (0: m
 * has none, *sum and *max_util are zero). */
unsigned disk_util_slaves(const struct disk_util *v, unsigned n, unsigned m,
			  struct disk_counts *sum, double *max_util);

#endif
