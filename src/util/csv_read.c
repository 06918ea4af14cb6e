/* csv_read.c - see csv_read.h. */
#include "util/csv_read.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Growing list of the fields of the row being read. */
struct csv_rec {
	char **f;
	unsigned n, cap;
};

struct csv_cur {
	const char *p;
	const char *origin;
	unsigned line;
	const char *line_start;
};

static unsigned cur_col(const struct csv_cur *c)
{
	return (unsigned)(c->p - c->line_start) + 1;
}

static int rec_push(struct csv_rec *r, const char *s, size_t len)
{
	if (r->n == r->cap) {
		unsigned cap = r->cap ? r->cap * 2 : 16;
		char **f = realloc(r->f, cap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		r->f = f;
		r->cap = cap;
	}
	char *v = malloc(len + 1);
	if (!v)
		return -ENOMEM;
	memcpy(v, s, len);
	v[len] = '\0';
	r->f[r->n++] = v;
	return 0;
}

static void rec_clear(struct csv_rec *r)
{
	for (unsigned i = 0; i < r->n; i++)
		free(r->f[i]);
	r->n = 0;
}

static void cur_newline(struct csv_cur *c)
{
	c->line++;
	c->line_start = c->p;
}

/* A quoted field: c->p is on the opening quote. The value is copied with
 * its doubled quotes undone; line breaks inside count as lines. */
static int read_quoted(struct csv_cur *c, struct csv_rec *r,
		       struct ioc_err *err)
{
	unsigned line = c->line, col = cur_col(c);
	size_t cap = 64, len = 0;
	char *buf = malloc(cap);

	if (!buf)
		return -ENOMEM;
	c->p++;
	for (;;) {
		char ch = *c->p;
		if (!ch) {
			free(buf);
			return err_usage(err, EINVAL, "%s:%u:%u: quoted field never closed",
					 c->origin, line, col);
		}
		if (ch == '"' && c->p[1] != '"')
			break;
		if (ch == '"')
			c->p++;
		if (len + 1 == cap) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
		}
		buf[len++] = ch;
		c->p++;
		if (ch == '\n')
			cur_newline(c);
	}
	c->p++;
	int ret = rec_push(r, buf, len);
	free(buf);
	if (!ret && *c->p && *c->p != ',' && *c->p != '\n' &&
	    !(*c->p == '\r' && c->p[1] == '\n'))
		return err_usage(err, EINVAL, "%s:%u:%u: text after a closing quote",
				 c->origin, c->line, cur_col(c));
	return ret;
}

static int read_plain(struct csv_cur *c, struct csv_rec *r, struct ioc_err *err)
{
	const char *s = c->p;

	while (*c->p && *c->p != ',' && *c->p != '\n' &&
	       !(*c->p == '\r' && c->p[1] == '\n')) {
		if (*c->p == '"')
			return err_usage(err, EINVAL,
					 "%s:%u:%u: a quote inside an unquoted field",
					 c->origin, c->line, cur_col(c));
		c->p++;
	}
	return rec_push(r, s, (size_t)(c->p - s));
}

/* One row into r (cleared first); c->p ends past its line break. */
static int read_row(struct csv_cur *c, struct csv_rec *r, struct ioc_err *err)
{
	int ret;

	rec_clear(r);
	for (;;) {
		ret = *c->p == '"' ? read_quoted(c, r, err) : read_plain(c, r, err);
		if (ret)
			return ret;
		if (*c->p != ',')
			break;
		c->p++;
	}
	if (*c->p == '\r')
		c->p++;
	if (*c->p == '\n') {
		c->p++;
		cur_newline(c);
	}
	return 0;
}

static int check_head(const struct csv_rec *r, const char *origin,
		      struct ioc_err *err)
{
	for (unsigned i = 0; i < r->n; i++) {
		if (!r->f[i][0])
			return err_usage(err, EINVAL, "%s:1: column %u has no name",
					 origin, i + 1);
		for (unsigned k = 0; k < i; k++)
			if (!strcmp(r->f[i], r->f[k]))
				return err_usage(err, EINVAL, "%s:1: column '%s' twice",
						 origin, r->f[i]);
	}
	return 0;
}

static int add_row(struct csv_doc *doc, struct csv_rec *r, unsigned line)
{
	char ***rows = realloc(doc->rows, (doc->nr_rows + 1) * sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	doc->rows = rows;
	unsigned *lines = realloc(doc->line, (doc->nr_rows + 1) * sizeof(*lines));
	if (!lines)
		return -ENOMEM;
	doc->line = lines;
	char **f = malloc(r->n * sizeof(*f));
	if (!f)
		return -ENOMEM;
	memcpy(f, r->f, r->n * sizeof(*f));
	r->n = 0; /* the fields now belong to doc */
	doc->rows[doc->nr_rows] = f;
	doc->line[doc->nr_rows++] = line;
	return 0;
}

static bool blank_line(const char *p)
{
	return *p == '\n' || (*p == '\r' && p[1] == '\n');
}

int csv_doc_parse(const char *text, const char *origin, struct csv_doc *doc,
		  struct ioc_err *err)
{
	struct csv_cur c = {text, origin, 1, text};
	struct csv_rec r = {0};
	int ret = 0;

	memset(doc, 0, sizeof(*doc));
	if (!*text) {
		ret = err_usage(err, EINVAL, "%s: empty: no header line", origin);
		goto out;
	}
	if ((ret = read_row(&c, &r, err)) || (ret = check_head(&r, origin, err)))
		goto out;
	doc->nr_cols = r.n;
	doc->head = r.f;
	r = (struct csv_rec){0};
	while (*c.p) {
		if (blank_line(c.p)) {
			c.p += *c.p == '\r' ? 2 : 1;
			cur_newline(&c);
			continue;
		}
		unsigned line = c.line;
		if ((ret = read_row(&c, &r, err)))
			goto out;
		if (r.n != doc->nr_cols) {
			ret = err_usage(err, EINVAL, "%s:%u: %u fields, the header has %u",
					origin, line, r.n, doc->nr_cols);
			goto out;
		}
		if ((ret = add_row(doc, &r, line)))
			goto out;
	}
out:
	rec_clear(&r);
	free(r.f);
	return ret;
}

int csv_doc_col(const struct csv_doc *doc, const char *name)
{
	for (unsigned i = 0; i < doc->nr_cols; i++)
		if (!strcmp(doc->head[i], name))
			return (int)i;
	return -1;
}

void csv_doc_free(struct csv_doc *doc)
{
	if (!doc)
		return;
	for (unsigned i = 0; i < doc->nr_rows; i++) {
		for (unsigned k = 0; k < doc->nr_cols; k++)
			free(doc->rows[i][k]);
		free(doc->rows[i]);
	}
	for (unsigned k = 0; k < doc->nr_cols; k++)
		free(doc->head[k]);
	free(doc->head);
	free(doc->rows);
	free(doc->line);
	memset(doc, 0, sizeof(*doc));
}
