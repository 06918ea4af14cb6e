/* fio_sum.h - the checksums of fio's verify methods, computed exactly as
 * fio 3.33 stores them in its blocks (verify.c, crc/), so that a block
 * fio wrote checks here and one written here checks in fio.
 *
 * Where fio's bytes are a standard digest they come from a library:
 * md5 and sha3-* from OpenSSL's EVP (the same bytes as `openssl dgst`),
 * sha1 from OpenSSL with each 32-bit word in host order (fio keeps its
 * state words), xxhash from libxxhash (XXH32, seed 1), crc32c from
 * verify/crc32c.c (fio keeps the register un-inverted: ~CRC-32C).
 * Where fio's bytes are its own, this file computes them:
 *   crc7   poly x^7+x^3+1 (0x09), MSB first, init 0;
 *   crc16  poly 0x8005 reflected (CRC-16/ARC), init 0;
 *   crc32  poly 0x04C11DB7, MSB first, init 0, no final xor or length
 *          (not zlib's crc32);
 *   crc64  poly 0x95AC9329AC4BC9B5 reflected (CRC-64/Jones), init 0;
 *   sha256 fio's: SHA-256 rounds (OpenSSL's compression) over the data
 *          padded with its bit count little-endian; its 64 bytes are the
 *          last padded block with the low byte of each state word over
 *          the first 8 (fio stores words into a byte array);
 *   sha512 fio's: fio never finishes the hash, so its 128 bytes are
 *          its input buffer: the first 128 data bytes with the tail
 *          (len % 128 bytes from len - len % 128) copied over their
 *          start.
 * All of fio's multi-byte fields are little-endian, as on the x86 and
 * arm64 machines fio writes them on.
 */
#ifndef IOCHAR_VERIFY_FIO_SUM_H
#define IOCHAR_VERIFY_FIO_SUM_H

#include <stddef.h>
#include <stdint.h>

/* fio's verify_type numbers (verify.h), as stored in its header. */
enum fio_vtype {
	FVT_NONE = 0,
	FVT_META = 1, /* VERIFY_HDR_ONLY */
	FVT_MD5,
	FVT_CRC64,
	FVT_CRC32,
	FVT_CRC32C,
	FVT_CRC32C_INTEL,
	FVT_CRC16,
	FVT_CRC7,
	FVT_SHA256,
	FVT_SHA512,
	FVT_SHA3_224,
	FVT_SHA3_256,
	FVT_SHA3_384,
	FVT_SHA3_512,
	FVT_XXHASH,
	FVT_SHA1,
	FVT_PATTERN,	    /* verify_pattern= with no method: header + pattern */
	FVT_PATTERN_NO_HDR, /* verify=pattern: the pattern alone */
	FVT_NULL,
	FVT_COUNT,
};

#define FIO_SUM_MAX 128 /* the largest checksum header (sha512's) */

/* Bytes of the checksum header that follows fio's 32-byte verify header
 * for type t (0 for meta, pattern and null). */
unsigned fio_sum_len(enum fio_vtype t);

/* The method's name as fio prints it ("md5", "crc32c", "sha3-256"). */
const char *fio_sum_name(enum fio_vtype t);

/* Compute t's checksum of len bytes at data into out (fio_sum_len(t)
 * bytes). sha512 needs len >= 128 (verify_check_jobs sees to it).
 * Returns 0, or -EIO when OpenSSL fails. */
int fio_sum(enum fio_vtype t, const void *data, size_t len, uint8_t *out);

/* fio's header CRC: its crc32c of the first n bytes (~CRC-32C). */
uint32_t fio_sum_crc32c(const void *data, size_t n);

#endif
