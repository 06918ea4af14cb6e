/* text_width.c - see text_width.h. */
#define _GNU_SOURCE
#include "util/text_width.h"

#include <locale.h>
#include <pthread.h>
#include <string.h>
#include <wchar.h>

static locale_t utf8;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void utf8_open(void)
{
	utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

/* The next character of s (at most n bytes): its byte length (0 at the
 * end) and its columns into *w. Invalid bytes are one column each. */
static size_t next_char(const char *s, size_t n, int *w)
{
	wchar_t wc;
	mbstate_t st;

	if (!n || !*s)
		return 0;
	if (!utf8) { /* no UTF-8 locale: a column per character */
		size_t len = 1;
		while (len < n && ((unsigned char)s[len] & 0xc0) == 0x80)
			len++;
		*w = (unsigned char)*s < 0x20 ? 0 : 1;
		return len;
	}
	memset(&st, 0, sizeof(st));
	size_t len = mbrtowc(&wc, s, n, &st);
	if (len == (size_t)-1 || len == (size_t)-2 || len == 0) {
		*w = 1;
		return 1;
	}
	*w = wcwidth(wc);
	if (*w < 0)
		*w = 0;
	return len;
}

/* The functions below read s under the UTF-8 locale (the caller thread's
 * own locale is put back after). */
struct walk {
	locale_t old;
};

static void walk_begin(struct walk *wk)
{
	pthread_once(&utf8_once, utf8_open);
	wk->old = utf8 ? uselocale(utf8) : (locale_t)0;
}

static void walk_end(struct walk *wk)
{
	if (utf8)
		uselocale(wk->old);
}

size_t text_width(const char *s)
{
	struct walk wk;
	size_t cols = 0, n = strlen(s), len;
	int w;

	walk_begin(&wk);
	while ((len = next_char(s, n, &w))) {
		cols += (size_t)w;
		s += len;
		n -= len;
	}
	walk_end(&wk);
	return cols;
}

size_t text_prefix_len(const char *s, size_t cols)
{
	struct walk wk;
	size_t used = 0, at = 0, n = strlen(s), len;
	int w;

	walk_begin(&wk);
	while ((len = next_char(s + at, n - at, &w)) && used + (size_t)w <= cols) {
		used += (size_t)w;
		at += len;
	}
	walk_end(&wk);
	return at;
}

const char *text_suffix(const char *s, size_t cols)
{
	size_t total = text_width(s);
	struct walk wk;
	size_t n = strlen(s), len;
	int w;

	walk_begin(&wk);
	while (total > cols && (len = next_char(s, n, &w))) {
		total -= (size_t)w;
		s += len;
		n -= len;
	}
	walk_end(&wk);
	return s;
}

void text_pad(FILE *f, const char *s, size_t cols, int left)
{
	size_t w = text_width(s);
	size_t pad = w < cols ? cols - w : 0;

	if (left)
		fprintf(f, "%s%*s", s, (int)pad, "");
	else
		fprintf(f, "%*s%s", (int)pad, "", s);
}
