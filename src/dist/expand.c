/* expand.c - per-host target names: "%h" is the hostname, "%r" the rank,
 * "%%" a percent sign, in a job's filename list; see dist.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dist/dist.h"

void dist_log_suffix(const struct dist *d, struct job_spec *job)
{
	if (d && dist_size(d) > 1)
		snprintf(job->log_suffix, sizeof(job->log_suffix), ".%s.%d",
			 dist_host(d, dist_rank(d)), dist_rank(d));
}

int dist_expand_files(const struct dist *d, struct job_spec *job,
		      struct ioc_err *err)
{
	char host[64] = {0};
	if (!job->filename || !strchr(job->filename, '%'))
		return 0;
	if (d)
		snprintf(host, sizeof(host), "%s", dist_host(d, dist_rank(d)));
	else
		gethostname(host, sizeof(host) - 1);

	size_t cap = strlen(job->filename) * 2 + 64, n = 0;
	char *out = malloc(cap);
	if (!out)
		return err_set(err, ENOMEM, "out of memory");
	for (const char *p = job->filename; *p; p++) {
		char piece[80];
		const char *add = piece;
		piece[0] = *p;
		piece[1] = '\0';
		if (*p == '%') {
			switch (p[1]) {
			case 'h': add = host; p++; break;
			case 'r': snprintf(piece, sizeof(piece), "%d", dist_rank(d)); p++; break;
			case '%': p++; break;
			default:
				free(out);
				return err_usage(err, EINVAL,
						 "filename=%s: '%%%c' is not %%h (host), %%r (rank) or %%%%",
						 job->filename, p[1] ? p[1] : ' ');
			}
		}
		size_t l = strlen(add);
		if (n + l + 1 > cap) {
			cap = (n + l + 1) * 2;
			char *o = realloc(out, cap);
			if (!o) {
				free(out);
				return err_set(err, ENOMEM, "out of memory");
			}
			out = o;
		}
		memcpy(out + n, add, l);
		n += l;
	}
	out[n] = '\0';
	int ret = job_spec_set_files(job, out); /* filename reads as expanded too */
	free(out);
	if (ret == -E2BIG)
		return err_usage(err, E2BIG, "filename: too many files");
	if (ret)
		return err_set(err, -ret, "out of memory");
	return 0;
}
