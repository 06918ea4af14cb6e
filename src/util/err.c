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
	char prefix[IOC_ERR_MAX], old[IOC_ERR_MAX];
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	snprintf(err->msg, sizeof(err->msg), "%s: %s", prefix, old);
}
