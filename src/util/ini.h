/* ini.h - the INI syntax that job files and plan files share.
 *
 *     ; comment            # comment too
 *     [section]            a header; whitespace inside the brackets trimmed
 *     key = value          whitespace around key and value trimmed
 *     time_based           a bare key (value NULL)
 *
 * A ';' or '#' starts a comment at the start of a line or after
 * whitespace; elsewhere it belongs to the value ("/tmp/a#b"). Lines may end
 * in "\r\n". What sections and keys mean is the caller's: ini only cuts
 * lines and calls back, so the two file formats cannot drift apart.
 */
#ifndef IOCHAR_UTIL_INI_H
#define IOCHAR_UTIL_INI_H

#include <stddef.h>

#include "util/err.h"

struct ini_ops {
	/* A "[name]" header at line; name is trimmed and not empty. */
	int (*section)(void *arg, const char *name, unsigned line,
		       struct ioc_err *err);
	/* A "key=value" line, or a bare "key" (value NULL); key is trimmed
	 * and not empty, value trimmed (may be ""). */
	int (*key)(void *arg, const char *key, const char *value, unsigned line,
		   struct ioc_err *err);
};

/* Parse len bytes of text (not modified; NUL bytes in it are refused, not
 * taken as its end), calling ops in file order. Every line must be UTF-8
 * text without control characters (a tab, and '\r' before the '\n',
 * aside): a NUL or control byte, or bytes that are not UTF-8, are refused
 * by value and column, never echoed. Returns 0, or the first error: a
 * callback's return value, -EILSEQ for such a byte, or -EINVAL for a bad
 * header ("[name" without ']', "[]") or a line "=value" without a key
 * (usage errors). Either way err's message is prefixed "ORIGIN:LINE: ".
 * -ENOMEM (no line number) when the text cannot be copied. */
int ini_parse_n(const char *text, size_t len, const char *origin,
		const struct ini_ops *ops, void *arg, struct ioc_err *err);

/* ini_parse_n of a NUL-terminated text (which then holds no NUL). */
int ini_parse(const char *text, const char *origin, const struct ini_ops *ops,
	      void *arg, struct ioc_err *err);

/* Strip leading and trailing whitespace from s in place; returns the first
 * character kept (inside s). */
char *ini_trim(char *s);

/* Read the whole file at path into *text (NUL-terminated, owned by the
 * caller: free()). Returns 0, or -errno (-EFBIG past 16 MiB, -EILSEQ for
 * a NUL byte in it) without a message: the caller says what the file was
 * for. *text is NULL or untouched on failure. */
int ini_read_file(const char *path, char **text);

/* The same, with the number of bytes read in *len: a NUL byte in the file
 * does not end the text (for ini_parse_n). */
int ini_read_file_n(const char *path, char **text, size_t *len);

/* ini_read_file for a reader that takes the text as a C string (a CSV
 * table, a JSON document, the model's INI): a NUL byte in the file would
 * end the text there, the rest dropped unread, so it is refused. 0, or
 * -errno with a usage error in err naming the file as what: "WHAT:
 * REASON", "WHAT:LINE: NUL byte at column N; the file must be text". */
int ini_read_text(const char *path, const char *what, char **text, struct ioc_err *err);

#endif
