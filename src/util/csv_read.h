/* csv_read.h - read a CSV table (RFC 4180, as util/csv.h writes it): a
 * header line naming the columns, then data rows. Quoted fields may hold
 * commas, doubled quotes and line breaks; "\r\n" and "\n" both end a row;
 * blank lines are skipped. The reader of every CSV iochar takes as input
 * (the model's figures tables), so that quoting is handled in one place.
 */
#ifndef IOCHAR_UTIL_CSV_READ_H
#define IOCHAR_UTIL_CSV_READ_H

#include "util/err.h"

struct csv_doc {
	unsigned nr_cols;   /* columns of the header */
	unsigned nr_rows;   /* data rows, the header not counted */
	char **head;        /* nr_cols names */
	char ***rows;       /* nr_rows rows of nr_cols fields */
	unsigned *line;     /* nr_rows: the line each data row starts on */
};

/* Parse text (NUL-terminated, not modified) into doc (zeroed first; free
 * it with csv_doc_free in every case; all strings owned by doc). Refused
 * with a usage error naming ORIGIN:LINE[:COLUMN]: an empty document, an
 * empty or repeated header name, a row with more or fewer fields than the
 * header, a quote inside an unquoted field, text after a closing quote,
 * a quoted field never closed. -ENOMEM without a line. */
int csv_doc_parse(const char *text, const char *origin, struct csv_doc *doc,
		  struct ioc_err *err);

/* The index of column name in doc's header, or -1. */
int csv_doc_col(const struct csv_doc *doc, const char *name);

/* Release what doc owns and zero it; doc may be NULL. */
void csv_doc_free(struct csv_doc *doc);

#endif
