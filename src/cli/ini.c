/* ini.c - cut INI text into headers and key=value lines. See ini.h. */
#include "cli/ini.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define INI_MAX_FILE (16u << 20)

char *ini_trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	*end = '\0';
	return s;
}

/* Cut a comment: ';' or '#' starting the line, or after whitespace. */
static void strip_comment(char *s)
{
	for (char *p = s; *p; p++) {
		if ((*p == ';' || *p == '#') &&
		    (p == s || isspace((unsigned char)p[-1]))) {
			*p = '\0';
			return;
		}
	}
}

/* A "[name]" line (it starts with '['). */
static int header_line(char *line, unsigned lineno, const struct ini_ops *ops,
		       void *arg, struct ioc_err *err)
{
	size_t len = strlen(line);
	char *name;

	if (line[len - 1] != ']')
		return err_usage(err, EINVAL,
				 "unterminated section header '%s' (expected "
				 "'[name]')",
				 line);
	line[len - 1] = '\0';
	name = ini_trim(line + 1);
	if (name[0] == '\0')
		return err_usage(err, EINVAL,
				 "empty section name '[]' (expected [global] "
				 "or [name])");
	return ops->section(arg, name, lineno, err);
}

/* A "key=value" or bare "key" line. */
static int key_line(char *line, unsigned lineno, const struct ini_ops *ops,
		    void *arg, struct ioc_err *err)
{
	char *eq = strchr(line, '=');
	char *key = line, *value = NULL;

	if (eq) {
		*eq = '\0';
		key = ini_trim(line);
		value = ini_trim(eq + 1);
	}
	if (key[0] == '\0')
		return err_usage(err, EINVAL, "missing option name before '='");
	return ops->key(arg, key, value, lineno, err);
}

int ini_parse(const char *text, const char *origin, const struct ini_ops *ops,
	      void *arg, struct ioc_err *err)
{
	char *copy = strdup(text);
	char *next = copy, *line, *nl;
	unsigned lineno = 0;
	int ret = 0;

	if (!copy)
		return err_set(err, ENOMEM, "%s: out of memory", origin);
	while (next && *next) {
		lineno++;
		nl = strchr(next, '\n');
		if (nl)
			*nl = '\0';
		line = next;
		next = nl ? nl + 1 : NULL;
		line = ini_trim(line);
		strip_comment(line);
		line = ini_trim(line);
		if (line[0] == '\0')
			continue;
		if (line[0] == '[')
			ret = header_line(line, lineno, ops, arg, err);
		else
			ret = key_line(line, lineno, ops, arg, err);
		if (ret) {
			err_prefix(err, "%s:%u", origin, lineno);
			break;
		}
	}
	free(copy);
	return ret;
}

/* Read all of fd into a NUL-terminated buffer. */
static int read_all(int fd, char **text)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap), *grown;
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (len + 1 == cap) {
			if (cap >= INI_MAX_FILE) {
				free(buf);
				return -EFBIG;
			}
			grown = realloc(buf, 2 * cap);
			if (!grown) {
				free(buf);
				return -ENOMEM;
			}
			buf = grown;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			return -e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	*text = buf;
	return 0;
}

int ini_read_file(const char *path, char **text)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = read_all(fd, text);
	close(fd);
	return ret;
}
