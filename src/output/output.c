/* output.c - format names and dispatch to the emitters. */
#include "output/output.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "output/formats.h"

struct output_emitter {
	enum output_format fmt;
	const char *name;
	int (*write)(const struct run_result *r, FILE *f);
};

static const struct output_emitter emitters[] = {
    {OUTPUT_NORMAL, "normal", output_text_write},
    {OUTPUT_JSON, "json", output_json_write},
    {OUTPUT_JSON_PLUS, "json+", output_json_plus_write},
    {OUTPUT_CSV, "csv", output_csv_write},
};

#define NR_EMITTERS (sizeof(emitters) / sizeof(emitters[0]))

static const struct output_emitter *emitter_find(enum output_format fmt)
{
	for (size_t i = 0; i < NR_EMITTERS; i++)
		if (emitters[i].fmt == fmt)
			return &emitters[i];
	return NULL;
}

int output_format_parse(const char *s, enum output_format *out)
{
	if (!s)
		return -EINVAL;
	for (size_t i = 0; i < NR_EMITTERS; i++) {
		if (strcmp(s, emitters[i].name) == 0) {
			*out = emitters[i].fmt;
			return 0;
		}
	}
	return -EINVAL;
}

const char *output_format_name(enum output_format fmt)
{
	const struct output_emitter *e = emitter_find(fmt);
	return e ? e->name : "unknown";
}

int output_write(const struct run_result *r, enum output_format fmt, FILE *f)
{
	const struct output_emitter *e = emitter_find(fmt);
	bool flushed;
	int ret;

	if (!e)
		return -EINVAL;
	ret = e->write(r, f);
	/* A failed write (full disk, closed pipe) is the error to report,
	 * with its errno when the final flush can still tell it. */
	errno = 0;
	flushed = fflush(f) == 0;
	if (!flushed || ferror(f))
		return !flushed && errno ? -errno : -EIO;
	return ret;
}
