/* units.h - parsers for option values written the way fio writes them.
 *
 * Sizes ("4k", "1g"), times ("10s", "500ms"), unsigned integers with a range,
 * booleans, percentages and CPU lists. Each parser takes the option name only
 * to build its message: on bad input it returns -EINVAL (not of that form) or
 * -ERANGE (too large, out of range, CPU offline) and fills err, through
 * err_usage, with one line naming the option and value and saying what is
 * accepted, e.g. "bs=4x: not a size; accepted: ...". Parsers never touch
 * *out on failure and keep no state.
 */
#ifndef IOCHAR_BASE_UNITS_H
#define IOCHAR_BASE_UNITS_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* Bytes: a whole number (decimal, or hex with 0x and no suffix) with an
 * optional case-insensitive suffix b, k, m, g, t, p, each optionally followed
 * by "b" or "ib" ("4k" = "4K" = "4kb" = "4KiB" = 4096). All suffixes are
 * powers of 1024, fio's default kb_base. As fio, what follows a closing
 * bracket is ignored ("64k)"); fio ignores any other tail too. */
int units_parse_size(const char *opt, const char *s, uint64_t *out,
		     struct ioc_err *err);

/* A duration in nanoseconds: a whole number with an optional suffix us, ms,
 * s, m, h, d (also usec, msec, sec, min); a plain number is seconds, as in
 * fio's runtime and ramp_time. */
int units_parse_time(const char *opt, const char *s, uint64_t *out_ns,
		     struct ioc_err *err);

/* A whole number (decimal, or hex with 0x) in [min, max]. */
int units_parse_uint(const char *opt, const char *s, uint64_t min, uint64_t max,
		     uint64_t *out, struct ioc_err *err);

/* 1/0, true/false, yes/no, on/off (case-insensitive). */
int units_parse_bool(const char *opt, const char *s, bool *out,
		     struct ioc_err *err);

/* A whole number 0..100, optionally followed by '%'. */
int units_parse_percent(const char *opt, const char *s, unsigned *out,
			struct ioc_err *err);

/* A CPU list such as "0-3,6,8-9" into *out. Every CPU must be below
 * CPU_SETSIZE and, when online is not NULL, in *online. */
int units_parse_cpu_list(const char *opt, const char *s,
			 const cpu_set_t *online, cpu_set_t *out,
			 struct ioc_err *err);

/* units_parse_cpu_list checked against the CPUs online now (read from
 * /sys/devices/system/cpu/online; unchecked if that cannot be read). */
int units_parse_cpus(const char *opt, const char *s, cpu_set_t *out,
		     struct ioc_err *err);

/* The CPUs online now. 0, or -errno when sysfs cannot be read. */
int units_online_cpus(cpu_set_t *out);

/* Write v as the shortest exact size ("4k", "1g", "1536") into buf.
 * Returns buf. */
char *units_format_size(char *buf, size_t len, uint64_t v);

/* Write v nanoseconds as the shortest exact time ("10s", "500ms", "0")
 * into buf. Returns buf. */
char *units_format_time(char *buf, size_t len, uint64_t ns);

/* Write set as a CPU list ("0-3,6") into buf, "" when empty. Returns buf. */
char *units_format_cpus(char *buf, size_t len, const cpu_set_t *set);

#endif
