/* csv_table.h - read back a CSV document (RFC 4180, as util/csv.h writes
 * it) in tests: a header line naming the columns, then data rows. */
#ifndef IOCHAR_TESTS_CSV_TABLE_H
#define IOCHAR_TESTS_CSV_TABLE_H

#include <stdint.h>

struct csv_table {
	unsigned nr_rows;   /* data rows, the header not counted */
	unsigned nr_cols;   /* columns of the header */
	char **head;        /* nr_cols names */
	char ***rows;       /* nr_rows rows of nr_cols fields ("" if short) */
};

/* Parse text into t. Fails the test if it has no header line or a row has
 * more fields than the header. */
void csv_table_parse(struct csv_table *t, const char *text);

/* Field of data row `row` under column `col`; fails the test if col is
 * not in the header or row is out of range. */
const char *csv_get(const struct csv_table *t, unsigned row, const char *col);

/* The same as a number (0 for an empty field; fails on anything else
 * that is not a number). */
uint64_t csv_get_u64(const struct csv_table *t, unsigned row, const char *col);

void csv_table_free(struct csv_table *t);

#endif
