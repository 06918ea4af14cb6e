/* ini.c - cut INI text into headers and key=value lines. See ini.h. */
#include "util/ini.h"

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

	int ret;

	if (line[len - 1] != ']') {
		ret = err_usage(err, EINVAL,
				"unterminated section header '%s' (expected "
				"'[name]')",
				line);
		err_shorten(err, line, ERR_VALUE_KEEP);
		return ret;
	}
	line[len - 1] = '\0';
	name = ini_trim(line + 1);
	if (name[0] == '\0')
		return err_usage(err, EINVAL,
				 "empty section name '[]' (expected [global] "
				 "or [name])");
	/* a long name by its start, so the reason stays on the line */
	ret = ops->section(arg, name, lineno, err);
	if (ret)
		err_shorten(err, name, ERR_VALUE_KEEP);
	return ret;
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
	/* a long key or value by its start, so the reason stays on the line
	 * (a handler may have done so already: shortening twice is none) */
	int ret = ops->key(arg, key, value, lineno, err);
	if (ret && value)
		err_shorten(err, value, ERR_VALUE_KEEP);
	if (ret)
		err_shorten(err, key, ERR_VALUE_KEEP);
	return ret;
}

/* Length of the UTF-8 sequence at s (at most n bytes), or 0 when it is
 * not valid UTF-8: overlong forms, surrogates and code points past
 * U+10FFFF included. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	unsigned char lo = 0x80, hi = 0xbf; /* allowed second byte */

	if (s[0] < 0xc2 || s[0] > 0xf4 || n < len)
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

/* Is line (len bytes, without its '\n') text: UTF-8 without control
 * characters, a tab or a final '\r' aside? The culprit is named by its
 * value, never echoed, so a terminal sees no raw control byte. */
static int check_text(const char *line, size_t len, struct ioc_err *err)
{
	static const char must[] = "the file must be UTF-8 text without control bytes";
	const unsigned char *s = (const unsigned char *)line;

	for (size_t i = 0; i < len;) {
		size_t n = 1;
		if (s[i] >= 0x80) {
			n = utf8_len(s + i, len - i);
			if (!n)
				return err_usage(err, EILSEQ,
						 "byte 0x%02x at column %zu is not "
						 "UTF-8; %s",
						 s[i], i + 1, must);
			if (s[i] == 0xc2 && s[i + 1] < 0xa0) /* C1 controls */
				return err_usage(err, EILSEQ,
						 "control character U+%04X at "
						 "column %zu; %s",
						 s[i + 1], i + 1, must);
		} else if ((s[i] < 0x20 && s[i] != '\t' &&
			    !(s[i] == '\r' && i + 1 == len)) ||
			   s[i] == 0x7f) {
			if (!s[i])
				return err_usage(err, EILSEQ,
						 "NUL byte at column %zu; %s",
						 i + 1, must);
			return err_usage(err, EILSEQ,
					 "control byte 0x%02x at column %zu; %s",
					 s[i], i + 1, must);
		}
		i += n;
	}
	return 0;
}

/* One line, in place: checked, comment cut, then a header or a key. */
static int parse_line(char *line, size_t len, unsigned lineno,
		      const struct ini_ops *ops, void *arg, struct ioc_err *err)
{
	int ret = check_text(line, len, err);

	if (ret)
		return ret;
	line = ini_trim(line);
	strip_comment(line);
	line = ini_trim(line);
	if (line[0] == '\0')
		return 0;
	if (line[0] == '[')
		return header_line(line, lineno, ops, arg, err);
	return key_line(line, lineno, ops, arg, err);
}

int ini_parse_n(const char *text, size_t len, const char *origin,
		const struct ini_ops *ops, void *arg, struct ioc_err *err)
{
	char *copy = malloc(len + 1);
	unsigned lineno = 0;
	int ret = 0;

	if (!copy)
		return err_set(err, ENOMEM, "%s: out of memory", origin);
	memcpy(copy, text, len);
	copy[len] = '\0';
	for (char *line = copy, *end = copy + len; line < end && !ret;) {
		char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
		line[n] = '\0';
		lineno++;
		ret = parse_line(line, n, lineno, ops, arg, err);
		if (ret)
			err_prefix(err, "%s:%u", origin, lineno);
		line += n + 1;
	}
	free(copy);
	return ret;
}

int ini_parse(const char *text, const char *origin, const struct ini_ops *ops,
	      void *arg, struct ioc_err *err)
{
	return ini_parse_n(text, strlen(text), origin, ops, arg, err);
}

/* Read all of fd into a NUL-terminated buffer; its length (NUL bytes in
 * the file included) in *out_len. */
static int read_all(int fd, char **text, size_t *out_len)
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
	*out_len = len;
	return 0;
}

int ini_read_file_n(const char *path, char **text, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0)
		return -errno;
	ret = read_all(fd, text, len);
	close(fd);
	return ret;
}

int ini_read_file(const char *path, char **text)
{
	size_t len;
	int ret = ini_read_file_n(path, text, &len);

	if (!ret && memchr(*text, '\0', len)) { /* the text would end there */
		free(*text);
		*text = NULL;
		return -EILSEQ;
	}
	return ret;
}

int ini_read_text(const char *path, const char *what, char **text, struct ioc_err *err)
{
	size_t len;
	int ret = ini_read_file_n(path, text, &len);

	if (ret)
		return err_usage(err, -ret, "%s: %s", what, strerror(-ret));
	const char *nul = memchr(*text, '\0', len);
	if (!nul)
		return 0;
	unsigned line = 1;
	const char *start = *text;
	for (const char *p = *text; p < nul; p++)
		if (*p == '\n') {
			line++;
			start = p + 1;
		}
	ret = err_usage(err, EILSEQ, "%s:%u: NUL byte at column %zu; the file must be text", what,
			line, (size_t)(nul - start) + 1);
	free(*text);
	*text = NULL;
	return ret;
}
