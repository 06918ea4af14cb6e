/* fmt.h - human-readable sizes for messages ("4 KiB", "1.5 GiB"). */
#ifndef IOCHAR_UTIL_FMT_H
#define IOCHAR_UTIL_FMT_H

#include <stddef.h>
#include <stdint.h>

/* Write bytes as a short IEC string into buf (at least 16 bytes); returns buf. */
char *fmt_bytes(char *buf, size_t len, uint64_t bytes);

#endif
