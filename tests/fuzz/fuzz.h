/* fuzz.h - what every libFuzzer target here shares: the entry point's
 * prototype (libFuzzer calls it; -Wmissing-prototypes wants one) and
 * CHECK, which turns a broken contract into an abort the fuzzer reports
 * with the input that caused it (assert() would vanish under NDEBUG).
 */
#ifndef IOCHAR_FUZZ_H
#define IOCHAR_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "%s:%d: contract broken: %s\n",        \
				__FILE__, __LINE__, #cond);                    \
			abort();                                               \
		}                                                              \
	} while (0)

#endif
