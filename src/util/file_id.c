/* file_id.c - see file_id.h. */
#define _GNU_SOURCE
#include "util/file_id.h"

#include <errno.h>
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

void file_id_of(const char *path, struct file_id *id)
{
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (stat(path, &st) == 0) {
		id->exists = true;
		id->dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
		id->ino = S_ISBLK(st.st_mode) ? 0 : st.st_ino;
		return;
	}
	/* where it would be made; an unresolvable path is its own spelling */
	if (path_resolve(path, id->path, sizeof(id->path)))
		snprintf(id->path, sizeof(id->path), "%s", path);
}

bool file_id_same(const struct file_id *a, const struct file_id *b)
{
	if (a->exists != b->exists)
		return false;
	if (a->exists)
		return a->dev == b->dev && a->ino == b->ino;
	return strcmp(a->path, b->path) == 0;
}

bool file_same(const char *a, const char *b)
{
	struct file_id x, y;
	file_id_of(a, &x);
	file_id_of(b, &y);
	return file_id_same(&x, &y);
}
