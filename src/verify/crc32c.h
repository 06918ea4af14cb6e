/* crc32c.h - CRC-32C (Castagnoli, the iSCSI/ext4/btrfs CRC), as used by
 * iochar's verification headers.
 *
 * Three implementations that give the same results: a table-driven one
 * that runs anywhere, one on the SSE4.2 crc32 instruction, and one that runs
 * three crc32 streams in parallel and joins them with PCLMULQDQ (about
 * three times faster on 4 KiB units). crc32c() picks the fastest the CPU
 * has, at each call (the check is a load and a test); the others are public
 * so the tests can hold them against each other.
 *
 * All take and return the finished CRC (zlib's convention): start from 0,
 * and crc32c(crc32c(0, a, n), b, m) is the CRC of a followed by b.
 * crc32c(0, "123456789", 9) == 0xE3069283.
 */
#ifndef IOCHAR_VERIFY_CRC32C_H
#define IOCHAR_VERIFY_CRC32C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* CRC-32C of len bytes at buf, continuing from crc. The fastest available. */
uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

/* Table-driven, one byte at a time: the reference. */
uint32_t crc32c_sw(uint32_t crc, const void *buf, size_t len);

/* SSE4.2, one stream. Only when crc32c_have_sse42(); elsewhere it is
 * crc32c_sw. */
uint32_t crc32c_sse42(uint32_t crc, const void *buf, size_t len);

/* SSE4.2 with three interleaved streams joined by carry-less multiplies.
 * Only when crc32c_have_pclmul(); elsewhere it is crc32c_sw. */
uint32_t crc32c_sse42_3way(uint32_t crc, const void *buf, size_t len);

/* Does this CPU have the crc32 instruction (x86 SSE4.2)? */
bool crc32c_have_sse42(void);

/* ... and also PCLMULQDQ, for crc32c_sse42_3way? */
bool crc32c_have_pclmul(void);

/* Name of what crc32c() uses here: "sse4.2+pclmul", "sse4.2" or "table". */
const char *crc32c_impl(void);

#endif
