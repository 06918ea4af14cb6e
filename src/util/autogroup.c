/* autogroup.c - see autogroup.h. */
#include "util/autogroup.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define AUTOGROUP_PATH "/proc/self/autogroup"
#define AUTOGROUP_ON "/proc/sys/kernel/sched_autogroup_enabled"

/* The kernel's sched_prio_to_weight for nice -20..0 (kernel/sched/core.c):
 * each step of nice is about 1.25x the weight. */
static const unsigned nice_weight[21] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,
	1024,
};

int autogroup_nice_for(unsigned groups)
{
	double want = log((double)(groups ? groups : 1) * 1024.0);
	int best = 0;
	double best_d = INFINITY;
	for (int i = 0; i <= 20; i++) {
		double d = fabs(log((double)nice_weight[i]) - want);
		if (d < best_d) {
			best_d = d;
			best = i - 20;
		}
	}
	return best;
}

/* The whole of a small /proc file into buf; -errno on failure. */
static int read_small(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n = read(fd, buf, size - 1);
	int e = errno;
	close(fd);
	if (n < 0)
		return -e;
	buf[n] = '\0';
	return 0;
}

/* This process's autogroup nice, from "/autogroup-123 nice 0". */
static int read_nice(int *nice)
{
	char buf[128];
	int ret = read_small(AUTOGROUP_PATH, buf, sizeof(buf));
	if (ret)
		return ret;
	const char *p = strstr(buf, " nice ");
	return p && sscanf(p + 6, "%d", nice) == 1 ? 0 : -EINVAL;
}

static int write_nice(int nice)
{
	char s[16];
	int fd = open(AUTOGROUP_PATH, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	int len = snprintf(s, sizeof(s), "%d", nice);
	ssize_t n = write(fd, s, (size_t)len);
	int e = errno;
	close(fd);
	return n == len ? 0 : -(n < 0 ? e : EIO);
}

int autogroup_weigh(unsigned groups, struct autogroup_hold *h)
{
	char buf[128];
	int ret, old;

	*h = (struct autogroup_hold){0};
	if (groups < 2)
		return 0;
	if ((ret = read_small(AUTOGROUP_ON, buf, sizeof(buf))))
		return ret == -EACCES ? ret : -ENOENT;
	if (buf[0] != '1')
		return -ENOENT;
	if ((ret = read_nice(&old)))
		return ret;
	/* Only a group at the default: a nice someone set (the user, or
	 * another iochar of the session running now) is theirs to keep. */
	if (old != 0)
		return 0;
	int nice = autogroup_nice_for(groups);
	if ((ret = write_nice(nice)))
		return ret;
	*h = (struct autogroup_hold){.held = true, .old_nice = old, .nice = nice};
	return 0;
}

void autogroup_release(struct autogroup_hold *h)
{
	int now;

	if (!h)
		return;
	/* put it back only if it is still ours */
	if (h->held && !read_nice(&now) && now == h->nice)
		(void)write_nice(h->old_nice);
	h->held = false;
}
