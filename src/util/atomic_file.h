/* atomic_file.h - write a file so that it is either wholly the old or
 * wholly the new version, even across a crash: write a temporary file in
 * the same directory, fsync it, rename it over the target, fsync the
 * directory. */
#ifndef IOCHAR_UTIL_ATOMIC_FILE_H
#define IOCHAR_UTIL_ATOMIC_FILE_H

#include <stdio.h>

struct atomic_file {
	FILE *f;            /* write the contents here */
	char path[4096];
	char tmp[4112];
};

/* Start writing path. 0 or -errno. */
int atomic_file_open(struct atomic_file *af, const char *path);

/* Make the new contents durable and visible under path. 0 or -errno; on
 * failure the old file is untouched and the temporary one removed. */
int atomic_file_commit(struct atomic_file *af);

/* Give up: remove the temporary file; af may be unopened. */
void atomic_file_abort(struct atomic_file *af);

/* Copy the whole of file src into f. 0 or -errno. */
int copy_file_into(FILE *f, const char *src);

#endif
