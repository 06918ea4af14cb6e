/* fuzz_blktrace.c - libFuzzer target for the blktrace reader
 * (base/blktrace.h), the binary traces read_iolog replays.
 *
 * The input is a trace's bytes, read through a memory stream; the first
 * byte picks the replay options (scale, align, time scale, no_stall,
 * byte order); devices always go to replay_redirect (a fuzzed trace must
 * not name this machine's devices). Besides the sanitizers, the target
 * checks the contract: a failure is a usage message naming the trace (or
 * out of memory) and leaves the log empty; a success holds I/Os on the
 * one redirected file, aligned offsets and lengths, a schedule that never
 * goes back, a depth in 1..1024.
 *
 *     make fuzz && build-fuzz/fuzz_blktrace tests/fuzz/corpus/blktrace
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/blktrace.h"

#include "fuzz.h"

static void check_log(const struct iolog *log, const struct iolog_replay_opts *o)
{
	CHECK(log->nr >= 1 && log->nr <= log->cap);
	CHECK(log->nr_files == 1 && !strcmp(log->files[0], "r"));
	CHECK(log->depth >= 1 && log->depth <= 1024);
	uint64_t due = 0;
	for (size_t i = 0; i < log->nr; i++) {
		const struct iolog_entry *e = &log->e[i];
		CHECK(e->file == 0);
		CHECK(e->op == IOLOG_SYNC ? e->len == 0 : e->len > 0 && e->op <= IOLOG_TRIM);
		CHECK(!o->align || (e->offset % o->align == 0 && e->len % o->align == 0));
		CHECK(e->due_ns >= due && (!o->no_stall || !e->due_ns));
		due = e->due_ns;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	uint8_t pick = data[0];
	struct iolog_replay_opts o = {
		.redirect = "r",
		.scale = pick & 2 ? 3 : 1,
		.align = pick & 4 ? 4096 : 0,
		.time_scale = pick & 8 ? 7 : 100,
		.no_stall = pick & 16,
	};
	FILE *f = fmemopen((void *)(data + 1), size - 1, "r");
	if (!f)
		return 0;
	struct iolog log;
	struct ioc_err err = {{0}, 0};
	int ret = blktrace_read(&log, f, "fuzz.bin", &o, pick & 1, &err);
	fclose(f);
	if (ret) {
		CHECK(ret < 0 && err.msg[0]);
		CHECK(ret == -ENOMEM || (err.usage && !strncmp(err.msg, "fuzz.bin", 8)));
		CHECK(log.nr == 0 && log.e == NULL && log.nr_files == 0);
	} else {
		check_log(&log, &o);
	}
	iolog_free(&log);
	return 0;
}
