/* fio_doc.h - fio's JSON layout (fio 3.x "--output-format=json" and
 * "json+") as members of iochar's run JSON document, beside iochar's own.
 * The fields, and where iochar's figures differ from fio's: docs/output.md. */
#ifndef IOCHAR_OUTPUT_FIO_DOC_H
#define IOCHAR_OUTPUT_FIO_DOC_H

#include <stdbool.h>

#include "base/json_writer.h"
#include "stats/result.h"

/* Emit "fio version", "timestamp", "timestamp_ms", "time", "jobs" (one
 * per worker) and "disk_util" as members of the current object of w; with
 * plus (json+), every completion-latency block carries its "bins". r is
 * only read. */
void json_fio_emit(struct jw *w, const struct run_result *r, bool plus);

#endif
