/* fio_mixed.c - a direction's figures for fio's formats, and fio's
 * "mixed" direction (fio_mixed.h). */
#include "output/fio_mixed.h"

#include <math.h>
#include <stdlib.h>

struct fio_dir_view fio_dir_view_of(const struct worker_result *wr, enum io_dir d,
				    bool open_loop, bool gtod_reduce)
{
	const struct dir_stats *ds = &wr->stats.dir[d];
	struct fio_dir_view v = {
		/* fio counts an I/O continue_on_error passed over, no bytes */
		.ios = ds->ios + wr->stats.err_ios[d], .bytes = ds->bytes,
		.elapsed_ns = wr->elapsed_ns, .drops = wr->stats.drop_ios[d],
	};
	if (gtod_reduce)
		return v;
	v.lat = fio_dir_hist(wr, d, open_loop);
	v.clat = fio_dir_clat(wr, d, open_loop);
	v.slat = fio_dir_slat(wr, d);
	v.bw = fio_per_second(&wr->stats.intervals, d, true);
	v.iops = fio_per_second(&wr->stats.intervals, d, false);
	v.prio = wr->prio;
	v.prio_dir = d;
	return v;
}

/* fio's pure sum of sample statistics (stat.c sum_stat with pure_sum):
 * min, max, mean and count added; the deviation from the summed squares
 * of deviations, over the summed count (iochar's deviation is the
 * population's). A direction without samples adds nothing. */
static void samples_add(struct samples *sum, double *sq, const struct samples *s)
{
	if (!s->n)
		return;
	sum->min += s->min;
	sum->max += s->max;
	sum->mean += s->mean;
	*sq += s->dev * s->dev * s->n;
	sum->n += s->n;
	sum->dev = sqrt(*sq / sum->n);
}

struct fio_mixed *fio_mixed_new(const struct worker_result *wr, bool open_loop,
				bool gtod_reduce)
{
	struct fio_mixed *m = malloc(sizeof(*m));
	double sq_bw = 0, sq_iops = 0;
	bool any_slat = false;

	if (!m)
		return NULL;
	m->prio = NULL;
	for (int d = 0; d < DIR_COUNT && !gtod_reduce; d++)
		if (prio_stats_add(&m->prio, DIR_READ, wr->prio, (enum io_dir)d)) {
			fio_mixed_free(m);
			return NULL;
		}
	hist_init(&m->slat);
	hist_init(&m->clat);
	hist_init(&m->lat);
	m->view = (struct fio_dir_view){ .elapsed_ns = wr->elapsed_ns };
	for (int d = 0; d < DIR_ALL; d++) {
		struct fio_dir_view v = fio_dir_view_of(wr, (enum io_dir)d, open_loop, gtod_reduce);
		m->view.ios += v.ios;
		m->view.bytes += v.bytes;
		m->view.drops += v.drops;
		if (v.slat) {
			hist_merge(&m->slat, v.slat);
			any_slat = true;
		}
		if (v.clat)
			hist_merge(&m->clat, v.clat);
		if (v.lat)
			hist_merge(&m->lat, v.lat);
		samples_add(&m->view.bw, &sq_bw, &v.bw);
		samples_add(&m->view.iops, &sq_iops, &v.iops);
	}
	if (!gtod_reduce) {
		m->view.slat = any_slat ? &m->slat : NULL;
		m->view.clat = &m->clat;
		m->view.lat = &m->lat;
		m->view.prio = m->prio;
		m->view.prio_dir = DIR_READ;
	}
	return m;
}

void fio_mixed_free(struct fio_mixed *m)
{
	if (m)
		free(m->prio);
	free(m);
}

bool fio_shows_dirs(const struct job_spec *j)
{
	return j->unified_rw != UNIFIED_RW_MIXED;
}

bool fio_shows_mixed(const struct job_spec *j)
{
	return j->unified_rw != UNIFIED_RW_NONE;
}
