/* fuzz_iolog.c - libFuzzer target for fio's iolog reader (base/iolog.h),
 * the text read_iolog replays.
 *
 * The input is a log's bytes, read through a memory stream as the
 * reader reads a file; the first byte picks the replay options
 * (redirect, scale, align, time scale, no_stall). Besides the
 * sanitizers, the target checks iolog.h's contract: a failure is a
 * usage message of printable lines naming the log (or out of memory) and
 * leaves the log empty; a success holds at least one I/O, every I/O on
 * an added file with its offset scaled and aligned, a schedule that
 * never goes back, and the files' extents covering their I/Os.
 *
 *     make fuzz && build-fuzz/fuzz_iolog tests/fuzz/corpus/iolog
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/iolog.h"

#include "fuzz.h"

static void check_log(const struct iolog *log, const struct iolog_replay_opts *o)
{
	CHECK(log->nr >= 1 && log->nr <= log->cap);
	CHECK(log->version == 2 || log->version == 3);
	CHECK(log->nr_files >= 1 && log->nr_files <= JOB_MAX_FILES);
	if (o->redirect[0])
		CHECK(log->nr_files == 1 && !strcmp(log->files[0], o->redirect));
	uint64_t due = 0;
	bool timed = false;
	for (size_t i = 0; i < log->nr; i++) {
		const struct iolog_entry *e = &log->e[i];
		CHECK(e->file < log->nr_files);
		CHECK(e->op <= IOLOG_DATASYNC);
		CHECK(e->op >= IOLOG_SYNC ? e->len == 0 && e->offset == 0 : e->len > 0);
		CHECK(!o->align || e->offset % o->align == 0);
		CHECK(e->offset + e->len <= log->extent[e->file]);
		CHECK(e->due_ns >= due);
		CHECK(!o->no_stall || e->due_ns == 0);
		due = e->due_ns;
		timed |= e->due_ns != 0;
	}
	CHECK(timed == log->timed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint8_t pick = data[0];
	struct iolog_replay_opts o = {
		.redirect = pick & 1 ? "r" : "",
		.scale = pick & 2 ? 3 : 1,
		.align = pick & 4 ? 4096 : 0,
		.time_scale = pick & 8 ? 7 : 100,
		.no_stall = pick & 16,
	};
	FILE *f = fmemopen((void *)(data + 1), size - 1 ? size - 1 : 1, "r");
	if (!f)
		return 0;
	if (size == 1)
		fgetc(f); /* fmemopen needs a byte: read it away, an empty log */
	struct iolog log;
	struct ioc_err err = {{0}, 0};
	int ret = iolog_read(&log, f, "fuzz.log", &o, &err);
	fclose(f);
	if (ret) {
		CHECK(ret < 0);
		CHECK(err.msg[0] != '\0');
		CHECK(ret == -ENOMEM || (err.usage && !strncmp(err.msg, "fuzz.log", 8)));
		for (const char *c = err.msg; *c; c++)
			CHECK(*c == '\n' || (unsigned char)*c >= 0x20);
		CHECK(log.nr == 0 && log.e == NULL && log.nr_files == 0);
	} else {
		check_log(&log, &o);
	}
	iolog_free(&log);
	return 0;
}
