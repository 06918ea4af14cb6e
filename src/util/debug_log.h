/* debug_log.h - fio's --debug traces: what iochar does, in fio's line
 * shape ("parse    1234  handle_option=bs, ptr=4k"): the type's name
 * padded to 8, the thread's id padded to 5, the message, on stdout as
 * fio's dprint. Only what iochar truly does is traced; a type iochar has
 * nothing to say for stays silent. Thread-safe: one write per line. */
#ifndef IOCHAR_UTIL_DEBUG_LOG_H
#define IOCHAR_UTIL_DEBUG_LOG_H

#include <stdbool.h>

/* fio's debug types (debug.h), in fio's order. */
enum debug_type {
	DEBUG_PROCESS,
	DEBUG_FILE,
	DEBUG_IO,
	DEBUG_MEM,
	DEBUG_BLKTRACE,
	DEBUG_VERIFY,
	DEBUG_RANDOM,
	DEBUG_PARSE,
	DEBUG_DISKUTIL,
	DEBUG_JOB,
	DEBUG_MUTEX,
	DEBUG_PROFILE,
	DEBUG_TIME,
	DEBUG_NET,
	DEBUG_RATE,
	DEBUG_COMPRESS,
	DEBUG_STEADYSTATE,
	DEBUG_HELPERTHREAD,
	DEBUG_ZBD,
	DEBUG_NR
};

/* The types' names as fio spells them, then "all", then NULL. */
extern const char *const debug_log_names[];

/* Trace type t from now on (DEBUG_NR: every type). */
void debug_log_enable(enum debug_type t);

/* Is type t traced? (cheap: a test before building a message) */
bool debug_log_on(enum debug_type t);

/* One line of type t, when it is traced. */
void debug_log(enum debug_type t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
