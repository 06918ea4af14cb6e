/* lfsr.c - see lfsr.h. */
#include "core/lfsr.h"

/* Taps of a maximal n-bit register (n = 3 .. 63), highest first: the
 * published table fio uses (a polynomial's exponents). */
static const uint8_t taps[64][6] = {
	[3] = {3, 2}, [4] = {4, 3}, [5] = {5, 3}, [6] = {6, 5}, [7] = {7, 6},
	[8] = {8, 6, 5, 4}, [9] = {9, 5}, [10] = {10, 7}, [11] = {11, 9},
	[12] = {12, 6, 4, 1}, [13] = {13, 4, 3, 1}, [14] = {14, 5, 3, 1},
	[15] = {15, 14}, [16] = {16, 15, 13, 4}, [17] = {17, 14},
	[18] = {18, 11}, [19] = {19, 6, 2, 1}, [20] = {20, 17}, [21] = {21, 19},
	[22] = {22, 21}, [23] = {23, 18}, [24] = {24, 23, 22, 17},
	[25] = {25, 22}, [26] = {26, 6, 2, 1}, [27] = {27, 5, 2, 1},
	[28] = {28, 25}, [29] = {29, 27}, [30] = {30, 6, 4, 1}, [31] = {31, 28},
	[32] = {32, 31, 29, 1}, [33] = {33, 20}, [34] = {34, 27, 2, 1},
	[35] = {35, 33}, [36] = {36, 25}, [37] = {37, 5, 4, 3, 2, 1},
	[38] = {38, 6, 5, 1}, [39] = {39, 35}, [40] = {40, 38, 21, 19},
	[41] = {41, 38}, [42] = {42, 41, 20, 19}, [43] = {43, 42, 38, 37},
	[44] = {44, 43, 18, 17}, [45] = {45, 44, 42, 41}, [46] = {46, 45, 26, 25},
	[47] = {47, 42}, [48] = {48, 47, 21, 20}, [49] = {49, 40},
	[50] = {50, 49, 24, 23}, [51] = {51, 50, 36, 35}, [52] = {52, 49},
	[53] = {53, 52, 38, 37}, [54] = {54, 53, 18, 17}, [55] = {55, 31},
	[56] = {56, 55, 35, 34}, [57] = {57, 50}, [58] = {58, 39},
	[59] = {59, 58, 38, 37}, [60] = {60, 59}, [61] = {61, 60, 46, 45},
	[62] = {62, 61, 6, 5}, [63] = {63, 62},
};

bool lfsr_reset(struct lfsr *l, uint64_t seed)
{
	uint64_t all = (l->top_bit << 1) - 1;

	l->drawn = 0;
	l->state = seed & all;
	return l->state != all;
}

bool lfsr_init(struct lfsr *l, uint64_t blocks, uint64_t seed)
{
	unsigned n = 3;

	/* the all-ones state never comes: the register must exceed blocks */
	while (n < 64 && (1ull << n) <= blocks)
		n++;
	if (n == 64 || blocks == 0)
		return false;
	l->last = blocks - 1;
	l->xormask = 0;
	for (unsigned i = 0; i < 6 && taps[n][i]; i++)
		l->xormask |= 1ull << (taps[n][i] - 1);
	l->top_bit = 1ull << (n - 1);
	l->first = true; /* fio's spin set-up: its register's life, not a pass's */
	return lfsr_reset(l, seed);
}

/* One XNOR step: shift right, the top bit in, the taps flipped when
 * the bit shifted out was 0. */
static inline uint64_t step(const struct lfsr *l, uint64_t v)
{
	return ((v >> 1) | l->top_bit) ^ (((v & 1) - 1) & l->xormask);
}

bool lfsr_next(struct lfsr *l, uint64_t *b)
{
	if (l->drawn++ > l->last)
		return false;
	do {
		if (l->first) {
			l->state = step(l, l->state);
			l->first = false;
		}
		l->state = step(l, l->state);
	} while (l->state > l->last);
	*b = l->state;
	return true;
}
