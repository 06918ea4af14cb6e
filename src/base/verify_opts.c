/* verify_opts.c - the verify rows' hooks (verify_opts.h). */
#include "base/verify_opts.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/job.h"
#include "base/units.h"

/* verify=0|1 (any boolean) or iochar: iochar's own blocks. fio's method
 * names write and check fio's block format (verify/fio_block.h); the
 * numbers are fio's verify_type values, as its header stores them. */
static const struct opt_enum verify_methods[] = {
    {"md5", 2},		 {"crc64", 3},	   {"crc32", 4},     {"crc32c", 5},
    {"crc32c-intel", 5}, {"crc16", 7},	   {"crc7", 8},	     {"sha256", 9},
    {"sha512", 10},	 {"sha3-224", 11}, {"sha3-256", 12}, {"sha3-384", 13},
    {"sha3-512", 14},	 {"xxhash", 15},   {"sha1", 16},     {"meta", 1},
    {"pattern", 18},	 {"null", 19},	   {NULL, 0},
};

int verify_opts_parse(void *obj, const struct option_def *o, const char *v,
		      struct ioc_err *err)
{
	struct job_spec *spec = obj;
	bool on;

	if (units_parse_bool(o->name, v, &on, NULL) == 0 ||
	    strcmp(v, "iochar") == 0) {
		spec->verify = strcmp(v, "iochar") == 0 || on;
		spec->verify_type = 0;
		return 0;
	}
	for (const struct opt_enum *m = verify_methods; m->name; m++)
		if (strcmp(v, m->name) == 0) {
			spec->verify = true;
			spec->verify_type = (uint8_t)m->value;
			return 0;
		}
	return err_usage(err, EINVAL,
			 "%s=%s: unknown verify method '%s'; accepted: 0, 1 or "
			 "iochar (iochar's CRC32C-keyed blocks), or fio's md5, "
			 "crc64, crc32c, crc32c-intel, crc32, crc16, crc7, "
			 "xxhash, sha1, sha256, sha512, sha3-224, sha3-256, "
			 "sha3-384, sha3-512, meta, pattern, null",
			 o->name, v, v);
}

int verify_opts_show(const void *obj, const struct option_def *o, FILE *f)
{
	const struct job_spec *spec = obj;
	const char *name = NULL;

	(void)o;
	for (const struct opt_enum *m = verify_methods; m->name; m++)
		if (spec->verify && m->value == spec->verify_type && !name)
			name = m->name;
	return (name ? fprintf(f, "%s", name)
		     : fprintf(f, "%d", spec->verify)) < 0
		   ? -EIO
		   : 0;
}

void verify_opts_emit(const void *obj, const struct option_def *o, struct jw *w)
{
	const struct job_spec *spec = obj;

	jw_kv_bool(w, o->name, spec->verify);
	for (const struct opt_enum *m = verify_methods; m->name; m++)
		if (spec->verify && spec->verify_type == m->value) {
			jw_kv_string(w, "verify_method", m->name); /* fio's */
			break;
		}
}

/* verify methods (fio's): verify_pattern in fio's forms, pieces one
 * after another: 0x hex (a leading odd digit is a byte of its own),
 * "text" or 'text', a decimal number (its bytes, least significant
 * first, as fio's parse_number), %o (the block's offset, 8 bytes). */
static int pattern_piece(struct job_spec *sp, const char **pp, uint8_t *out,
			 unsigned *n)
{
	const char *p = *pp;
	size_t cap = sizeof(sp->verify_pattern);

	if (p[0] == '%' && p[1] == 'o') {
		if (sp->verify_pattern_nr_fmt >= 8 || *n + 8 > cap)
			return -1;
		sp->verify_pattern_fmt[sp->verify_pattern_nr_fmt++] =
		    (uint16_t)*n;
		memset(out + *n, 0, 8);
		*n += 8, *pp = p + 2;
		return 0;
	}
	if (*p == '"' || *p == '\'') {
		const char *e = strchr(p + 1, *p);
		if (!e || e == p + 1 || *n + (size_t)(e - p - 1) > cap)
			return -1;
		memcpy(out + *n, p + 1, (size_t)(e - p - 1));
		*n += (unsigned)(e - p - 1), *pp = e + 1;
		return 0;
	}
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	    isxdigit((unsigned char)p[2])) {
		size_t d = 0;
		p += 2;
		while (isxdigit((unsigned char)p[d]) &&
		       !(p[d] == '0' && (p[d + 1] == 'x' || p[d + 1] == 'X')))
			d++;
		if (*n + (d + 1) / 2 > cap)
			return -1;
		for (size_t i = 0; i < d;) {
			size_t take = (i == 0 && d % 2) ? 1 : 2;
			char two[3] = {p[i], take == 2 ? p[i + 1] : 0, 0};
			out[(*n)++] = (uint8_t)strtoul(two, NULL, 16);
			i += take;
		}
		*pp = p + d;
		return 0;
	}
	char *end;
	long v = strtol(p, &end, 10);
	if (end == p || v > 2147483647L || v < -2147483648L)
		return -1;
	unsigned u = (unsigned)v;
	do {
		if (*n >= cap)
			return -1;
		out[(*n)++] = (uint8_t)(u & 0xff);
		u >>= 8;
	} while (u);
	*pp = end;
	return 0;
}

int verify_opts_parse_pattern(void *obj, const struct option_def *o,
			      const char *v, struct ioc_err *err)
{
	struct job_spec *sp = obj, t = *sp;
	unsigned n = 0;
	const char *p = v;

	t.verify_pattern_nr_fmt = 0;
	while (*p) {
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (pattern_piece(&t, &p, t.verify_pattern, &n))
			return err_usage(
			    err, EINVAL,
			    "%s=%s: cannot read the pattern at '%s' "
			    "(0x hex, \"text\", a decimal number or "
			    "%%o, at most %zu bytes)",
			    o->name, v, p, sizeof(sp->verify_pattern));
	}
	if (!n)
		return err_usage(err, EINVAL, "%s=%s: an empty pattern",
				 o->name, v);
	memcpy(sp->verify_pattern, t.verify_pattern, n);
	memcpy(sp->verify_pattern_fmt, t.verify_pattern_fmt,
	       sizeof(t.verify_pattern_fmt));
	sp->verify_pattern_nr_fmt = t.verify_pattern_nr_fmt;
	sp->verify_pattern_len = (uint16_t)n;
	if (!sp->verify) { /* as fio: a pattern alone is verify=pattern's header
			      form */
		sp->verify = true;
		sp->verify_type = 17;
	}
	return 0;
}

/* The bytes in hex, then where each %o goes. */
int verify_opts_show_pattern(const void *obj, const struct option_def *o,
			     FILE *f)
{
	const struct job_spec *sp = obj;
	int bad = fprintf(f, "%u:", sp->verify_pattern_len) < 0;

	for (unsigned i = 0; i < sp->verify_pattern_len; i++)
		bad |= fprintf(f, "%02x", sp->verify_pattern[i]) < 0;
	for (unsigned i = 0; i < sp->verify_pattern_nr_fmt; i++)
		bad |= fprintf(f, ",%%o@%u", sp->verify_pattern_fmt[i]) < 0;
	(void)o;
	return bad ? -EIO : 0;
}

/* fio's form back: 0x hex with each %o in its place; "" when none. */
void verify_opts_emit_pattern(const void *obj, const struct option_def *o,
			      struct jw *w)
{
	const struct job_spec *sp = obj;
	char buf[3 * sizeof(sp->verify_pattern) + 8];
	size_t n = 0;
	bool hex = false;

	for (unsigned i = 0; i < sp->verify_pattern_len;) {
		bool fmt = false;
		for (unsigned k = 0; k < sp->verify_pattern_nr_fmt; k++)
			fmt |= sp->verify_pattern_fmt[k] == i;
		if (fmt) {
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%%o");
			hex = false, i += 8;
			continue;
		}
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%02x",
				      hex ? "" : "0x", sp->verify_pattern[i++]);
		hex = true;
	}
	buf[n] = 0;
	jw_kv_string(w, o->name, buf);
}
