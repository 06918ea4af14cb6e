/* results_read.h - load a result set from disk for `iochar report` and
 * `iochar compare`: a plan results directory (results.json, steps/NNN.json;
 * layout in charz/plan_run.h), one `iochar run --output-format=json`
 * file, or a network result ("kind" "net" or "net-mesh", net_parse.h),
 * as a directory holding results.json or as the file itself.
 *
 * Anything that is not a readable iochar result of a format this iochar
 * knows (missing, truncated, not JSON, someone else's JSON, a newer
 * format_version, a member of the wrong type) is refused with a usage
 * error: one line naming the file and what is wrong.
 */
#ifndef IOCHAR_REPORT_RESULTS_READ_H
#define IOCHAR_REPORT_RESULTS_READ_H

#include <stddef.h>

#include "report/results_model.h"
#include "util/err.h"

/* Largest results file read, bytes. */
#define RESULTS_FILE_MAX (1ull << 30)

/* Load path into s (zeroed first; rs_set_free it in every case). A
 * directory is read as plan results: the header from results.json, the
 * steps from steps/NNN.json (each written atomically as its step ended),
 * or from results.json's "steps" when there is no steps/ directory. A
 * file is a run JSON, or a results.json. 0 or -errno with a message. */
int results_read(const char *path, struct rs_set *s, struct ioc_err *err);

/* Parse one document held in memory: a results.json (with its steps) or a
 * run JSON; file names it in messages. s as for results_read. */
int results_read_text(const char *text, size_t len, const char *file,
		      struct rs_set *s, struct ioc_err *err);

#endif
