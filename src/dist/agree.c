/* agree.c - before any I/O, every rank must have validated its part and
 * run the same job of the same iochar; see dist_agree in dist.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dist.h"
#include "dist/internal.h"

struct vote {
	uint64_t what_hash;       /* FNV-1a of the job or plan text */
	char version[32];
	int32_t ret;              /* this rank's validation */
	int32_t usage;
	char msg[IOC_ERR_MAX];
};

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

int dist_agree(struct dist *d, const char *what, int local_ret,
	       const struct ioc_err *local_err, struct ioc_err *err)
{
	struct vote mine = {0}, *all;
	int ret = 0;

	if (!d) {
		if (local_ret && err != local_err)
			*err = *local_err;
		return local_ret;
	}
	mine.what_hash = fnv1a(what);
	snprintf(mine.version, sizeof(mine.version), "%s", IOCHAR_VERSION);
	mine.ret = local_ret;
	mine.usage = local_err->usage;
	snprintf(mine.msg, sizeof(mine.msg), "%s", local_err->msg);
	all = calloc((size_t)d->size, sizeof(*all));
	if (!all)
		return err_set(err, ENOMEM, "out of memory");
	/* parsing and validating may take a while on some ranks (devices) */
	if ((ret = dist_allgather(d, &mine, sizeof(mine), all, 6 * d->timeout_ns, err))) {
		free(all);
		return ret;
	}
	memset(err, 0, sizeof(*err));
	/* versions first: a different binary may parse the same text apart */
	for (int r = 1; r < d->size && !ret; r++)
		if (strcmp(all[r].version, all[0].version))
			ret = err_usage(err, EPROTO,
					"rank %d (%s) runs iochar %s, rank 0 (%s) runs %s: "
					"use one version everywhere", r, d->hosts[r],
					all[r].version, d->hosts[0], all[0].version);
	for (int r = 0; r < d->size && !ret; r++)
		if (all[r].ret)
			ret = all[r].usage
				      ? err_usage(err, -all[r].ret, "rank %d (%s): %s", r,
						  d->hosts[r], all[r].msg)
				      : err_set(err, -all[r].ret, "rank %d (%s): %s", r,
						d->hosts[r], all[r].msg);
	for (int r = 1; r < d->size && !ret; r++)
		if (all[r].what_hash != all[0].what_hash)
			ret = err_usage(err, EPROTO,
					"rank %d (%s) was given a different job or plan than "
					"rank 0 (%s): every rank must run the same options",
					r, d->hosts[r], d->hosts[0]);
	free(all);
	return ret;
}
