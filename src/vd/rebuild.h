/* rebuild.h - regenerating one member of a VD from the others, as a
 * controller rebuilds onto a replacement drive: asynchronous (io_uring),
 * several chunks of rows in flight at once, each chunk one read per live
 * member and one write to the new member, at a controlled rate.
 *
 * With a running VD (p->vd), each chunk holds its rows' locks from its
 * first read to its write, and the rebuild cursor (vd.h) moves past a
 * chunk only once it and every chunk before it are written, so foreground
 * I/O sees member `member` live exactly where it holds good data.
 *
 * Rate: rate_bytes > 0 paces the rebuild to that many bytes per second
 * (of the new member); else rate_pct in (0, 100) lets it be busy (have
 * I/O in flight) that share of the time, idle the rest - the priority a
 * controller's "rebuild rate" sets; 0 or 100 is as fast as it goes.
 */
#ifndef IOCHAR_VD_REBUILD_H
#define IOCHAR_VD_REBUILD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/err.h"
#include "vd/def.h"
#include "vd/vd.h"

struct vd_rebuild_params {
	const struct vd_def *def;   /* member may be listed in failed= */
	uint64_t member_bytes;
	unsigned member;            /* the one regenerated, in place */
	struct vd *vd;              /* the running VD, or NULL */
	double rate_bytes;          /* bytes/s; 0: see rate_pct */
	double rate_pct;            /* busy share, 0 or 100: unthrottled */
	unsigned depth;             /* chunks in flight; 0: 4 */
	atomic_bool *stop;          /* set (Ctrl-C): finish the chunks in flight,
				     * return -EINTR; NULL: never */
};

struct vd_rebuild_result {
	uint64_t rows, bytes;       /* rows, bytes written to the member */
	uint64_t start_ns, end_ns;  /* clock_ns() */
	uint64_t busy_ns;           /* time with I/O in flight */
	unsigned max_inflight;      /* most chunks in flight at once */
	bool direct;                /* O_DIRECT (else the page cache: tmpfs) */
};

/* Rebuild every row of p->member. 0, or -errno with a message. */
int vd_rebuild_run(const struct vd_rebuild_params *p, struct vd_rebuild_result *r,
		   struct ioc_err *err);

/* Parse a --rebuild_rate value: "N" or "Nm"/"NMB/s"-style sizes per
 * second into *bytes, or "N%" (1-100) into *pct. 0 or -EINVAL (usage). */
int vd_rebuild_rate_parse(const char *v, double *bytes, double *pct,
			  struct ioc_err *err);

#endif
