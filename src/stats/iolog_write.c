/* iolog_write.c - write_iolog in fio 3.33's version 3 format
 * (stats/iolog_write.h). */
#include "stats/iolog_write.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define IOLOG_BUF 65536
#define IOLOG_LINE 1400 /* a line's most: a path of 1024 and numbers */

static void drain(struct iolog_writer *w)
{
	size_t done = 0;
	while (done < w->len && !w->error) {
		ssize_t n = write(w->fd, w->buf + done, w->len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			w->error = n < 0 ? -errno : -EIO;
		else
			done += (size_t)n;
	}
	w->len = 0;
}

static void put_line(struct iolog_writer *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put_line(struct iolog_writer *w, const char *fmt, ...)
{
	if (w->fd < 0)
		return;
	if (IOLOG_BUF - w->len < IOLOG_LINE)
		drain(w);
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(w->buf + w->len, IOLOG_BUF - w->len, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < IOLOG_BUF - w->len)
		w->len += (size_t)n;
}

static unsigned long long usec(const struct iolog_writer *w, uint64_t now)
{
	return now > w->start_ns ? (now - w->start_ns) / 1000 : 0;
}

static void file_lines(struct iolog_writer *w, uint64_t now, const char *act)
{
	for (unsigned i = 0; i < w->nr_files; i++)
		put_line(w, "%llu %s %s\n", usec(w, now), w->files[i], act);
}

int iolog_writer_open(struct iolog_writer *w, const char *path,
		      const char *const *files, unsigned nr_files,
		      uint64_t now_ns, struct ioc_err *err)
{
	memset(w, 0, sizeof(*w));
	w->fd = -1;
	w->buf = malloc(IOLOG_BUF);
	if (!w->buf)
		return err_set(err, ENOMEM, "out of memory");
	w->fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (w->fd < 0) {
		int e = errno;
		free(w->buf);
		w->buf = NULL;
		return err_set(err, e, "write_iolog=%s: %s", path, strerror(e));
	}
	struct stat st; /* checked when parsed; a device may have appeared since */
	if (fstat(w->fd, &st) || S_ISBLK(st.st_mode)) {
		close(w->fd);
		w->fd = -1;
		free(w->buf);
		w->buf = NULL;
		return err_set(err, EINVAL, "write_iolog=%s: not a file", path);
	}
	w->start_ns = now_ns;
	w->files = files;
	w->nr_files = nr_files;
	put_line(w, "fio version 3 iolog\n");
	file_lines(w, now_ns, "add");
	file_lines(w, now_ns, "open");
	return 0;
}

void iolog_writer_io(struct iolog_writer *w, uint64_t now_ns, unsigned file,
		     enum iolog_act act, uint64_t offset, uint64_t len)
{
	static const char *const names[] = {"read", "write", "sync", "datasync", "trim"};
	if (file >= w->nr_files)
		return;
	put_line(w, "%llu %s %s %llu %llu\n", usec(w, now_ns), w->files[file],
		 names[act], (unsigned long long)offset, (unsigned long long)len);
}

int iolog_writer_close(struct iolog_writer *w, uint64_t now_ns, struct ioc_err *err)
{
	if (w->fd < 0)
		return 0;
	file_lines(w, now_ns, "close");
	drain(w);
	if (close(w->fd) < 0 && !w->error)
		w->error = -errno;
	w->fd = -1;
	free(w->buf);
	w->buf = NULL;
	if (w->error)
		return err_set(err, -w->error, "write_iolog: %s", strerror(-w->error));
	return 0;
}
