/* path_same.c - see path_same.h. */
#define _GNU_SOURCE
#include "util/path_same.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LINKS_MAX 40 /* the kernel's own bound on symlinks followed */

/* cur's directory part joined with link (relative to it) into cur. */
static int follow(char *cur, size_t len, const char *link)
{
	char dir[PATH_MAX];
	char *slash = strrchr(cur, '/');

	if (link[0] == '/' || !slash) {
		if (snprintf(dir, sizeof(dir), "%s", link) >= (int)sizeof(dir))
			return -ENAMETOOLONG;
	} else if (snprintf(dir, sizeof(dir), "%.*s/%s", (int)(slash - cur),
			    cur, link) >= (int)sizeof(dir)) {
		return -ENAMETOOLONG;
	}
	if (snprintf(cur, len, "%s", dir) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* A missing last component: its directory resolved, the name kept. */
static int resolve_missing(const char *cur, char *out, size_t len)
{
	const char *slash = strrchr(cur, '/');
	const char *base = slash ? slash + 1 : cur;
	char dir[PATH_MAX];

	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return -ENOENT;
	if (!slash)
		strcpy(dir, ".");
	else if (slash == cur)
		strcpy(dir, "/");
	else /* cur is shorter than PATH_MAX: its prefix fits */
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - cur), cur);
	char *d = realpath(dir, NULL);
	if (!d)
		return -errno;
	int n = snprintf(out, len, "%s/%s", strcmp(d, "/") ? d : "", base);
	free(d);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int path_resolve(const char *path, char *out, size_t len)
{
	char cur[PATH_MAX], link[PATH_MAX];

	if (!path[0])
		return -ENOENT;
	if (snprintf(cur, sizeof(cur), "%s", path) >= (int)sizeof(cur))
		return -ENAMETOOLONG;
	for (int i = 0; i < LINKS_MAX; i++) {
		char *r = realpath(cur, NULL);
		if (r) {
			int n = snprintf(out, len, "%s", r);
			free(r);
			return (size_t)n >= len ? -ENAMETOOLONG : 0;
		}
		if (errno != ENOENT)
			return -errno;
		ssize_t n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0) /* not a symlink: the name a creation would make */
			return resolve_missing(cur, out, len);
		link[n] = '\0';
		int ret = follow(cur, sizeof(cur), link);
		if (ret)
			return ret;
	}
	return -ELOOP;
}

bool path_same(const char *a, const char *b)
{
	struct stat sa, sb;
	char ra[PATH_MAX], rb[PATH_MAX];

	if (!strcmp(a, b))
		return true;
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (path_resolve(a, ra, sizeof(ra)) || path_resolve(b, rb, sizeof(rb)))
		return false;
	return !strcmp(ra, rb);
}
