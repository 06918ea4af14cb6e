/* capture_session.h - a block trace taken between two calls: blktrace's
 * relay files through debugfs, or, where the kernel refuses them, the
 * tracefs blk tracer (capture_ftrace.h) on a thread of its own; ended by
 * merging the per-CPU files into one binary dump as `blkparse -d` writes
 * it (fio's read_iolog and iochar's replay it). `iochar capture` traces a
 * fixed time with it; `iochar app` each point of its sweep. */
#ifndef IOCHAR_CMD_CAPTURE_SESSION_H
#define IOCHAR_CMD_CAPTURE_SESSION_H

#include <stdbool.h>

#include "util/err.h"

#define CAP_MAX_DEVS 16

struct capture_session;

/* Are blktrace and blkparse installed? 0, or -ENOENT naming the package. */
int capture_tools(struct ioc_err *err);

/* Start tracing devs[0..nr) (block device paths, checked by the caller;
 * unique base names) with the per-CPU files in a new directory under
 * workdir_prefix ("PREFIX-XXXXXX"). The tracer runs when it returns 0;
 * else -errno with the reason (and nothing is left). */
int capture_begin(struct capture_session **s, const char *const *devs, unsigned nr,
		  const char *workdir_prefix, struct ioc_err *err);

/* Has the tracer stopped by itself (an error)? The reason into err. */
bool capture_failed(struct capture_session *s, struct ioc_err *err);

/* "blktrace", or "tracefs's blk tracer" where the kernel refused the relay
 * files (no debugfs, lockdown). */
const char *capture_via(const struct capture_session *s);

/* Stop tracing, merge into output (written over), remove the per-CPU
 * files and their directory, free s. 0 or -errno with the reason. */
int capture_end(struct capture_session *s, const char *output, struct ioc_err *err);

#endif
