/* parity.h - RAID 5/6 parity: P (XOR) and Q (Reed-Solomon syndrome over
 * GF(2^8), polynomial x^8+x^4+x^3+x^2+1 = 0x11d, generator g = 2), as Linux
 * md/raid6 computes them:
 *
 *     P = D0 ^ D1 ^ ... ^ Dk-1
 *     Q = g^0*D0 ^ g^1*D1 ^ ... ^ g^(k-1)*Dk-1
 *
 * with Di the data strips of a row in data-index order. All buffers are
 * len bytes; len must be a multiple of 8 (strips are whole sectors). The
 * loops work a 64-bit word (and, where the compiler vectorizes them, a
 * vector) at a time; multiplying by a constant uses a 256-byte table.
 */
#ifndef IOCHAR_VD_PARITY_H
#define IOCHAR_VD_PARITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* GF(2^8) helpers (tables built on first use; thread-safe). */
uint8_t gf_mul(uint8_t a, uint8_t b);
uint8_t gf_exp(unsigned e);      /* g^e */
uint8_t gf_inv(uint8_t a);       /* a != 0 */

/* Use the CPU's byte-shuffle instructions (SSSE3) for constant
 * multiplications when it has them (the default), or the portable vector
 * code; for tests and benchmarks. */
void parity_use_simd(bool on);

/* dst ^= src */
void parity_xor(void *dst, const void *src, size_t len);

/* dst ^= c * src in GF(2^8) */
void parity_mul_xor(void *dst, const void *src, uint8_t c, size_t len);

/* dst = c * dst in GF(2^8) */
void parity_mul(void *dst, uint8_t c, size_t len);

/* P (and Q when q != NULL) of k data buffers. */
void parity_gen(unsigned k, void *const *data, void *p, void *q, size_t len);

/* Rebuild up to two missing buffers of a row in place. bufs[0..k-1] are
 * the data, bufs[k] is P and bufs[k+1] Q (raid6); every buffer must exist,
 * the missing ones' contents are ignored and overwritten. np is 1 (raid5)
 * or 2 (raid6). Returns 0, or -EINVAL when the loss cannot be repaired. */
int parity_recover(unsigned k, unsigned np, void *const *bufs, int miss1,
		   int miss2, size_t len);

#endif
