/* marker.c - user.iochar = "created" on the files iochar creates,
 * "results" on the results files it writes. See marker.h. */
#define _GNU_SOURCE
#include "target/marker.h"

#include <errno.h>
#include <string.h>
#include <sys/xattr.h>

#define MARKER_NAME  "user.iochar"
#define MARKER_VALUE "created"
#define RESULTS_VALUE "results"

/* Linux spells "no user xattrs here" ENOTSUP or EOPNOTSUPP (the same value
 * on every Linux architecture, but not by definition). */
static int marker_errno(int e)
{
	return e == EOPNOTSUPP ? -ENOTSUP : -e;
}

static int mark_set(int fd, const char *value)
{
	if (fsetxattr(fd, MARKER_NAME, value, strlen(value), 0) < 0)
		return marker_errno(errno);
	return 0;
}

static int mark_check(const char *path, const char *value)
{
	char buf[16];
	ssize_t n = getxattr(path, MARKER_NAME, buf, sizeof(buf));

	if (n < 0) {
		if (errno == ENODATA ||
		    errno == ERANGE) /* absent, or not ours */
			return 0;
		return marker_errno(errno);
	}
	return (size_t)n == strlen(value) && memcmp(buf, value, (size_t)n) == 0;
}

int target_marker_set(int fd)
{
	return mark_set(fd, MARKER_VALUE);
}

int target_marker_check(const char *path)
{
	return mark_check(path, MARKER_VALUE);
}

int results_marker_set(int fd)
{
	return mark_set(fd, RESULTS_VALUE);
}

int results_marker_check(const char *path)
{
	return mark_check(path, RESULTS_VALUE);
}
