/* text_width.h - how many terminal columns a UTF-8 string takes, so
 * tables and the live status line line up and fit by what a person sees,
 * not by bytes ("µs" and "±" are one column each, two bytes). Read as
 * UTF-8 whatever the program's locale (wcwidth under C.UTF-8); without
 * that locale, one column per character. */
#ifndef IOCHAR_UTIL_TEXT_WIDTH_H
#define IOCHAR_UTIL_TEXT_WIDTH_H

#include <stddef.h>
#include <stdio.h>

/* Columns s takes on a terminal (control characters count 0). */
size_t text_width(const char *s);

/* The byte length of s's longest prefix that takes at most cols columns,
 * cut between characters. */
size_t text_prefix_len(const char *s, size_t cols);

/* The start of s's longest suffix that takes at most cols columns (a
 * pointer into s). */
const char *text_suffix(const char *s, size_t cols);

/* Print s padded with spaces to cols columns: after it when left, else
 * before it. Wider strings are printed whole. */
void text_pad(FILE *f, const char *s, size_t cols, int left);

#endif
