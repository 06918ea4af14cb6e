/* file_names.h - fio's names for the files of a job without filename=:
 * filename_format ($jobname.$jobnum.$filenum by default) in directory,
 * nrfiles of them, as fio 3.33's init.c and filesetup.c make them. */
#ifndef IOCHAR_BASE_FILE_NAMES_H
#define IOCHAR_BASE_FILE_NAMES_H

#include <stddef.h>

#include "base/job.h"
#include "util/err.h"

/* Expand fmt ("" = fio's default) for one file into buf: $jobname,
 * $jobnum, $filenum and $clientuid (empty: there is no fio client), each
 * case-insensitively, wherever they appear. 0, or -ENAMETOOLONG with a
 * usage message when the name does not fit len. */
int file_names_format(const char *fmt, const char *jobname, unsigned jobnum,
		      unsigned filenum, char *buf, size_t len,
		      struct ioc_err *err);

/* The directory clone jobnum of a job uses: fio spreads the clones over a
 * ':'-separated list, jobnum modulo its length. "" when dirs is "". */
void file_names_dir(const char *dirs, unsigned jobnum, char *buf, size_t len);

/* Give spec (no filename yet) its nrfiles files as fio names them, for
 * each of its numjobs clones (jobnum k in the k-th directory of the
 * list, files_per_clone set when there are several); as fio, one file
 * whose name is the job's name and exists as something else than a
 * regular file (a device) is used as it is, by every clone. A directory
 * that does not exist is refused, as fio does. Sets create_parent: fio
 * makes the directories a format names. 0, or -errno with a usage
 * message naming the option. */
int file_names_apply(struct job_spec *spec, struct ioc_err *err);

/* filename= and directory= together: fio puts the files in directory
 * (the first of a ':' list: fio adds given files once, for every clone).
 * Nothing to do without a directory. 0, or -errno with a usage message
 * naming the option. */
int file_names_in_directory(struct job_spec *spec, struct ioc_err *err);

/* file_append=1 (jobs that only write): the job's offset becomes the
 * size of its regular files, as fio starts at each file's end; they must
 * be of one size (the generator has one offset). 0, or -ENOTSUP with a
 * usage message. */
int file_names_append(struct job_spec *spec, struct ioc_err *err);

/* opendir=DIR: every regular file under DIR (recursively, in readdir
 * order, as fio) added to spec's files. 0, or -errno with a usage
 * message (DIR unreadable, no file in it, more than JOB_MAX_FILES). */
int file_names_opendir(struct job_spec *spec, const char *dir,
		       struct ioc_err *err);

#endif
