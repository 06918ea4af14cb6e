/* results_file.h - where results and reports go: never over data iochar
 * did not write, and never half written.
 *
 * The rules (README "Safety", docs/output.md "Results files"):
 *  - a path that does not exist yet, an empty regular file, or a results
 *    file iochar wrote (it carries the "results" mark, target/marker.h, or,
 *    on a filesystem without user xattrs, starts the way iochar's output
 *    does) may be replaced;
 *  - a block device, or an existing regular file holding anything else, is
 *    refused unless forced;
 *  - a directory is refused; character devices, pipes and sockets
 *    (/dev/null), and /dev/stdout, /dev/stderr, /dev/fd/N whatever they
 *    are (the caller's redirection, `>> log`), are written directly;
 *  - a regular file is written as a temporary file in the same directory,
 *    renamed into place at commit: a signal, a full disk or a crash leaves
 *    the old file or the whole new one, never a 0-byte or half file.
 */
#ifndef IOCHAR_OUTPUT_RESULTS_FILE_H
#define IOCHAR_OUTPUT_RESULTS_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "util/atomic_file.h"
#include "util/err.h"

struct results_file {
	FILE *f; /* write the results here */
	bool atomic;
	struct atomic_file af;
};

/* May results be written to path (the value of option opt, e.g. "--output",
 * for the message)? Only reads. 0, or -errno with one line in err naming
 * path: a usage error (exit 2) for a refusal or a path that cannot be
 * written (missing directory, a directory, no permission). */
int results_file_check(const char *opt, const char *path, bool force,
		       struct ioc_err *err);

/* results_file_check, then start writing path: a marked temporary file
 * next to it, or path itself when it is not a regular file. 0 or -errno
 * with err as above. On success rf->f is open until commit or abort. */
int results_file_open(struct results_file *rf, const char *opt,
		      const char *path, bool force, struct ioc_err *err);

/* Make the results durable and visible under the path. 0 or -errno; on
 * failure the old file is unchanged and the temporary one removed. */
int results_file_commit(struct results_file *rf);

/* Give up: remove the temporary file (the old file stays). rf may be
 * unopened (zeroed). */
void results_file_abort(struct results_file *rf);

/* Is the file at path the same file as the one at other (both exist)? For
 * refusing to write a report over its own input. */
bool results_file_same(const char *path, const char *other);

#endif
