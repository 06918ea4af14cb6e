/* json_writer.c - see json_writer.h. */
#include "base/json_writer.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

void jw_init(struct jw *w, FILE *f, unsigned indent)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->indent = indent;
}

static void jw_fail(struct jw *w, int err)
{
	if (!w->err)
		w->err = err;
}

static void jw_newline(struct jw *w, unsigned depth)
{
	if (!w->indent)
		return;
	putc('\n', w->f);
	for (unsigned i = 0; i < depth * w->indent; i++)
		putc(' ', w->f);
}

/* Write what must come before a value (comma, indentation) and check the
 * value is allowed here. Returns false when nothing may be written. */
static bool jw_value_prefix(struct jw *w)
{
	if (w->err)
		return false;
	if (w->depth == 0) {
		if (w->root_done) {
			jw_fail(w, -EINVAL);
			return false;
		}
		w->root_done = true;
		return true;
	}
	unsigned top = w->depth - 1;
	if (w->in_object[top]) {
		if (!w->after_key) {
			jw_fail(w, -EINVAL);
			return false;
		}
		w->after_key = false;
		return true;
	}
	if (w->has_items[top])
		putc(',', w->f);
	w->has_items[top] = true;
	jw_newline(w, w->depth);
	return true;
}

static void jw_open(struct jw *w, bool object)
{
	if (!jw_value_prefix(w))
		return;
	if (w->depth == JW_MAX_DEPTH) {
		jw_fail(w, -EINVAL);
		return;
	}
	putc(object ? '{' : '[', w->f);
	w->in_object[w->depth] = object;
	w->has_items[w->depth] = false;
	w->depth++;
}

static void jw_close(struct jw *w, bool object)
{
	if (w->err)
		return;
	if (w->depth == 0 || w->in_object[w->depth - 1] != object ||
	    w->after_key) {
		jw_fail(w, -EINVAL);
		return;
	}
	w->depth--;
	if (w->has_items[w->depth])
		jw_newline(w, w->depth);
	putc(object ? '}' : ']', w->f);
}

void jw_object_begin(struct jw *w)
{
	jw_open(w, true);
}

void jw_object_end(struct jw *w)
{
	jw_close(w, true);
}

void jw_array_begin(struct jw *w)
{
	jw_open(w, false);
}

void jw_array_end(struct jw *w)
{
	jw_close(w, false);
}

/* Length of the well-formed UTF-8 sequence starting at s (n bytes left), or
 * 0 when it is not one: overlong forms, surrogates and code points past
 * U+10FFFF are rejected (Unicode table 3-7). */
static size_t utf8_seq_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xbf;
	size_t len;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
	} else {
		return 0;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

static void jw_escape_char(FILE *f, unsigned char c)
{
	switch (c) {
	case '"':
		fputs("\\\"", f);
		break;
	case '\\':
		fputs("\\\\", f);
		break;
	case '\b':
		fputs("\\b", f);
		break;
	case '\f':
		fputs("\\f", f);
		break;
	case '\n':
		fputs("\\n", f);
		break;
	case '\r':
		fputs("\\r", f);
		break;
	case '\t':
		fputs("\\t", f);
		break;
	default:
		if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			putc(c, f);
	}
}

static void jw_quoted(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	putc('"', f);
	while (i < len && p[i]) {
		size_t n = utf8_seq_len(p + i, len - i);
		if (n == 0) {
			fputs("\\ufffd", f);
			i++;
		} else if (n == 1) {
			jw_escape_char(f, p[i]);
			i++;
		} else {
			fwrite(p + i, 1, n, f);
			i += n;
		}
	}
	putc('"', f);
}

void jw_key(struct jw *w, const char *key)
{
	if (w->err)
		return;
	if (w->depth == 0 || !w->in_object[w->depth - 1] || w->after_key ||
	    !key) {
		jw_fail(w, -EINVAL);
		return;
	}
	unsigned top = w->depth - 1;
	if (w->has_items[top])
		putc(',', w->f);
	w->has_items[top] = true;
	jw_newline(w, w->depth);
	jw_quoted(w->f, key, strlen(key));
	fputs(w->indent ? ": " : ":", w->f);
	w->after_key = true;
}

void jw_string_n(struct jw *w, const char *s, size_t len)
{
	if (!s) {
		jw_null(w);
		return;
	}
	if (jw_value_prefix(w))
		jw_quoted(w->f, s, len);
}

void jw_string(struct jw *w, const char *s)
{
	jw_string_n(w, s, s ? strlen(s) : 0);
}

int jw_raw_file(struct jw *w, const char *path)
{
	char buf[65536];
	size_t n, last = 0;
	FILE *in;

	if (!jw_value_prefix(w))
		return w->err;
	in = fopen(path, "re");
	if (!in) {
		jw_fail(w, -errno);
		return w->err;
	}
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
		/* drop the file's final newline: the writer places its own */
		last = n;
		size_t keep = n;
		int c = getc(in);
		if (c == EOF) {
			while (keep && (buf[keep - 1] == '\n' || buf[keep - 1] == ' '))
				keep--;
		} else {
			ungetc(c, in);
		}
		if (fwrite(buf, 1, keep, w->f) != keep)
			jw_fail(w, -EIO);
	}
	if (ferror(in) || last == 0)
		jw_fail(w, -EIO);
	fclose(in);
	return w->err;
}

void jw_raw(struct jw *w, const char *text, size_t len)
{
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--; /* the writer places its own line ends */
	if (!len) {
		jw_fail(w, -EINVAL);
		return;
	}
	if (!jw_value_prefix(w))
		return;
	/* JSON strings hold no raw line ends, so each one is the text's own
	 * layout: indent what follows to this level */
	for (const char *p = text, *end = text + len; p < end && !w->err;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (fwrite(p, 1, n, w->f) != n)
			jw_fail(w, -EIO);
		if (!nl)
			break;
		jw_newline(w, w->depth);
		p = nl + 1;
	}
}

void jw_uint(struct jw *w, uint64_t v)
{
	if (jw_value_prefix(w))
		fprintf(w->f, "%" PRIu64, v);
}

void jw_int(struct jw *w, int64_t v)
{
	if (jw_value_prefix(w))
		fprintf(w->f, "%" PRId64, v);
}

void jw_double(struct jw *w, double v)
{
	if (!isfinite(v)) {
		jw_null(w);
		return;
	}
	if (!jw_value_prefix(w))
		return;
	/* Fixed decimals read well for rates and nanoseconds; past 1e15 they
	 * would only print digits a double does not hold. */
	if (fabs(v) < 1e15)
		fprintf(w->f, "%.3f", v);
	else
		fprintf(w->f, "%.17g", v);
}

void jw_bool(struct jw *w, bool v)
{
	if (jw_value_prefix(w))
		fputs(v ? "true" : "false", w->f);
}

void jw_null(struct jw *w)
{
	if (jw_value_prefix(w))
		fputs("null", w->f);
}

void jw_kv_string(struct jw *w, const char *key, const char *s)
{
	jw_key(w, key);
	jw_string(w, s);
}

void jw_kv_uint(struct jw *w, const char *key, uint64_t v)
{
	jw_key(w, key);
	jw_uint(w, v);
}

void jw_kv_int(struct jw *w, const char *key, int64_t v)
{
	jw_key(w, key);
	jw_int(w, v);
}

void jw_kv_double(struct jw *w, const char *key, double v)
{
	jw_key(w, key);
	jw_double(w, v);
}

void jw_kv_bool(struct jw *w, const char *key, bool v)
{
	jw_key(w, key);
	jw_bool(w, v);
}

int jw_finish(struct jw *w)
{
	if (!w->err && (w->depth != 0 || !w->root_done))
		jw_fail(w, -EINVAL);
	if (!w->err) {
		putc('\n', w->f);
		if (ferror(w->f))
			jw_fail(w, -EIO);
	}
	return w->err;
}
