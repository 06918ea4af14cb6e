/* sysfs.c - see sysfs.h. */
#include "inventory/sysfs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void inv_copy(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	if (!size)
		return;
	while (src && n + 1 < size && src[n]) {
		dst[n] = src[n];
		n++;
	}
	dst[n] = '\0';
}

void inv_parse_scheduler(const char *line, char *out, size_t len)
{
	const char *open = strchr(line, '['), *close;

	if (!open) {
		if (!strchr(line, ' '))
			inv_copy(out, len, line);
		return;
	}
	close = strchr(open, ']');
	if (!close)
		return;
	size_t n = (size_t)(close - open - 1);
	if (n >= len)
		n = len - 1;
	memcpy(out, open + 1, n);
	out[n] = '\0';
}

void inv_list_add(char *list, size_t size, const char *name)
{
	size_t have = strlen(list), add = strlen(name);

	if (have + (have ? 1 : 0) + add + 1 > size)
		return;
	if (have)
		list[have++] = ' ';
	memcpy(list + have, name, add + 1);
}

/* root + formatted path into buf; -ENAMETOOLONG when it does not fit. */
static int vpath(char *buf, size_t len, const char *root, const char *fmt,
		 va_list ap)
{
	int n = snprintf(buf, len, "%s", root ? root : "");

	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	int m = vsnprintf(buf + n, len - (size_t)n, fmt, ap);
	if (m < 0 || (size_t)m >= len - (size_t)n)
		return -ENAMETOOLONG;
	return 0;
}

static char *trim(char *s)
{
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

static int read_first_line(const char *path, char *buf, size_t len)
{
	char line[4200];
	FILE *f = fopen(path, "re");

	if (!f)
		return -errno;
	if (!fgets(line, sizeof(line), f)) {
		int ret = ferror(f) ? -EIO : 0;
		fclose(f);
		if (!ret)
			inv_copy(buf, len, "");
		return ret;
	}
	fclose(f);
	inv_copy(buf, len, trim(line));
	return 0;
}

/* The first line of the file named by root + fmt. */
static int vread(const char *root, char *buf, size_t len, const char *fmt,
		 va_list ap)
{
	char path[PATH_MAX];
	int ret = vpath(path, sizeof(path), root, fmt, ap);

	return ret ? ret : read_first_line(path, buf, len);
}

int sysfs_read(const char *root, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vread(root, buf, len, fmt, ap);
	va_end(ap);
	return ret;
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

int sysfs_read_u64(const char *root, uint64_t *out, const char *fmt, ...)
{
	char buf[64];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vread(root, buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return ret ? ret : parse_u64(buf, out);
}

int sysfs_read_int(const char *root, int *out, const char *fmt, ...)
{
	char buf[64], *end;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vread(root, buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (ret)
		return ret;
	errno = 0;
	long v = strtol(buf, &end, 10);
	if (errno || end == buf || *end || v < INT_MIN || v > INT_MAX)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

int sysfs_link_name(const char *root, char *buf, size_t len, const char *fmt,
		    ...)
{
	char path[PATH_MAX], target[PATH_MAX];
	va_list ap;
	ssize_t n;
	int ret;

	va_start(ap, fmt);
	ret = vpath(path, sizeof(path), root, fmt, ap);
	va_end(ap);
	if (ret)
		return ret;
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	const char *slash = strrchr(target, '/');
	inv_copy(buf, len, slash ? slash + 1 : target);
	return 0;
}

int sysfs_real(const char *root, char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX], real[PATH_MAX];
	size_t rlen = root ? strlen(root) : 0;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vpath(path, sizeof(path), root, fmt, ap);
	va_end(ap);
	if (ret)
		return ret;
	if (!realpath(path, real))
		return -errno;
	/* A link leading out of the root is not part of the tree. */
	if (rlen && (strncmp(real, root, rlen) != 0 || real[rlen] != '/'))
		return -EXDEV;
	inv_copy(buf, len, real + rlen);
	return 0;
}

bool sysfs_exists(const char *root, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vpath(path, sizeof(path), root, fmt, ap);
	va_end(ap);
	return !ret && access(path, F_OK) == 0;
}

/* Names compare as strings, except that equal prefixes followed by
 * numbers compare by number, so loop2 < loop10 and rx-2 < rx-10. */
static int name_cmp(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	while (*x && *y) {
		if (isdigit((unsigned char)*x) && isdigit((unsigned char)*y)) {
			unsigned long long u = strtoull(x, (char **)&x, 10);
			unsigned long long v = strtoull(y, (char **)&y, 10);
			if (u != v)
				return u < v ? -1 : 1;
			continue;
		}
		if (*x != *y)
			return (unsigned char)*x < (unsigned char)*y ? -1 : 1;
		x++;
		y++;
	}
	return (unsigned char)*x - (unsigned char)*y;
}

void sysfs_list_free(char **names, unsigned nr)
{
	if (!names)
		return;
	for (unsigned i = 0; i < nr; i++)
		free(names[i]);
	free(names);
}

int sysfs_list(const char *root, char ***names, unsigned *nr, const char *fmt,
	       ...)
{
	char path[PATH_MAX];
	char **v = NULL;
	unsigned n = 0, cap = 0;
	struct dirent *de;
	va_list ap;
	DIR *d;
	int ret;

	*names = NULL;
	*nr = 0;
	va_start(ap, fmt);
	ret = vpath(path, sizeof(path), root, fmt, ap);
	va_end(ap);
	if (ret)
		return ret;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			unsigned ncap = cap ? cap * 2 : 16;
			char **nv = realloc(v, ncap * sizeof(*v));
			if (!nv)
				goto nomem;
			v = nv;
			cap = ncap;
		}
		v[n] = strdup(de->d_name);
		if (!v[n])
			goto nomem;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), name_cmp);
	*names = v;
	*nr = n;
	return 0;
nomem:
	closedir(d);
	sysfs_list_free(v, n);
	return -ENOMEM;
}

unsigned inv_cpulist_each(const char *list, void (*fn)(unsigned, void *),
			  void *arg)
{
	const char *p = list;
	unsigned count = 0;

	while (p && *p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;
		if (end == p)
			break;
		p = end;
		if (*p == '-') {
			b = strtoul(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				break;
			p = end;
		}
		/* Bound a corrupt list: Linux supports at most 8192 CPUs
		 * (NR_CPUS), and numbers past that are not real. */
		if (b >= INV_MAX_CPUS)
			break;
		for (unsigned long i = a; i <= b && count < INV_MAX_CPUS;
		     i++, count++)
			if (fn)
				fn((unsigned)i, arg);
		if (*p != ',')
			break;
		p++;
	}
	return count;
}

bool inv_is_pci_addr(const char *s)
{
	static const char pat[] = "xxxx:xx:xx.x";

	for (size_t i = 0; i < sizeof(pat) - 1; i++) {
		if (pat[i] == 'x' ? !isxdigit((unsigned char)s[i])
				  : s[i] != pat[i])
			return false;
	}
	return s[sizeof(pat) - 1] == '\0';
}
