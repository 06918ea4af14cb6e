/* session.c - see session.h. */
#define _GNU_SOURCE
#include "verify/session.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "verify/block.h"
#include "verify/journal.h"
#include "vd/def.h"
#include "verify/report.h"
#include "verify/vmap.h"

/* Per io_unit slot: the block it holds and, for a write, its generation. */
struct vslot {
	size_t idx;
	uint8_t gen;
	bool armed;
};

struct verify_session {
	const struct job_spec *job;
	struct verify_counts *counts;
	FILE *report;
	struct vmap map;
	struct journal_writer *journal; /* NULL without journal= */
	struct vslot *slots;
	unsigned depth;
	uint32_t unit;
	uint32_t run_id;
	uint64_t extent;  /* end of the region in each target */
	uint64_t printed; /* failure lines so far */
	bool halted;	  /* verify_fatal fired: check nothing more */
	bool journal_failed; /* flush returned the journal's error */
};

static uint64_t realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A random id for this run's writes, so that a unit left by an earlier run
 * with the same seed and generation is not taken for this run's. */
static uint32_t new_run_id(void)
{
	uint32_t id;

	if (getrandom(&id, sizeof(id), GRND_NONBLOCK) != sizeof(id))
		id = (uint32_t)(realtime_ns() ^ ((uint64_t)getpid() << 16));
	return id;
}

/* A VD job's one journal target: "vd=" and its layout, members absolute
 * (vd_def_format), which `iochar verify --journal` reads back through. */
static int journal_vd_target(const char *text, struct journal_info *info,
			     struct ioc_err *err)
{
	struct vd_def *def = malloc(sizeof(*def));
	char *f = NULL;
	int ret = def ? vd_def_parse(text, def, err)
		      : err_set(err, ENOMEM, "out of memory");

	if (!ret && !(f = vd_def_format(def)))
		ret = err_set(err, ENOMEM, "out of memory");
	if (!ret && !(info->files[0] = malloc(strlen(f) + 4)))
		ret = err_set(err, ENOMEM, "out of memory");
	if (!ret) {
		sprintf(info->files[0], "vd=%s", f);
		info->nr_files = 1;
	}
	free(f);
	free(def);
	return ret;
}

/* The journal's header: what `iochar verify --journal` must know. Target
 * paths are made absolute where they resolve, so the check can run from
 * another directory. */
static int journal_open(struct verify_session *s, uint64_t region,
			struct ioc_err *err)
{
	const struct job_spec *job = s->job;
	struct journal_info info = {
	    .run_id = s->run_id,
	    .unit_len = s->unit,
	    .seed = job->randseed,
	    .bs = job->bs,
	    .offset = job->offset,
	    .region = region,
	    .created_ns = realtime_ns(),
	};
	int ret = 0;

	snprintf(info.job, sizeof(info.job), "%s", job->name);
	if (job->vd[0]) /* the target is the VD: its blocks are VD bytes */
		ret = journal_vd_target(job->vd, &info, err);
	for (unsigned i = 0; i < job->nr_files && !ret; i++) {
		char real[PATH_MAX];
		const char *p =
		    realpath(job->files[i], real) ? real : job->files[i];
		if (!(info.files[i] = strdup(p)))
			ret = err_set(err, ENOMEM, "out of memory");
		else
			info.nr_files++;
	}
	if (!ret)
		ret = journal_create(job->journal, &info, s->depth, &s->journal,
				     err);
	journal_info_free(&info);
	if (ret)
		err_prefix(err, "job %s", job->name);
	return ret;
}

int verify_session_create(const struct verify_session_params *p,
			  struct verify_session **out, struct ioc_err *err)
{
	const struct job_spec *job = p->job;
	struct verify_session *s;
	unsigned nr_files = job->nr_files ? job->nr_files : 1;

	*out = NULL;
	if (!vblock_unit_len(job->bs) || p->region < job->bs)
		return err_set(err, EINVAL,
			       "job %s: verify: bs=%llu cannot be verified",
			       job->name, (unsigned long long)job->bs);
	s = calloc(1, sizeof(*s));
	if (!s)
		goto nomem;
	s->slots = calloc(p->depth, sizeof(*s->slots));
	if (!s->slots || vmap_init(&s->map, nr_files, p->region / job->bs))
		goto nomem;
	s->job = job;
	s->counts = p->counts;
	s->report = p->report;
	s->depth = p->depth;
	s->unit = vblock_unit_len(job->bs);
	s->run_id = new_run_id();
	s->extent = job->offset + p->region;
	if (job->journal[0]) {
		int ret = journal_open(s, p->region, err);
		if (ret) {
			verify_session_free(s);
			return ret;
		}
	}
	*out = s;
	return 0;
nomem:
	verify_session_free(s);
	return err_set(err, ENOMEM,
		       "job %s: verify: no memory for the map of %llu blocks",
		       job->name, (unsigned long long)(p->region / job->bs));
}

void verify_session_free(struct verify_session *s)
{
	if (!s)
		return;
	if (s->journal) {
		struct ioc_err err = {0};
		/* a failure already returned by flush ended the run: once */
		if (journal_close(s->journal, &err) && s->report &&
		    !s->journal_failed)
			fprintf(s->report, "iochar: job %s: %s\n", s->job->name,
				err.msg);
	}
	vmap_free(&s->map);
	free(s->slots);
	free(s);
}

bool verify_session_prepare(struct verify_session *s, struct io_unit *u)
{
	struct vslot *sl = &s->slots[u->index];

	if (sl->armed)
		return true;
	uint64_t block = (u->offset - s->job->offset) / s->job->bs;
	size_t idx = vmap_index(&s->map, u->file, block);
	if (vmap_busy(&s->map, idx))
		return false;
	vmap_set_busy(&s->map, idx, true);
	sl->idx = idx;
	sl->armed = true;
	if (u->dir == DIR_WRITE) {
		struct vblock_stamp st = {
		    .seed = s->job->randseed,
		    .time_ns = realtime_ns(),
		    .run_id = s->run_id,
		    .block_len = (uint32_t)u->len,
		    .extent = s->extent,
		    .gen = vgen_next(s->map.gen[idx]),
		};
		sl->gen = st.gen;
		vblock_fill(u->buf, u->len, s->unit, u->offset, &st);
		if (s->journal)
			journal_intent(s->journal, u->file, block, st.gen,
				       st.time_ns);
	}
	return true;
}

static const char *target_name(const struct verify_session *s, unsigned file)
{
	return file < s->job->nr_files ? s->job->files[file] : "(none)";
}

static void report(struct verify_session *s, unsigned file,
		   const struct vfailure *f)
{
	if (!s->report)
		return;
	if (s->printed < VREPORT_MAX_LINES)
		vreport_print(s->report, target_name(s, file), f);
	else if (s->printed == VREPORT_MAX_LINES)
		vreport_print_cap(s->report, target_name(s, file));
	s->printed++;
}

/* Check every unit of a completed read of a block written with gen. */
static int check_read(struct verify_session *s, struct io_unit *u, uint8_t gen,
		      struct ioc_err *err)
{
	struct vexpect exp = {
	    .seed = s->job->randseed,
	    .run_id = s->run_id,
	    .gen = gen,
	    .match = VEXP_SEED | VEXP_RUN,
	};

	for (uint64_t pos = 0; pos + s->unit <= u->len; pos += s->unit) {
		struct vfailure f;

		exp.offset = u->offset + pos;
		enum vkind k = vunit_check((const uint8_t *)u->buf + pos,
					   s->unit, &exp, &f);
		vreport_count(s->counts, k);
		if (k == VK_OK)
			continue;
		report(s, u->file, &f);
		if (s->job->verify_fatal) {
			s->halted = true;
			return err_set(err, EILSEQ,
				       "job %s: verify_fatal: %s unit at "
				       "offset %llu of %s (%s)",
				       s->job->name, vkind_name(k),
				       (unsigned long long)exp.offset,
				       target_name(s, u->file), f.why);
		}
	}
	return 0;
}

int verify_session_complete(struct verify_session *s, struct io_unit *u,
			    struct ioc_err *err)
{
	struct vslot *sl = &s->slots[u->index];
	uint8_t *gen;

	if (!sl->armed)
		return 0;
	sl->armed = false;
	vmap_set_busy(&s->map, sl->idx, false);
	gen = &s->map.gen[sl->idx];
	if (u->result != (int64_t)u->len) {
		if (u->dir == DIR_WRITE)
			*gen = 0; /* what the block holds is unknown now */
		return 0;
	}
	if (u->dir == DIR_WRITE) {
		*gen = sl->gen;
		if (s->journal)
			journal_done(s->journal, u->file,
				     sl->idx % s->map.nblocks, sl->gen);
		return 0;
	}
	if (*gen == 0 || s->halted) { /* nothing to expect, or stopping */
		s->counts->unverified_units += u->len / s->unit;
		return 0;
	}
	return check_read(s, u, *gen, err);
}

int verify_session_flush(struct verify_session *s, struct ioc_err *err)
{
	int ret = s->journal ? journal_flush(s->journal, err) : 0;

	if (ret) {
		s->journal_failed = true;
		err_prefix(err, "job %s", s->job->name);
	}
	return ret;
}
