/* report_csv.h - `iochar verify --output-format=csv`: a header line, one
 * row per target read back (scope "target") and one total row (scope
 * "total": path, offset and bytes empty). The count columns carry what the
 * JSON's "verify"/"targets" objects carry, under the same names; columns
 * are documented in docs/output.md ("verify: CSV output").
 *
 * Failures themselves are not rows: as in JSON, each is one line on
 * stderr (verify/report.h).
 */
#ifndef IOCHAR_VERIFY_REPORT_CSV_H
#define IOCHAR_VERIFY_REPORT_CSV_H

#include <stdint.h>
#include <stdio.h>

#include "base/verify_counts.h"
#include "verify/journal.h"

/* One row's target: path NULL for the total row. error NULL or "" when
 * the target was read without error. */
struct vreport_csv_target {
	const char *path;
	uint64_t offset, bytes;
	const char *error;
};

/* Plain verify (written units checked by header). */
void vreport_csv_header(FILE *f);
void vreport_csv_row(FILE *f, const struct vreport_csv_target *t,
		     const struct verify_counts *c);

/* verify --journal (units checked against a crash journal). */
void vreport_journal_csv_header(FILE *f);
void vreport_journal_csv_row(FILE *f, const struct vreport_csv_target *t,
			     const struct journal_counts *c);

#endif
