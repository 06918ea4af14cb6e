/* replay.c - read_iolog as the worker's op source (core/replay.h). */
#include "core/replay.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/note.h"

/* Do the I/Os of the chunk just read fit the job the runner made from
 * the whole log (its files, the units' buffers)? */
static bool chunk_fits(const struct replay *r)
{
	const struct iolog *log = &r->rd.log;
	const struct job_spec *job = r->job;
	if (log->nr_files > job->nr_files)
		return false;
	for (size_t i = 0; i < log->nr; i++)
		if (log->e[i].op != IOLOG_TRIM &&
		    log->e[i].len > job->bs_dir[log->e[i].op == IOLOG_READ ? DIR_READ : DIR_WRITE])
			return false;
	return true;
}

static int changed(struct replay *r, struct ioc_err *err)
{
	return err_set(err, EINVAL, "job %s: read_iolog=%s changed since the run began",
		       r->job->name, r->job->read_iolog);
}

/* Does a chunked log keep time? Its chunks until one has an I/O due
 * after the start (most timed logs: the first), or to the end. */
static bool chunked_timed(const struct replay *r)
{
	struct iolog_reader rd;
	struct ioc_err err;
	bool timed = false;
	if (r->rd.log.timed || iolog_reader_open(&rd, r->job->read_iolog, &r->rd.o, &err))
		return r->rd.log.timed;
	while (!timed && !iolog_reader_next(&rd, IOLOG_CHUNK, &err))
		timed = rd.log.timed;
	timed |= rd.log.timed;
	iolog_reader_close(&rd);
	return timed;
}

int replay_init(struct replay *r, const struct job_spec *job, struct ioc_err *err)
{
	struct iolog_replay_opts o = iolog_opts_of(job);
	memset(r, 0, sizeof(*r));
	r->job = job;
	r->chunked = job->read_iolog_chunked;
	int ret = iolog_reader_open(&r->rd, job->read_iolog, &o, err);
	if (!ret)
		ret = iolog_reader_next(&r->rd, r->chunked ? IOLOG_CHUNK : SIZE_MAX, err);
	if (ret >= 0 && !chunk_fits(r))
		ret = changed(r, err);
	/* the whole log read: it has as many files as the job */
	if (ret == 1 && r->rd.log.nr_files != job->nr_files)
		ret = changed(r, err);
	if (ret < 0) {
		iolog_reader_close(&r->rd);
		return ret;
	}
	r->timed = r->chunked && !r->rd.end ? chunked_timed(r) : r->rd.log.timed;
	return 0;
}

void replay_start(struct replay *r, uint64_t start_ns)
{
	r->start_ns = start_ns;
}

bool replay_timed(const struct replay *r)
{
	return r->timed;
}

/* The next chunk, when the last is issued: true when it holds I/Os. */
static bool refill(struct replay *r)
{
	if (r->failed || !r->chunked || r->rd.end)
		return false;
	int ret = iolog_reader_next(&r->rd, IOLOG_CHUNK, &r->why);
	r->next = 0;
	if (ret >= 0 && !chunk_fits(r))
		ret = changed(r, &r->why);
	if (ret < 0) {
		r->failed = true;
		r->rd.log.nr = 0;
		return false;
	}
	return r->rd.log.nr > 0;
}

bool replay_next(struct replay *r, struct gen_op *op, enum io_op *flush,
		 uint64_t *due_ns)
{
	if (r->next >= r->rd.log.nr && !refill(r))
		return false;
	const struct iolog_entry *e = &r->rd.log.e[r->next++];
	op->file = e->file;
	op->dir = e->op == IOLOG_READ ? DIR_READ : e->op == IOLOG_TRIM ? DIR_TRIM : DIR_WRITE;
	op->offset = e->offset;
	op->len = e->len;
	*flush = e->op == IOLOG_SYNC ? IO_OP_FSYNC :
		 e->op == IOLOG_DATASYNC ? IO_OP_FDATASYNC : IO_OP_RW;
	*due_ns = r->start_ns + e->due_ns;
	return true;
}

int replay_error(const struct replay *r, struct ioc_err *err)
{
	if (!r || !r->failed)
		return 0;
	if (err)
		*err = r->why;
	return -EIO;
}

void replay_free(struct replay *r)
{
	if (r)
		iolog_reader_close(&r->rd);
}

/* The I/Os of h above limit (by bucket: within the bucket's width). */
static uint64_t count_over(const struct hist *h, uint64_t limit)
{
	uint64_t n = 0;
	for (unsigned i = hist_index(limit); i < HIST_BUCKETS; i++)
		if (hist_bucket_low(i) > limit)
			n += h->buckets[i];
	return n;
}

bool replay_figures_of(const struct run_result *r, unsigned j, struct replay_figures *f)
{
	if (j >= r->nr_jobs || !r->jobs[j].read_iolog[0])
		return false;
	hist_init(&f->lag);
	hist_init(&f->tool_lag);
	hist_init(&f->lat);
	for (unsigned i = 0; i < r->nr_workers; i++) {
		if (r->workers[i].job != j)
			continue;
		for (int d = 0; d < DIR_ALL; d++) {
			hist_merge(&f->lag, &r->workers[i].stats.dir[d].lag);
			hist_merge(&f->tool_lag, &r->workers[i].stats.dir[d].tool_lag);
			hist_merge(&f->lat, &r->workers[i].stats.dir[d].lat);
		}
	}
	f->timed = f->lag.count > 0;
	f->ios = f->lag.count;
	f->behind = count_over(&f->lag, REPLAY_BEHIND_NS);
	f->verdict = replay_verdict(f->timed, hist_percentile(&f->lag, 99));
	return true;
}

void replay_report(const struct run_result *r)
{
	struct replay_figures *g = malloc(sizeof(*g));
	for (unsigned j = 0; g && j < r->nr_jobs; j++) {
		if (!replay_figures_of(r, j, g) || !g->verdict || strcmp(g->verdict, "behind"))
			continue;
		uint64_t p99 = hist_percentile(&g->lag, 99), t99 = hist_percentile(&g->tool_lag, 99);
		note_once("job %s: the replay fell behind read_iolog=%s's schedule: "
			  "%llu of %llu I/Os issued more than 1 ms late, p99 issue lag %.3f ms, "
			  "iochar's own part (tool lag) p99 %.3f ms: %s",
			r->jobs[j].name, r->jobs[j].read_iolog, (unsigned long long)g->behind,
			(unsigned long long)g->ios, (double)p99 / 1e6,
			(double)t99 / 1e6, 2 * t99 > p99 ? "iochar was the limit"
			: "the target was slower than when the log was taken");
	}
	free(g);
}
