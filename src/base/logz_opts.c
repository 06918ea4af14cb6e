/* logz_opts.c - see logz_opts.h. */
#include "base/logz_opts.h"

#include <errno.h>
#include <inttypes.h>

#include "base/job.h"
#include "base/json_writer.h"
#include "base/units.h"

static uint64_t *field_of(void *obj, const struct option_def *o)
{
	return (uint64_t *)((char *)obj + o->off);
}

static int range(const struct option_def *o, uint64_t v, struct ioc_err *err)
{
	if (v >= LOGZ_MIN && v <= LOGZ_MAX)
		return 0;
	return err_usage(err, ERANGE, "%s=%" PRIu64 ": out of range; accepted: 1k to 512m "
			 "(fio's)", o->name, v);
}

int logz_opts_parse(void *obj, const struct option_def *o, const char *v, struct ioc_err *err)
{
	uint64_t n;
	int ret = units_parse_size(o->name, v, &n, err);
	if (!ret)
		ret = range(o, n, err);
	if (!ret)
		*field_of(obj, o) = n;
	return ret;
}

int logz_opts_show(const void *obj, const struct option_def *o, FILE *f)
{
	return fprintf(f, "%" PRIu64, *field_of((void *)obj, o)) < 0 ? -EIO : 0;
}

void logz_opts_emit(const void *obj, const struct option_def *o, struct jw *w)
{
	jw_kv_uint(w, o->json ? o->json : o->name, *field_of((void *)obj, o));
}

int logz_opts_check_job(const struct job_spec *j, struct ioc_err *err)
{
	if (j->log_gz_store && j->write_hist_log[0])
		return err_usage(err, EINVAL, "job %s: log_store_compressed with "
				 "write_hist_log: iochar writes the histogram log "
				 "as text only", j->name);
	return 0;
}

int logz_opts_check(const void *obj, const struct option_def *o, struct ioc_err *err)
{
	uint64_t v = *field_of((void *)obj, o);
	return v ? range(o, v, err) : 0;
}
