/* sparse_mem.c - see sparse_mem.h. */
#include "util/sparse_mem.h"

#include <stdint.h>
#include <string.h>

void sparse_zero(void *p, size_t n)
{
	unsigned char *b = p;
	size_t i = 0;
	for (; i + sizeof(uint64_t) <= n; i += sizeof(uint64_t)) {
		uint64_t w;
		memcpy(&w, b + i, sizeof(w)); /* a load, without breaking aliasing */
		if (w)
			memset(b + i, 0, sizeof(w));
	}
	for (; i < n; i++)
		if (b[i])
			b[i] = 0;
}

void sparse_copy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	size_t i = 0;
	for (; i + sizeof(uint64_t) <= n; i += sizeof(uint64_t)) {
		uint64_t a, b;
		memcpy(&a, d + i, sizeof(a));
		memcpy(&b, s + i, sizeof(b));
		if (a != b)
			memcpy(d + i, &b, sizeof(b));
	}
	for (; i < n; i++)
		if (d[i] != s[i])
			d[i] = s[i];
}
