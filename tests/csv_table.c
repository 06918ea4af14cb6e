/* csv_table.c - see csv_table.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "csv_table.h"

/* One field starting at *p; advances *p past it and its separator. Sets
 * *eol when the field ended the line (or the text). */
static char *next_field(const char **p, int *eol)
{
	const char *s = *p;
	size_t cap = strlen(s) + 1, n = 0;
	char *out = malloc(cap);

	assert_non_null(out);
	if (*s == '"') {
		s++;
		while (*s && !(*s == '"' && s[1] != '"')) {
			if (*s == '"')
				s++;
			out[n++] = *s++;
		}
		if (*s == '"')
			s++;
	} else {
		while (*s && *s != ',' && *s != '\n' && *s != '\r')
			out[n++] = *s++;
	}
	out[n] = 0;
	if (*s == '\r')
		s++;
	*eol = *s != ',';
	if (*s)
		s++;
	*p = s;
	return out;
}

static char **next_row(const char **p, unsigned *n)
{
	char **f = NULL;
	int eol = 0;

	*n = 0;
	while (!eol) {
		f = realloc(f, (*n + 1) * sizeof(*f));
		assert_non_null(f);
		f[(*n)++] = next_field(p, &eol);
	}
	return f;
}

void csv_table_parse(struct csv_table *t, const char *text)
{
	const char *p = text;
	unsigned n;

	memset(t, 0, sizeof(*t));
	if (!text || !*text)
		fail_msg("CSV: no header line");
	t->head = next_row(&p, &t->nr_cols);
	while (*p) {
		char **r = next_row(&p, &n);
		if (n > t->nr_cols)
			fail_msg("CSV row %u: %u fields, header has %u",
				 t->nr_rows, n, t->nr_cols);
		r = realloc(r, t->nr_cols * sizeof(*r));
		assert_non_null(r);
		for (; n < t->nr_cols; n++)
			r[n] = strdup("");
		t->rows = realloc(t->rows, (t->nr_rows + 1) * sizeof(*t->rows));
		assert_non_null(t->rows);
		t->rows[t->nr_rows++] = r;
	}
}

const char *csv_get(const struct csv_table *t, unsigned row, const char *col)
{
	if (row >= t->nr_rows)
		fail_msg("CSV: no row %u (%u rows)", row, t->nr_rows);
	for (unsigned c = 0; c < t->nr_cols; c++)
		if (!strcmp(t->head[c], col))
			return t->rows[row][c];
	fail_msg("CSV: no column '%s'", col);
	return "";
}

uint64_t csv_get_u64(const struct csv_table *t, unsigned row, const char *col)
{
	const char *s = csv_get(t, row, col);
	char *end;
	uint64_t v;

	if (!*s)
		return 0;
	v = strtoull(s, &end, 10);
	if (*end)
		fail_msg("CSV row %u column %s: '%s' is not a count", row, col, s);
	return v;
}

void csv_table_free(struct csv_table *t)
{
	for (unsigned c = 0; c < t->nr_cols; c++)
		free(t->head[c]);
	free(t->head);
	for (unsigned r = 0; r < t->nr_rows; r++) {
		for (unsigned c = 0; c < t->nr_cols; c++)
			free(t->rows[r][c]);
		free(t->rows[r]);
	}
	free(t->rows);
	memset(t, 0, sizeof(*t));
}
