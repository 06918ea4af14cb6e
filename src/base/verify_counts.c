/* verify_counts.c - the counters said one way wherever they are shown: a
 * run's summary and `iochar verify` print and write the same line and
 * members, missing_units included (0 when a run has none). */
#include "base/verify_counts.h"

#include <inttypes.h>

#include "base/json_writer.h"

void verify_counts_print(FILE *f, const char *what,
			 const struct verify_counts *c)
{
	fprintf(f,
		"%s: %" PRIu64 " units checked, %" PRIu64
		" failures (corrupted %" PRIu64 ", misplaced %" PRIu64
		", stale %" PRIu64 ", never written %" PRIu64
		", missing %" PRIu64 "), %" PRIu64 " unverified\n",
		what, c->checked_units, c->failures, c->corrupted,
		c->misplaced, c->stale, c->never_written, c->missing_units,
		c->unverified_units);
}

void verify_counts_json(struct jw *w, const struct verify_counts *c)
{
	jw_kv_uint(w, "checked_units", c->checked_units);
	jw_kv_uint(w, "failures", c->failures);
	jw_kv_uint(w, "corrupted", c->corrupted);
	jw_kv_uint(w, "misplaced", c->misplaced);
	jw_kv_uint(w, "stale", c->stale);
	jw_kv_uint(w, "never_written", c->never_written);
	jw_kv_uint(w, "missing_units", c->missing_units);
	jw_kv_uint(w, "unverified_units", c->unverified_units);
}
