/* report_csv.c - verify counts as CSV rows (see report_csv.h). */
#include <inttypes.h>

#include "util/csv.h"
#include "verify/report_csv.h"

static const char common_cols[] = "scope,path,offset,bytes,checked_units,failures";

/* scope,path,offset,bytes, */
static void row_start(FILE *f, const struct vreport_csv_target *t)
{
	if (!t->path) {
		fputs("total,,,,", f);
		return;
	}
	fputs("target,", f);
	csv_field(f, t->path);
	fprintf(f, ",%" PRIu64 ",%" PRIu64 ",", t->offset, t->bytes);
}

/* ,error\n */
static void row_end(FILE *f, const struct vreport_csv_target *t)
{
	fputc(',', f);
	csv_field(f, t->error ? t->error : "");
	fputc('\n', f);
}

void vreport_csv_header(FILE *f)
{
	fprintf(f,
		"%s,corrupted,misplaced,stale,never_written,"
		"missing_units,unverified_units,error\n",
		common_cols);
}

void vreport_csv_row(FILE *f, const struct vreport_csv_target *t,
		     const struct verify_counts *c)
{
	row_start(f, t);
	fprintf(f,
		"%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
		c->checked_units, c->failures, c->corrupted, c->misplaced,
		c->stale, c->never_written, c->missing_units,
		c->unverified_units);
	row_end(f, t);
}

void vreport_journal_csv_header(FILE *f)
{
	fprintf(f,
		"%s,lost,torn,corrupted,misplaced,missing_units,"
		"acknowledged_units,"
		"old_units,new_units,mixed_units,unjournaled_units,"
		"unverified_units,error\n",
		common_cols);
}

void vreport_journal_csv_row(FILE *f, const struct vreport_csv_target *t,
			     const struct journal_counts *c)
{
	row_start(f, t);
	fprintf(f,
		"%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		",%" PRIu64 ",%" PRIu64 ",%" PRIu64,
		c->checked_units, c->failures, c->lost, c->torn, c->corrupted,
		c->misplaced, c->missing_units, c->acknowledged_units,
		c->old_units, c->new_units, c->mixed_units,
		c->unjournaled_units, c->unverified_units);
	row_end(f, t);
}
