/* job_split.c - the split options' values (job_gen.h): bssplit's
 * SIZE/PERCENT lists and random_distribution=zoned's ACCESS%/SIZE lists,
 * per direction, with fio's way of filling missing shares. */
#include "base/job_gen.h"
#include "base/job_gen_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/job.h"
#include "base/json_writer.h"
#include "base/units.h"

/* A bssplit share as fio reads it: a whole number (a '%' after it
 * allowed), above 100 taken as 100, 0 as no share given (UINT32_MAX). */
static int bs_share(const struct option_def *o, const char *b, unsigned *out,
		    struct ioc_err *err)
{
	char *end;
	unsigned long v = strtoul(b, &end, 10);

	if (end == b || *b == '-' || (*end && strcmp(end, "%")))
		return err_usage(err, EINVAL, "%s: share '%s' is not a whole "
				 "number (e.g. 30 or 30%%)", o->name, b);
	*out = v > 100 ? 100 : v ? (unsigned)v : UINT32_MAX;
	return 0;
}

/* One entry "A/B" of a split: bssplit SIZE/PERC, zoned ACCESS%/SIZE%,
 * zoned_abs ACCESS%/SIZE. A missing share is UINT_MAX until spread. */

static int split_entry(const struct option_def *o, enum split_kind k,
		       const char *e, struct job_split *out, struct ioc_err *err)
{
	char a[VAL_MAX], b[VAL_MAX];
	int n = job_gen_piece(e, '/', 0, a);
	unsigned i = out->nr;
	int ret;

	if (n == 2)
		job_gen_piece(e, '/', 1, b);
	/* "A/" (fio): the second share is what the others leave */
	bool second_missing = n == 2 && !*b;
	if (n < 1 || n > 2 || !*a || (second_missing && k == SPLIT_ZONED_ABS))
		return err_usage(err, EINVAL, "%s: '%s' is not %s", o->name, e,
				 k == SPLIT_BS ? "SIZE/PERCENT (e.g. 4k/30)"
					       : "ACCESS%/SIZE (e.g. 60/10)");
	if (i == JOB_SPLIT_MAX)
		return err_usage(err, E2BIG, "%s: more than %d entries", o->name,
				 JOB_SPLIT_MAX);
	out->perc[i] = UINT32_MAX;
	if (k == SPLIT_BS) {
		ret = job_gen_size_piece(o, a, &out->val[i], err);
		if (!ret && n == 2 && !second_missing)
			ret = bs_share(o, b, &out->perc[i], err);
	} else if (n != 2) {
		ret = err_usage(err, EINVAL, "%s: '%s' needs ACCESS%%/SIZE",
				o->name, e);
	} else {
		ret = units_parse_percent(o->name, a, &out->perc[i], err);
		unsigned sp;
		if (!ret && k == SPLIT_ZONED && second_missing)
			out->val[i] = UINT64_MAX;
		else if (!ret && k == SPLIT_ZONED &&
			 !(ret = units_parse_percent(o->name, b, &sp, err)))
			out->val[i] = sp;
		else if (!ret && k == SPLIT_ZONED_ABS)
			ret = units_parse_size(o->name, b, &out->val[i], err);
	}
	if (!ret)
		out->nr++;
	return ret;
}

/* Spread what is missing of 100% over the entries without a share, as
 * fio; more than 100% is refused (bssplit: when a share is missing, as
 * fio refuses it with two or more and would wrap below zero with one),
 * and for zones less too. */
static int split_finish(const struct option_def *o, enum split_kind k,
			const char *v, struct job_split *s, struct ioc_err *err)
{
	unsigned sum = 0, missing = 0, ssum = 0, smissing = 0;

	for (unsigned i = 0; i < s->nr; i++) {
		if (s->perc[i] == UINT32_MAX)
			missing++;
		else
			sum += s->perc[i];
		if (k == SPLIT_ZONED && s->val[i] == UINT64_MAX)
			smissing++;
		else if (k == SPLIT_ZONED)
			ssum += (unsigned)s->val[i];
	}
	if ((sum > 100 && (k != SPLIT_BS || missing)) || ssum > 100)
		return err_usage(err, ERANGE, "%s=%s: shares add up to more than "
				 "100%%", o->name, v);
	for (unsigned i = 0; i < s->nr; i++) {
		if (s->perc[i] == UINT32_MAX)
			s->perc[i] = (100 - sum) / missing;
		if (k == SPLIT_ZONED && s->val[i] == UINT64_MAX)
			s->val[i] = (100 - ssum) / smissing;
	}
	if (k != SPLIT_BS && sum < 100 && !missing)
		return err_usage(err, ERANGE, "%s=%s: access shares add up to "
				 "%u%%, not 100%%", o->name, v, sum);
	return 0;
}

/* "E:E:..[,E:E:..]" into out[DIR_COUNT]; one list serves both. */
int job_split_parse(const struct option_def *o, enum split_kind k,
		       const char *v, struct job_split out[DIR_COUNT],
		       struct ioc_err *err)
{
	char dir[VAL_MAX], e[VAL_MAX];
	int nd = job_gen_piece(v, ',', 0, dir);

	memset(out, 0, DIR_COUNT * sizeof(*out));
	if (nd < 1 || nd > 3)
		return err_usage(err, EINVAL, "%s=%s: at most three lists "
				 "(read,write,trim)", o->name, v);
	for (int d = 0; d < DIR_COUNT && d < nd; d++) {
		job_gen_piece(v, ',', d, dir);
		int ne = job_gen_piece(dir, ':', 0, e);
		if (ne < 0)
			return err_usage(err, EINVAL, "%s=%s: entry too long",
					 o->name, v);
		for (int i = 0; i < ne && *dir; i++) {
			job_gen_piece(dir, ':', i, e);
			if (!*e) /* fio: an empty entry ends the list */
				break;
			int ret = split_entry(o, k, e, &out[d], err);
			if (ret)
				return ret;
		}
		int ret = out[d].nr ? split_finish(o, k, v, &out[d], err) : 0;
		if (ret)
			return ret;
	}
	if (nd == 1)
		out[DIR_WRITE] = out[DIR_READ];
	return 0;
}

int job_gen_parse_bssplit(void *obj, const struct option_def *o,
			  const char *v, struct ioc_err *err)
{
	struct job_split s[DIR_COUNT];
	int ret = job_split_parse(o, SPLIT_BS, v, s, err);

	if (!ret)
		memcpy(((struct job_spec *)obj)->bssplit, s, sizeof(s));
	return ret;
}

static int show_one_split(FILE *f, const struct job_split *s)
{
	for (unsigned i = 0; i < s->nr && i < JOB_SPLIT_MAX; i++)
		if (fprintf(f, "%s%llu/%u", i ? ":" : "",
			    (unsigned long long)s->val[i], s->perc[i]) < 0)
			return -EIO;
	return 0;
}

/* A split field (bssplit, zones) as "V/P:V/P,V/P". */
int job_gen_show_split(const void *obj, const struct option_def *o, FILE *f)
{
	const struct job_split *s =
	    (const struct job_split *)((const char *)obj + o->off);

	if (show_one_split(f, &s[0]) || fputc(',', f) == EOF ||
	    show_one_split(f, &s[1]))
		return -EIO;
	return 0;
}

/* [[[value, percent], ...] read, [...] write], or null when empty. */
static void emit_splits(struct jw *w, const char *key,
			const struct job_split s[DIR_COUNT])
{
	jw_key(w, key);
	if (!s[0].nr && !s[1].nr) {
		jw_null(w);
		return;
	}
	jw_array_begin(w);
	for (int d = 0; d < DIR_COUNT; d++) {
		jw_array_begin(w);
		for (unsigned i = 0; i < s[d].nr && i < JOB_SPLIT_MAX; i++) {
			jw_array_begin(w);
			jw_uint(w, s[d].val[i]);
			jw_uint(w, s[d].perc[i]);
			jw_array_end(w);
		}
		jw_array_end(w);
	}
	jw_array_end(w);
}

void job_gen_emit_split(const void *obj, const struct option_def *o,
			struct jw *w)
{
	emit_splits(w, o->name,
		    (const struct job_split *)((const char *)obj + o->off));
}

