/* wire.c - one rank's result as bytes for rank 0: the run's header, then
 * per worker its whole struct worker_result (counters, every histogram of
 * every direction and the flushes, every bucket: merging them is exact),
 * its per-second series and, when it has one, its latency per priority.
 *
 * Every rank runs the same iochar on the same architecture (dist_agree
 * checks the version), so structs travel as they are in memory: a
 * worker whole, and the header's members of a run_result that rank 0
 * folds (WIRE_HEAD_MEMBERS, dist/internal.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dist/internal.h"

#define WIRE_MAGIC 0x494f4344u /* "IOCD" */

#define WIRE_HEAD_FIELD(m) __typeof__(((struct run_result *)0)->m) m;
#define WIRE_HEAD_PACK(m) memcpy(&h.m, &r->m, sizeof(h.m));
#define WIRE_HEAD_UNPACK(m) memcpy(&r->m, &h.m, sizeof(h.m));

struct wire_head {
	uint32_t magic;
	uint32_t nr_workers;
	/* sizeof(struct worker_result) of the sender: a build whose layout
	 * differs (same version, another compiler or architecture) is
	 * refused rather than read apart */
	uint32_t worker_size;
	WIRE_HEAD_MEMBERS(WIRE_HEAD_FIELD)
};

/* A worker travels as its struct's bytes, every figure whatever fields
 * are added later (issue 37: a hand-made copy lost the fsync figures),
 * then its interval series, then its prio table when it has one. Its
 * pointers, the series' memory and the prio table, are remade on
 * arrival; a pointer added to struct worker_result must be remade in
 * wire_unpack too. */
int wire_pack(const struct run_result *r, void **buf, size_t *len)
{
	size_t n = sizeof(struct wire_head);
	for (unsigned i = 0; i < r->nr_workers; i++)
		n += sizeof(struct worker_result) +
		     r->workers[i].stats.intervals.len * sizeof(struct interval) +
		     (r->workers[i].prio ? sizeof(struct prio_stats) : 0);
	char *b = calloc(1, n), *p = b;
	if (!b)
		return -ENOMEM;
	struct wire_head h = {
		.magic = WIRE_MAGIC, .nr_workers = r->nr_workers,
		.worker_size = sizeof(struct worker_result),
	};
	WIRE_HEAD_MEMBERS(WIRE_HEAD_PACK)
	memcpy(p, &h, sizeof(h));
	p += sizeof(h);
	for (unsigned i = 0; i < r->nr_workers; i++) {
		const struct worker_result *w = &r->workers[i];
		memcpy(p, w, sizeof(*w));
		p += sizeof(*w);
		size_t ivb = w->stats.intervals.len * sizeof(struct interval);
		if (ivb)
			memcpy(p, w->stats.intervals.v, ivb);
		p += ivb;
		if (w->prio) {
			memcpy(p, w->prio, sizeof(*w->prio));
			p += sizeof(*w->prio);
		}
	}
	*buf = b;
	*len = n;
	return 0;
}

int wire_unpack(const void *buf, size_t len, struct run_result *r)
{
	const char *p = buf, *end = p + len;
	struct wire_head h;

	memset(r, 0, sizeof(*r));
	if (len < sizeof(h))
		return -EPROTO;
	memcpy(&h, p, sizeof(h));
	p += sizeof(h);
	if (h.magic != WIRE_MAGIC || h.worker_size != sizeof(struct worker_result) ||
	    h.nr_workers > (len / sizeof(struct worker_result)))
		return -EPROTO;
	r->workers = calloc(h.nr_workers ? h.nr_workers : 1, sizeof(*r->workers));
	if (!r->workers)
		return -ENOMEM;
	WIRE_HEAD_MEMBERS(WIRE_HEAD_UNPACK)
	r->tool_limited_reason[sizeof(r->tool_limited_reason) - 1] = '\0';
	for (unsigned i = 0; i < h.nr_workers; i++) {
		struct worker_result *w = &r->workers[i];
		if ((size_t)(end - p) < sizeof(*w))
			return -EPROTO;
		memcpy(w, p, sizeof(*w));
		p += sizeof(*w);
		unsigned nr_iv = w->stats.intervals.len;
		/* the sender's series pointer means nothing here */
		memset(&w->stats.intervals, 0, sizeof(w->stats.intervals));
		bool has_prio = w->prio != NULL; /* the sender's pointer: follows */
		w->prio = NULL;
		r->nr_workers++;
		w->error_msg[sizeof(w->error_msg) - 1] = '\0';
		size_t ivb = (size_t)nr_iv * sizeof(struct interval);
		if ((size_t)(end - p) < ivb)
			return -EPROTO;
		if (nr_iv) {
			if (stats_reserve(&w->stats, nr_iv))
				return -ENOMEM;
			memcpy(w->stats.intervals.v, p, ivb);
			w->stats.intervals.len = nr_iv;
		}
		p += ivb;
		if (has_prio) {
			if ((size_t)(end - p) < sizeof(*w->prio))
				return -EPROTO;
			if (!(w->prio = malloc(sizeof(*w->prio))))
				return -ENOMEM;
			memcpy(w->prio, p, sizeof(*w->prio));
			p += sizeof(*w->prio);
		}
	}
	return 0;
}
