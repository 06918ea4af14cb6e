/* validate.c - everything about a job that can be checked before anything
 * is written: the engine, option combinations, and each target's existence,
 * size and O_DIRECT alignment, and for write workloads the guard against
 * destroying data (verify/guard.h). Nothing here creates or writes a file. */
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "core/layout.h"
#include "target/target.h"
#include "util/fmt.h"
#include "verify/guard.h"
#include "vd/members.h"

static int check_options(const struct job_spec *job, struct ioc_err *err)
{
	const char *n = job->name;
	if (job->bs == 0)
		return err_usage(err, EINVAL, "job %s: bs=0: block size must be at least 1 byte", n);
	if (job->iodepth == 0)
		return err_usage(err, EINVAL, "job %s: iodepth=0: must be at least 1", n);
	if (job->numjobs == 0)
		return err_usage(err, EINVAL, "job %s: numjobs=0: must be at least 1", n);
	if (job->rwmixread > 100)
		return err_usage(err, EINVAL, "job %s: rwmixread=%u: must be 0..100", n, job->rwmixread);
	if (job->time_based && job->runtime_ns == 0)
		return err_usage(err, EINVAL, "job %s: time_based needs runtime= (e.g. runtime=30s)", n);
	if (job->rate_iops > 1000000000ull)
		return err_usage(err, EINVAL, "job %s: rate_iops=%llu: at most 1000000000", n,
				 (unsigned long long)job->rate_iops);
	if (job->dist == DIST_ZIPF && (job->zipf_theta <= 0 || job->zipf_theta == 1.0))
		return err_usage(err, EINVAL,
				 "job %s: random_distribution=zipf:%g: theta must be > 0 and not 1 (e.g. 0.99 or 1.2)",
				 n, job->zipf_theta);
	return 0;
}

static int check_engine(const struct job_spec *job, struct job_layout *out,
			struct ioc_err *err)
{
	out->eops = engine_find(job->ioengine);
	if (!out->eops)
		return err_usage(err, EINVAL, "ioengine=%s: unknown; accepted: %s",
				 job->ioengine, engine_names());
	int ret = out->eops->probe(err);
	if (ret)
		err->usage = 1; /* the user chose an engine this kernel lacks */
	return ret;
}

/* Bytes of path available from offset; for a file that does not exist yet,
 * UINT64_MAX (it will be created as large as needed). */
static int check_file(const struct job_spec *job, const char *path,
		      const struct target_info *ti, struct ioc_err *err)
{
	char a[32], b[32];
	bool writes = rw_writes(job->rw);

	if (!ti->exists) {
		if (job->size == 0)
			return err_usage(err, ENOENT,
					 "%s: does not exist; give size= to create it", path);
		if (!ti->parent_exists && !job->create_parent)
			return err_usage(err, ENOENT, "%s: its directory does not exist", path);
		if (ti->parent_exists && !ti->parent_writable)
			return err_usage(err, EACCES, "%s: cannot create it: directory not writable", path);
	}
	if (ti->exists && (writes || !ti->is_block) && access(path, writes ? W_OK : R_OK) < 0)
		return err_usage(err, errno, "%s: %s", path, strerror(errno));
	/* found before any file is created or written (it used to show only
	 * at the first direct open, after the pre-write) */
	if (job->direct && ti->no_direct)
		return err_usage(err, EINVAL,
				 "%s: direct=1 is not supported by its filesystem; use direct=0",
				 path);
	/* before anything else about it: data there comes first */
	if (writes) {
		int ret = guard_check(path, ti, job->force, err);
		if (ret)
			return ret;
	}
	if (ti->is_block && job->offset >= ti->size)
		return err_usage(err, EINVAL, "offset=%s: beyond the end of %s (%s)",
				 fmt_bytes(a, sizeof(a), job->offset), path,
				 fmt_bytes(b, sizeof(b), ti->size));
	if (job->direct && ti->dio_align > 1) {
		if (job->bs % ti->dio_align)
			return err_usage(err, EINVAL,
					 "bs=%llu: not a multiple of %u bytes, the direct I/O alignment of %s (direct=1)",
					 (unsigned long long)job->bs, ti->dio_align, path);
		if (job->offset % ti->dio_align)
			return err_usage(err, EINVAL,
					 "offset=%llu: not a multiple of %u bytes, the direct I/O alignment of %s (direct=1)",
					 (unsigned long long)job->offset, ti->dio_align, path);
	}
	return 0;
}

/* The region each file gives the job: size split over the files, or
 * without size the room every target has from offset. */
static int compute_region(const struct job_spec *job,
			  const struct target_info *ti, struct job_layout *out,
			  struct ioc_err *err)
{
	char a[32], b[32], c[32];
	uint64_t region = UINT64_MAX;

	if (job->size) {
		region = job->size / job->nr_files;
		for (unsigned i = 0; i < job->nr_files; i++) {
			if (ti[i].is_block && job->offset + region > ti[i].size)
				return err_usage(err, EINVAL,
						 "size=%s: larger than %s (%s) from offset %s",
						 fmt_bytes(a, sizeof(a), job->size), job->files[i],
						 fmt_bytes(b, sizeof(b), ti[i].size),
						 fmt_bytes(c, sizeof(c), job->offset));
		}
	} else {
		for (unsigned i = 0; i < job->nr_files; i++) {
			uint64_t room = ti[i].size > job->offset ? ti[i].size - job->offset : 0;
			if (room < region)
				region = room;
		}
	}
	region -= region % job->bs;
	if (region == 0)
		return err_usage(err, EINVAL,
				 "job %s: size=%s per file is smaller than bs=%llu",
				 job->name, fmt_bytes(a, sizeof(a), job->size / job->nr_files),
				 (unsigned long long)job->bs);
	out->region = region;
	out->fill_end = job->offset + region;
	for (unsigned i = 0; i < job->nr_files; i++) {
		out->fill[i] = !ti[i].is_block && ti[i].size < out->fill_end;
		/* laying out the rest of a file is a write, even for a read
		 * job: not to a file iochar did not create, unless forced */
		if (out->fill[i] && ti[i].exists && !job->force &&
		    guard_is_ours(job->files[i]) != 1)
			return err_usage(err, EPERM,
					 "%s: shorter (%s) than offset+size (%s), and iochar did not create it: extending it would write to it; give a smaller size, or --force",
					 job->files[i], fmt_bytes(a, sizeof(a), ti[i].size),
					 fmt_bytes(b, sizeof(b), out->fill_end));
	}
	return 0;
}

void layout_release(struct job_layout *l)
{
	if (!l)
		return;
	free(l->vd);
	l->vd = NULL;
}

/* A VD job: its members stand in for files; the region is VD bytes. */
static int layout_vd(const struct job_spec *job, struct job_layout *out,
		     struct ioc_err *err)
{
	char a[32];

	if (out->eops->flags & (ENGINE_NO_TARGET))
		return err_usage(err, EINVAL, "job %s: --vd needs an engine that moves data, not ioengine=%s",
				 job->name, job->ioengine);
	if (job->nr_files)
		return err_usage(err, EINVAL,
				 "job %s: give either filename= or --vd (its members are the targets), not both",
				 job->name);
	out->vd = malloc(sizeof(*out->vd));
	if (!out->vd)
		return err_set(err, ENOMEM, "out of memory");
	struct vd_members_params p = {
		.text = job->vd, .size = job->size, .offset = job->offset,
		.writes = rw_writes(job->rw), .force = job->force,
		.direct = job->direct,
	};
	int ret = vd_members_inspect(&p, out->vd, err);
	if (ret)
		return ret;
	if (vd_write_back(&out->vd->def) && job->numjobs > 1)
		return err_usage(err, EINVAL,
				 "job %s: --vd write=back keeps one cache per worker: use numjobs=1 (and iodepth for concurrency)",
				 job->name);
	unsigned align = job->direct ? out->vd->dio_align : 1;
	if (job->bs % align || job->offset % align)
		return err_usage(err, EINVAL,
				 "job %s: bs=%llu and offset=%llu must be multiples of %u bytes, the members' direct I/O alignment (direct=1)",
				 job->name, (unsigned long long)job->bs,
				 (unsigned long long)job->offset, align);
	uint64_t room = out->vd->geom.capacity - job->offset;
	uint64_t region = job->size && job->size < room ? job->size : room;
	region -= region % job->bs;
	if (region == 0)
		return err_usage(err, EINVAL, "job %s: the VD (%s) is smaller than bs=%llu",
				 job->name, fmt_bytes(a, sizeof(a), room),
				 (unsigned long long)job->bs);
	out->region = region;
	out->fill_end = out->vd->member_bytes;
	for (unsigned i = 0; i < out->vd->def.nr_members; i++)
		out->fill[i] = out->vd->fill[i];
	return 0;
}

int layout_job(const struct job_spec *job, struct job_layout *out,
	       struct ioc_err *err)
{
	int ret;

	memset(out, 0, sizeof(*out));
	if ((ret = check_options(job, err)) || (ret = check_engine(job, out, err)))
		return ret;
	if (job->vd[0])
		return layout_vd(job, out, err);
	if (out->eops->flags & ENGINE_NO_TARGET) {
		uint64_t files = job->nr_files ? job->nr_files : 1;
		out->region = job->size / files - (job->size / files) % job->bs;
		if (out->region == 0)
			return err_usage(err, EINVAL,
					 "job %s: ioengine=null needs size= of at least bs",
					 job->name);
		return 0;
	}
	if (job->nr_files == 0)
		return err_usage(err, EINVAL, "job %s: no filename= given", job->name);

	struct target_info *ti = calloc(job->nr_files, sizeof(*ti));
	if (!ti)
		return err_set(err, ENOMEM, "out of memory");
	for (unsigned i = 0; i < job->nr_files && !ret; i++) {
		ret = target_inspect(job->files[i], &ti[i], err);
		if (!ret)
			ret = check_file(job, job->files[i], &ti[i], err);
	}
	if (!ret)
		ret = compute_region(job, ti, out, err);
	free(ti);
	return ret;
}

#define FD_MARGIN 64	 /* stdio, --output, journal, libraries */
#define FD_PER_WORKER 1 /* an engine's own (io_uring's ring) */

int layout_check_fds(const struct job_spec *jobs, unsigned nr_jobs,
		     const struct job_layout *layouts, struct ioc_err *err)
{
	unsigned long long need = FD_MARGIN, workers = 0;
	struct rlimit rl;

	for (unsigned j = 0; j < nr_jobs; j++) {
		bool targets = !(layouts[j].eops->flags & ENGINE_NO_TARGET);
		workers += jobs[j].numjobs;
		need += (unsigned long long)jobs[j].numjobs *
			((targets ? jobs[j].nr_files : 0) + FD_PER_WORKER);
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || need <= rl.rlim_cur)
		return 0; /* fits, or cannot tell: the opens will say */
	if (rl.rlim_max == RLIM_INFINITY || need <= rl.rlim_max) {
		struct rlimit more = {(rlim_t)need, rl.rlim_max};
		if (setrlimit(RLIMIT_NOFILE, &more) == 0)
			return 0;
	}
	return err_usage(err, EMFILE,
			 "%llu workers (jobs x numjobs) need about %llu open "
			 "files; the limit is %llu (ulimit -n; hard limit %llu)",
			 workers, need, (unsigned long long)rl.rlim_cur,
			 (unsigned long long)rl.rlim_max);
}
