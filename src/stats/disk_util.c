/* disk_util.c - see disk_util.h. fio finds a device by walking /sys/block
 * for the "dev" file holding its major:minor; /sys/dev/block/MAJ:MIN links
 * to the same directory, so one readlink does it. */
#define _GNU_SOURCE /* realpath */
#include "stats/disk_util.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>

#define DISK_SLAVE_DEPTH 4 /* dm over md over dm...: a bound, never reached */

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The stat line's fields 1-8, 10 and 11 (9 is the I/Os in flight now). */
static int read_counts(const char *sysfs, struct disk_counts *c)
{
	char path[PATH_MAX], line[512];
	snprintf(path, sizeof(path), "%s/stat", sysfs);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char *p = fgets(line, sizeof(line), f);
	fclose(f);
	if (!p)
		return -1;
	int n = sscanf(line,
		       "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		       " %" SCNu64 " %" SCNu64 " %*u %" SCNu64 " %" SCNu64,
		       &c->ios[0], &c->merges[0], &c->sectors[0], &c->ticks[0], &c->ios[1],
		       &c->merges[1], &c->sectors[1], &c->ticks[1], &c->io_ticks, &c->in_queue);
	return n == 10 ? 0 : -1;
}

/* The kernel prints the tick fields as 32-bit numbers: a smaller value
 * than before wrapped once (fio's safe_32bit_diff). */
static uint64_t tick_diff(uint64_t now, uint64_t then)
{
	if (then <= now || then >= (1ull << 32))
		return now - then;
	return (1ull << 32) + now - then;
}

/* The major:minor of what path names: a block device's own, else the
 * filesystem's; a path that does not exist yet, its directory's. */
static int path_dev(const char *path, unsigned *maj, unsigned *min)
{
	struct stat st;
	if (stat(path, &st)) {
		char dir[PATH_MAX];
		snprintf(dir, sizeof(dir), "%s", path);
		char *slash = strrchr(dir, '/');
		if (!slash)
			snprintf(dir, sizeof(dir), ".");
		else if (slash == dir)
			dir[1] = '\0';
		else
			*slash = '\0';
		if (stat(dir, &st))
			return -1;
	}
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))
		return -1;
	dev_t d = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
	*maj = major(d);
	*min = minor(d);
	return 0;
}

static int find(const struct disk_watch *dw, unsigned maj, unsigned min, const char *name)
{
	for (unsigned i = 0; i < dw->n; i++)
		if ((dw->v[i].major == maj && dw->v[i].minor == min) ||
		    !strcmp(dw->v[i].name, name))
			return (int)i;
	return -1;
}

static int add_dev(struct disk_watch *dw, unsigned maj, unsigned min, int master,
		   unsigned depth);

/* Each slaves/X of entry m (a dm or md device's components). */
static int add_slaves(struct disk_watch *dw, unsigned m, unsigned depth)
{
	char dir[PATH_MAX], devf[PATH_MAX * 2], line[64];
	snprintf(dir, sizeof(dir), "%s/slaves", dw->v[m].sysfs);
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int ret = 0;
	struct dirent *e;
	while (!ret && (e = readdir(d))) {
		unsigned maj, min;
		if (e->d_name[0] == '.')
			continue;
		snprintf(devf, sizeof(devf), "%s/%s/dev", dir, e->d_name);
		FILE *f = fopen(devf, "r");
		if (!f)
			continue;
		bool ok = fgets(line, sizeof(line), f) && sscanf(line, "%u:%u", &maj, &min) == 2;
		fclose(f);
		if (ok)
			ret = add_dev(dw, maj, min, (int)m, depth + 1);
	}
	closedir(d);
	return ret;
}

/* The device's sysfs directory; a partition's is its disk's (fio: "if
 * there's a ../queue/ directory there, we are inside a partition"). */
static int dev_dir(unsigned maj, unsigned min, char *out)
{
	char link[64], q[PATH_MAX + 16];
	struct stat st;
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", maj, min);
	if (!realpath(link, out))
		return -1;
	snprintf(q, sizeof(q), "%s/../queue", out);
	if (!stat(q, &st)) {
		char *slash = strrchr(out, '/');
		if (slash && slash != out)
			*slash = '\0';
	}
	return 0;
}

static int add_dev(struct disk_watch *dw, unsigned maj, unsigned min, int master,
		   unsigned depth)
{
	char dir[PATH_MAX];
	if (depth > DISK_SLAVE_DEPTH || dev_dir(maj, min, dir))
		return 0;
	const char *name = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	if (find(dw, maj, min, name) >= 0 || strlen(dir) >= sizeof(dw->v->sysfs) ||
	    strlen(name) >= sizeof(dw->v->name))
		return 0; /* watched already, or a name no sysfs has */
	if (dw->n == dw->cap) {
		unsigned cap = dw->cap ? dw->cap * 2 : 4;
		struct disk_util *v = realloc(dw->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		dw->v = v;
		dw->cap = cap;
	}
	struct disk_util *du = &dw->v[dw->n];
	memset(du, 0, sizeof(*du));
	memcpy(du->name, name, strlen(name) + 1);
	memcpy(du->sysfs, dir, strlen(dir) + 1);
	du->major = maj;
	du->minor = min;
	du->master = master;
	if (read_counts(du->sysfs, &du->start))
		return 0; /* no stat file: not a disk fio could watch either */
	du->start_ns = mono_ns();
	return add_slaves(dw, dw->n++, depth);
}

int disk_watch_add(struct disk_watch *dw, const char *path)
{
	unsigned maj, min;
	if (!path || path_dev(path, &maj, &min))
		return 0;
	return add_dev(dw, maj, min, -1, 0);
}

void disk_watch_stop(struct disk_watch *dw)
{
	for (unsigned i = 0; i < dw->n; i++) {
		struct disk_util *d = &dw->v[i];
		struct disk_counts now;
		memset(&d->delta, 0, sizeof(d->delta));
		d->msec = (mono_ns() - d->start_ns) / 1000000ull;
		if (read_counts(d->sysfs, &now))
			continue;
		for (int k = 0; k < 2; k++) {
			d->delta.ios[k] = now.ios[k] - d->start.ios[k];
			d->delta.merges[k] = now.merges[k] - d->start.merges[k];
			d->delta.sectors[k] = now.sectors[k] - d->start.sectors[k];
			d->delta.ticks[k] = tick_diff(now.ticks[k], d->start.ticks[k]);
		}
		d->delta.io_ticks = tick_diff(now.io_ticks, d->start.io_ticks);
		d->delta.in_queue = tick_diff(now.in_queue, d->start.in_queue);
	}
}

void disk_watch_free(struct disk_watch *dw)
{
	if (!dw)
		return;
	free(dw->v);
	memset(dw, 0, sizeof(*dw));
}

double disk_util_pct(const struct disk_util *d)
{
	double u = d->msec ? 100.0 * (double)d->delta.io_ticks / (double)d->msec : 0;
	return u > 100.0 ? 100.0 : u;
}

unsigned disk_util_slaves(const struct disk_util *v, unsigned n, unsigned m,
			  struct disk_counts *sum, double *max_util)
{
	unsigned nr = 0;
	memset(sum, 0, sizeof(*sum));
	*max_util = 0;
	for (unsigned i = 0; i < n; i++) {
		if (v[i].master != (int)m)
			continue;
		const struct disk_counts *c = &v[i].delta;
		for (int k = 0; k < 2; k++) {
			sum->ios[k] += c->ios[k];
			sum->merges[k] += c->merges[k];
			sum->sectors[k] += c->sectors[k];
			sum->ticks[k] += c->ticks[k];
		}
		sum->in_queue += c->in_queue;
		double u = disk_util_pct(&v[i]);
		if (u > *max_util)
			*max_util = u;
		nr++;
	}
	return nr;
}
