/* fio_options.c - fio's "global options" and "job options"; see
 * fio_options.h. */
#include "output/fio_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/job_options.h"
#include "base/option.h"
#include "base/units.h"

/* The given options of j in [from, end) as the object key; nothing when
 * there are none. */
static void given_object(struct jw *w, const char *key, const struct job_spec *j, size_t from,
			 size_t end)
{
	const char *name, *value;
	size_t pos = from;
	bool any = false;

	while ((name = job_given_next(j, &pos, end, &value))) {
		if (!any) {
			jw_key(w, key);
			jw_object_begin(w);
			any = true;
		}
		jw_kv_string(w, name, value);
	}
	if (any)
		jw_object_end(w);
}

void fio_global_options_json(struct jw *w, const struct run_result *r)
{
	for (unsigned i = r->nr_jobs; i-- > 0;)
		if (r->jobs[i].given_kept) {
			given_object(w, "global options", &r->jobs[i], 0, r->jobs[i].given_own);
			return;
		}
}

/* Row o's value in j as text, sizes and times in fio's units. */
static void row_text(const struct option_def *o, const struct job_spec *j, char *buf, size_t len)
{
	const void *field = (const char *)j + o->off;
	FILE *f;

	buf[0] = 0;
	if (o->type == OPT_SIZE && o->size == sizeof(uint64_t)) {
		units_format_size(buf, len, *(const uint64_t *)field);
		return;
	}
	if (o->type == OPT_TIME && o->size == sizeof(uint64_t)) {
		units_format_time(buf, len, *(const uint64_t *)field);
		return;
	}
	if ((f = fmemopen(buf, len, "w"))) {
		(void)option_show(o, j, f);
		fclose(f);
	}
}

/* Was row i of rows set on j, or does its value differ from the row's
 * default (a mode's own, as the scratch run's)? */
static bool row_shown(const struct option_def *rows, size_t i, const struct job_spec *j)
{
	const struct option_def *o = &rows[i];
	if (o->type == OPT_IGNORED || !strcmp(o->name, "name") || (o->flags & OPT_F_INVERT))
		return false;
	if (job_row_was_set(j, i))
		return true;
	return o->type != OPT_CUSTOM && option_differs_from_default(o, j);
}

/* A job without a record of its input: its name, then each row set on
 * it or away from its default, by the rows' order. */
static void rows_object(struct jw *w, const struct job_spec *j)
{
	size_t nr;
	const struct option_def *rows = job_option_rows(&nr);
	char buf[256];

	jw_key(w, "job options");
	jw_object_begin(w);
	jw_kv_string(w, "name", j->name);
	for (size_t i = 0; i < nr; i++) {
		if (!row_shown(rows, i, j))
			continue;
		row_text(&rows[i], j, buf, sizeof(buf));
		jw_kv_string(w, rows[i].name, buf);
	}
	jw_object_end(w);
}

void fio_job_options_json(struct jw *w, const struct job_spec *j)
{
	if (j->given_kept)
		given_object(w, "job options", j, j->given_own, j->given_len);
	else
		rows_object(w, j);
}
