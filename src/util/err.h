/* err.h - error messages made where a failure happens, carried up to main.
 *
 * Functions return 0 or -errno (liburing style). When they fail for a reason
 * a user must read, they also fill a caller-provided struct ioc_err with one
 * line that names the culprit (option, path, file:line). There is no global
 * error state: each caller owns its struct.
 */
#ifndef IOCHAR_UTIL_ERR_H
#define IOCHAR_UTIL_ERR_H

#include <stdarg.h>
#include <stddef.h>

#define IOC_ERR_MAX 2048 /* room for a job file's every bad line */

struct ioc_err {
	char msg[IOC_ERR_MAX]; /* "" when no message was set */
	int usage;             /* 1 when the failure is the user's input (exit 2) */
};

/* Set err's message (printf-style) and return -code, so callers can write
 * `return err_set(err, EINVAL, "bs=%s: ...", v);`. err may be NULL. The
 * message is kept only if none was set before: the first, innermost cause wins. */
int err_set(struct ioc_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Same as err_set, and marks the failure as a usage error (exit status 2). */
int err_usage(struct ioc_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix the existing message with "prefix: " (e.g. a job file and line). */
void err_prefix(struct ioc_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A message that quotes a long value (a job file's line of megabytes)
 * keeps its first keep bytes, "..." and its length in bytes in its place,
 * once, so the reason after it still fits one line. Nothing when value
 * is short or not quoted. */
void err_shorten(struct ioc_err *err, const char *value, size_t keep);

/* keep for a value given by the user (a job file's, a command line's) */
#define ERR_VALUE_KEEP 64

#endif
