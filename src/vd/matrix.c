/* matrix.c - the paper's RAID comparison over one set of drives: for a
 * level, the VD list (vd=) that a controller would be set up with over
 * those drives (see matrix.h). */
#include "vd/matrix.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* How a level groups the drives: members per VD (0: all of them in one
 * definition), the fewest it can take, and spans. */
struct matrix_level {
	const char *name;
	unsigned group, min, spans;
};

static const struct matrix_level levels[] = {
	{"raid0", 1, 1, 0},   /* one VD per drive */
	{"raid5", 8, 3, 0},   /* VDs of 8 (all the drives when fewer) */
	{"raid10", 4, 4, 2},  /* VDs of 4: 2 mirrored pairs in 2 spans */
	{"jbod", 0, 1, 0},    /* every drive passed through */
};

static const struct matrix_level *level_find(const char *name)
{
	for (unsigned i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (!strcasecmp(levels[i].name, name))
			return &levels[i];
	return NULL;
}

/* Append to out at *at; false when it does not fit. */
static bool put(char *out, size_t len, size_t *at, const char *s)
{
	size_t n = strlen(s);
	if (*at + n >= len)
		return false;
	memcpy(out + *at, s, n + 1);
	*at += n;
	return true;
}

/* One definition over drives [first, first + count). */
static bool put_def(const struct matrix_level *lv, const char *const *drives,
		    unsigned first, unsigned count, const char *opts, char *out,
		    size_t len, size_t *at)
{
	bool ok = put(out, len, at, lv->name);
	ok = ok && put(out, len, at, lv->group ? ",strip=64k,members=" : ",members=");
	for (unsigned i = 0; ok && i < count; i++)
		ok = (!i || put(out, len, at, ":")) && put(out, len, at, drives[first + i]);
	if (ok && lv->spans)
		ok = put(out, len, at, ",spans=2");
	if (ok && lv->group && opts && *opts) /* jbod: no cache to set */
		ok = put(out, len, at, ",") && put(out, len, at, opts);
	return ok;
}

int vd_matrix_def(const char *level, const char *const *drives, unsigned n,
		  const char *opts, char *out, size_t len, unsigned *unused,
		  struct ioc_err *err)
{
	const struct matrix_level *lv = level_find(level);
	if (!lv)
		return err_usage(err, EINVAL,
				 "raid_level=%s: accepted: raid0, raid5, raid10, jbod", level);
	if (n < lv->min)
		return err_usage(err, EINVAL,
				 "raid_level=%s needs at least %u drives (filename=A:B:...), got %u; leave it out with --raid_level=LIST",
				 lv->name, lv->min, n);
	unsigned group = !lv->group ? n : lv->group < n ? lv->group : n;
	if (lv->spans) /* whole mirrored pairs in whole spans */
		group -= group % 4;
	unsigned vds = n / group;
	size_t at = 0;
	out[0] = '\0';
	for (unsigned v = 0; v < vds; v++)
		if ((v && !put(out, len, &at, ";")) ||
		    !put_def(lv, drives, v * group, group, opts, out, len, &at))
			return err_usage(err, E2BIG,
					 "raid_level=%s: the VD list over %u drives is too long",
					 lv->name, n);
	*unused = n - vds * group;
	return 0;
}
