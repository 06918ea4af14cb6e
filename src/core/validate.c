/* validate.c - everything about a job that can be checked before anything
 * is written: the engine, option combinations, and each target's existence,
 * size and O_DIRECT alignment, and for write workloads the guard against
 * destroying data (target/guard.h). Jobs of another target kind (a RAID
 * VD) are laid out by their kind (target/target_ops.h, core/seams.h).
 * Nothing here creates or writes a file. */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/blocksize.h"
#include "core/file_sizes.h"
#include "core/generator.h"
#include "core/layout.h"
#include "core/null_layout.h"
#include "base/job_options.h"
#include "core/seams.h"
#include "target/guard.h"
#include "target/target.h"
#include "util/fmt.h"

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
	return ret ? ret : engine_check_job(job, err);
}

/* Bytes of path available from offset; for a file that does not exist yet,
 * UINT64_MAX (it will be created as large as needed). */
/* What iochar does not do of fill_device and zonemode: refused. */
static int check_fill_zones(const struct job_spec *job, struct ioc_err *err)
{
	/* fio fills the file system first for a read job; iochar only writes
	 * until it is full */
	if (job->fill_device && rw_reads(job->rw))
		return err_usage(err, ENOTSUP,
				 "job %s: fill_device=1 with rw=%s: accepted only "
				 "for jobs that only write",
				 job->name, rw_name(job->rw));
	/* a random job's zones draw uniform offsets (or lfsr's) */
	if (job->zonemode == ZONE_MODE_STRIDED && rw_is_random(job->rw) &&
	    job->dist != DIST_UNIFORM)
		return err_usage(err, ENOTSUP,
				 "job %s: zonemode=strided with a "
				 "random_distribution other than random: iochar "
				 "draws uniform offsets in a zone",
				 job->name);
	return 0;
}

static int check_file(const struct job_spec *job, const char *path,
		      const struct target_info *ti, struct ioc_err *err)
{
	char a[32], b[32];
	const struct engine_ops *e = engine_find(job->ioengine);
	/* falloc and filedelete change the files even when rw reads */
	bool writes = job_writes(job) || (e && (e->flags & ENGINE_MODIFIES));

	if (!ti->exists) {
		if (job->no_file_create)
			return err_usage(err, ENOENT,
					 "%s: does not exist, and allow_file_create=0", path);
		if (job->offset_pct)
			return err_usage(err, ENOENT,
					 "offset=%u%%: %s does not exist; a percentage needs the file", job->offset_pct, path);
		if (job->size == 0 && job->size_pct)
			return err_usage(err, ENOENT,
					 "size=%u%%: %s does not exist; a percentage needs the file", job->size_pct, path);
		if (job->size == 0 && job->filesize == 0 && !job->fill_device)
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
	/* filecreate's files are never laid out: its reads are fakes */
	if (job->create_on_open && rw_reads(job->rw) &&
	    !(e && (e->flags & ENGINE_NO_LAYOUT)))
		return err_usage(err, ENOTSUP,
				 "job %s: create_on_open=1 with rw=%s: a job that "
				 "reads needs its files laid out first; accepted "
				 "only for jobs that only write",
				 job->name, rw_name(job->rw));
	int refused = check_fill_zones(job, err);
	if (refused)
		return refused;
	if (job->unlink && ti->exists && !ti->is_block && !job->force &&
	    guard_is_ours(path) != 1)
		return err_usage(err, EPERM,
				 "%s: unlink=1 would remove it, and iochar did not "
				 "create it; give --force to remove it", path);
	/* before anything else about it: data there comes first */
	if (writes) {
		int ret = guard_check(path, ti, job->force, err);
		if (ret)
			return ret;
	}
	/* verify's blocks and journal name the region by offset= in bytes */
	if (job->offset_pct && job->verify)
		return err_usage(err, EINVAL,
				 "offset=%u%%: not with verify=1 (give offset= in bytes)", job->offset_pct);
	uint64_t off = gen_file_offset(job, ti->size);
	if (ti->is_block && off >= ti->size)
		return err_usage(err, EINVAL, "offset=%s: beyond the end of %s (%s)",
				 fmt_bytes(a, sizeof(a), off), path,
				 fmt_bytes(b, sizeof(b), ti->size));
	if (job->direct && ti->dio_align > 1) {
		if (job->bs % ti->dio_align)
			return err_usage(err, EINVAL,
					 "bs=%llu: not a multiple of %u bytes, the direct I/O alignment of %s (direct=1)",
					 (unsigned long long)job->bs, ti->dio_align, path);
		uint64_t bad = gen_bs_misaligned(job, ti->dio_align);
		if (bad)
			return err_usage(err, EINVAL,
					 "job %s: an I/O size or alignment (%llu: bs, bsrange, bssplit, blockalign, offset_increment, bs_unaligned) is not a multiple of %u bytes, the direct I/O alignment of %s (direct=1)",
					 job->name, (unsigned long long)bad, ti->dio_align, path);
		if (off % ti->dio_align)
			return err_usage(err, EINVAL,
					 "offset=%llu: not a multiple of %u bytes, the direct I/O alignment of %s (direct=1)",
					 (unsigned long long)off, ti->dio_align, path);
	}
	return 0;
}

/* filesize=: each file is that large, the job's region in it runs from
 * offset to its end (fio's io_size = filesize - offset). A smaller size
 * then bounds the I/O of each clone (the worker caps its generator). */
static int filesize_region(const struct job_spec *job, uint64_t *region,
			   struct ioc_err *err)
{
	char a[32], b[32];

	if (job->offset >= job->filesize)
		return err_usage(err, EINVAL, "offset=%s: not inside filesize=%s",
				 fmt_bytes(a, sizeof(a), job->offset),
				 fmt_bytes(b, sizeof(b), job->filesize));
	*region = job->filesize - job->offset;
	return 0;
}

/* filesize=LOW-HIGH: each file's region from its own size (fio's
 * f->io_size = its drawn size - offset), laid out to that size; region
 * and fill_end become the largest. */
static int range_regions(const struct job_spec *job,
			 const struct target_info *ti, unsigned first_thread,
			 struct job_layout *out, struct ioc_err *err)
{
	uint64_t existing[JOB_MAX_FILES], sizes[JOB_MAX_FILES];
	uint64_t span = job->offset_increment * (job->numjobs ? job->numjobs - 1 : 0);
	char a[32], b[32];

	/* absolute zones would have to fit the smallest drawn file, known
	 * only here: not followed */
	if (rw_is_random(job->rw) && job->dist == DIST_ZONED_ABS)
		return err_usage(err, ENOTSUP,
				 "job %s: filesize=LOW-HIGH with "
				 "random_distribution=zoned_abs: not supported by "
				 "iochar; give one filesize, or zoned", job->name);
	for (unsigned i = 0; i < job->nr_files; i++)
		existing[i] = ti[i].exists ? ti[i].size : UINT64_MAX;
	file_sizes_draw(job, first_thread, existing, sizes);
	out->per_file = true;
	out->region = out->fill_end = 0;
	for (unsigned i = 0; i < job->nr_files; i++) {
		uint64_t r = sizes[i] > job->offset ? sizes[i] - job->offset : 0;
		r -= r % job->bs;
		if (r == 0)
			return err_usage(err, EINVAL,
					 "filesize=%s-%s: %s would be %s, which holds no "
					 "block of bs=%llu after offset=%llu",
					 fmt_bytes(a, sizeof(a), job->filesize),
					 fmt_bytes(b, sizeof(b), job->filesize_high),
					 job->files[i], fmt_bytes(a, sizeof(a), sizes[i]),
					 (unsigned long long)job->bs,
					 (unsigned long long)job->offset);
		out->file_region[i] = r;
		out->file_end[i] = job->offset + span + r;
		if (r > out->region)
			out->region = r;
		if (out->file_end[i] > out->fill_end)
			out->fill_end = out->file_end[i];
	}
	return 0;
}

static int layout_fills(const struct job_spec *job,
			const struct target_info *ti, struct job_layout *out,
			struct ioc_err *err);

/* filesize= with offset_increment: fio's clone c starts its files at
 * offset + c x offset_increment and moves what is left of filesize
 * (f->io_size = filesize - file_offset): each clone its own regions
 * (shared files: clone c's at file_region[c x files], clone_files). */
static int clone_regions(const struct job_spec *job,
			 const struct target_info *ti, struct job_layout *out,
			 struct ioc_err *err)
{
	unsigned per = job->files_per_clone ? job->files_per_clone : job->nr_files;
	char a[32], b[32];

	if (!job->files_per_clone && (uint64_t)per * job->numjobs > JOB_MAX_FILES)
		return err_usage(err, E2BIG, "job %s: %u files x numjobs=%u with "
				 "offset_increment and filesize=: more than %d",
				 job->name, per, job->numjobs, JOB_MAX_FILES);
	out->per_file = true;
	out->clone_files = job->files_per_clone ? 0 : per;
	out->region = 0;
	out->fill_end = job->filesize;
	for (unsigned c = 0; c < job->numjobs; c++) {
		uint64_t off = job->offset + c * job->offset_increment;
		uint64_t r = off < job->filesize ? job->filesize - off : 0;
		r -= r % job->bs;
		if (!r)
			return err_usage(err, EINVAL,
					 "offset_increment=%s: clone %u of job %s starts "
					 "at %s, leaving no block of filesize=%s",
					 fmt_bytes(a, sizeof(a), job->offset_increment), c,
					 job->name, fmt_bytes(b, sizeof(b), off),
					 fmt_bytes(a, sizeof(a), job->filesize));
		for (unsigned i = 0; i < per; i++) {
			out->file_region[c * per + i] = r;
			out->file_end[c * per + i] = job->filesize;
		}
		if (r > out->region)
			out->region = r;
	}
	return layout_fills(job, ti, out, err);
}

/* Which files must be laid out before the run (up to out->fill_end), and
 * which an ENGINE_NO_LAYOUT engine creates itself; refuses a layout that
 * would move offset=N% or write to a file iochar did not create. */
static int layout_fills(const struct job_spec *job,
			const struct target_info *ti, struct job_layout *out,
			struct ioc_err *err)
{
	char a[32], b[32];

	for (unsigned i = 0; i < job->nr_files; i++) {
		out->fill[i] = !ti[i].is_block && ti[i].size < layout_file_end(out, i) &&
			       !(out->eops->flags & ENGINE_NO_LAYOUT);
		out->fresh[i] = (out->eops->flags & ENGINE_NO_LAYOUT) && !ti[i].exists;
		/* offset=N% is of the file as it is: extending it would move it */
		if (out->fill[i] && job->offset_pct)
			return err_usage(err, EINVAL,
					 "offset=%u%%: %s (%s) is shorter than that offset + size + offset_increment (%s); give offset= in bytes",
					 job->offset_pct, job->files[i], fmt_bytes(a, sizeof(a), ti[i].size),
					 fmt_bytes(b, sizeof(b), out->fill_end));
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

/* fill_device without a size: fio's size is then unbounded and the job
 * ends at ENOSPC. The region is twice what the file could hold (its size
 * and all its file system has free) from offset: finite, and still past
 * where the space runs out, so the writes end at ENOSPC as fio's. */
static uint64_t fill_device_room(const char *path, uint64_t size, uint64_t off)
{
	char dir[4096];
	struct statvfs vfs;

	snprintf(dir, sizeof(dir), "%s", path);
	if (statvfs(dirname(dir), &vfs))
		return 0;
	uint64_t end = 2 * (size + (uint64_t)vfs.f_bavail * vfs.f_frsize);
	return end > off ? end - off : 0;
}

/* Without size: the room a target has from offset (fill_device: a file
 * as much as it could grow). */
static uint64_t file_room(const struct job_spec *job,
			  const struct target_info *ti, const char *path)
{
	uint64_t off = gen_file_offset(job, ti->size);
	if (job->fill_device && !ti->is_block)
		return fill_device_room(path, ti->size, off);
	return ti->size > off ? ti->size - off : 0;
}

/* The region each file gives the job: size split over the files, or
 * without size the room every target has from offset. */
static int compute_region(const struct job_spec *job,
			  const struct target_info *ti, unsigned first_thread,
			  struct job_layout *out, struct ioc_err *err)
{
	char a[32], b[32], c[32];
	uint64_t region = UINT64_MAX;

	if (job->filesize && job->filesize_high) {
		int ret = filesize_region(job, &region, err);
		if (!ret)
			ret = range_regions(job, ti, first_thread, out, err);
		return ret ? ret : layout_fills(job, ti, out, err);
	}
	if (job->filesize) {
		int ret = filesize_region(job, &region, err);
		if (ret)
			return ret;
		if (job->offset_increment && job->numjobs > 1 && !job->offset_pct)
			return clone_regions(job, ti, out, err);
	} else if (job->size_pct) {
		/* fio: N% of each file, at most what follows offset */
		for (unsigned i = 0; i < job->nr_files; i++) {
			uint64_t off = gen_file_offset(job, ti[i].size);
			uint64_t room = ti[i].size > off ? ti[i].size - off : 0;
			uint64_t want = (uint64_t)((unsigned __int128)ti[i].size * job->size_pct / 100);
			if (want > room)
				want = room;
			if (want < region)
				region = want;
		}
	} else if (job->size) {
		/* size is each clone's: fio's named files are per clone */
		region = job->size / (job->files_per_clone ? job->files_per_clone
							   : job->nr_files);
		for (unsigned i = 0; i < job->nr_files; i++) {
			uint64_t off = gen_file_offset(job, ti[i].size);
			if (ti[i].is_block && off + region > ti[i].size)
				return err_usage(err, EINVAL,
						 "size=%s: larger than %s (%s) from offset %s",
						 fmt_bytes(a, sizeof(a), job->size), job->files[i],
						 fmt_bytes(b, sizeof(b), ti[i].size),
						 fmt_bytes(c, sizeof(c), off));
		}
	} else {
		for (unsigned i = 0; i < job->nr_files; i++) {
			uint64_t room = file_room(job, &ti[i], job->files[i]);
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
	/* offset_increment: the last clone's region ends furthest */
	uint64_t span = job->offset_increment * (job->numjobs ? job->numjobs - 1 : 0);
	uint64_t last = 0; /* offset=N%: the furthest start of any file */
	for (unsigned i = 0; i < job->nr_files; i++)
		if (gen_file_offset(job, ti[i].size) > last)
			last = gen_file_offset(job, ti[i].size);
	out->fill_end = last + span + region;
	for (unsigned i = 0; i < job->nr_files; i++)
		if (span && ti[i].is_block && out->fill_end > ti[i].size)
			return err_usage(err, EINVAL,
					 "offset_increment=%s: the last of numjobs=%u clones ends past %s (%s)",
					 fmt_bytes(a, sizeof(a), job->offset_increment), job->numjobs,
					 job->files[i], fmt_bytes(b, sizeof(b), ti[i].size));
	return layout_fills(job, ti, out, err);
}

void layout_release(struct job_layout *l)
{
	if (!l)
		return;
	if (l->kind && l->kind->release)
		l->kind->release(l->target.state);
	l->target.state = NULL;
}

/* A job of another target kind: the kind looks at its targets. */
static int layout_kind(const struct job_spec *job, struct job_layout *out,
		       struct ioc_err *err)
{
	int ret = out->kind->layout(job, out->eops, &out->target, err);
	out->region = out->target.region;
	return ret;
}

/* Trims are not verified: iochar's stamps and fio's headers are of
 * written blocks, and fio's trim_percentage family is refused. */
static int check_trims(const struct job_spec *job, struct ioc_err *err)
{
	if (rw_trims(job->rw) && (job->verify || job->verify_type || job->verify_only))
		return err_usage(err, ENOTSUP,
				 "job %s: rw=%s with verify: iochar does not "
				 "verify trims; give verify=0 (or rw=write)",
				 job->name, rw_name(job->rw));
	/* fio's trimwrite trims T and writes W bytes from two positions
	 * that then part: not followed (randtrimwrite writes what it
	 * trimmed: T bytes, as fio) */
	uint64_t w = job->bs_dir[DIR_WRITE] ? job->bs_dir[DIR_WRITE] : job->bs;
	if (job->rw == RW_TRIMWRITE && job->bs_trim && job->bs_trim != w)
		return err_usage(err, ENOTSUP,
				 "job %s: rw=%s with bs=R,W,T where T (%llu) is not W "
				 "(%llu): iochar trims and writes the same blocks; "
				 "give T equal to W", job->name, rw_name(job->rw),
				 (unsigned long long)job->bs_trim, (unsigned long long)w);
	return 0;
}

int layout_job(const struct job_spec *job, struct job_layout *out,
	       struct ioc_err *err)
{
	return layout_job_at(job, 1, out, err);
}

int layout_job_at(const struct job_spec *job, unsigned first_thread,
		  struct job_layout *out, struct ioc_err *err)
{
	int ret;

	memset(out, 0, sizeof(*out));
	if ((ret = job_options_check(job, JOB_CHECK_RUN, err)) || (ret = check_engine(job, out, err)) ||
	    (ret = check_trims(job, err)))
		return ret;
	if ((out->kind = runner_target_kind(job)))
		return layout_kind(job, out, err);
	if (out->eops->flags & ENGINE_NO_TARGET)
		return null_layout(job, first_thread, out, err);
	if (job->nr_files == 0)
		return err_usage(err, EINVAL, "job %s: no filename= given", job->name);

	struct target_info *ti = calloc(job->nr_files, sizeof(*ti));
	if (!ti)
		return err_set(err, ENOMEM, "out of memory");
	for (unsigned i = 0; i < job->nr_files && !ret; i++) {
		ret = target_inspect(job->files[i], &ti[i], err);
		if (ret) /* a path of kilobytes by its start */
			err_shorten(err, job->files[i], ERR_VALUE_KEEP);
		if (!ret)
			ret = check_file(job, job->files[i], &ti[i], err);
	}
	if (!ret)
		ret = compute_region(job, ti, first_thread, out, err);
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
		unsigned files = jobs[j].files_per_clone ? jobs[j].files_per_clone
							 : jobs[j].nr_files;
		need += (unsigned long long)jobs[j].numjobs *
			((targets ? files : 0) + FD_PER_WORKER);
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
