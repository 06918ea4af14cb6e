/* cmdprio.c - fio's per-I/O priorities. See cmdprio.h. */
#include "engine/cmdprio.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "engine/engine.h"

/* fio's ioprio_value: class 0 is best-effort */
static unsigned prio_value(unsigned cls, unsigned level)
{
	return (cls ? cls : 2u) << 13 | level;
}

bool cmdprio_on(const struct cmdprio_opts *o)
{
	for (int d = 0; d < DIR_COUNT; d++)
		if (o->bss[d][0].bs)
			return true;
	return o->pct != 0;
}

/* fio's bssplit mode: the entries of the I/O's size share the draw */
static int pick_bss(const struct cmdprio_opts *o, const struct cmdprio_bss *e,
		    uint64_t len, struct rng *r)
{
	unsigned tot = 0, acc = 0;

	for (int i = 0; i < CMDPRIO_BSS_MAX && e[i].bs; i++)
		tot += e[i].bs == len ? e[i].perc : 0;
	if (!tot)
		return -1;
	unsigned x = (unsigned)rng_below(r, 100);
	if (x >= tot)
		return -1;
	for (int i = 0; i < CMDPRIO_BSS_MAX && e[i].bs; i++) {
		if (e[i].bs != len)
			continue;
		acc += e[i].perc;
		if (x < acc)
			return e[i].own ? e[i].prio : (int)prio_value(o->cls, o->level);
	}
	return -1;
}

int cmdprio_pick(const struct cmdprio_opts *o, enum io_dir d, uint64_t len,
		 struct rng *r)
{
	if (o->bss[0][0].bs || o->bss[1][0].bs)
		return pick_bss(o, o->bss[d], len, r);
	if (o->pct && rng_below(r, 100) < o->pct)
		return (int)prio_value(o->cls, o->level);
	return -1;
}

/* Add v to out[0..*n) unless there, while room. */
static void add_once(unsigned *out, unsigned *n, unsigned max, unsigned v)
{
	for (unsigned i = 0; i < *n; i++)
		if (out[i] == v)
			return;
	if (*n < max)
		out[(*n)++] = v;
}

unsigned cmdprio_prios(const struct cmdprio_opts *o, enum io_dir d, unsigned *out,
		       unsigned max)
{
	unsigned n = 0;
	if (d >= DIR_COUNT)
		return 0;
	if (o->bss[0][0].bs || o->bss[1][0].bs) {
		for (int i = 0; i < CMDPRIO_BSS_MAX && o->bss[d][i].bs; i++)
			add_once(out, &n, max, o->bss[d][i].own ? o->bss[d][i].prio
							       : prio_value(o->cls, o->level));
	} else if (o->pct) {
		add_once(out, &n, max, prio_value(o->cls, o->level));
	}
	return n;
}

_Static_assert(offsetof(struct cmdprio_opts, pct) == 0, "cmdprio_of finds the struct by pct's row");

const struct cmdprio_opts *cmdprio_of(const struct engine_ops *e, const void *engine_opts)
{
	/* the row's offset is that of the struct's first member, pct */
	for (const struct option_def *r = e ? e->options : NULL; r && r->name; r++)
		if (!strcmp(r->name, "cmdprio_percentage"))
			return (const void *)((const char *)engine_opts + r->off);
	return NULL;
}

/* One BS/PCT[/CLASS/LEVEL] into e (a share of 0 is kept out: *keep). */
static int parse_entry(const struct option_def *o, char *s,
		       struct cmdprio_bss *e, bool *keep, struct ioc_err *err)
{
	char *f[5], *save = NULL, whole[256];
	unsigned n = 0;
	uint64_t bs, v[3] = {0};
	int ret;

	snprintf(whole, sizeof(whole), "%s", s);
	for (char *p = strtok_r(s, "/", &save); p && n < 5; p = strtok_r(NULL, "/", &save))
		f[n++] = p;
	if (n != 2 && n != 4)
		return err_usage(err, EINVAL, "%s: '%s': accepted: BS/PCT or "
				 "BS/PCT/CLASS/LEVEL", o->name, whole);
	if ((ret = units_parse_size(o->name, f[0], &bs, err)))
		return ret;
	static const uint64_t max[3] = {100, 3, 7};
	for (unsigned k = 1; k < n; k++)
		if ((ret = units_parse_uint(o->name, f[k], 0, max[k - 1], &v[k - 1], err)))
			return ret;
	if (!bs || bs > UINT32_MAX)
		return err_usage(err, ERANGE, "%s: block size %s out of range",
				 o->name, f[0]);
	*e = (struct cmdprio_bss){(uint32_t)bs, (uint8_t)v[0], n == 4,
				  (uint16_t)(n == 4 ? prio_value((unsigned)v[1], (unsigned)v[2]) : 0)};
	*keep = v[0] != 0;
	return 0;
}

/* One direction's ':' list into out[CMDPRIO_BSS_MAX]. */
static int parse_list(const struct option_def *o, char *s,
		      struct cmdprio_bss *out, struct ioc_err *err)
{
	unsigned nr = 0;
	char *save = NULL;

	memset(out, 0, CMDPRIO_BSS_MAX * sizeof(*out));
	for (char *p = strtok_r(s, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
		struct cmdprio_bss e;
		bool keep;
		int ret = parse_entry(o, p, &e, &keep, err);
		if (ret)
			return ret;
		if (!keep)
			continue;
		if (nr == CMDPRIO_BSS_MAX)
			return err_usage(err, EINVAL, "%s: at most %d entries "
					 "with a share per direction", o->name,
					 CMDPRIO_BSS_MAX);
		out[nr++] = e;
	}
	return 0;
}

int cmdprio_parse_bssplit(void *obj, const struct option_def *o,
			  const char *v, struct ioc_err *err)
{
	struct cmdprio_bss tmp[DIR_COUNT][CMDPRIO_BSS_MAX];
	char buf[256];
	int ret;

	if (strlen(v) >= sizeof(buf))
		return err_usage(err, EINVAL, "%s: value too long", o->name);
	strcpy(buf, v);
	char *comma = strchr(buf, ',');
	if (comma)
		*comma = '\0';
	if ((ret = parse_list(o, buf, tmp[DIR_READ], err)))
		return ret;
	if (!comma) /* fio: one list is both directions' */
		memcpy(tmp[DIR_WRITE], tmp[DIR_READ], sizeof(tmp[DIR_READ]));
	else if ((ret = parse_list(o, comma + 1, tmp[DIR_WRITE], err)))
		return ret;
	memcpy((char *)obj + o->off, tmp, sizeof(tmp));
	return 0;
}

int cmdprio_show_bssplit(const void *obj, const struct option_def *o, FILE *f)
{
	const struct cmdprio_bss(*b)[CMDPRIO_BSS_MAX] =
	    (const void *)((const char *)obj + o->off);

	for (int d = 0; d < DIR_COUNT; d++)
		for (int i = 0; i < CMDPRIO_BSS_MAX; i++)
			if (fprintf(f, "%s%u/%u/%u/%u", d || i ? ":" : "", b[d][i].bs,
				    b[d][i].perc, b[d][i].own, b[d][i].prio) < 0)
				return -EIO;
	return 0;
}
