/* fio_session.c - see fio_session.h. */
#define _GNU_SOURCE
#include "verify/fio_session.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "verify/backlog.h"
#include "verify/fio_block.h"
#include "verify/fio_state.h"
#include "verify/report.h"
#include "util/note.h"

struct fio_vsession {
	const struct job_spec *job;
	struct verify_counts *counts;
	FILE *report;
	struct fio_vcfg cfg;
	uint64_t seed;	   /* the next write's rand_seed comes from it */
	uint16_t numberio; /* writes so far */
	bool check_reads;  /* the job does not write (or verify_only) */
	bool halted;	   /* verify_fatal fired */
	bool backlog_on;   /* do_verify on a writing job: fio's log of writes */
	struct vbacklog backlog;
	bool mixed;	   /* the job's own reads are not checked (fio's td_rw) */
	bool vread_next;   /* the op interpose gave is the next read prepared */
	struct io_hooks_op vread_op;
	bool *vread;	   /* [unit index]: a read of fio's log, in flight */
	unsigned depth;
	unsigned index;	   /* the worker's, for the state file's name */
	bool saving;	   /* verify_state_save on a write job: rec */
	bool writes_ended; /* the generator ran out: not interrupted */
	struct fio_vstate_rec rec;
	bool loaded;	   /* verify_state_load: st */
	struct fio_vstate st;
	uint64_t reads_done;
	uint64_t printed;
};

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The interval as fio makes it (init.c): at most bs, else bs when it
 * does not divide bs. */
static uint32_t interval_of(const struct job_spec *j)
{
	uint64_t iv = j->verify_interval;

	if (!iv || iv > j->bs || j->bs % iv)
		iv = j->bs;
	return (uint32_t)iv;
}

/* fio 3.33 (init.c fixup_options): a job that only writes, time_based
 * with a runtime and do_verify, without verify_backlog, never starts
 * its read phase: fio warns and runs the writes; so does iochar (and
 * keeps no log of them). */
static bool never_reads_back(const struct job_spec *j)
{
	return rw_writes(j->rw) && !rw_reads(j->rw) && j->do_verify &&
	       j->time_based && j->runtime_ns && !j->verify_backlog &&
	       !j->verify_only;
}

int fio_vsession_create(const struct io_hooks_params *p,
			struct fio_vsession **out, struct ioc_err *err)
{
	const struct job_spec *j = p->job;
	struct fio_vsession *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return err_set(err, ENOMEM, "job %s: verify: out of memory",
			       j->name);
	s->job = j;
	s->counts = p->counts;
	s->report = p->report;
	s->cfg = (struct fio_vcfg){
	    .type = (enum fio_vtype)j->verify_type,
	    .interval = interval_of(j),
	    .swap_at = (uint32_t)j->verify_offset,
	    .pattern = j->verify_pattern_len ? j->verify_pattern : NULL,
	    .pattern_len = j->verify_pattern_len,
	    .fmt = j->verify_pattern_fmt,
	    .nr_fmt = j->verify_pattern_nr_fmt,
	    .thread = 1,
	};
	if (getrandom(&s->seed, sizeof(s->seed), GRND_NONBLOCK) != sizeof(s->seed))
		s->seed = realtime_ns();
	s->seed ^= j->randseed;
	s->check_reads = j->verify_only || !rw_writes(j->rw);
	/* fio logs writes for checking only with do_verify=1, and reads
	 * them back from that log (do_verify()), verify_backlog's batches
	 * too, unless experimental_verify has the generator drawn again */
	s->backlog_on = j->do_verify && !s->check_reads &&
			s->cfg.type != FVT_NULL && !j->experimental_verify &&
			!never_reads_back(j);
	s->mixed = rw_is_mixed(j->rw) && !j->verify_only;
	s->depth = p->depth;
	if (s->backlog_on)
		vbacklog_init(&s->backlog, j, p->region);
	if (s->mixed && !(s->vread = calloc(p->depth ? p->depth : 1, 1))) {
		free(s);
		return err_set(err, ENOMEM, "job %s: verify: out of memory",
			       j->name);
	}
	s->index = p->index;
	int ret = 0;
	if (j->verify_state_save && rw_writes(j->rw) && !j->verify_only) {
		s->saving = true;
		if (fio_vstate_rec_init(&s->rec, j->iodepth, j->nr_files))
			ret = err_set(err, ENOMEM, "job %s: verify: out of memory",
				      j->name);
	}
	if (!ret && j->verify_state_load && s->check_reads)
		s->loaded = !(ret = fio_vstate_load(j->name, p->index, &s->st, err));
	if (ret) {
		fio_vsession_free(s);
		return ret;
	}
	*out = s;
	return 0;
}

void fio_vsession_free(struct fio_vsession *s)
{
	struct ioc_err err = {0};

	if (!s)
		return;
	/* only an interrupted job's state says more than "all of it" (fio
	 * writes one after a complete job too: docs/fio-compat.md) */
	if (s->saving && s->rec.last && !s->writes_ended &&
	    fio_vstate_save(&s->rec, s->job->name, s->index, &err) && s->report)
		fprintf(s->report, "iochar: %s\n", err.msg);
	fio_vstate_rec_free(&s->rec);
	fio_vstate_free(&s->st);
	vbacklog_free(&s->backlog);
	free(s->vread);
	free(s);
}

/* A mixed job's read: one of fio's log (checked), or the job's own. */
static void note_read(struct fio_vsession *s, const struct io_unit *u)
{
	const struct io_hooks_op *o = &s->vread_op;

	if (!s->mixed || u->index >= s->depth)
		return;
	s->vread[u->index] = s->vread_next && o->file == u->file &&
			     o->offset == u->offset && o->len == u->len;
	if (s->vread[u->index])
		s->vread_next = false;
}

bool fio_vsession_prepare(struct fio_vsession *s, struct io_unit *u)
{
	if (u->dir == DIR_READ)
		note_read(s, u);
	if (u->dir != DIR_WRITE || s->cfg.type == FVT_NULL) /* fio: no header */
		return true;
	if (s->job->verify_only) { /* as fio: check what a write would hold */
		u->dir = DIR_READ;
		return true;
	}
	if (s->saving)
		fio_vstate_rec_issued(&s->rec);
	struct fio_vstamp st = {
	    .rand_seed = s->seed += 0x9e3779b97f4a7c15ull,
	    .time_ns = realtime_ns(),
	    .numberio = s->numberio++,
	};
	/* -EIO is OpenSSL failing on a built-in digest: the block then fails
	 * its check when read, which says more than stopping here */
	(void)fio_block_fill(&s->cfg, u->buf, u->len, u->offset, &st);
	/* out of memory: the block is not read back, and counted so */
	if (s->backlog_on && vbacklog_issued(&s->backlog, u))
		s->counts->unverified_units += u->len / s->cfg.interval;
	return true;
}

static const char *target_name(const struct fio_vsession *s, unsigned file)
{
	return file < s->job->nr_files ? s->job->files[file] : "(none)";
}

static void dump(FILE *out, const uint8_t *p, uint32_t len)
{
	fprintf(out, "       Data (first %u bytes):", len < 64 ? len : 64);
	for (uint32_t i = 0; i < len && i < 64; i++)
		fprintf(out, "%s%02x", i % 16 ? "" : "\n       ", p[i]);
	fputc('\n', out);
}

/* fio's lines (verify_header()/log_verify_failure()), then iochar's. */
static void report(struct fio_vsession *s, const struct io_unit *u,
		   const struct fio_vfail *f, const uint8_t *p)
{
	const char *t = target_name(s, u->file);
	FILE *o = s->report;

	if (!o || ++s->printed > VREPORT_MAX_LINES + 1)
		return;
	if (s->printed == VREPORT_MAX_LINES + 1) {
		vreport_print_cap(o, t);
		return;
	}
	if (f->detail[0] && strcmp(f->what, "pattern") != 0)
		fprintf(o, "verify: %s %s", f->what, f->detail);
	else if (f->detail[0])
		fprintf(o, "fio: %s\n%.8s: verify failed", f->detail, f->what);
	else
		fprintf(o, "%.8s: verify failed", f->what);
	fprintf(o, " at file %s offset %llu, length %u (requested block: "
		   "offset=%llu, length=%llu)\n",
		t, (unsigned long long)f->offset, f->len,
		(unsigned long long)u->offset, (unsigned long long)u->len);
	if (f->expected[0])
		fprintf(o, "       Expected CRC: %s\n       Received CRC: %s\n",
			f->expected, f->got);
	if (s->job->verify_dump)
		dump(o, p, f->len);
	fprintf(o, "verify failure: target=%s offset=%llu kind=%s method=%s "
		   "why=\"%s%s%s\" expected=%s got=%s first_diff=%ld unit=%u\n",
		t, (unsigned long long)f->offset,
		f->misplaced ? "misplaced" : "corrupted",
		fio_sum_name(s->cfg.type), f->what, f->detail[0] ? ": " : "",
		f->detail, f->expected[0] ? f->expected : "-",
		f->got[0] ? f->got : "-", f->first_diff, f->len);
}

int fio_vsession_complete(struct fio_vsession *s, struct io_unit *u,
			  struct ioc_err *err)
{
	uint32_t iv = s->cfg.interval;

	if (s->backlog_on)
		vbacklog_completed(&s->backlog, u);
	if (u->result == (int64_t)u->len && u->dir == DIR_WRITE && s->saving &&
	    s->rec.last)
		fio_vstate_rec_done(&s->rec, u->file, u->offset);
	if (u->dir != DIR_READ || u->result != (int64_t)u->len)
		return 0;
	s->reads_done++;
	bool own_read = s->mixed && !s->check_reads &&
			(u->index >= s->depth || !s->vread[u->index]);
	if ((!s->check_reads && !s->backlog_on) || own_read || s->halted ||
	    s->cfg.type == FVT_NULL) {
		s->counts->unverified_units += u->len / iv;
		return 0;
	}
	for (uint64_t pos = 0; pos + iv <= u->len; pos += iv) {
		struct fio_vfail f;
		uint8_t *p = (uint8_t *)u->buf + pos;
		int bad = fio_interval_check(&s->cfg, p, u->offset + pos,
					     u->offset, &f);
		if (bad < 0)
			snprintf(f.what, sizeof(f.what), "digest library failed");
		vreport_count(s->counts, !bad ? VK_OK
				       : f.misplaced ? VK_MISPLACED
						     : VK_CORRUPTED);
		if (!bad)
			continue;
		report(s, u, &f, p);
		if (s->job->verify_fatal) {
			s->halted = true;
			return err_set(err, EILSEQ,
				       "job %s: verify_fatal: %s: verify failed "
				       "at file %s offset %llu",
				       s->job->name, f.what,
				       target_name(s, u->file),
				       (unsigned long long)f.offset);
		}
	}
	return 0;
}

bool fio_vsession_readback(struct fio_vsession *s)
{
	const struct job_spec *j = s->job;

	s->writes_ended = true; /* asked once the generator has ended */
	if (s->backlog_on) /* its reads come through interpose */
		return false;
	if (s->check_reads || !j->do_verify || s->cfg.type == FVT_NULL ||
	    !(j->rw == RW_WRITE || j->rw == RW_RANDWRITE || s->mixed))
		return false;
	s->check_reads = true;
	return true;
}

bool fio_vsession_interpose(struct fio_vsession *s, bool writes_done,
			    struct io_hooks_op *op)
{
	if (!s->backlog_on || s->halted ||
	    !vbacklog_next(&s->backlog, writes_done, op))
		return false;
	s->vread_next = true;
	s->vread_op = *op;
	return true;
}

bool fio_vsession_admit(struct fio_vsession *s, const struct io_hooks_op *op)
{
	return !s->loaded ||
	       fio_vstate_admit(&s->st, s->reads_done, op->file, op->offset);
}

int fio_vsession_check_job(const struct job_spec *j, struct ioc_err *err)
{
	uint64_t iv = interval_of(j);
	unsigned hs = fio_vhdr_size((enum fio_vtype)j->verify_type);
	const char *m = fio_sum_name((enum fio_vtype)j->verify_type);

	if (never_reads_back(j))
		note_once("job %s: verification read phase will never start "
			  "because write phase uses all of runtime (fio's "
			  "warning, on its stdout): the writes are not read back",
			  j->name);
	else if (rw_writes(j->rw) && j->do_verify && !j->verify_only &&
		 j->time_based)
		return err_usage(err, EINVAL,
				 "job %s: verify=%s with do_verify=1 on a "
				 "time_based job: iochar reads back only jobs that "
				 "end; set do_verify=0 and check with a read job of "
				 "the same verify=%s",
				 j->name, m, m);
	if (j->verify_interval && j->verify_interval < 2 * FIO_HDR_LEN)
		return err_usage(err, EINVAL,
				 "job %s: verify_interval=%llu: at least %u (two "
				 "of fio's headers)",
				 j->name, (unsigned long long)j->verify_interval,
				 2 * FIO_HDR_LEN);
	if (iv <= hs || (j->verify_type == FVT_SHA512 && iv < hs + 128))
		return err_usage(err, EINVAL,
				 "job %s: verify=%s needs intervals longer than "
				 "its %u-byte header (bs or verify_interval=%llu)",
				 j->name, m, hs, (unsigned long long)iv);
	if (j->verify_offset &&
	    (j->verify_offset < FIO_HDR_LEN || j->verify_offset + hs > iv))
		return err_usage(err, EINVAL,
				 "job %s: verify_offset=%llu must be at least %u "
				 "and leave the %u-byte header inside the "
				 "%llu-byte interval",
				 j->name, (unsigned long long)j->verify_offset,
				 FIO_HDR_LEN, hs, (unsigned long long)iv);
	if ((j->verify_type == FVT_PATTERN || j->verify_type == FVT_PATTERN_NO_HDR) &&
	    !j->verify_pattern_len)
		return err_usage(err, EINVAL,
				 "job %s: verify=pattern needs verify_pattern=",
				 j->name);
	return 0;
}
