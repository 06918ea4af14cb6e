/* net_args.c - see net_args.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "cmd/net_args.h"

static void *field(void *obj, const struct option_def *o)
{
	return (char *)obj + o->off;
}

int net_arg_format(void *obj, const struct option_def *o, const char *v,
		   struct ioc_err *err)
{
	int *fmt = field(obj, o);

	if (!strcmp(v, "json"))
		*fmt = NET_FMT_JSON;
	else if (!strcmp(v, "iochar-json"))
		*fmt = NET_FMT_IOCHAR_JSON;
	else if (!strcmp(v, "csv"))
		*fmt = NET_FMT_CSV;
	else if (!strcmp(v, "text"))
		*fmt = NET_FMT_TEXT;
	else
		return err_usage(err, EINVAL,
				 "--output-format=%s: text, json, iochar-json or csv", v);
	return 0;
}

int net_arg_size(void *obj, const struct option_def *o, const char *v,
		 struct ioc_err *err)
{
	uint64_t n;
	int rc = units_parse_size(o->name, v, &n, err);

	if (rc)
		return rc;
	if (n < o->min || n > o->max)
		return err_usage(err, ERANGE, "%s=%s: must be %llu to %llu",
				 o->name, v, (unsigned long long)o->min,
				 (unsigned long long)o->max);
	if (o->size == sizeof(uint64_t))
		*(uint64_t *)field(obj, o) = n;
	else
		*(uint32_t *)field(obj, o) = (uint32_t)n;
	return 0;
}

int net_arg_secret(void *obj, const struct option_def *o, const char *v,
		   struct ioc_err *err)
{
	if (!v[0] || strlen(v) >= o->size)
		return err_usage(err, EINVAL, "--secret: 1 to %zu characters",
				 o->size - 1);
	memcpy(field(obj, o), v, strlen(v) + 1);
	return 0;
}

/* The first line of the file: the secret, as --secret gives it. A NUL
 * byte in it is refused, not read as its end: the secret travels as a
 * JSON string and is compared as a C string, so the bytes after a NUL
 * would be dropped silently and two different files would match; a line
 * longer than a secret may be is refused rather than cut, for the same
 * reason. */
int net_arg_secret_file(void *obj, const struct option_def *o, const char *v,
			struct ioc_err *err)
{
	char buf[4096]; /* more than a secret may hold: a longer line is seen */
	FILE *f = fopen(v, "re");
	size_t n, len;
	const char *nl, *nul;

	if (!f)
		return err_usage(err, errno, "--secret-file %s: %s", v,
				 strerror(errno));
	n = fread(buf, 1, sizeof(buf), f);
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		return err_usage(err, e, "--secret-file %s: %s", v, strerror(e));
	}
	fclose(f);
	nl = memchr(buf, '\n', n);
	len = nl ? (size_t)(nl - buf) : n;
	if (len && buf[len - 1] == '\r')
		len--;
	nul = memchr(buf, '\0', len);
	if (nul)
		return err_usage(err, EINVAL,
				 "--secret-file %s: a NUL byte at byte %zu of the "
				 "first line; the secret is text",
				 v, (size_t)(nul - buf) + 1);
	if (len >= o->size || (!nl && n == sizeof(buf)))
		return err_usage(err, EINVAL,
				 "--secret-file %s: the first line is longer than "
				 "a secret's %zu characters",
				 v, o->size - 1);
	if (!len)
		return err_usage(err, EINVAL, "--secret-file %s: empty", v);
	memcpy(field(obj, o), buf, len);
	((char *)field(obj, o))[len] = '\0';
	return 0;
}

int net_arg_congestion(void *obj, const struct option_def *o, const char *v,
		       struct ioc_err *err)
{
	if (!v[0] || strlen(v) >= o->size)
		return err_usage(err, EINVAL, "-C %s: bad name", v);
	memcpy(field(obj, o), v, strlen(v) + 1);
	return 0;
}

int net_arg_rate(void *obj, const struct option_def *o, const char *v,
		 struct ioc_err *err)
{
	uint64_t *bps = field(obj, o);
	char *end;
	double x;

	errno = 0;
	x = strtod(v, &end);
	if (errno || end == v || !(x >= 0))
		return err_usage(err, EINVAL, "-b %s: a rate in bits/s, e.g. 500M", v);
	switch (*end) {
	case 'k': case 'K': x *= 1e3; end++; break;
	case 'm': case 'M': x *= 1e6; end++; break;
	case 'g': case 'G': x *= 1e9; end++; break;
	case 't': case 'T': x *= 1e12; end++; break;
	}
	if (*end == '/')
		return err_usage(err, EINVAL, "-b %s: bursts are not supported "
				 "(iochar paces with the kernel): give the rate alone", v);
	if (*end || x > 1e15)
		return err_usage(err, EINVAL, "-b %s: a rate in bits/s, e.g. 500M", v);
	*bps = (uint64_t)x;
	return 0;
}

int net_arg_interval(void *obj, const struct option_def *o, const char *v,
		     struct ioc_err *err)
{
	double *s = field(obj, o);
	char *end;

	errno = 0;
	*s = strtod(v, &end);
	if (errno || end == v || *end || !(*s >= 0 && *s <= 3600) ||
	    (*s > 0 && *s < 0.1))
		return err_usage(err, EINVAL,
				 "-i %s: 0, or 0.1 to 3600 seconds", v);
	return 0;
}
