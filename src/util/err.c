/* err.c - see err.h. */
#define _GNU_SOURCE /* memmem, vasprintf */
#include "util/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A message longer than the buffer keeps its start and its end, where
 * the reason is ("OPTION=<a value of megabytes>: not a size"), cut in the
 * middle by "...". */
static void keep_ends(struct ioc_err *err, const char *fmt, va_list ap)
{
	const size_t half = sizeof(err->msg) / 2 - 4;
	char *full;
	int n = vasprintf(&full, fmt, ap);

	if (n < 0)
		return; /* the start vsnprintf kept is the message */
	snprintf(err->msg, sizeof(err->msg), "%.*s...%s", (int)half, full,
		 full + (size_t)n - half);
	free(full);
}

static int err_vset(struct ioc_err *err, int code, int usage, const char *fmt,
		    va_list ap)
{
	if (err && err->msg[0] == '\0') {
		va_list again;
		int n;

		va_copy(again, ap);
		n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		if (n >= (int)sizeof(err->msg))
			keep_ends(err, fmt, again);
		va_end(again);
		err->usage = usage;
	}
	return code > 0 ? -code : code;
}

int err_set(struct ioc_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int ret = err_vset(err, code, 0, fmt, ap);
	va_end(ap);
	return ret;
}

int err_usage(struct ioc_err *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int ret = err_vset(err, code, 1, fmt, ap);
	va_end(ap);
	return ret;
}

void err_prefix(struct ioc_err *err, const char *fmt, ...)
{
	char old[IOC_ERR_MAX];
	va_list ap;

	if (!err)
		return;
	memcpy(old, err->msg, sizeof(old));
	va_start(ap, fmt);
	int n = vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(err->msg) - 2)
		return; /* the prefix fills the buffer already */
	/* truncation of a very long message is fine: it stays one line */
	size_t left = sizeof(err->msg) - (size_t)n;
	err->msg[n] = ':';
	err->msg[n + 1] = ' ';
	memcpy(err->msg + n + 2, old, left - 2);
	err->msg[sizeof(err->msg) - 1] = '\0';
}

/* keep bytes of s, backed off to a UTF-8 character's start */
static size_t utf8_cut(const char *s, size_t keep)
{
	while (keep && ((unsigned char)s[keep] & 0xc0) == 0x80)
		keep--;
	return keep;
}

void err_shorten(struct ioc_err *err, const char *value, size_t keep)
{
	size_t vlen = strlen(value), mlen, probe;
	char old[IOC_ERR_MAX];
	const char *at, *end, *p;

	if (!err || vlen <= keep + 16)
		return;
	mlen = strlen(err->msg);
	probe = keep < 32 ? keep : 32;
	at = memmem(err->msg, mlen, value, probe);
	if (!at)
		return;
	/* the value ends where its last bytes last occur: whole, or after
	 * the "..." of a message cut in the middle (keep_ends) */
	end = at + probe;
	for (p = at; (p = memmem(p, mlen - (size_t)(p - err->msg),
				 value + vlen - probe, probe));
	     p++)
		end = p + probe;
	if ((size_t)(end - at) <= keep + 16)
		return;
	memcpy(old, err->msg, sizeof(old));
	snprintf(err->msg, sizeof(err->msg), "%.*s%.*s... (%zu bytes)%s",
		 (int)(at - err->msg), old, (int)utf8_cut(value, keep), value,
		 vlen, old + (end - err->msg));
}
