/* json_fio.h - one entry of fio's jobs[] (fio 3.x "--output-format=json"
 * and "json+"); the document around them is fio_doc.h's. The fields, and
 * where iochar's figures differ from fio's: docs/output.md. */
#ifndef IOCHAR_OUTPUT_JSON_FIO_H
#define IOCHAR_OUTPUT_JSON_FIO_H

#include <stdbool.h>

#include "output/fio_groups.h"
#include "stats/result.h"
#include "base/json_writer.h"

/* One entry of fio's jobs[] (or client_stats[]) for e, as an element of
 * w's current array: name, when not NULL, replaces the job's and leaves
 * its "job options" and "steadystate" out (fio's "All clients"); hostname,
 * when not NULL, is added last (fio's client entries). */
void json_fio_entry(struct jw *w, const struct run_result *r, const struct fio_entry *e,
		    bool plus, const char *name, const char *hostname);

#endif
