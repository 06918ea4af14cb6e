/* inflate_log.h - fio's --inflate-log: a log fio stored compressed
 * (log_compression with log_store_compressed=1, FILE.fz) as text. */
#ifndef IOCHAR_CMD_INFLATE_LOG_H
#define IOCHAR_CMD_INFLATE_LOG_H

#include <stdio.h>

/* Inflate path's zlib streams, one after another as fio writes its
 * chunks, and print each of fio 3.33's binary samples as fio prints the
 * log: "msec, value, dir, bs[, offset], prio". Returns 0; or 2 (bad
 * input; fio exits 1 or 253) after one line on errf naming path (cannot
 * be read, not zlib, a partial sample); 1 when out of memory. */
int inflate_log_run(const char *path, FILE *out, FILE *errf);

#endif
