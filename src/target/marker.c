/* marker.c - user.iochar = "created" on the files iochar creates. See
 * marker.h. */
#define _GNU_SOURCE
#include "target/marker.h"

#include <errno.h>
#include <string.h>
#include <sys/xattr.h>

#define MARKER_NAME  "user.iochar"
#define MARKER_VALUE "created"

/* Linux spells "no user xattrs here" ENOTSUP or EOPNOTSUPP (the same value
 * on every Linux architecture, but not by definition). */
static int marker_errno(int e)
{
	return e == EOPNOTSUPP ? -ENOTSUP : -e;
}

int target_marker_set(int fd)
{
	if (fsetxattr(fd, MARKER_NAME, MARKER_VALUE, strlen(MARKER_VALUE), 0) <
	    0)
		return marker_errno(errno);
	return 0;
}

int target_marker_check(const char *path)
{
	char buf[sizeof(MARKER_VALUE)];
	ssize_t n = getxattr(path, MARKER_NAME, buf, sizeof(buf));

	if (n < 0) {
		if (errno == ENODATA ||
		    errno == ERANGE) /* absent, or not ours */
			return 0;
		return marker_errno(errno);
	}
	return (size_t)n == strlen(MARKER_VALUE) &&
	       memcmp(buf, MARKER_VALUE, (size_t)n) == 0;
}
