/* file_sizes.h - each file's size under fio's filesize=LOW-HIGH (issue
 * 14), drawn as fio's setup_files draws it (filesetup.c
 * get_rand_file_size): the one place that decides it. The layout
 * (core/validate.c) turns the sizes into each file's region; the
 * generator, the file service and the pre-write follow those regions.
 */
#ifndef IOCHAR_CORE_FILE_SIZES_H
#define IOCHAR_CORE_FILE_SIZES_H

#include <stdint.h>

#include "base/job.h"

/* Sizes of job's nr_files files into sizes[]. existing[i] is file i's size
 * now (UINT64_MAX: it does not exist). As fio: a file whose size is
 * already in [LOW, HIGH] keeps it; another gets LOW + (HIGH - LOW) x r /
 * 2^32, rounded down to the smallest bs, r the next number of fio's
 * file-size generator (taus88, util/fio_rand.h) of the clone that lays
 * the file out: thread first_thread + its clone (fio's thread_number),
 * seeded from randseed as fio seeds it (taus258 2^64 for
 * random_generator=tausworthe64, as fio). randrepeat=0 with the default
 * randseed: seeded from the clock, as fio's system RNG (not repeatable).
 * Without a range (filesize_high 0) every size is filesize. Pure but for
 * the clock; no allocation. */
void file_sizes_draw(const struct job_spec *job, unsigned first_thread,
		     const uint64_t *existing, uint64_t *sizes);

#endif
