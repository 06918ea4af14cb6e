/* iolog_write.h - write_iolog: what one worker issued, as fio 3.33's
 * iolog.c writes it (version 3: "fio version 3 iolog", then
 * "USEC FILE add|open|close" and "USEC FILE read|write|trim|sync|datasync
 * OFFSET LENGTH", USEC since the log was opened). The file is opened for
 * appending, as fio's, so several workers (or runs) add to one log; lines
 * are written in whole-line chunks (O_APPEND), never split between two
 * writers. Plain state owned by one worker thread.
 */
#ifndef IOCHAR_STATS_IOLOG_WRITE_H
#define IOCHAR_STATS_IOLOG_WRITE_H

#include <stdint.h>

#include "base/job.h"
#include "util/err.h"

struct iolog_writer {
	int fd;                   /* -1: closed */
	uint64_t start_ns;        /* the log's time origin */
	const char *const *files; /* the worker's file names, borrowed */
	unsigned nr_files;
	char *buf;                /* whole lines not yet written; owned */
	size_t len;
	int error;                /* the first write's failure, -errno */
};

enum iolog_act { IOLOG_ACT_READ, IOLOG_ACT_WRITE, IOLOG_ACT_SYNC, IOLOG_ACT_DATASYNC, IOLOG_ACT_TRIM };

/* Open path for appending at now_ns (the log's origin) and write the
 * version line and each file's "add" and "open" lines. files must outlive
 * the writer. 0 or -errno with a message naming path. */
int iolog_writer_open(struct iolog_writer *w, const char *path,
		      const char *const *files, unsigned nr_files,
		      uint64_t now_ns, struct ioc_err *err);

/* The I/O issued at now_ns (offset and len 0 for a sync). */
void iolog_writer_io(struct iolog_writer *w, uint64_t now_ns, unsigned file,
		     enum iolog_act act, uint64_t offset, uint64_t len);

/* Write each file's "close" line at now_ns, flush and close. Returns 0
 * or the first write error (-errno, with a message). w may be closed. */
int iolog_writer_close(struct iolog_writer *w, uint64_t now_ns, struct ioc_err *err);

#endif
