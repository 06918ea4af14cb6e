/* null_layout.h - the layout of a job whose engine opens no target
 * (ENGINE_NO_TARGET: null), as fio 3.33's setup_files sizes a diskless
 * engine's files: each file's I/O region from size= (split over the
 * files, the first ones a block more for what does not divide) or
 * filesize= (fixed, or LOW-HIGH drawn as fio: core/file_sizes.h) less
 * offset= and the clone's offset_increment (each clone then has its own
 * regions: clone_files), then size=N% of it. A job with neither size= nor filesize= is
 * refused, as fio refuses it (exit 1, fio's); fio's o->size (the job's I/O: the smaller
 * of size= and all the files' regions) is the worker's cap
 * (worker_setup.c). */
#ifndef IOCHAR_CORE_NULL_LAYOUT_H
#define IOCHAR_CORE_NULL_LAYOUT_H

#include "core/layout.h"

/* out's region (the largest file's), per-file regions, for job's first
 * clone fio's thread first_thread. 0, or -EINVAL with a usage message. */
int null_layout(const struct job_spec *job, unsigned first_thread,
		struct job_layout *out, struct ioc_err *err);

/* The files of a job without targets: those named, else nrfiles=. */
unsigned null_nr_files(const struct job_spec *job);

#endif
