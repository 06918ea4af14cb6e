/* fio_sum.c - see fio_sum.h. */
#define OPENSSL_SUPPRESS_DEPRECATED /* SHA256_Update: fio's sha256 needs
				     * the state words, which EVP hides */
#include "verify/fio_sum.h"

#include <errno.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <string.h>
#include <xxhash.h>

#include "verify/crc32c.h"

struct fio_method {
	const char *name;
	unsigned len;
};

static const struct fio_method methods[FVT_COUNT] = {
	[FVT_NONE] = {"none", 0},	  [FVT_META] = {"meta", 0},
	[FVT_MD5] = {"md5", 16},	  [FVT_CRC64] = {"crc64", 8},
	[FVT_CRC32] = {"crc32", 4},	  [FVT_CRC32C] = {"crc32c", 4},
	[FVT_CRC32C_INTEL] = {"crc32c", 4}, [FVT_CRC16] = {"crc16", 2},
	[FVT_CRC7] = {"crc7", 1},	  [FVT_SHA256] = {"sha256", 64},
	[FVT_SHA512] = {"sha512", 128},	  [FVT_SHA3_224] = {"sha3-224", 28},
	[FVT_SHA3_256] = {"sha3-256", 32}, [FVT_SHA3_384] = {"sha3-384", 48},
	[FVT_SHA3_512] = {"sha3-512", 64}, [FVT_XXHASH] = {"xxhash", 4},
	[FVT_SHA1] = {"sha1", 20},	  [FVT_PATTERN] = {"pattern", 0},
	[FVT_PATTERN_NO_HDR] = {"pattern", 0}, [FVT_NULL] = {"null", 0},
};

unsigned fio_sum_len(enum fio_vtype t)
{
	return (unsigned)t < FVT_COUNT ? methods[t].len : 0;
}

const char *fio_sum_name(enum fio_vtype t)
{
	return (unsigned)t < FVT_COUNT ? methods[t].name : "unknown";
}

static uint8_t crc7_tab[256];
static uint16_t crc16_tab[256];
static uint32_t crc32_tab[256];
static uint64_t crc64_tab[256];
static pthread_once_t tabs_once = PTHREAD_ONCE_INIT;

/* The tables of the polynomials fio's crc/ names (see fio_sum.h). */
static void tabs_make(void)
{
	for (unsigned i = 0; i < 256; i++) {
		unsigned c7 = 0;
		uint16_t c16 = (uint16_t)i;
		uint32_t c32 = (uint32_t)i << 24;
		uint64_t c64 = i;

		for (int b = 7; b >= 0; b--) { /* 7-bit register, MSB first */
			unsigned fb = ((c7 >> 6) ^ (i >> b)) & 1;
			c7 = (c7 << 1) & 0x7f;
			if (fb)
				c7 ^= 0x09;
		}
		for (int k = 0; k < 8; k++) {
			c16 = (uint16_t)(c16 & 1 ? (c16 >> 1) ^ 0xA001 : c16 >> 1);
			c32 = c32 & 0x80000000u ? (c32 << 1) ^ 0x04C11DB7u
						: c32 << 1;
			c64 = c64 & 1 ? (c64 >> 1) ^ 0x95AC9329AC4BC9B5ull
				      : c64 >> 1;
		}
		crc7_tab[i] = (uint8_t)c7;
		crc16_tab[i] = c16;
		crc32_tab[i] = c32;
		crc64_tab[i] = c64;
	}
}

static void put_le(uint8_t *out, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		out[i] = (uint8_t)(v >> (8 * i));
}

static void crc_small(enum fio_vtype t, const uint8_t *p, size_t len,
		      uint8_t *out)
{
	uint64_t c = 0;

	pthread_once(&tabs_once, tabs_make);
	for (size_t i = 0; i < len; i++) {
		if (t == FVT_CRC7)
			c = crc7_tab[((c << 1) ^ p[i]) & 0xff];
		else if (t == FVT_CRC16)
			c = (c >> 8) ^ crc16_tab[(c ^ p[i]) & 0xff];
		else if (t == FVT_CRC32)
			c = ((c << 8) & 0xffffffffu) ^
			    crc32_tab[((c >> 24) ^ p[i]) & 0xff];
		else
			c = crc64_tab[(c ^ p[i]) & 0xff] ^ (c >> 8);
	}
	put_le(out, c, fio_sum_len(t));
}

uint32_t fio_sum_crc32c(const void *data, size_t n)
{
	return ~crc32c(0, data, n);
}

/* fio's sha256 (fio_sum.h): its padding carries the bit count in host
 * (little-endian) order, and it stores the state a byte a word. */
static void sha256_fio(const uint8_t *p, size_t len, uint8_t *out)
{
	SHA256_CTX c;
	uint8_t last[64] = {0};
	size_t idx = len & 63;
	size_t pad = idx < 56 ? 56 - idx : 120 - idx;
	uint8_t padding[128] = {0x80};
	uint8_t bits[8];

	put_le(bits, (uint64_t)len << 3, 8);
	SHA256_Init(&c);
	SHA256_Update(&c, p, len);
	SHA256_Update(&c, padding, pad);
	SHA256_Update(&c, bits, 8); /* a whole block now: c.h is the state */
	if (idx < 56) {
		memcpy(last, p + len - idx, idx);
		last[idx] = 0x80;
	}
	memcpy(last + 56, bits, 8);
	for (int i = 0; i < 8; i++)
		last[i] = (uint8_t)c.h[i];
	memcpy(out, last, 64);
}

static void sha512_fio(const uint8_t *p, size_t len, uint8_t *out)
{
	size_t tail = len % 128;

	memcpy(out, p, 128);
	memcpy(out, p + len - tail, tail);
}

static const EVP_MD *evp_of(enum fio_vtype t)
{
	switch (t) {
	case FVT_MD5: return EVP_md5();
	case FVT_SHA1: return EVP_sha1();
	case FVT_SHA3_224: return EVP_sha3_224();
	case FVT_SHA3_256: return EVP_sha3_256();
	case FVT_SHA3_384: return EVP_sha3_384();
	case FVT_SHA3_512: return EVP_sha3_512();
	default: return NULL;
	}
}

int fio_sum(enum fio_vtype t, const void *data, size_t len, uint8_t *out)
{
	const EVP_MD *md = evp_of(t);

	if (md) {
		unsigned n = 0;
		if (!EVP_Digest(data, len, out, &n, md, NULL))
			return -EIO;
		if (t == FVT_SHA1) /* fio keeps its five words in host order */
			for (unsigned i = 0; i + 4 <= n; i += 4) {
				uint8_t a = out[i], b = out[i + 1];
				out[i] = out[i + 3], out[i + 1] = out[i + 2];
				out[i + 2] = b, out[i + 3] = a;
			}
		return 0;
	}
	switch (t) {
	case FVT_CRC7: case FVT_CRC16: case FVT_CRC32: case FVT_CRC64:
		crc_small(t, data, len, out);
		break;
	case FVT_CRC32C: case FVT_CRC32C_INTEL:
		put_le(out, fio_sum_crc32c(data, len), 4);
		break;
	case FVT_XXHASH:
		put_le(out, XXH32(data, len, 1), 4);
		break;
	case FVT_SHA256:
		sha256_fio(data, len, out);
		break;
	case FVT_SHA512:
		sha512_fio(data, len, out);
		break;
	default:
		break;
	}
	return 0;
}
