/* rwf.c - see rwf.h. */
#include "engine/rwf.h"

#include <errno.h>

int rwf_check_uncached(const char *job_name, const char *engine,
		       unsigned uncached, struct ioc_err *err)
{
	if (!uncached)
		return 0;
	return err_usage(err, EINVAL,
			 "job %s: ioengine=%s: uncached=%u is not supported: "
			 "fio 3.33's RWF_UNCACHED (0x40) never reached Linux "
			 "(0x40 is RWF_ATOMIC since 6.11, and fio's I/Os with "
			 "it fail with EOPNOTSUPP); use uncached=0",
			 job_name, engine, uncached);
}
