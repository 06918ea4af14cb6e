/* output.h - write a run's result as text, JSON or CSV.
 *
 * One emitter per format (text.c, json.c, csv.c), all fed from the same
 * struct run_result through the same figures (summary.h). The JSON schema
 * and CSV columns are documented in docs/output.md.
 */
#ifndef IOCHAR_OUTPUT_OUTPUT_H
#define IOCHAR_OUTPUT_OUTPUT_H

#include <stdio.h>

#include "stats/result.h"

enum output_format {
	OUTPUT_NORMAL, /* human-readable, fio-like */
	OUTPUT_JSON,   /* one JSON object: iochar's members and fio's layout */
	OUTPUT_JSON_PLUS, /* the same, fio's latency bins included (fio's json+) */
	OUTPUT_CSV,    /* header line, then one row per scope/job/clone/dir */
	OUTPUT_TERSE,  /* fio's terse v3: one ';'-separated line per job */
	OUTPUT_NR_FORMATS,
	/* several formats at once ("json,normal"): OUTPUT_MANY with bit
	 * 1 << f set for each format f; output_write writes each once, in
	 * fio's order (terse, json or json+, normal), csv last */
	OUTPUT_MANY = 1 << 16,
};

/* Map a format name ("normal", "json", "json+", "csv", "terse"), or several
 * comma-separated as fio takes them ("json,normal": OUTPUT_MANY), to *out.
 * Returns 0, or -EINVAL for an unknown or empty name (*out is then
 * unchanged). */
int output_format_parse(const char *s, enum output_format *out);

/* Name of fmt, the inverse of output_format_parse ("several" for
 * OUTPUT_MANY). */
const char *output_format_name(enum output_format fmt);

/* Write r to f in format fmt and flush f. r is only read; f stays the
 * caller's (not closed). Returns 0, -EINVAL for an unknown format, -ENOMEM,
 * or -errno (-EIO if unknown) when writing failed. */
int output_write(const struct run_result *r, enum output_format fmt, FILE *f);

#endif
