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
	else if (!strcmp(v, "csv"))
		*fmt = NET_FMT_CSV;
	else if (!strcmp(v, "text"))
		*fmt = NET_FMT_TEXT;
	else
		return err_usage(err, EINVAL,
				 "--output-format=%s: text, json or csv", v);
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

int net_arg_secret_file(void *obj, const struct option_def *o, const char *v,
			struct ioc_err *err)
{
	char *out = field(obj, o);
	FILE *f = fopen(v, "re");

	if (!f)
		return err_usage(err, errno, "--secret-file %s: %s", v,
				 strerror(errno));
	if (!fgets(out, (int)o->size, f)) {
		fclose(f);
		return err_usage(err, EINVAL, "--secret-file %s: empty", v);
	}
	fclose(f);
	out[strcspn(out, "\r\n")] = '\0';
	if (!out[0])
		return err_usage(err, EINVAL, "--secret-file %s: empty", v);
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
