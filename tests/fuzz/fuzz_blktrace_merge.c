/* fuzz_blktrace_merge.c - libFuzzer target for the block-trace merge
 * (base/blktrace_merge.h), merge_blktrace_file's.
 *
 * The input is up to three traces: the first byte picks how many (1-3)
 * and their scalars and iterations, the next two bytes (per trace but the
 * last) where each trace ends; each is read through a memory stream and
 * the merge is written to another. Besides the sanitizers, the target
 * checks the contract: a failure is a usage message naming a trace (or
 * out of memory, or a read error) and the count of records written is
 * never positive; a success wrote that many whole records, each a queue
 * event of a read, write or discard without payload, as many as the
 * traces' kept records times their iterations, and in time order when
 * each trace was.
 *
 *     make fuzz && build-fuzz/fuzz_blktrace_merge tests/fuzz/corpus/blktrace_merge
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/blktrace.h"
#include "base/blktrace_merge.h"

#include "fuzz.h"

/* The kept records of one whole trace (0 when it is not one); *sorted
 * false when their times go back. */
static long long kept_records(const uint8_t *d, size_t n, bool *sorted)
{
	uint64_t last = 0;
	long long kept = 0;
	size_t at = 0;
	bool swap = false;
	FILE *f = fmemopen((void *)d, n ? n : 1, "r");
	if (!f || !n || !blktrace_is(f, &swap)) {
		if (f)
			fclose(f);
		return 0;
	}
	fclose(f);
	while (at + BLKTRACE_RECORD <= n) {
		struct blktrace_rec t;
		blktrace_decode(d + at, swap, &t);
		at += BLKTRACE_RECORD + t.pdu_len;
		if ((t.action & 0xffff) == BLKTRACE_TA_QUEUE &&
		    (t.action & (BLKTRACE_ACT(BLKTRACE_TC_READ) | BLKTRACE_ACT(BLKTRACE_TC_WRITE) |
				 BLKTRACE_ACT(BLKTRACE_TC_DISCARD)))) {
			kept++;
			*sorted &= t.time >= last;
			last = t.time;
		}
	}
	return kept;
}

static void check_merged(const char *buf, size_t len, long long written, bool sorted)
{
	CHECK(len == (size_t)written * BLKTRACE_RECORD);
	uint64_t last = 0;
	for (long long i = 0; i < written; i++) {
		struct blktrace_rec t;
		blktrace_decode((const unsigned char *)buf + i * BLKTRACE_RECORD, false, &t);
		CHECK((t.magic & 0xffffff00u) == BLKTRACE_MAGIC);
		CHECK(t.pdu_len == 0 && (t.action & 0xffff) == BLKTRACE_TA_QUEUE);
		CHECK(!sorted || t.time >= last);
		last = t.time;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3)
		return 0;
	uint8_t pick = data[0];
	unsigned nr = 1 + pick % 3;
	const uint8_t *at = data + 3;
	size_t left = size - 3, cut = ((size_t)data[1] << 8 | data[2]);
	struct blktrace_merge_in in[3];
	static const double scalars[] = {100, 50, 250, 33.3};
	FILE *out_f;
	char *out = NULL;
	size_t out_len = 0;
	long long expect = 0;
	bool sorted = true;
	for (unsigned i = 0; i < nr; i++) {
		size_t len = i + 1 < nr ? (cut * (i + 1)) % (left + 1) : left;
		if (len > left)
			len = left;
		in[i] = (struct blktrace_merge_in){
			.f = fmemopen((void *)at, len ? len : 1, "r"), .name = "fuzz.bin",
			.scalar = scalars[(pick >> (2 + i)) & 3], .iters = 1 + ((pick >> 6) & 1) * (i + 1),
		};
		if (in[i].f && !len) /* an empty stream: fmemopen wants a byte */
			fseek(in[i].f, 0, SEEK_END);
		expect += kept_records(at, len, &sorted) * in[i].iters;
		at += len;
		left -= len;
	}
	out_f = open_memstream(&out, &out_len);
	bool opened = out_f;
	for (unsigned i = 0; i < nr; i++)
		opened &= in[i].f != NULL;
	if (opened) {
		struct ioc_err err = {{0}, 0};
		long long w = blktrace_merge(in, nr, out_f, &err);
		fflush(out_f);
		if (w < 0) {
			CHECK(err.msg[0]);
			CHECK(w == -ENOMEM || w == -EIO ||
			      (err.usage && strstr(err.msg, "fuzz.bin")));
		} else {
			CHECK(w >= 1 && w == expect);
			check_merged(out, out_len, w, sorted);
		}
	}
	for (unsigned i = 0; i < nr; i++)
		if (in[i].f)
			fclose(in[i].f);
	if (out_f)
		fclose(out_f);
	free(out);
	return 0;
}
