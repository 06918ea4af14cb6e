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
    {OUTPUT_TERSE, "terse", output_terse_write},
};

/* The order fio writes its formats in (stat.c: terse lines, the JSON
 * document, then the normal text); csv, iochar's, last. */
static const enum output_format many_order[] = {
	OUTPUT_TERSE, OUTPUT_JSON_PLUS, OUTPUT_JSON, OUTPUT_NORMAL, OUTPUT_CSV,
};

#define NR_EMITTERS (sizeof(emitters) / sizeof(emitters[0]))

static const struct output_emitter *emitter_find(enum output_format fmt)
{
	for (size_t i = 0; i < NR_EMITTERS; i++)
		if (emitters[i].fmt == fmt)
			return &emitters[i];
	return NULL;
}

static int format_one(const char *s, size_t len, enum output_format *out)
{
	for (size_t i = 0; i < NR_EMITTERS; i++) {
		if (strlen(emitters[i].name) == len && !strncmp(s, emitters[i].name, len)) {
			*out = emitters[i].fmt;
			return 0;
		}
	}
	return -EINVAL;
}

int output_format_parse(const char *s, enum output_format *out)
{
	unsigned mask = 0;
	enum output_format one = OUTPUT_NORMAL;

	if (!s)
		return -EINVAL;
	for (const char *p = s;; p += strcspn(p, ",") + 1) {
		if (format_one(p, strcspn(p, ","), &one))
			return -EINVAL;
		mask |= 1u << one;
		if (!p[strcspn(p, ",")])
			break;
	}
	/* json+ is json with the bins: both asked, json+ once */
	if (mask & (1u << OUTPUT_JSON_PLUS))
		mask &= ~(1u << OUTPUT_JSON);
	if (!(mask & (mask - 1))) /* one format, however often named */
		*out = (enum output_format)__builtin_ctz(mask);
	else
		*out = (enum output_format)(OUTPUT_MANY | mask);
	return 0;
}

const char *output_format_name(enum output_format fmt)
{
	const struct output_emitter *e = emitter_find(fmt);
	if (fmt & OUTPUT_MANY)
		return "several";
	return e ? e->name : "unknown";
}

/* Each format of the set fmt, in fio's order; the first failure wins. */
static int write_many(const struct run_result *r, enum output_format fmt, FILE *f)
{
	int ret = 0;
	for (size_t i = 0; i < sizeof(many_order) / sizeof(many_order[0]); i++) {
		if (!(fmt & (1u << many_order[i])))
			continue;
		int one = emitter_find(many_order[i])->write(r, f);
		if (!ret)
			ret = one;
	}
	return ret;
}

int output_write(const struct run_result *r, enum output_format fmt, FILE *f)
{
	const struct output_emitter *e = emitter_find(fmt);
	bool flushed;
	int ret;

	if (fmt & OUTPUT_MANY)
		ret = write_many(r, fmt, f);
	else if (!e)
		return -EINVAL;
	else
		ret = e->write(r, f);
	/* A failed write (full disk, closed pipe) is the error to report,
	 * with its errno when the final flush can still tell it. */
	errno = 0;
	flushed = fflush(f) == 0;
	if (!flushed || ferror(f))
		return !flushed && errno ? -errno : -EIO;
	return ret;
}
