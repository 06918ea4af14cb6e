/* job_gen.c - see job_gen.h. */
#include "base/job_gen.h"
#include "base/job_gen_int.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/job.h"
#include "base/fio_seps.h"
#include "base/json_writer.h"
#include "base/units.h"
#include "util/note.h"


/* See job_gen_int.h. Piece i of v split at sep into out; the
 * number of pieces, or -1 when one is too long. */
int job_gen_piece(const char *v, char sep, int i, char out[VAL_MAX])
{
	int n = 0;
	const char *p = v;

	for (;; n++) {
		const char *e = strchr(p, sep);
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (n == i) {
			if (len >= VAL_MAX)
				return -1;
			memcpy(out, p, len);
			out[len] = '\0';
		}
		if (!e)
			return n + 1;
		p = e + 1;
	}
}

static struct job_spec *spec_of(void *obj) { return obj; }

/* Per direction: "R,W[,T]"; one value serves both, an empty one keeps
 * the default (fio). fn parses one piece into the direction's slot. */
typedef int (*dir_fn)(struct job_spec *s, const struct option_def *o,
		      enum io_dir d, const char *piece, struct ioc_err *err);

static int per_dir(struct job_spec *s, const struct option_def *o,
		   const char *v, dir_fn fn, struct ioc_err *err)
{
	char p[VAL_MAX];
	int n = job_gen_piece(v, ',', 0, p);

	if (n < 0 || n > 3)
		return err_usage(err, EINVAL,
				 "%s=%s: at most three values (read,write,trim)",
				 o->name, v);
	for (int d = 0; d < DIR_COUNT; d++) {
		job_gen_piece(v, ',', n == 1 ? 0 : d, p);
		if (d >= n && n > 1)
			break;
		if (!*p && n > 1)
			continue;
		int ret = fn(s, o, (enum io_dir)d, p, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* blockalign=0 is its default: the smallest bs. */
static bool zero_ok(const struct option_def *o)
{
	return strcmp(o->name, "blockalign") == 0;
}

int job_gen_size_piece(const struct option_def *o, const char *p, uint64_t *out,
		      struct ioc_err *err)
{
	uint64_t v;
	int ret = units_parse_size(o->name, p, &v, err);

	if (ret)
		return ret;
	if ((v == 0 && !zero_ok(o)) || v > (1ull << 30))
		return err_usage(err, ERANGE,
				 "%s=%s: out of range; accepted: %s to 1g",
				 o->name, p, zero_ok(o) ? "0" : "1");
	*out = v;
	return 0;
}

static int bs_dir(struct job_spec *s, const struct option_def *o,
		  enum io_dir d, const char *p, struct ioc_err *err)
{
	return job_gen_size_piece(o, p, &s->bs_dir[d], err);
}

int job_gen_parse_bs(void *obj, const struct option_def *o, const char *fv,
		     struct ioc_err *err)
{
	struct job_spec *s = spec_of(obj), t = *s;
	char v[VAL_MAX * 3];
	int ret;

	fio_dir_commas(fv, true, v, sizeof(v)); /* bs=4k:8k, bs=4k-8k */
	t.bs_dir[DIR_READ] = t.bs_dir[DIR_WRITE] = 0;
	if ((ret = per_dir(&t, o, v, bs_dir, err)))
		return ret;
	/* "bs=,8k", "bs=8k,": an empty value is fio's default, 4k */
	if (!t.bs_dir[DIR_READ])
		t.bs_dir[DIR_READ] = 4096;
	if (!t.bs_dir[DIR_WRITE] && strchr(v, ','))
		t.bs_dir[DIR_WRITE] = 4096;
	/* fio's T: the write's unless a third piece is given ("8k,32k,"
	 * leaves it fio's default, 4k) */
	char p[VAL_MAX];
	uint64_t trim = 0;
	if (job_gen_piece(v, ',', 0, p) == 3) {
		job_gen_piece(v, ',', 2, p);
		trim = 4096;
		if (*p && (ret = job_gen_size_piece(o, p, &trim, err)))
			return ret;
	}
	s->bs = t.bs_dir[DIR_READ];
	s->bs_dir[DIR_READ] = 0;
	s->bs_dir[DIR_WRITE] = t.bs_dir[DIR_WRITE] == s->bs ? 0 : t.bs_dir[DIR_WRITE];
	uint64_t w = s->bs_dir[DIR_WRITE] ? s->bs_dir[DIR_WRITE] : s->bs;
	s->bs_trim = trim == w ? 0 : trim;
	return 0;
}

int job_gen_show_bs(const void *obj, const struct option_def *o, FILE *f)
{
	const struct job_spec *s = obj;

	(void)o;
	if (fprintf(f, "%llu", (unsigned long long)s->bs) < 0)
		return -EIO;
	uint64_t w = s->bs_dir[DIR_WRITE] ? s->bs_dir[DIR_WRITE] : s->bs;
	if ((s->bs_dir[DIR_WRITE] || s->bs_trim) &&
	    fprintf(f, ",%llu", (unsigned long long)w) < 0)
		return -EIO;
	if (s->bs_trim && fprintf(f, ",%llu", (unsigned long long)s->bs_trim) < 0)
		return -EIO;
	return 0;
}

int job_gen_check_bs(const void *obj, const struct option_def *o,
		     struct ioc_err *err)
{
	const struct job_spec *s = obj;
	uint64_t w = s->bs_dir[DIR_WRITE];

	if (s->bs == 0 || s->bs > (1ull << 30))
		return err_usage(err, ERANGE, "%s=%llu: out of range; accepted: "
				 "1 to 1g", o->name, (unsigned long long)s->bs);
	if (w > (1ull << 30))
		return err_usage(err, ERANGE, "%s=%llu,%llu: out of range; "
				 "accepted: 1 to 1g", o->name,
				 (unsigned long long)s->bs, (unsigned long long)w);
	return 0;
}

/* "bs": the read size as a number (older readers), "bs_write" only when
 * it differs. */
void job_gen_emit_bs(const void *obj, const struct option_def *o, struct jw *w)
{
	const struct job_spec *s = obj;

	jw_kv_uint(w, o->name, s->bs);
	if (s->bs_dir[DIR_WRITE])
		jw_kv_uint(w, "bs_write", s->bs_dir[DIR_WRITE]);
	if (s->bs_trim)
		jw_kv_uint(w, "bs_trim", s->bs_trim);
}

static const char *enum_name(const struct option_def *o, int v)
{
	for (const struct opt_enum *e = o->values; e && e->name; e++)
		if (e->value == v)
			return e->name;
	return "?";
}

/* rw=MODE[:SUFFIX] (fio: a count for random modes, a size otherwise). */
int job_gen_parse_rw(void *obj, const struct option_def *o, const char *v,
		     struct ioc_err *err)
{
	struct job_spec *s = spec_of(obj);
	char mode[VAL_MAX];
	const char *suffix = strchr(v, ':');
	const struct opt_enum *e;

	if (job_gen_piece(v, ':', 0, mode) < 0)
		return err_usage(err, EINVAL, "%s=%s: not a mode", o->name, v);
	for (e = o->values; e->name && strcasecmp(e->name, mode); e++)
		;
	if (!e->name)
		return err_usage(err, EINVAL,
				 "%s=%s: not one of the accepted values: read, "
				 "write, randread, randwrite, rw, readwrite, "
				 "randrw, trim, randtrim, trimwrite, "
				 "randtrimwrite, each optionally :N (random) or "
				 ":SIZE (a hole)",
				 o->name, v);
	unsigned nr = 0;
	uint64_t hole = 0;
	if (suffix && rw_is_random((enum rw_mode)e->value)) {
		uint64_t n;
		int ret = units_parse_uint(o->name, suffix + 1, 1, 1u << 30, &n, err);
		if (ret)
			return ret;
		nr = (unsigned)n;
	} else if (suffix) {
		bool back = suffix[1] == '-'; /* fio: read:-8k goes backwards */
		if (units_parse_size(o->name, suffix + 1 + back, &hole, NULL))
			return err_usage(err, EINVAL, "%s=%s: '%s' is not a size "
					 "(a hole, e.g. write:4k or read:-8k)",
					 o->name, v, suffix + 1);
		if (hole > (1ull << 40))
			return err_usage(err, ERANGE, "%s=%s: a hole of at most 1t",
					 o->name, v);
		hole = back ? (uint64_t)-(int64_t)hole : hole;
	}
	s->rw = (enum rw_mode)e->value;
	s->rw_seq_nr = nr > 1 ? nr : 0;
	s->rw_hole = (int64_t)hole;
	return 0;
}

int job_gen_show_rw(const void *obj, const struct option_def *o, FILE *f)
{
	const struct job_spec *s = obj;
	int n = fprintf(f, "%s", enum_name(o, s->rw));

	if (n >= 0 && s->rw_seq_nr)
		n = fprintf(f, ":%u", s->rw_seq_nr);
	if (n >= 0 && s->rw_hole)
		n = fprintf(f, ":%lld", (long long)s->rw_hole);
	return n < 0 ? -EIO : 0;
}

/* "rw": the mode's name (what readers compare); "rw_modifier" only when
 * one was given. */
void job_gen_emit_rw(const void *obj, const struct option_def *o, struct jw *w)
{
	const struct job_spec *s = obj;

	jw_kv_string(w, o->json ? o->json : o->name, enum_name(o, s->rw));
	if (s->rw_seq_nr)
		jw_kv_uint(w, "rw_modifier", s->rw_seq_nr);
	else if (s->rw_hole)
		jw_kv_int(w, "rw_hole", s->rw_hole);
}

/* The percent field beside size= and offset=. */
static unsigned *pct_field(struct job_spec *s, const struct option_def *o)
{
	return (char *)s + o->off == (char *)&s->size ? &s->size_pct
						      : &s->offset_pct;
}

int job_gen_parse_size(void *obj, const struct option_def *o, const char *v,
		       struct ioc_err *err)
{
	struct job_spec *s = spec_of(obj);
	size_t len = strlen(v);
	uint64_t bytes = 0;
	unsigned pct = 0;
	int ret;

	if (len && v[len - 1] == '%') {
		ret = units_parse_percent(o->name, v, &pct, err);
		if (!ret && pct == 0)
			ret = err_usage(err, ERANGE, "%s=%s: a percentage from "
					"1%% to 100%%", o->name, v);
	} else {
		ret = units_parse_size(o->name, v, &bytes, err);
	}
	if (ret)
		return ret;
	*(uint64_t *)((char *)obj + o->off) = bytes;
	*pct_field(s, o) = pct;
	return 0;
}

int job_gen_show_size(const void *obj, const struct option_def *o, FILE *f)
{
	struct job_spec *s = (struct job_spec *)obj;
	unsigned pct = *pct_field(s, o);
	uint64_t v = *(const uint64_t *)((const char *)obj + o->off);
	int n = pct ? fprintf(f, "%u%%", pct)
		    : fprintf(f, "%llu", (unsigned long long)v);

	return n < 0 ? -EIO : 0;
}

/* Bytes as a number (older readers: 0 for a percentage) and, for a
 * percentage, "size_pct" / "offset_pct". */
void job_gen_emit_size(const void *obj, const struct option_def *o,
		       struct jw *w)
{
	struct job_spec *s = (struct job_spec *)obj;
	unsigned pct = *pct_field(s, o);

	jw_kv_uint(w, o->name, *(const uint64_t *)((const char *)obj + o->off));
	if (pct)
		jw_kv_uint(w, pct_field(s, o) == &s->size_pct ? "size_pct"
							       : "offset_pct",
			   pct);
}

static int range_dir(struct job_spec *s, const struct option_def *o,
		     enum io_dir d, const char *p, struct ioc_err *err)
{
	char lo[VAL_MAX], hi[VAL_MAX];
	uint64_t a, b;
	int ret;

	char sep = strchr(p, '-') ? '-' : ':'; /* fio: 4k-64k or 4k:64k */
	int n = job_gen_piece(p, sep, 0, lo);
	if (n < 2 || (job_gen_piece(p, sep, 1, hi), !*lo || !*hi))
		return err_usage(err, EINVAL, "%s: '%s' is not a range MIN-MAX "
				 "(e.g. 4k-64k)", o->name, p);
	if (n > 2 || strchr(lo, '/') || strchr(hi, '/')) {
		/* bssplit's form, "512/25:1k/25:...": fio reads the first
		 * size of each side of the first separator and runs (its own
		 * t/jobs/t0023.fio has it); so does iochar, and says so */
		lo[strcspn(lo, "/")] = hi[strcspn(hi, "/")] = '\0';
		note_once("%s=%s: read as fio reads it, %s%c%s (bssplit= "
			  "takes SIZE/PERCENT lists)", o->name, p, lo, sep, hi);
	}
	if ((ret = job_gen_size_piece(o, lo, &a, err)) || (ret = job_gen_size_piece(o, hi, &b, err)))
		return ret;
	if (a > b) { /* fio swaps them */
		uint64_t t = a;
		a = b;
		b = t;
	}
	s->bs_range[d][0] = a;
	s->bs_range[d][1] = b;
	return 0;
}

int job_gen_parse_bsrange(void *obj, const struct option_def *o,
			  const char *v, struct ioc_err *err)
{
	struct job_spec *s = spec_of(obj), t = *s;
	int ret;

	memset(t.bs_range, 0, sizeof(t.bs_range));
	if ((ret = per_dir(&t, o, v, range_dir, err)))
		return ret;
	memcpy(s->bs_range, t.bs_range, sizeof(s->bs_range));
	return 0;
}

int job_gen_show_bsrange(const void *obj, const struct option_def *o, FILE *f)
{
	const struct job_spec *s = obj;

	(void)o;
	for (int d = 0; d < DIR_COUNT; d++)
		if (fprintf(f, "%s%llu-%llu", d ? "," : "",
			    (unsigned long long)s->bs_range[d][0],
			    (unsigned long long)s->bs_range[d][1]) < 0)
			return -EIO;
	return 0;
}

/* [[min, max] read, [min, max] write], or null when not set. */
void job_gen_emit_bsrange(const void *obj, const struct option_def *o,
			  struct jw *w)
{
	const struct job_spec *s = obj;

	jw_key(w, o->name);
	if (!s->bs_range[0][0] && !s->bs_range[1][0]) {
		jw_null(w);
		return;
	}
	jw_array_begin(w);
	for (int d = 0; d < DIR_COUNT; d++) {
		jw_array_begin(w);
		jw_uint(w, s->bs_range[d][0]);
		jw_uint(w, s->bs_range[d][1]);
		jw_array_end(w);
	}
	jw_array_end(w);
}

/* A pair row's field: uint64_t[2] sizes (blockalign) or unsigned[2]
 * percentages (percentage_random), told apart by its size. */
static bool pair_is_size(const struct option_def *o)
{
	return o->size == 2 * sizeof(uint64_t);
}

/* percentage_random is stored as its complement (percentage_seq), so
 * that a zero spec is all random. */
static bool pair_inverted(const struct option_def *o)
{
	return strcmp(o->name, "percentage_random") == 0;
}

static int pair_dir(struct job_spec *s, const struct option_def *o,
		    enum io_dir d, const char *p, struct ioc_err *err)
{
	char *field = (char *)s + o->off;
	unsigned *pct = (unsigned *)field + d;

	if (pair_is_size(o))
		return job_gen_size_piece(o, p, (uint64_t *)field + d, err);
	int ret = units_parse_percent(o->name, p, pct, err);
	if (!ret && pair_inverted(o))
		*pct = 100 - *pct;
	return ret;
}

int job_gen_parse_pair(void *obj, const struct option_def *o, const char *fv,
		       struct ioc_err *err)
{
	struct job_spec t = *spec_of(obj);
	char v[VAL_MAX * 3];

	fio_dir_commas(fv, true, v, sizeof(v));
	int ret = per_dir(&t, o, v, pair_dir, err);

	if (!ret)
		memcpy((char *)obj + o->off, (char *)&t + o->off, o->size);
	return ret;
}

static uint64_t pair_get(const void *obj, const struct option_def *o, int d)
{
	const char *field = (const char *)obj + o->off;

	if (pair_is_size(o))
		return ((const uint64_t *)field)[d];
	unsigned v = ((const unsigned *)field)[d];
	return pair_inverted(o) ? 100 - v : v;
}

int job_gen_show_pair(const void *obj, const struct option_def *o, FILE *f)
{
	return fprintf(f, "%llu,%llu", (unsigned long long)pair_get(obj, o, 0),
		       (unsigned long long)pair_get(obj, o, 1)) < 0
		   ? -EIO
		   : 0;
}

void job_gen_emit_pair(const void *obj, const struct option_def *o,
		       struct jw *w)
{
	jw_key(w, o->name);
	jw_array_begin(w);
	jw_uint(w, pair_get(obj, o, 0));
	jw_uint(w, pair_get(obj, o, 1));
	jw_array_end(w);
}

static const char dist_accepted[] =
    "random (or uniform), zipf[:THETA] (0 < THETA <= 100, != 1), "
    "pareto[:H] (0 < H < 1), normal[:SIGMA%] (0 <= SIGMA < 100), "
    "zoned:ACCESS%/SIZE%:... or zoned_abs:ACCESS%/SIZE:...";

/* The number after "name:" (def when bare); 1 when v is not name[:N]. */
static int dist_param(const char *v, const char *name, double def, double *out)
{
	size_t n = strlen(name);

	if (strncasecmp(v, name, n) != 0 || (v[n] && v[n] != ':'))
		return 1;
	if (!v[n]) {
		*out = def;
		return 0;
	}
	const char *t = v + n + 1;
	char *end;
	if (!(isdigit((unsigned char)t[0]) || t[0] == '.'))
		return -1;
	errno = 0;
	*out = strtod(t, &end);
	return *end || errno || !isfinite(*out) ? -1 : 0;
}

/* fio's zipf, pareto and normal with their ranges and defaults. */
static int dist_named(struct job_spec *s, const struct option_def *o,
		      const char *v, struct ioc_err *err)
{
	static const struct {
		const char *name;
		enum rand_dist kind;
		double def, lo, hi;
		bool lo_open, hi_open;
	} k[] = {
	    {"zipf", DIST_ZIPF, 1.1, 0, 100, true, false},
	    {"pareto", DIST_PARETO, 0.2, 0, 1, true, true},
	    {"normal", DIST_NORMAL, 0, 0, 100, false, true},
	};
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		double p;
		int r = dist_param(v, k[i].name, k[i].def, &p);
		if (r > 0)
			continue;
		if (r < 0 || strchr(strchr(v, ':') ? strchr(v, ':') + 1 : "", ':'))
			return err_usage(err, EINVAL, "%s=%s: not a distribution "
					 "(a center ':C' is not supported); "
					 "accepted: %s", o->name, v, dist_accepted);
		if ((k[i].lo_open ? p <= k[i].lo : p < k[i].lo) ||
		    (k[i].hi_open ? p >= k[i].hi : p > k[i].hi) ||
		    (k[i].kind == DIST_ZIPF && p == 1.0))
			return err_usage(err, ERANGE, "%s=%s: %s parameter out of "
					 "range; accepted: %s", o->name, v,
					 k[i].name, dist_accepted);
		s->dist = k[i].kind;
		s->dist_param = k[i].kind == DIST_ZIPF ? 0 : p;
		s->zipf_theta = k[i].kind == DIST_ZIPF ? p : 0;
		return 0;
	}
	return err_usage(err, EINVAL, "%s=%s: not a distribution; accepted: %s",
			 o->name, v, dist_accepted);
}

int job_gen_parse_dist(void *obj, const struct option_def *o, const char *v,
		       struct ioc_err *err)
{
	struct job_spec *s = spec_of(obj), t = *s;
	int ret = 0;

	memset(t.zones, 0, sizeof(t.zones));
	t.dist_param = t.zipf_theta = 0;
	if (strcasecmp(v, "random") == 0 || strcasecmp(v, "uniform") == 0)
		t.dist = DIST_UNIFORM;
	else if (strncasecmp(v, "zoned_abs:", 10) == 0) {
		t.dist = DIST_ZONED_ABS;
		ret = job_split_parse(o, SPLIT_ZONED_ABS, v + 10, t.zones, err);
	} else if (strncasecmp(v, "zoned:", 6) == 0) {
		t.dist = DIST_ZONED;
		ret = job_split_parse(o, SPLIT_ZONED, v + 6, t.zones, err);
	} else
		ret = dist_named(&t, o, v, err);
	if (ret)
		return ret;
	s->dist = t.dist;
	s->dist_param = t.dist_param;
	s->zipf_theta = t.zipf_theta;
	memcpy(s->zones, t.zones, sizeof(s->zones));
	return 0;
}

static int zones_text(const struct job_spec *s, char *buf, size_t n, bool exact)
{
	int len = 0;

	switch (s->dist) {
	case DIST_UNIFORM:
		return snprintf(buf, n, exact ? "random" : "uniform");
	case DIST_ZIPF:
		return snprintf(buf, n, exact ? "zipf:%a" : "zipf:%g", s->zipf_theta);
	case DIST_PARETO:
		return snprintf(buf, n, exact ? "pareto:%a" : "pareto:%g", s->dist_param);
	case DIST_NORMAL:
		return snprintf(buf, n, exact ? "normal:%a" : "normal:%g", s->dist_param);
	case DIST_ZONED:
	case DIST_ZONED_ABS:
		len = snprintf(buf, n, s->dist == DIST_ZONED ? "zoned:" : "zoned_abs:");
		for (int d = 0; d < DIR_COUNT; d++)
			for (unsigned i = 0; i < s->zones[d].nr && (size_t)len < n; i++)
				len += snprintf(buf + len, n - (size_t)len, "%s%u/%llu",
						i ? ":" : d ? "," : "", s->zones[d].perc[i],
						(unsigned long long)s->zones[d].val[i]);
		return len;
	}
	return 0;
}

/* The exact parameter (%a): two ranks agree only on the same generator. */
int job_gen_show_dist(const void *obj, const struct option_def *o, FILE *f)
{
	char buf[1024];

	(void)o;
	zones_text(obj, buf, sizeof(buf), true);
	return fputs(buf, f) == EOF ? -EIO : 0;
}

/* "uniform", "zipf:1.2", "zoned:60/10:40/90,..." (%g: what a reader shows). */
void job_gen_emit_dist(const void *obj, const struct option_def *o,
		       struct jw *w)
{
	char buf[1024];

	zones_text(obj, buf, sizeof(buf), false);
	jw_kv_string(w, o->name, buf);
}

/* A parameter set without parsing: zipf divides by zero at 1, pareto's
 * exponent needs 0 < h < 1. */
int job_gen_check_dist(const void *obj, const struct option_def *o,
		       struct ioc_err *err)
{
	const struct job_spec *s = obj;

	if (s->dist == DIST_ZIPF && (s->zipf_theta <= 0 || s->zipf_theta == 1.0))
		return err_usage(err, EINVAL,
				 "%s=zipf:%g: theta must be > 0 and not 1 "
				 "(e.g. 0.99 or 1.2)",
				 o->name, s->zipf_theta);
	if (s->dist == DIST_PARETO && !(s->dist_param > 0 && s->dist_param < 1))
		return err_usage(err, EINVAL, "%s=pareto:%g: h must be in (0, 1)",
				 o->name, s->dist_param);
	return 0;
}

void job_gen_plain(struct job_spec *spec)
{
	memset(spec->bs_dir, 0, sizeof(spec->bs_dir));
	memset(spec->bs_range, 0, sizeof(spec->bs_range));
	memset(spec->bssplit, 0, sizeof(spec->bssplit));
	memset(spec->blockalign, 0, sizeof(spec->blockalign));
	memset(spec->percentage_seq, 0, sizeof(spec->percentage_seq));
	spec->bs_unaligned = spec->bs_is_seq_rand = false;
	spec->rw_seq_nr = 0;
	spec->rw_hole = 0;
	spec->io_size = spec->number_ios = 0;
}

int job_gen_parse_not(void *obj, const struct option_def *o, const char *v,
		      struct ioc_err *err)
{
	bool b;
	int ret = units_parse_bool(o->name, v ? v : "1", &b, err);

	if (!ret)
		*(bool *)((char *)obj + o->off) = !b;
	return ret;
}

int job_gen_show_not(const void *obj, const struct option_def *o, FILE *f)
{
	return fprintf(f, "%d", !*(const bool *)((const char *)obj + o->off)) < 0
		   ? -EIO
		   : 0;
}

void job_gen_emit_not(const void *obj, const struct option_def *o,
		      struct jw *w)
{
	jw_kv_bool(w, o->name, !*(const bool *)((const char *)obj + o->off));
}
