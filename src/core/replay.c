/* replay.c - read_iolog as the worker's op source (core/replay.h). */
#include "core/replay.h"

#include <errno.h>
#include <string.h>

int replay_init(struct replay *r, const struct job_spec *job, struct ioc_err *err)
{
	struct iolog_replay_opts o = iolog_opts_of(job);
	memset(r, 0, sizeof(*r));
	int ret = iolog_load(&r->log, job->read_iolog, &o, err);
	if (ret)
		return ret;
	/* the file may have changed since the run was checked */
	bool fits = r->log.nr_files == job->nr_files;
	for (size_t i = 0; fits && i < r->log.nr; i++) /* the units' buffers */
		fits = r->log.e[i].op == IOLOG_TRIM ||
		       r->log.e[i].len <= job->bs_dir[r->log.e[i].op == IOLOG_READ ? DIR_READ : DIR_WRITE];
	if (!fits) {
		iolog_free(&r->log);
		return err_set(err, EINVAL, "job %s: read_iolog=%s changed since the run began",
			       job->name, job->read_iolog);
	}
	return 0;
}

void replay_start(struct replay *r, uint64_t start_ns)
{
	r->start_ns = start_ns;
}

bool replay_timed(const struct replay *r)
{
	return r->log.timed;
}

bool replay_next(struct replay *r, struct gen_op *op, enum io_op *flush,
		 uint64_t *due_ns)
{
	if (r->next >= r->log.nr)
		return false;
	const struct iolog_entry *e = &r->log.e[r->next++];
	op->file = e->file;
	op->dir = e->op == IOLOG_READ ? DIR_READ : e->op == IOLOG_TRIM ? DIR_TRIM : DIR_WRITE;
	op->offset = e->offset;
	op->len = e->len;
	*flush = e->op == IOLOG_SYNC ? IO_OP_FSYNC :
		 e->op == IOLOG_DATASYNC ? IO_OP_FDATASYNC : IO_OP_RW;
	*due_ns = r->start_ns + e->due_ns;
	return true;
}

void replay_free(struct replay *r)
{
	if (r)
		iolog_free(&r->log);
}

/* The workers of job j: their lag and tool-lag histograms, merged. */
static void job_lags(const struct run_result *r, unsigned j, struct hist *lag,
		     struct hist *tool)
{
	hist_init(lag);
	hist_init(tool);
	for (unsigned i = 0; i < r->nr_workers; i++) {
		if (r->workers[i].job != j)
			continue;
		for (int d = 0; d < DIR_COUNT; d++) {
			hist_merge(lag, &r->workers[i].stats.dir[d].lag);
			hist_merge(tool, &r->workers[i].stats.dir[d].tool_lag);
		}
	}
}

void replay_report(const struct run_result *r, FILE *f)
{
	for (unsigned j = 0; j < r->nr_jobs; j++) {
		if (!r->jobs[j].read_iolog[0])
			continue;
		struct hist lag, tool;
		job_lags(r, j, &lag, &tool);
		uint64_t p99 = hist_percentile(&lag, 99), t99 = hist_percentile(&tool, 99);
		if (!lag.count || p99 <= REPLAY_BEHIND_NS)
			continue;
		fprintf(f, "note: job %s: the replay fell behind read_iolog=%s's schedule: "
			"p99 issue lag %.3f ms, iochar's own part (tool lag) p99 %.3f ms: %s\n",
			r->jobs[j].name, r->jobs[j].read_iolog, (double)p99 / 1e6,
			(double)t99 / 1e6, 2 * t99 > p99 ? "iochar was the limit"
			: "the target was slower than when the log was taken");
	}
}
