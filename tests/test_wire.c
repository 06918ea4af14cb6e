/* test_wire.c - a remote rank's result reaches rank 0 whole (issue 37:
 * the hand-made copy lost sync_ios, sync_lat and latency_depth). Every
 * byte of a worker is set to a value of its own, so any field, one added
 * later too, that does not travel fails the comparison; the last worker
 * has a latency-per-priority table (every byte its own too), the first
 * none. The run's header carries WIRE_HEAD_MEMBERS, each checked by name,
 * and every member of struct run_result is either in that list or named
 * below as rank 0's own: a member added to the struct fails the test
 * until it is put in one of them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "dist/internal.h"

#define NR_IV 3

/* Each byte of w its own value (its offset, mixed by the worker's index),
 * then a real series of NR_IV seconds and a terminated message. */
static void fill_worker(struct worker_result *w, unsigned idx)
{
	unsigned char *b = (unsigned char *)w;
	for (size_t i = 0; i < sizeof(*w); i++)
		b[i] = (unsigned char)(i * 131u + idx * 29u + 7u);
	w->error_msg[sizeof(w->error_msg) - 1] = '\0';
	struct interval_series *s = &w->stats.intervals;
	s->v = calloc(NR_IV, sizeof(*s->v));
	assert_non_null(s->v);
	s->len = s->cap = NR_IV;
	unsigned char *iv = (unsigned char *)s->v;
	for (size_t i = 0; i < NR_IV * sizeof(*s->v); i++)
		iv[i] = (unsigned char)(i * 17u + idx + 3u);
	w->prio = NULL;
	if (idx == 1) {
		w->prio = malloc(sizeof(*w->prio));
		assert_non_null(w->prio);
		unsigned char *pb = (unsigned char *)w->prio;
		for (size_t i = 0; i < sizeof(*w->prio); i++)
			pb[i] = (unsigned char)(i * 13u + 5u);
	}
}

/* a and b equal in every byte but the series' memory (the receiver's own),
 * whose slots must hold the same seconds. */
static void expect_same_worker(const struct worker_result *a, const struct worker_result *b)
{
	assert_int_equal(a->stats.intervals.len, b->stats.intervals.len);
	assert_memory_equal(a->stats.intervals.v, b->stats.intervals.v,
			    a->stats.intervals.len * sizeof(struct interval));
	struct worker_result x, y;
	memcpy(&x, a, sizeof(x));
	memcpy(&y, b, sizeof(y));
	memset(&x.stats.intervals, 0, sizeof(x.stats.intervals));
	memset(&y.stats.intervals, 0, sizeof(y.stats.intervals));
	assert_int_equal(!a->prio, !b->prio);
	if (a->prio)
		assert_memory_equal(a->prio, b->prio, sizeof(*a->prio));
	x.prio = y.prio = NULL; /* each side's own memory */
	/* the named figures first, for a readable failure */
	assert_int_equal(x.stats.sync_ios, y.stats.sync_ios);
	assert_memory_equal(&x.stats.sync_lat, &y.stats.sync_lat, sizeof(x.stats.sync_lat));
	assert_int_equal(x.latency_depth, y.latency_depth);
	assert_memory_equal(&x.stats, &y.stats, sizeof(x.stats));
	assert_memory_equal(&x, &y, sizeof(x));
}

static void test_wire_carries_every_field(void **state)
{
	(void)state;
	struct run_result *r = calloc(1, sizeof(*r)), *back = calloc(1, sizeof(*back));
	assert_non_null(r);
	assert_non_null(back);
	r->nr_workers = 2;
	r->workers = calloc(r->nr_workers, sizeof(*r->workers));
	assert_non_null(r->workers);
	for (unsigned i = 0; i < r->nr_workers; i++)
		fill_worker(&r->workers[i], i);
	void *buf;
	size_t len;
	assert_int_equal(wire_pack(r, &buf, &len), 0);
	assert_int_equal(wire_unpack(buf, len, back), 0);
	assert_int_equal(back->nr_workers, r->nr_workers);
	for (unsigned i = 0; i < r->nr_workers; i++)
		expect_same_worker(&r->workers[i], &back->workers[i]);
	run_result_free(back);
	memset(back, 0, sizeof(*back));
	/* cut anywhere inside the last worker, its series or its prio
	 * table: refused */
	for (size_t cut = 1; cut <= sizeof(struct prio_stats) + sizeof(struct interval) * NR_IV + 64;
	     cut += cut < 4096 ? 61 : 4093) {
		assert_int_not_equal(wire_unpack(buf, len - cut, back), 0);
		run_result_free(back);
		memset(back, 0, sizeof(*back));
	}
	free(buf);
	run_result_free(r);
	free(r);
	free(back);
}

/* The members of struct run_result that do not travel: rank 0's own
 * (jobs, environment, its process's figures, what it computes after the
 * fold) or memory the workers' bytes remake. */
#define RANK0_OWN_MEMBERS(X)                                                 \
	X(jobs) X(nr_jobs) X(workers) X(nr_workers) X(total) X(cpu_usr_pct)  \
	X(cpu_sys_pct) X(ctx) X(majf) X(minf) X(cpus_usable)                 \
	X(sched_groups) X(sched_nice) X(machine_busy_pct) X(env) X(env_free) \
	X(target_stats) X(hosts) X(nr_hosts) X(start_skew_ns) X(steady)      \
	X(disks) X(nr_disks) X(notes) X(nr_notes)

struct member {
	const char *name;
	size_t off, size, align;
};

#define MEMBER_OF(m)                                                         \
	{#m, offsetof(struct run_result, m),                                 \
	 sizeof(((struct run_result *)0)->m),                                \
	 _Alignof(__typeof__(((struct run_result *)0)->m))},

static int by_offset(const void *a, const void *b)
{
	const struct member *x = a, *y = b;
	return (x->off > y->off) - (x->off < y->off);
}

static size_t align_up(size_t n, size_t a)
{
	return (n + a - 1) / a * a;
}

/* The two lists name every member of struct run_result: sorted by
 * offset they tile it, with no more room between two than the next one's
 * alignment leaves (a member neither list names leaves a hole). */
static void test_members_all_decided(void **state)
{
	(void)state;
	struct member m[] = {WIRE_HEAD_MEMBERS(MEMBER_OF) RANK0_OWN_MEMBERS(MEMBER_OF)};
	size_t n = sizeof(m) / sizeof(m[0]), end = 0;

	qsort(m, n, sizeof(m[0]), by_offset);
	for (size_t i = 0; i < n; i++) {
		if (m[i].off != align_up(end, m[i].align))
			fail_msg("struct run_result: a member before %s is in neither "
				 "WIRE_HEAD_MEMBERS nor RANK0_OWN_MEMBERS", m[i].name);
		end = m[i].off + m[i].size;
	}
	if (align_up(end, _Alignof(struct run_result)) != sizeof(struct run_result))
		fail_msg("struct run_result: a member after %s is in neither list",
			 m[n - 1].name);
}

/* Each header member of r its own bytes (a bool true), then through the
 * wire and compared by name. */
#define FILL_MEMBER(m)                                                       \
	do {                                                                 \
		unsigned char *b = (unsigned char *)&r->m;                   \
		for (size_t i = 0; i < sizeof(r->m); i++)                    \
			b[i] = (unsigned char)(i * 37u + seed++);            \
		if (sizeof(r->m) == 1)                                       \
			b[0] = 1;                                            \
	} while (0);
#define SAME_MEMBER(m)                                                       \
	if (memcmp(&r->m, &back->m, sizeof(r->m)))                           \
		fail_msg("header member %s did not arrive", #m);

static void test_wire_carries_the_header(void **state)
{
	(void)state;
	struct run_result *r = calloc(1, sizeof(*r)), *back = calloc(1, sizeof(*back));
	unsigned seed = 11;
	assert_non_null(r);
	assert_non_null(back);
	WIRE_HEAD_MEMBERS(FILL_MEMBER)
	r->tool_limited_reason[sizeof(r->tool_limited_reason) - 1] = '\0';
	void *buf;
	size_t len;
	assert_int_equal(wire_pack(r, &buf, &len), 0);
	assert_int_equal(wire_unpack(buf, len, back), 0);
	WIRE_HEAD_MEMBERS(SAME_MEMBER)
	/* the figures a test named before, for a readable failure */
	assert_int_equal(back->elapsed_ns, r->elapsed_ns);
	assert_int_equal(back->verify_counts.missing_units, r->verify_counts.missing_units);
	free(buf);
	run_result_free(back);
	free(back);
	free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_members_all_decided),
		cmocka_unit_test(test_wire_carries_the_header),
		cmocka_unit_test(test_wire_carries_every_field),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
