/* devstat.h - the device's own figures while a point runs: the block
 * layer's counters of the device the target's file system is on
 * (/sys/dev/block/MAJ:MIN/stat, the device of the directory's st_dev: a
 * partition, a loop device, a dm volume as it is), sampled each second,
 * turned into IOPS, MB/s and latency as iostat does (r_await = read
 * ticks / reads). */
#ifndef IOCHAR_APP_DEVSTAT_H
#define IOCHAR_APP_DEVSTAT_H

#include <stddef.h>
#include <stdint.h>

#include "app/point.h"

struct app_devstat {
	uint64_t rd, rsect, rms, wr, wsect, wms, ticks;
	double t; /* when sampled, seconds (monotonic) */
};

/* The block device under directory dir: its kernel name ("loop3",
 * "sda2") and its stat file. 0, or -ENODEV when the file system has none
 * (tmpfs, overlay, btrfs' anonymous devices). */
int app_dev_find(const char *dir, char *name, size_t nsize, char *stat, size_t ssize);

/* Read the counters now; 0 or -errno. */
int app_dev_sample(const char *stat, struct app_devstat *s);

/* The figures between samples a and b (b later). */
void app_dev_figures(const struct app_devstat *a, const struct app_devstat *b,
		     struct app_devfig *f);

#endif
