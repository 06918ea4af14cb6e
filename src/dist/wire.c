/* wire.c - one rank's result as bytes for rank 0: the run's header, then
 * per worker its counters, its histograms (latency, lag and service time
 * of every direction (trims too), every bucket: merging them is exact) and its
 * per-second series.
 *
 * Every rank runs the same iochar on the same architecture (dist_agree
 * checks the version), so structs travel as they are in memory. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dist/internal.h"

#define WIRE_MAGIC 0x494f4344u /* "IOCD" */

struct wire_head {
	uint32_t magic;
	uint32_t nr_workers;
	uint32_t partial, open_loop, verify;
	uint32_t tool_limited;          /* this rank's own verdict */
	uint64_t elapsed_ns, ramp_ns, cpu_usr_ns, cpu_sys_ns;
	int64_t start_unix_ms;
	struct verify_counts vc;
	char tool_limited_reason[256];
};

/* The histograms of one direction: lat, lag, tool_lag, service, and
 * fio's slat and clat. */
#define WIRE_HISTS 6

struct wire_worker {
	uint32_t job, clone;
	uint32_t group;                 /* fio's groupid */
	int32_t error;
	uint32_t nr_iv;
	uint64_t elapsed_ns;
	uint64_t start_ns, end_ns;      /* since the run's start */
	uint64_t ios[DIR_ALL], bytes[DIR_ALL];
	struct depth_dist depth;        /* fio's iodepth_level/submit/complete */
	char error_msg[256];
};

int wire_pack(const struct run_result *r, void **buf, size_t *len)
{
	size_t n = sizeof(struct wire_head);
	for (unsigned i = 0; i < r->nr_workers; i++)
		n += sizeof(struct wire_worker) + DIR_ALL * WIRE_HISTS * sizeof(struct hist) +
		     r->workers[i].stats.intervals.len * sizeof(struct interval);
	char *b = calloc(1, n), *p = b;
	if (!b)
		return -ENOMEM;
	struct wire_head h = {
		.magic = WIRE_MAGIC, .nr_workers = r->nr_workers,
		.partial = r->partial, .open_loop = r->open_loop, .verify = r->verify,
		.elapsed_ns = r->elapsed_ns, .ramp_ns = r->ramp_ns,
		.cpu_usr_ns = r->cpu_usr_ns, .cpu_sys_ns = r->cpu_sys_ns,
		.start_unix_ms = r->start_unix_ms, .vc = r->verify_counts,
		.tool_limited = r->tool_limited,
	};
	memcpy(h.tool_limited_reason, r->tool_limited_reason, sizeof(h.tool_limited_reason));
	memcpy(p, &h, sizeof(h));
	p += sizeof(h);
	for (unsigned i = 0; i < r->nr_workers; i++) {
		const struct worker_result *w = &r->workers[i];
		struct wire_worker ww = {
			.job = w->job, .clone = w->clone, .error = w->error,
			.nr_iv = w->stats.intervals.len, .elapsed_ns = w->elapsed_ns,
			.group = w->group, .start_ns = w->start_ns, .end_ns = w->end_ns,
			.depth = w->stats.depth,
		};
		for (int d = 0; d < DIR_ALL; d++) {
			ww.ios[d] = w->stats.dir[d].ios;
			ww.bytes[d] = w->stats.dir[d].bytes;
		}
		memcpy(ww.error_msg, w->error_msg, sizeof(ww.error_msg));
		memcpy(p, &ww, sizeof(ww));
		p += sizeof(ww);
		for (int d = 0; d < DIR_ALL; d++) {
			const struct dir_stats *ds = &w->stats.dir[d];
			const struct hist *hs[WIRE_HISTS] = {&ds->lat, &ds->lag, &ds->tool_lag,
							     &ds->service, &ds->slat, &ds->clat};
			for (unsigned k = 0; k < WIRE_HISTS; k++) {
				memcpy(p, hs[k], sizeof(struct hist));
				p += sizeof(struct hist);
			}
		}
		size_t ivb = ww.nr_iv * sizeof(struct interval);
		if (ivb)
			memcpy(p, w->stats.intervals.v, ivb);
		p += ivb;
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
	if (h.magic != WIRE_MAGIC || h.nr_workers > (len / sizeof(struct wire_worker)))
		return -EPROTO;
	r->workers = calloc(h.nr_workers ? h.nr_workers : 1, sizeof(*r->workers));
	if (!r->workers)
		return -ENOMEM;
	r->partial = h.partial;
	r->open_loop = h.open_loop;
	r->verify = h.verify;
	r->elapsed_ns = h.elapsed_ns;
	r->ramp_ns = h.ramp_ns;
	r->cpu_usr_ns = h.cpu_usr_ns;
	r->cpu_sys_ns = h.cpu_sys_ns;
	r->start_unix_ms = h.start_unix_ms;
	r->verify_counts = h.vc;
	r->tool_limited = h.tool_limited;
	memcpy(r->tool_limited_reason, h.tool_limited_reason, sizeof(r->tool_limited_reason));
	r->tool_limited_reason[sizeof(r->tool_limited_reason) - 1] = '\0';
	for (unsigned i = 0; i < h.nr_workers; i++) {
		struct worker_result *w = &r->workers[i];
		struct wire_worker ww;
		if ((size_t)(end - p) < sizeof(ww) + DIR_ALL * WIRE_HISTS * sizeof(struct hist))
			return -EPROTO;
		memcpy(&ww, p, sizeof(ww));
		p += sizeof(ww);
		r->nr_workers++;
		w->job = ww.job;
		w->clone = ww.clone;
		w->error = ww.error;
		w->elapsed_ns = ww.elapsed_ns;
		w->group = ww.group;
		w->start_ns = ww.start_ns;
		w->end_ns = ww.end_ns;
		memcpy(w->error_msg, ww.error_msg, sizeof(w->error_msg));
		w->error_msg[sizeof(w->error_msg) - 1] = '\0';
		stats_init(&w->stats);
		w->stats.depth = ww.depth;
		for (int d = 0; d < DIR_ALL; d++) {
			w->stats.dir[d].ios = ww.ios[d];
			w->stats.dir[d].bytes = ww.bytes[d];
			struct dir_stats *ds = &w->stats.dir[d];
			struct hist *hs[WIRE_HISTS] = {&ds->lat, &ds->lag, &ds->tool_lag,
						       &ds->service, &ds->slat, &ds->clat};
			for (unsigned k = 0; k < WIRE_HISTS; k++) {
				memcpy(hs[k], p, sizeof(struct hist));
				p += sizeof(struct hist);
			}
		}
		size_t ivb = (size_t)ww.nr_iv * sizeof(struct interval);
		if ((size_t)(end - p) < ivb)
			return -EPROTO;
		if (ww.nr_iv) {
			if (stats_reserve(&w->stats, ww.nr_iv))
				return -ENOMEM;
			memcpy(w->stats.intervals.v, p, ivb);
			w->stats.intervals.len = ww.nr_iv;
		}
		p += ivb;
	}
	return 0;
}
