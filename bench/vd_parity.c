/* vd_parity.c - GB/s of the VD parity code (P, P+Q generation, RAID 6
 * two-data-strip recovery) against memcpy on this machine. Built and run
 * by bench/vd.py; prints one JSON object. Buffers stay in the cache or
 * not depending on --bytes (default 64 MiB of data per pass: memory).
 *
 *   cc -O2 -Isrc bench/vd_parity.c src/vd/parity.c -lpthread -o vd_parity
 *   ./vd_parity [k] [strip] [seconds]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vd/parity.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	unsigned k = argc > 1 ? (unsigned)atoi(argv[1]) : 6;
	size_t strip = argc > 2 ? (size_t)atol(argv[2]) : 65536;
	double secs = argc > 3 ? atof(argv[3]) : 1.0;
	size_t rows = (64u << 20) / (k * strip); /* 64 MiB of data per pass */
	if (!rows)
		rows = 1;
	uint8_t *mem = aligned_alloc(4096, rows * (k + 2) * strip);
	uint8_t *dst = aligned_alloc(4096, rows * k * strip);
	if (!mem || !dst)
		return 1;
	memset(dst, 1, rows * k * strip); /* fault the pages in before timing */
	for (size_t i = 0; i < rows * (k + 2) * strip; i++)
		mem[i] = (uint8_t)(i * 2654435761u >> 13);
	double r[4] = {0};
	const char *names[4] = {"memcpy", "p_xor", "pq_gen", "raid6_recover_2data"};
	for (int t = 0; t < 4; t++) {
		double start = now(), end;
		uint64_t bytes = 0;
		do {
			for (size_t row = 0; row < rows; row++) {
				uint8_t *base = mem + row * (k + 2) * strip;
				void *b[64];
				for (unsigned j = 0; j < k + 2; j++)
					b[j] = base + j * strip;
				if (t == 0)
					memcpy(dst + row * k * strip, base, k * strip);
				else if (t == 1)
					parity_gen(k, b, b[k], NULL, strip);
				else if (t == 2)
					parity_gen(k, b, b[k], b[k + 1], strip);
				else
					parity_recover(k, 2, b, 0, 1, strip);
				bytes += k * strip; /* data bytes covered */
			}
			end = now();
		} while (end - start < secs);
		r[t] = (double)bytes / (end - start) / 1e9;
	}
	printf("{\"k\": %u, \"strip\": %zu", k, strip);
	for (int t = 0; t < 4; t++)
		printf(", \"%s_gb_s\": %.2f", names[t], r[t]);
	printf("}\n");
	free(mem);
	free(dst);
	return 0;
}
