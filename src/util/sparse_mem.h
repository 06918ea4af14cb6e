/* sparse_mem.h - clearing and copying memory without touching the pages
 * that hold only zeros.
 *
 * A worker's statistics are ~19 latency histograms of 4,352 counters
 * (~660 KiB), and a run keeps two or three such blocks per worker; a few
 * hundred buckets of each ever count anything. Allocated large (calloc
 * above malloc's mmap threshold, a fresh stack) the rest are pages the
 * kernel has not given yet: reading them maps the shared zero page,
 * writing a zero over a zero would make each one resident. These write a
 * word only where it must change, so what is resident is what counts.
 * 96 jobs took 143 MiB before (2026-12-06, bench/README.md).
 */
#ifndef IOCHAR_UTIL_SPARSE_MEM_H
#define IOCHAR_UTIL_SPARSE_MEM_H

#include <stddef.h>

/* memset(p, 0, n), writing only the words that are not zero already.
 * p must be defined memory (calloc'd, or written before): a word of an
 * uninitialised variable that happens to read as zero stays undefined
 * (valgrind says so). */
void sparse_zero(void *p, size_t n);

/* memcpy(dst, src, n) for non-overlapping blocks, writing only the words
 * of dst that differ from src's. */
void sparse_copy(void *dst, const void *src, size_t n);

#endif
