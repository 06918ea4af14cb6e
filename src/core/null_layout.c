/* null_layout.c - see null_layout.h. */
#include "core/null_layout.h"

#include <errno.h>

#include "core/blocksize.h"
#include "core/file_sizes.h"
#include "core/generator.h"
#include "util/fmt.h"

/* fio's td_min_bs: the smallest I/O of any direction. */
static uint64_t min_bs(const struct job_spec *job)
{
	uint64_t r = gen_bs_min(job, DIR_READ), w = gen_bs_min(job, DIR_WRITE);

	return r < w ? r : w;
}

/* fio's f->io_size of file i: size split evenly (the first files a
 * block more for the rest), or its filesize from offset; size=N% then
 * takes that share of the file. */
static int file_io(const struct job_spec *job, uint64_t real, uint64_t size,
		   unsigned i, unsigned clone, uint64_t *io, struct ioc_err *err)
{
	unsigned nr = null_nr_files(job);
	uint64_t bs = min_bs(job);
	/* fio's file_offset: offset= and the clone's offset_increment */
	uint64_t off = gen_file_offset(job, real) + clone * job->offset_increment;
	char a[32], b[32];

	if (!job->filesize) {
		uint64_t fs = job->size / nr;
		*io = fs + (i < (job->size - fs * nr) / bs ? bs : 0);
	} else if (off >= size) {
		return err_usage(err, EINVAL, "offset=%s: not inside filesize=%s",
				 fmt_bytes(a, sizeof(a), off),
				 fmt_bytes(b, sizeof(b), size));
	} else {
		*io = size - off;
	}
	if (job->size_pct && job->size_pct != 100) {
		uint64_t file = *io + off;
		uint64_t share = (uint64_t)((unsigned __int128)file * job->size_pct / 100);
		*io = share > *io ? *io : share;
		*io -= *io % bs;
	}
	*io -= *io % job->bs;
	return 0;
}

unsigned null_nr_files(const struct job_spec *job)
{
	if (job->nr_files)
		return job->nr_files;
	return job->nrfiles ? job->nrfiles : 1;
}

int null_layout(const struct job_spec *job, unsigned first_thread,
		struct job_layout *out, struct ioc_err *err)
{
	unsigned nr = null_nr_files(job);
	/* fio's real_file_size of a diskless file: size / nrfiles, else
	 * unknown (a file of any size) */
	uint64_t real = job->size ? job->size / nr : UINT64_MAX;
	uint64_t existing[JOB_MAX_FILES], sizes[JOB_MAX_FILES] = {0};

	if (!job->size && !job->filesize) /* fio's job error: exit 1 */
		return err_set(err, EINVAL,
				 "job %s: ioengine=%s needs size= or filesize= "
				 "(fio: you need to specify size=)",
				 job->name, job->ioengine);
	/* fio draws LOW-HIGH sizes per clone, each with its own seed, and a
	 * clone's offset_increment shortens its filesize= files */
	bool own = job->filesize_high || (job->filesize && job->offset_increment);
	unsigned clones = own && job->numjobs > 1 ? job->numjobs : 1;
	unsigned all = nr * clones;

	if (nr > JOB_MAX_FILES || all > JOB_MAX_FILES)
		return err_usage(err, EINVAL,
				 "job %s: nrfiles=%u%s: at most %u files", job->name,
				 nr, clones > 1 ? " x numjobs with filesize=LOW-HIGH" : "",
				 JOB_MAX_FILES);
	if (job->filesize) {
		/* the draw is over the job's files: here nr of each clone */
		struct job_spec view = *job;
		view.nr_files = all;
		view.files_per_clone = nr;
		for (unsigned i = 0; i < all; i++)
			existing[i] = real;
		file_sizes_draw(&view, first_thread, existing, sizes);
	}
	out->region = 0;
	out->clone_files = clones > 1 ? nr : 0;
	for (unsigned i = 0; i < all; i++) {
		uint64_t io = 0;
		int ret = file_io(job, real == UINT64_MAX ? 0 : real, sizes[i],
				  i % nr, i / nr, &io, err);
		if (ret)
			return ret;
		if (io == 0)
			return err_usage(err, EINVAL,
					 "job %s: file %u of ioengine=%s holds no "
					 "block of bs=%llu (size=, filesize=, offset=)",
					 job->name, i % nr, job->ioengine,
					 (unsigned long long)job->bs);
		out->file_region[i] = out->file_end[i] = io;
		out->per_file |= i && io != out->file_region[0];
		if (io > out->region)
			out->region = io;
	}
	out->fill_end = out->region;
	return 0;
}
