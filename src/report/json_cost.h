/* json_cost.h - what json-c's tree of a JSON text would cost in memory,
 * estimated from one pass over the text before it is parsed, so that a
 * document too costly to read is refused with its figures instead of
 * ending in "out of memory" (or the OOM killer) part way (issue 37 H7).
 *
 * json-c 0.16 on x86-64, measured (RSS): an object about 800 bytes (its
 * hash table of 16 slots), each member about 130 more, each value about
 * 80. fio's json+ comes to 9 (indented) to 22 (compact) times the text;
 * a million `{}` to 260 times. */
#ifndef IOCHAR_REPORT_JSON_COST_H
#define IOCHAR_REPORT_JSON_COST_H

#include <stddef.h>
#include <stdint.h>

#include "util/err.h"

/* A tree is refused above this multiple of its text (plus a floor), and
 * above the memory the machine has available (/proc/meminfo). */
#define JSON_COST_MULTIPLE 40u
#define JSON_COST_FLOOR (64ull << 20)

/* The estimated bytes of the tree of text (len bytes), strings skipped. */
uint64_t json_cost_estimate(const char *text, size_t len);

/* 0, or -E2BIG / -ENOMEM with "FILE: ..." in err (a usage error when the
 * document is denser than any results file, a plain error when the
 * machine lacks the memory) when text is too costly to parse. */
int json_cost_check(const char *text, size_t len, const char *file, struct ioc_err *err);

#endif
