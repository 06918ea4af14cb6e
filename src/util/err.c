/* err.c - see err.h. */
#include "util/err.h"

#include <stdio.h>
#include <string.h>

static int err_vset(struct ioc_err *err, int code, int usage, const char *fmt,
		    va_list ap)
{
	if (err && err->msg[0] == '\0') {
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
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
