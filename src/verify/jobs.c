/* jobs.c - see jobs.h. */
#include "verify/jobs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "verify/block.h"
#include "verify/fio_session.h"
#include "verify/fio_state.h"
#include "util/file_id.h"
#include "verify/journal.h"
#include "verify/journal_lock.h"
#include "vd/def.h"

static int check_one(const struct io_hooks_job *vj, struct ioc_err *err)
{
	const struct job_spec *j = vj->job;
	uint32_t unit = vblock_unit_len(j->bs);

	if (!vj->moves_data)
		return err_usage(
		    err, EINVAL,
		    "job %s: verify=1 needs an engine that moves data "
		    "(ioengine=%s reads and writes nothing)",
		    j->name, j->ioengine);
	if (j->numjobs > 1)
		return err_usage(
		    err, EINVAL,
		    "job %s: verify=1 with numjobs=%u: clones would write "
		    "the same blocks; use numjobs=1 (for more workers, one "
		    "job per region: a distinct offset= or filename=)",
		    j->name, j->numjobs);
	if (!unit)
		return err_usage(
		    err, EINVAL,
		    "job %s: verify=1 needs bs to be a multiple of 512 "
		    "(bs=%llu)",
		    j->name, (unsigned long long)j->bs);
	if (j->offset % unit)
		return err_usage(
		    err, EINVAL,
		    "job %s: verify=1 needs offset=%llu to be a multiple "
		    "of %u, the verify unit for bs=%llu",
		    j->name, (unsigned long long)j->offset, unit,
		    (unsigned long long)j->bs);
	return 0;
}

/* One file, however spelled, existing yet or not (a journal the run
 * will create: `J`, `./J`, `sub/../J`, a dangling symlink to J). */
static bool same_file(const char *a, const char *b)
{
	return file_same(a, b);
}

/* Do the regions of v (verifying) and w (writing) meet on a shared file? */
static const char *shared_region(const struct io_hooks_job *v,
				 const struct io_hooks_job *w)
{
	uint64_t v0 = v->job->offset, v1 = v0 + v->region;
	uint64_t w0 = w->job->offset, w1 = w0 + w->region;

	if (v1 <= w0 || w1 <= v0)
		return NULL;
	for (unsigned i = 0; i < v->job->nr_files; i++)
		for (unsigned k = 0; k < w->job->nr_files; k++)
			if (same_file(v->job->files[i], w->job->files[k]))
				return v->job->files[i];
	return NULL;
}

/* Is path a member of a VD of job o? */
static bool vd_member(const struct job_spec *o, const char *path)
{
	return vd_list_member(o->vd, path) != NULL;
}

/* journal=: on a verifying job, one per job, never one of the run's
 * targets (VD members included), and never over a file that is not an
 * iochar journal. */
static int check_journal(const struct io_hooks_job *jobs, unsigned nr, unsigned a,
			 struct ioc_err *err)
{
	const struct job_spec *j = jobs[a].job;
	char what[JOB_NAME_MAX + 16];

	if (!j->journal[0])
		return 0;
	if (!j->verify || j->verify_type)
		return err_usage(err, EINVAL,
				 "job %s: journal=%s needs verify=1 (iochar's "
				 "own blocks, not a fio method)", j->name,
				 j->journal);
	for (unsigned b = 0; b < nr; b++) {
		const struct job_spec *o = jobs[b].job;
		if (b < a && o->journal[0] && same_file(o->journal, j->journal) &&
		    !strcmp(o->journal, j->journal))
			return err_usage(
			    err, EINVAL,
			    "jobs %s and %s: both have journal=%s; one "
			    "journal per job: give each job its own file",
			    o->name, j->name, j->journal);
		if (b < a && o->journal[0] && same_file(o->journal, j->journal))
			return err_usage( /* both spellings: "both have" one was false */
			    err, EINVAL,
			    "jobs %s and %s: journal=%s and journal=%s name one "
			    "file; one journal per job: give each job its own file",
			    o->name, j->name, o->journal, j->journal);
		for (unsigned f = 0; f < o->nr_files; f++)
			if (same_file(o->files[f], j->journal))
				return err_usage(
				    err, EINVAL,
				    "job %s: journal=%s is a target of job "
				    "%s; the journal needs a file of its own",
				    j->name, j->journal, o->name);
		if (vd_member(o, j->journal))
			return err_usage(
			    err, EINVAL,
			    "job %s: journal=%s is a --vd member of job %s; "
			    "the journal needs a file of its own",
			    j->name, j->journal, o->name);
	}
	snprintf(what, sizeof(what), "job %s: journal", j->name);
	return journal_probe(what, j->journal, err);
}

/* fio's verify options iochar cannot honour, on any job. */
static int check_fio_refusals(const struct job_spec *j, struct ioc_err *err)
{
	if (j->experimental_verify && j->verify && !j->verify_type)
		return err_usage(err, EINVAL,
				 "job %s: experimental_verify=1 needs a fio verify "
				 "method (verify=md5, crc32c, ...); iochar's own "
				 "verify=1 checks its journal's blocks",
				 j->name);
	if (j->verify_state_load && j->verify && !j->verify_type)
		return err_usage(err, EINVAL,
				 "job %s: verify_state_load=1 needs a fio verify "
				 "method (verify=md5, crc32c, ...); iochar's own "
				 "verify=1 keeps its record in journal= (iochar "
				 "verify --journal)",
				 j->name);
	if (j->verify && !j->verify_type && j->verify_backlog)
		return err_usage(err, EINVAL,
				 "job %s: verify_backlog=%u needs a fio verify "
				 "method (verify=md5, crc32c, ...); iochar's own "
				 "verify=1 checks its journal's blocks at the end",
				 j->name, j->verify_backlog);
	if (j->verify_only && !j->verify_type)
		return err_usage(err, EINVAL,
				 "job %s: verify_only=1 needs a fio verify method "
				 "(verify=md5, crc32c, ...)",
				 j->name);
	return 0;
}

/* verify_state_load=1 on a job that checks reads: each clone's state
 * file (index: its worker's, fio's thread_number - 1) must load, before
 * anything is written. */
static int check_state_files(const struct job_spec *j, unsigned first,
			     struct ioc_err *err)
{
	if (!j->verify_state_load || !j->verify_type ||
	    (rw_writes(j->rw) && !j->verify_only))
		return 0;
	for (unsigned c = 0; c < (j->numjobs ? j->numjobs : 1); c++) {
		struct fio_vstate st;
		int ret = fio_vstate_load(j->name, first + c, &st, err);
		fio_vstate_free(&st);
		if (ret)
			return ret;
	}
	return 0;
}

/* Every job checked: take the journals' locks (journal_lock.h), so a
 * journal another run is using is refused before anything is written. */
static int lock_journals(const struct io_hooks_job *jobs, unsigned nr,
			 struct ioc_err *err)
{
	char what[128];

	for (unsigned a = 0; a < nr; a++) {
		const struct job_spec *j = jobs[a].job;
		if (!j->journal[0])
			continue;
		snprintf(what, sizeof(what), "job %s: journal", j->name);
		int ret = journal_lock(what, j->journal, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* Do jobs a and b run at the same time? Not when a stonewall stands
 * between them: the later one starts after the earlier ended (fio's own
 * t/jobs/t0026.fio verifies a file then writes it again after one). */
static bool run_together(const struct io_hooks_job *jobs, unsigned a,
			 unsigned b)
{
	unsigned lo = a < b ? a : b, hi = a < b ? b : a;

	for (unsigned k = lo + 1; k <= hi; k++)
		if (jobs[k].job->stonewall)
			return false;
	return true;
}

int verify_check_jobs(const struct io_hooks_job *jobs, unsigned nr,
		      struct ioc_err *err)
{
	for (unsigned a = 0, first = 0; a < nr; a++) {
		int ret = check_journal(jobs, nr, a, err);
		if (!ret)
			ret = check_fio_refusals(jobs[a].job, err);
		if (!ret && jobs[a].job->verify)
			ret = check_state_files(jobs[a].job, first, err);
		first += jobs[a].job->numjobs ? jobs[a].job->numjobs : 1;
		if (ret)
			return ret;
		if (!jobs[a].job->verify)
			continue;
		if (jobs[a].job->verify_type && !jobs[a].moves_data)
			/* fio pretends to verify here; nothing is read to check */
			return err_usage(err, EINVAL,
					 "job %s: verify= needs an engine that "
					 "moves data (ioengine=%s reads and writes "
					 "nothing)",
					 jobs[a].job->name, jobs[a].job->ioengine);
		ret = jobs[a].job->verify_type
			  ? fio_vsession_check_job(jobs[a].job, err)
			  : check_one(&jobs[a], err);
		if (ret)
			return ret;
		for (unsigned b = 0; b < nr; b++) {
			const char *path;

			if (b == a || !jobs[b].moves_data ||
			    !rw_writes(jobs[b].job->rw) ||
			    !run_together(jobs, a, b))
				continue;
			/* fio's verify methods: a job that only reads checks
			 * what another wrote (fill_device's surface scan) */
			if (jobs[a].job->verify_type && !rw_writes(jobs[a].job->rw))
				continue;
			path = shared_region(&jobs[a], &jobs[b]);
			if (path)
				return err_usage(
				    err, EINVAL,
				    "job %s: verify=1, but job %s also writes "
				    "its region of %s: give the jobs distinct "
				    "offset= ranges or files",
				    jobs[a].job->name, jobs[b].job->name, path);
		}
	}
	return lock_journals(jobs, nr, err);
}
