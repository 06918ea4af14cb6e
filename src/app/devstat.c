/* devstat.c - see devstat.h. */
#define _GNU_SOURCE
#include "app/devstat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "app/proc.h"

int app_dev_find(const char *dir, char *name, size_t nsize, char *stat, size_t ssize)
{
	struct stat st;
	char link[256], target[512];
	ssize_t n;

	if (lstat(dir, &st))
		return -errno;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -ENODEV;
	target[n] = '\0';
	const char *base = strrchr(target, '/');
	snprintf(name, nsize, "%s", base ? base + 1 : target);
	snprintf(stat, ssize, "%s/stat", link);
	return access(stat, R_OK) ? -ENODEV : 0;
}

int app_dev_sample(const char *stat, struct app_devstat *s)
{
	FILE *f = fopen(stat, "r");
	uint64_t v[11] = {0};
	int n;

	if (!f)
		return -errno;
	n = fscanf(f, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]);
	fclose(f);
	if (n < 10)
		return -EIO;
	*s = (struct app_devstat){.rd = v[0], .rsect = v[2], .rms = v[3], .wr = v[4],
				  .wsect = v[6], .wms = v[7], .ticks = v[9], .t = app_now_s()};
	return 0;
}

static double ratio(uint64_t num, uint64_t den)
{
	return den ? (double)num / (double)den : 0.0;
}

void app_dev_figures(const struct app_devstat *a, const struct app_devstat *b,
		     struct app_devfig *f)
{
	double dt = b->t - a->t;
	uint64_t rd = b->rd - a->rd, wr = b->wr - a->wr;

	if (dt <= 0)
		dt = 1e-9;
	f->read_iops = (double)rd / dt;
	f->write_iops = (double)wr / dt;
	f->read_mbps = (double)(b->rsect - a->rsect) * 512.0 / 1e6 / dt;
	f->write_mbps = (double)(b->wsect - a->wsect) * 512.0 / 1e6 / dt;
	f->read_lat_ms = ratio(b->rms - a->rms, rd);
	f->write_lat_ms = ratio(b->wms - a->wms, wr);
	f->util_pct = (double)(b->ticks - a->ticks) / 10.0 / dt;
	if (f->util_pct > 100.0)
		f->util_pct = 100.0;
}
