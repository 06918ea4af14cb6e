/* crctest.c - fio's --crctest for the digests iochar verifies with.
 *
 * fio times its checksum library; iochar times its own verify digests
 * (verify/fio_sum.c: the bytes fio stores), so the figures say how fast
 * iochar verifies, in fio's line format. fio's murmur3, jhash and fnv
 * are hashes no verify method uses: iochar has none of them.
 */
#include "cmd/crctest.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/clock.h"
#include "verify/fio_sum.h"

#define CRC_BUF	  (128u * 1024u) /* bytes hashed per call */
#define CRC_TIME_NS 100000000ull /* time each digest this long */

/* fio's order (crc/test.c), of the digests iochar has. */
static const enum fio_vtype crc_types[] = {
	FVT_MD5,    FVT_CRC64,	  FVT_CRC32,	FVT_CRC32C,   FVT_CRC16,
	FVT_CRC7,   FVT_SHA1,	  FVT_SHA256,	FVT_SHA512,   FVT_XXHASH,
	FVT_SHA3_224, FVT_SHA3_256, FVT_SHA3_384, FVT_SHA3_512,
};
#define NR_CRC (sizeof(crc_types) / sizeof(crc_types[0]))

/* Is name (len bytes) digest t's name? */
static bool named(enum fio_vtype t, const char *name, size_t len)
{
	const char *n = fio_sum_name(t);

	return strlen(n) == len && !strncmp(n, name, len);
}

/* Mark in want[] the digests types names; -1 after a line on errf when a
 * name is not one of them. */
static int select_types(const char *types, bool *want, FILE *errf)
{
	for (const char *p = types; *p;) {
		size_t len = strcspn(p, ",");
		bool found = false;

		for (size_t i = 0; i < NR_CRC; i++)
			if (named(crc_types[i], p, len))
				found = want[i] = true;
		if (!found) {
			fprintf(errf, "iochar: --crctest: unknown hash '%.*s'; "
				      "iochar has md5, crc64, crc32, crc32c, "
				      "crc16, crc7, sha1, sha256, sha512, "
				      "xxhash, sha3-224, sha3-256, sha3-384, "
				      "sha3-512\n", (int)len, p);
			return -1;
		}
		p += len + (p[len] == ',');
	}
	return 0;
}

/* MiB/s of digest t over buf, hashed for about CRC_TIME_NS. */
static double time_one(enum fio_vtype t, const uint8_t *buf)
{
	uint8_t sum[FIO_SUM_MAX];
	uint64_t start = clock_ns(), el, bytes = 0;

	do {
		fio_sum(t, buf, CRC_BUF, sum);
		bytes += CRC_BUF;
		el = clock_ns() - start;
	} while (el < CRC_TIME_NS);
	return (double)bytes / (1024.0 * 1024.0) / ((double)el / 1e9);
}

int crctest_run(const char *types, FILE *out, FILE *errf)
{
	bool want[NR_CRC] = {false};
	uint8_t *buf;

	if (select_types(types, want, errf))
		return 2;
	buf = malloc(CRC_BUF);
	if (!buf) {
		fprintf(errf, "iochar: --crctest: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < CRC_BUF; i++) /* fio hashes random bytes */
		buf[i] = (uint8_t)(rand() >> 7);
	for (size_t i = 0; i < NR_CRC; i++) {
		const char *n = fio_sum_name(crc_types[i]);

		if (types[0] && !want[i])
			continue;
		/* fio's layout: name, colon, tabs to column 16 */
		fprintf(out, "%s:%s%8.2f MiB/sec\n", n,
			strlen(n) + 1 < 8 ? "\t\t" : "\t",
			time_one(crc_types[i], buf));
	}
	free(buf);
	return 0;
}
