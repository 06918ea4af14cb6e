/* target.c - a RAID virtual drive behind the runner's target seam. See
 * target.h. */
#include "vd/target.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "util/fmt.h"
#include "vd/engine.h"
#include "vd/members.h"
#include "vd/stats.h"
#include "vd/vd.h"

static bool vdt_claims(const struct job_spec *job)
{
	return job->vd[0] != '\0';
}

static unsigned vdt_count(const struct job_spec *job)
{
	return vd_drives_count(job->vd);
}

/* Jobs whose vd= lists several VDs (';'), or a jbod of several members,
 * become one job per VD and per jbod member, run in parallel and summed
 * like any jobs; a rate is split over them, as a plan splits it over its
 * targets. */
static int vdt_split(const struct job_spec *job, unsigned i, unsigned n,
		     struct job_spec *out)
{
	if (n == 1)
		return 0;
	if (vd_drives_item(job->vd, i, out->vd, sizeof(out->vd)))
		return -ENOMEM;
	char name[JOB_NAME_MAX];
	snprintf(name, sizeof(name), "%.50s.vd%u", job->name, i);
	memcpy(out->name, name, sizeof(name));
	if (job->rate_iops)
		out->rate_iops = (job->rate_iops + n - 1) / n;
	return 0;
}

/* The region is VD bytes from offset; the environment describes the live
 * members. */
static int vdt_region(const struct job_spec *job, const struct vd_members *m,
		      struct target_layout *out, struct ioc_err *err)
{
	char a[32];

	unsigned align = job->direct ? m->dio_align : 1;
	if (job->bs % align || job->offset % align)
		return err_usage(err, EINVAL,
				 "job %s: bs=%llu and offset=%llu must be multiples of %u bytes, the members' direct I/O alignment (direct=1)",
				 job->name, (unsigned long long)job->bs,
				 (unsigned long long)job->offset, align);
	uint64_t room = m->geom.capacity - job->offset;
	uint64_t region = job->size && job->size < room ? job->size : room;
	region -= region % job->bs;
	if (region == 0)
		return err_usage(err, EINVAL, "job %s: the VD (%s) is smaller than bs=%llu",
				 job->name, fmt_bytes(a, sizeof(a), room),
				 (unsigned long long)job->bs);
	out->region = region;
	for (unsigned i = 0; i < m->def.nr_members; i++)
		if (!vd_member_failed(&m->def, i))
			out->paths[out->nr_paths++] = m->def.members[i];
	if (m->sizes_differ && !job->size)
		snprintf(out->note, sizeof(out->note),
			 "--vd members differ in size; using the smallest (%llu bytes) on each",
			 (unsigned long long)m->smallest);
	return 0;
}

/* A VD job: its members stand in for files. */
static int vdt_layout(const struct job_spec *job, const struct engine_ops *eops,
		      struct target_layout *out, struct ioc_err *err)
{
	if (eops->flags & ENGINE_NO_TARGET)
		return err_usage(err, EINVAL, "job %s: --vd needs an engine that moves data, not ioengine=%s",
				 job->name, job->ioengine);
	if (job->nr_files)
		return err_usage(err, EINVAL,
				 "job %s: give either filename= or --vd (its members are the targets), not both",
				 job->name);
	if (rw_trims(job->rw)) /* the VD engine maps reads and writes only */
		return err_usage(err, ENOTSUP,
				 "job %s: rw=%s on --vd: a RAID VD does not map "
				 "trims onto its members; trim the members' own "
				 "devices instead", job->name, rw_name(job->rw));
	struct vd_members *m = malloc(sizeof(*m));
	if (!m)
		return err_set(err, ENOMEM, "out of memory");
	out->state = m;
	struct vd_members_params p = {
		.text = job->vd, .size = job->size, .offset = job->offset,
		.writes = rw_writes(job->rw), .force = job->force,
		.direct = job->direct,
	};
	int ret = vd_members_inspect(&p, m, err);
	return ret ? ret : vdt_region(job, m, out, err);
}

static int vdt_prepare(void *state, const struct target_fill_ctl *c,
		       struct ioc_err *err)
{
	return vd_prepare(state, c, err);
}

static int vdt_start(void *state, void **shared)
{
	const struct vd_members *m = state;
	struct vd *vd;
	int ret = vd_create(&m->def, m->member_bytes, &vd);
	*shared = ret ? NULL : vd;
	return ret;
}

static void vdt_stop(void *shared)
{
	vd_destroy(shared);
}

static int vdt_engine_init(void *shared, const struct engine_ops *inner,
			   const struct job_spec *job,
			   const struct engine_params *p, void **estate,
			   struct ioc_err *err)
{
	return vd_engine_init(shared, inner, job, p, estate, err);
}

/* The run is over: what the write-back cache still holds is destaged
 * and counted first, so the amplification includes it. */
static void *vdt_take_stats(void *estate)
{
	vd_engine_finish(estate);
	return vd_engine_take_stats(estate);
}

static int vdt_stats_add(void **into, const void *from)
{
	const struct vd_stats *s = from;
	if (!*into && !(*into = vd_stats_new(s->nr_members)))
		return -ENOMEM;
	vd_stats_add(*into, s);
	return 0;
}

const struct target_ops vd_target_ops = {
	.name = "the --vd drive",
	.claims = vdt_claims,
	.count = vdt_count,
	.split = vdt_split,
	.layout = vdt_layout,
	.prepare = vdt_prepare,
	.start = vdt_start,
	.stop = vdt_stop,
	.release = free,
	.engine = &vd_engine_ops,
	.engine_init = vdt_engine_init,
	.measure_from = vd_engine_measure_from,
	.take_stats = vdt_take_stats,
	.stats_add = vdt_stats_add,
	.io_error = vd_engine_member_error,
};
