/* fio_disk.h - fio's disk utilization (stats/disk_util.h) in fio 3.33's
 * three forms (stat.c json_array_add_disk_util, print_disk_util): private
 * to src/output/. r is only read; nothing is written when r has no disk. */
#ifndef IOCHAR_OUTPUT_FIO_DISK_H
#define IOCHAR_OUTPUT_FIO_DISK_H

#include <stdio.h>

#include "base/json_writer.h"
#include "stats/result.h"

/* "disk_util": [...] as a member of w's current object (empty list when
 * r has no disk, as fio). */
void fio_disk_json(struct jw *w, const struct run_result *r);

/* The normal output's "\nDisk stats (read/write):\n" and a line per disk. */
void fio_disk_text(FILE *f, const struct run_result *r);

/* The terse line's disk sections: ";name;r_ios;w_ios;...;util%" per disk,
 * ";slaves;..." after a dm/md device's. */
void fio_disk_terse(FILE *f, const struct run_result *r);

#endif
