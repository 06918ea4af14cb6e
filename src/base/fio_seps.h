/* fio_seps.h - the separators fio 3.33's parser takes between a
 * per-direction option's values (parse.c handle_option): ',' when the
 * value has one; else ':' (bs=4k:8k is bs=4k,8k); else, for a plain
 * number option, '-' (bs=4k-8k too). A range option (bsrange) takes ','
 * between directions, and '-' or ':' inside a range. */
#ifndef IOCHAR_BASE_FIO_SEPS_H
#define IOCHAR_BASE_FIO_SEPS_H

#include <stdbool.h>
#include <stddef.h>

/* v with its direction separators made ',' into out (n bytes; v is
 * copied as it is when it does not fit). dash: '-' separates too (a plain
 * number option, not a range). */
void fio_dir_commas(const char *v, bool dash, char *out, size_t n);

#endif
