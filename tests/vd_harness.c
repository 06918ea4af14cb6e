/* vd_harness.c - see vd_harness.h. */
#define _GNU_SOURCE
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/rng.h"
#include "vd/def.h"
#include "vd/engine.h"
#include "vd/sync.h"
#include "vd_harness.h"

char vd_dir[256];
uint64_t tvd_member_bytes;

int vd_setup_dir(void **state)
{
	(void)state;
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(vd_dir, sizeof(vd_dir), "%s/iochar-vd-XXXXXX", base);
	return mkdtemp(vd_dir) ? 0 : -1;
}

int vd_teardown_dir(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", vd_dir);
	return system(cmd);
}

/* "LEVEL,strip=S,members=vd_dir/m0:vd_dir/m1..." plus extra */
void vd_text(char *buf, size_t len, const char *level, const char *strip,
		    unsigned n, const char *extra)
{
	int at = snprintf(buf, len, "%s,strip=%s,members=", level, strip);
	for (unsigned i = 0; i < n; i++)
		at += snprintf(buf + at, len - (size_t)at, "%s%s/%s-m%u", i ? ":" : "",
			       vd_dir, level, i);
	if (extra)
		snprintf(buf + at, len - (size_t)at, ",%s", extra);
}

/* Create (first time) and open a VD for I/O of bs through `engine`; with
 * shared != NULL, one more engine instance on that running VD (as the
 * workers of one job share theirs). */
void tvd_open_on(struct tvd *t, struct vd *shared, const char *text,
			const char *engine, uint64_t size, uint64_t bs,
			unsigned depth)
{
	struct ioc_err err = {0};
	struct vd_members_params p = {
		.text = text, .size = size, .writes = true, .force = true,
	};
	memset(t, 0, sizeof(*t));
	int ret = vd_members_inspect(&p, &t->m, &err);
	if (ret)
		fail_msg("%s", err.msg);
	assert_int_equal(vd_prepare(&t->m, NULL, &err), 0);
	tvd_member_bytes = t->m.member_bytes;
	t->shared = shared != NULL;
	t->vd = shared;
	if (!shared)
		assert_int_equal(vd_create(&t->m.def, t->m.member_bytes, &t->vd), 0);
	t->depth = depth;
	t->bs = bs;
	t->units = calloc(depth, sizeof(*t->units));
	assert_int_equal(posix_memalign((void **)&t->bufs, 4096, depth * bs), 0);
	for (unsigned i = 0; i < depth; i++) {
		t->units[i].index = i;
		t->units[i].buf = t->bufs + i * bs;
		t->units[i].buflen = bs;
	}
	struct job_spec job = {0};
	job.rw = RW_RANDRW;
	struct engine_params ep = {.units = t->units, .depth = depth};
	ret = vd_engine_init(t->vd, engine_find(engine), &job, &ep, &t->st, &err);
	if (ret)
		fail_msg("%s", err.msg);
}

void tvd_open(struct tvd *t, const char *text, const char *engine,
		     uint64_t size, uint64_t bs, unsigned depth)
{
	tvd_open_on(t, NULL, text, engine, size, bs, depth);
}

struct vd_stats *tvd_close(struct tvd *t)
{
	struct vd_stats *s = vd_engine_take_stats(t->st);
	vd_engine_ops.cleanup(t->st);
	if (!t->shared)
		vd_destroy(t->vd);
	free(t->units);
	free(t->bufs);
	return s;
}

/* Run units [0, n) (set up by the caller) all at once; all must succeed. */
void tvd_run(struct tvd *t, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(vd_engine_ops.queue(t->st, &t->units[i]), ENGINE_QUEUED);
	assert_int_equal(vd_engine_ops.commit(t->st), 0);
	unsigned done = 0;
	while (done < n) {
		int got = vd_engine_ops.getevents(t->st, 1);
		assert_true(got > 0);
		for (int i = 0; i < got; i++) {
			struct io_unit *u = vd_engine_ops.event(t->st, (unsigned)i);
			if (u->result != (int64_t)u->len)
				fail_msg("%s at %llu: result %lld", u->dir ? "write" : "read",
					 (unsigned long long)u->offset, (long long)u->result);
		}
		done += (unsigned)got;
	}
}

/* Block b's tvd_pattern: a seeded stream, different per block and generation. */
void tvd_pattern(uint8_t *p, uint64_t len, uint64_t b, uint64_t gen)
{
	struct rng r;
	rng_seed(&r, b * 1000003 + gen);
	for (uint64_t i = 0; i < len; i += 8) {
		uint64_t v = rng_next(&r);
		memcpy(p + i, &v, 8);
	}
}

void tvd_write_all(struct tvd *t, uint64_t cap, uint64_t gen)
{
	for (uint64_t off = 0; off < cap; off += t->bs * t->depth) {
		unsigned n = 0;
		for (; n < t->depth && off + n * t->bs < cap; n++) {
			struct io_unit *u = &t->units[n];
			u->dir = DIR_WRITE;
			u->offset = off + n * t->bs;
			u->len = t->bs;
			tvd_pattern(u->buf, t->bs, u->offset / t->bs, gen);
		}
		tvd_run(t, n);
	}
}

void tvd_check_all(struct tvd *t, uint64_t cap, uint64_t gen)
{
	uint8_t *want = malloc(t->bs);
	for (uint64_t off = 0; off < cap; off += t->bs * t->depth) {
		unsigned n = 0;
		for (; n < t->depth && off + n * t->bs < cap; n++) {
			struct io_unit *u = &t->units[n];
			u->dir = DIR_READ;
			u->offset = off + n * t->bs;
			u->len = t->bs;
			memset(u->buf, 0, t->bs);
		}
		tvd_run(t, n);
		for (unsigned i = 0; i < n; i++) {
			tvd_pattern(want, t->bs, t->units[i].offset / t->bs, gen);
			if (memcmp(want, t->units[i].buf, t->bs))
				fail_msg("block at %llu differs", (unsigned long long)t->units[i].offset);
		}
	}
	free(want);
}

uint64_t tvd_scrub(const char *text, uint64_t mbytes)
{
	struct vd_def *def = malloc(sizeof(*def));
	struct ioc_err err = {0};
	struct vd_sync s;
	uint64_t bad = 0;
	assert_int_equal(vd_def_parse(text, def, &err), 0);
	assert_int_equal(vd_sync_open(&s, def, mbytes, false, &err), 0);
	assert_int_equal(vd_sync_scrub(&s, 0, vd_sync_rows(&s), &bad, &err), 0);
	vd_sync_close(&s);
	free(def);
	return bad;
}


uint64_t tvd_member_sum(const struct vd_stats *s, enum io_dir d)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < s->nr_members; i++)
		v += s->member[i].dir[d].ios;
	return v;
}

/* Pump the instance without host I/O for ms (commit + poll), as the
 * worker's loop does between I/Os. */
void tvd_pump_for(struct tvd *t, unsigned ms)
{
	for (unsigned i = 0; i < ms; i++) {
		assert_int_equal(vd_engine_ops.commit(t->st), 0);
		assert_true(vd_engine_ops.getevents(t->st, 0) >= 0);
		usleep(1000);
	}
}
