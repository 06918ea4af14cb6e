/* le.h - little-endian fields in on-disk formats (verify units, journal),
 * read and written byte-exactly whatever the host's byte order. */
#ifndef IOCHAR_UTIL_LE_H
#define IOCHAR_UTIL_LE_H

#include <endian.h>
#include <stdint.h>
#include <string.h>

static inline void le_put64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, sizeof(v));
}

static inline void le_put32(uint8_t *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, sizeof(v));
}

static inline uint64_t le_get64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static inline uint32_t le_get32(const uint8_t *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

#endif
