/* file_id.c - see file_id.h. */
#define _GNU_SOURCE
#include "util/file_id.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A path that does not exist yet: follow the dangling symlinks it is
 * (where the file would be made), then resolve its directory. */
static void where_it_would_be(const char *path, char *out, size_t len)
{
	char cur[PATH_MAX], link[PATH_MAX], dir[PATH_MAX];
	struct stat st;

	snprintf(cur, sizeof(cur), "%s", path);
	for (int hops = 0; hops < 40 && lstat(cur, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
		ssize_t n = readlink(cur, link, sizeof(link) - 1);
		if (n <= 0)
			break;
		link[n] = '\0';
		if (link[0] == '/') {
			snprintf(cur, sizeof(cur), "%s", link);
			continue;
		}
		snprintf(dir, sizeof(dir), "%s", cur);
		char next[2 * PATH_MAX + 2];
		int w = snprintf(next, sizeof(next), "%s/%s", dirname(dir), link);
		if (w < 0 || (size_t)w >= sizeof(cur))
			break; /* too long to be a path: its spelling stands */
		memcpy(cur, next, (size_t)w + 1);
	}
	char a[PATH_MAX], b[PATH_MAX];
	snprintf(a, sizeof(a), "%s", cur);
	snprintf(b, sizeof(b), "%s", cur);
	if (realpath(dirname(a), dir))
		snprintf(out, len, "%s/%s", dir, basename(b));
	else
		snprintf(out, len, "%s", cur);
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
	where_it_would_be(path, id->path, sizeof(id->path));
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
