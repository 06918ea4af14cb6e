/* atomic_file.c - see atomic_file.h. */
#define _GNU_SOURCE
#include "util/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int atomic_file_open(struct atomic_file *af, const char *path)
{
	memset(af, 0, sizeof(*af));
	if (strlen(path) >= sizeof(af->path))
		return -ENAMETOOLONG;
	strcpy(af->path, path);
	snprintf(af->tmp, sizeof(af->tmp), "%s.tmpXXXXXX", path);
	int fd = mkostemp(af->tmp, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	af->f = fdopen(fd, "w");
	if (!af->f) {
		int e = errno;
		close(fd);
		unlink(af->tmp);
		return -e;
	}
	fchmod(fd, 0644);
	return 0;
}

static int sync_dir(const char *path)
{
	char *copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd < 0)
		return -errno;
	int ret = fsync(fd) < 0 ? -errno : 0;
	close(fd);
	return ret;
}

int atomic_file_commit(struct atomic_file *af)
{
	int ret = 0;
	if (fflush(af->f) != 0 || ferror(af->f) || fsync(fileno(af->f)) < 0)
		ret = -(errno ? errno : EIO);
	if (fclose(af->f) != 0 && !ret)
		ret = -errno;
	af->f = NULL;
	if (!ret && rename(af->tmp, af->path) < 0)
		ret = -errno;
	if (ret) {
		unlink(af->tmp);
		return ret;
	}
	return sync_dir(af->path);
}

void atomic_file_abort(struct atomic_file *af)
{
	if (!af->f)
		return;
	fclose(af->f);
	af->f = NULL;
	unlink(af->tmp);
}

int copy_file_into(FILE *f, const char *src)
{
	char buf[65536];
	size_t n;
	FILE *in = fopen(src, "re");
	if (!in)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, f) != n)
			break;
	int ret = ferror(in) || ferror(f) ? -EIO : 0;
	fclose(in);
	return ret;
}
