/* agg_bw_log.c - fio's aggregate bandwidth logs (--bandwidth-log).
 *
 * fio 3.33 samples them from its ETA thread, so only while its ETA is
 * shown (a terminal, or --eta=always); otherwise the files stay empty
 * (measured: `fio --bandwidth-log` to a pipe leaves three empty files).
 * iochar samples them where its live status line is drawn, the same
 * condition, once a second.
 */
#include "cmd/agg_bw_log.h"

#include <errno.h>
#include <string.h>

static const char *const agg_names[3] = {
	"agg-read_bw.log", "agg-write_bw.log", "agg-trim_bw.log",
};

int agg_bw_log_open(struct agg_bw_log *l, struct ioc_err *err)
{
	memset(l, 0, sizeof(*l));
	for (int d = 0; d < 3; d++) {
		l->f[d] = fopen(agg_names[d], "we");
		if (!l->f[d]) {
			int e = errno;

			agg_bw_log_close(l);
			return err_set(err, e, "--bandwidth-log: %s: %s",
				       agg_names[d], strerror(e));
		}
	}
	return 0;
}

void agg_bw_log_sample(struct agg_bw_log *l, uint64_t elapsed_ns,
		       const uint64_t bytes[DIR_COUNT])
{
	uint64_t span = elapsed_ns - l->last_ns;

	if (!l->f[0] || !span)
		return;
	for (int d = 0; d < 3; d++) {
		uint64_t moved = d < DIR_COUNT ? bytes[d] - l->last_bytes[d] : 0;
		/* KiB/s, as fio's bandwidth logs */
		uint64_t kib_s = (uint64_t)((double)moved * 1e9 / (double)span / 1024.0);

		fprintf(l->f[d], "%llu, %llu, %d, 0, 0\n",
			(unsigned long long)(elapsed_ns / 1000000),
			(unsigned long long)kib_s, d);
		if (d < DIR_COUNT)
			l->last_bytes[d] = bytes[d];
	}
	l->last_ns = elapsed_ns;
}

int agg_bw_log_close(struct agg_bw_log *l)
{
	int ret = 0;

	for (int d = 0; d < 3; d++)
		if (l->f[d]) {
			if (ferror(l->f[d]) | fclose(l->f[d]))
				ret = -EIO;
			l->f[d] = NULL;
		}
	return ret;
}
