/* vd_harness.h - helpers for tests that drive a VD's engine directly, as a
 * worker does: members are small files in a fresh directory under
 * /dev/shm (or /tmp), host units queued, committed and reaped. */
#ifndef IOCHAR_TESTS_VD_HARNESS_H
#define IOCHAR_TESTS_VD_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "vd/members.h"
#include "vd/stats.h"
#include "vd/vd.h"

#define MEMBER_BYTES (1u << 20)

extern char vd_dir[256];        /* the members' directory */
extern uint64_t tvd_member_bytes;   /* of the VD tvd_open last opened */

/* cmocka setup/teardown: make and remove vd_dir. */
int vd_setup_dir(void **state);
int vd_teardown_dir(void **state);

/* "LEVEL,strip=S,members=vd_dir/LEVEL-m0:..." plus ",extra" */
void vd_text(char *buf, size_t len, const char *level, const char *strip,
	     unsigned n, const char *extra);

struct tvd {
	struct vd_members m;
	struct vd *vd;
	bool shared;            /* vd belongs to someone else */
	void *st;
	struct io_unit *units;
	uint8_t *bufs;
	unsigned depth;
	uint64_t bs;
};

/* Create (first time) and open a VD for I/O of bs through `engine`; with
 * shared != NULL, one more engine instance on that running VD (as the
 * workers of one job share theirs). */
void tvd_open_on(struct tvd *t, struct vd *shared, const char *text,
		 const char *engine, uint64_t size, uint64_t bs, unsigned depth);
void tvd_open(struct tvd *t, const char *text, const char *engine,
	      uint64_t size, uint64_t bs, unsigned depth);
/* Close; the instance's counters (free()). */
struct vd_stats *tvd_close(struct tvd *t);
/* Run units [0, n) (set up by the caller) all at once; all must succeed. */
void tvd_run(struct tvd *t, unsigned n);
/* Block b's tvd_pattern: a seeded stream, different per block and generation. */
void tvd_pattern(uint8_t *p, uint64_t len, uint64_t b, uint64_t gen);
/* Write / check [0, cap) in blocks of bs, depth at a time. */
void tvd_write_all(struct tvd *t, uint64_t cap, uint64_t gen);
void tvd_check_all(struct tvd *t, uint64_t cap, uint64_t gen);
/* Rows whose parity or mirrors disagree. */
uint64_t tvd_scrub(const char *text, uint64_t mbytes);
/* Member I/Os of direction d over all members. */
uint64_t tvd_member_sum(const struct vd_stats *s, enum io_dir d);
/* Pump the instance without host I/O for ms (commit + poll). */
void tvd_pump_for(struct tvd *t, unsigned ms);

#endif
