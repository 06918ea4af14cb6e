/* options_show.c - a job's every option value as text, driven by the
 * table: what MPI ranks compare before they run (options.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "cli/options.h"

int options_show_str(FILE *f, const char *s, size_t max)
{
	size_t n = s ? strnlen(s, max) : 0;

	/* length first: no value can pass for the end of another */
	return fprintf(f, "%zu:%.*s", n, (int)n, s ? s : "") < 0 ? -EIO : 0;
}

static int show_enum(FILE *f, const struct option_def *o, int v)
{
	for (const struct opt_enum *e = o->values; e->name; e++)
		if (e->value == v)
			return fprintf(f, "%s", e->name) < 0 ? -EIO : 0;
	return fprintf(f, "%d", v) < 0 ? -EIO : 0;
}

static int show_value(const struct job_spec *spec, const struct option_def *o,
		      FILE *f)
{
	const void *field = (const char *)spec + o->off;

	switch (o->type) {
	case OPT_SIZE:
	case OPT_TIME:
	case OPT_UINT:
	case OPT_PERCENT:
		if (o->size == sizeof(uint64_t))
			return fprintf(f, "%" PRIu64, *(const uint64_t *)field) < 0 ? -EIO : 0;
		return fprintf(f, "%u", *(const unsigned *)field) < 0 ? -EIO : 0;
	case OPT_BOOL:
		return fprintf(f, "%d", *(const bool *)field) < 0 ? -EIO : 0;
	case OPT_ENUM:
		return show_enum(f, o, *(const int *)field);
	case OPT_STRING:
		return options_show_str(f, field, o->size);
	case OPT_CUSTOM:
		return o->show ? o->show(spec, o, f) : -ENOSYS;
	case OPT_IGNORED:
		break;
	}
	return 0;
}

int options_write_job(const struct job_spec *spec, FILE *f)
{
	size_t nr;
	const struct option_def *rows = options_rows(&nr);
	int ret = 0;

	for (size_t i = 0; i < nr && !ret; i++) {
		const struct option_def *o = &rows[i];
		if (o->scope != OPT_SCOPE_JOB || o->type == OPT_IGNORED ||
		    (o->flags & OPT_F_INVERT))
			continue;
		if (fprintf(f, "%s=", o->name) < 0)
			return -EIO;
		ret = show_value(spec, o, f);
		if (!ret && fputc('\n', f) == EOF)
			ret = -EIO;
	}
	return ret;
}
