/* rebuild.c - a rebuild-rate sweep (rebuild.h): the rebuilder thread
 * started beside a VD job's workers, the baseline and one pass per rate,
 * the scrub, and the sweep written as text and JSON.
 */
#define _GNU_SOURCE
#include "charz/rebuild.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/runner.h"
#include "target/guard.h"
#include "target/marker.h"
#include "target/target.h"
#include "vd/sync.h"
#include "vd/vd.h"

struct rebuild {
	const struct vd_members *m;
	unsigned member;
	struct vd *vd;              /* the running VD, or NULL (no workload) */
	atomic_bool *stop_workload; /* set when the rebuild is over */
	pthread_t tid;
	bool started;
	double rate_bytes, rate_pct; /* this pass's --rebuild_rate */
	atomic_bool *sig;           /* Ctrl-C */
	struct vd_rebuild_result res;
	int ret;
	struct ioc_err err;
};

/* One pass, at one rate; with a running VD, under its row locks and
 * moving its rebuild cursor (vd/rebuild.h). */
static void *rebuild_main(void *arg)
{
	struct rebuild *rb = arg;
	struct vd_def def = rb->m->def;

	def.failed_mask &= ~(1ull << rb->member);
	/* under load, start once the workload completes its first I/O (at
	 * most 5 s), so a short rebuild cannot end before it is measured */
	for (int i = 0; rb->vd && i < 5000 &&
			!atomic_load_explicit(&rb->vd->host_started, memory_order_acquire); i++)
		usleep(1000);
	struct vd_rebuild_params p = {
		.def = &def, .member_bytes = rb->m->member_bytes, .member = rb->member,
		.vd = rb->vd, .rate_bytes = rb->rate_bytes, .rate_pct = rb->rate_pct,
		.stop = rb->sig,
	};
	rb->ret = vd_rebuild_run(&p, &rb->res, &rb->err);
	if (rb->stop_workload)
		atomic_store(rb->stop_workload, true);
	return NULL;
}

static void on_vd_start(void *arg, unsigned job, void *shared)
{
	struct rebuild *rb = arg;
	struct vd *vd = shared; /* a VD job's shared state (vd/target.h) */
	(void)job;
	vd->rebuild_member = (int)rb->member;
	atomic_store(&vd->rebuild_cursor, 0);
	rb->vd = vd;
	rb->started = pthread_create(&rb->tid, NULL, rebuild_main, rb) == 0;
	if (!rb->started)
		rb->ret = err_set(&rb->err, EAGAIN, "cannot start the rebuild thread");
}

static void on_vd_stop(void *arg, unsigned job, void *shared)
{
	struct rebuild *rb = arg;
	(void)job;
	(void)shared;
	if (rb->started)
		pthread_join(rb->tid, NULL);
	rb->started = false;
	rb->vd = NULL;
}

int rebuild_sweep_check(const struct job_spec *job, long n, bool workload,
			struct vd_members *m, struct ioc_err *err)
{
	struct target_info ti;
	int ret;

	if (!job->vd[0])
		return err_usage(err, EINVAL, "vd rebuild: give --vd=DEF");
	if (n < 0)
		return err_usage(err, EINVAL, "vd rebuild: give --replace=N (member number, from 0)");
	struct vd_members_params p = {
		.text = job->vd, .size = job->size, .offset = job->offset,
		.writes = workload && rw_writes(job->rw), .force = job->force,
		.direct = job->direct, .skip_mask = 1ull << n, .maintenance = !workload,
	};
	if ((ret = vd_members_inspect(&p, m, err)))
		return ret;
	const struct vd_def *d = &m->def;
	if ((unsigned)n >= d->nr_members)
		return err_usage(err, EINVAL, "vd rebuild: --replace=%ld, but the VD has %u members (from 0)",
				 n, d->nr_members);
	if (d->level == VD_RAID0 || vd_level_concat(d->level))
		return err_usage(err, EINVAL, "vd rebuild: %s has no redundancy to rebuild from",
				 vd_level_name(d->level));
	if (d->failed_mask & ~(1ull << n))
		return err_usage(err, EINVAL,
				 "vd rebuild: other members are failed (failed=); rebuild one at a time with only --replace's member failed");
	const char *path = d->members[n];
	if ((ret = target_inspect(path, &ti, err)))
		return ret;
	if (ti.exists && (ret = guard_check(path, &ti, job->force, err)))
		return ret;
	if (ti.is_block && ti.size < m->member_bytes)
		return err_usage(err, EINVAL, "vd rebuild: %s is smaller than a member (%llu bytes)",
				 path, (unsigned long long)m->member_bytes);
	if (!ti.exists && !ti.parent_writable)
		return err_usage(err, EACCES, "vd rebuild: cannot create %s", path);
	return 0;
}

/* The new member: created (and marked) if missing, at least member size. */
static int open_target(const struct vd_members *m, unsigned n, int *fd,
		       struct ioc_err *err)
{
	const char *path = m->def.members[n];
	struct stat st;
	bool fresh = stat(path, &st) < 0;

	*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (*fd < 0)
		return err_set(err, errno, "%s: cannot open for writing: %s", path, strerror(errno));
	if (fresh)
		target_marker_set(*fd); /* best effort: tmpfs without xattrs */
	if (!fresh && !S_ISREG(st.st_mode))
		return 0;
	if ((fresh || (uint64_t)st.st_size < m->member_bytes) &&
	    ftruncate(*fd, (off_t)m->member_bytes) < 0)
		return err_set(err, errno, "%s: cannot size it: %s", path, strerror(errno));
	return 0;
}

static int run_workload(struct job_spec *job, const struct runner_hooks *hooks,
			struct rebuild_fg *out, struct ioc_err *err)
{
	struct run_result r;
	struct stats_summary s;
	int ret = runner_run(job, 1, hooks, &r, err);
	if (ret && !r.nr_workers)
		return ret;
	if (!summary_stats(&r.total, r.elapsed_ns, &s)) {
		out->s = s;
		out->elapsed_ns = r.elapsed_ns;
		out->ran = true;
	}
	run_result_free(&r);
	return ret;
}

int rebuild_sweep_rates(const char *v, const char *key,
			struct rebuild_sweep *sw, struct ioc_err *err)
{
	sw->n = 0;
	if (!v) {
		sw->n = 1;
		snprintf(sw->p[0].label, sizeof(sw->p[0].label), "max");
		return 0;
	}
	for (const char *at = v; *at;) {
		size_t len = strcspn(at, ",");
		struct rebuild_pass *p = &sw->p[sw->n];
		if (sw->n == REBUILD_MAX_RATES || len == 0 || len >= sizeof(p->label))
			return err_usage(err, EINVAL,
					 "%s=%s: give up to %d rates, comma-separated (e.g. 10%%,30%%,100%% or 20m,50m)",
					 key, v, REBUILD_MAX_RATES);
		memcpy(p->label, at, len);
		p->label[len] = '\0';
		int ret = vd_rebuild_rate_parse(p->label, &p->rate_bytes, &p->rate_pct, err);
		if (ret)
			return ret;
		sw->n++;
		at += len + (at[len] == ',');
	}
	return 0;
}

static double drop_pct(double before, double during)
{
	return before > 0 ? 100.0 * (1.0 - during / before) : 0;
}

static double pass_sec(const struct rebuild_pass *p)
{
	return (double)(p->res.end_ns - p->res.start_ns) / 1e9;
}

void rebuild_sweep_text(const struct rebuild_sweep *sw, FILE *f)
{
	for (unsigned i = 0; i < sw->n; i++) {
		const struct rebuild_pass *p = &sw->p[i];
		double sec = pass_sec(p);
		fprintf(f, "rebuild at %s of member %u (%s): %llu bytes in %.2f s, %.1f MB/s (%s)\n",
		       p->label, sw->member, sw->m->def.members[sw->member],
		       (unsigned long long)p->res.bytes, sec,
		       sec > 0 ? (double)p->res.bytes / sec / 1e6 : 0,
		       p->res.direct ? "O_DIRECT" : "page cache");
		const struct dir_summary *b = &sw->base.s.total, *d = &p->during.s.total;
		if (!sw->base.ran || !p->during.ran)
			continue;
		fprintf(f, "  foreground: %.0f IOPS %.1f MB/s before, %.0f IOPS %.1f MB/s during (%.1f%% lower), mean latency %.1f -> %.1f us, p99 %.1f -> %.1f us\n",
		       b->iops, b->bw_bytes / 1e6, d->iops, d->bw_bytes / 1e6,
		       drop_pct(b->iops, d->iops), b->lat.mean / 1e3, d->lat.mean / 1e3,
		       (double)b->lat.pct[PCT_P99] / 1e3, (double)d->lat.pct[PCT_P99] / 1e3);
	}
	fprintf(f, "verify: %llu inconsistent rows%s\n", (unsigned long long)sw->bad,
	       sw->bad ? " - REBUILT MEMBER DISAGREES" : ", rebuilt member agrees with the others");
}

static void fg_json(struct jw *w, const char *key, const struct rebuild_fg *f)
{
	jw_key(w, key);
	if (!f->ran) {
		jw_null(w);
		return;
	}
	jw_object_begin(w);
	jw_kv_double(w, "iops", f->s.total.iops);
	jw_kv_double(w, "bw_bytes", f->s.total.bw_bytes);
	jw_kv_double(w, "lat_mean_ns", f->s.total.lat.mean);
	jw_kv_uint(w, "lat_p99_ns", f->s.total.lat.pct[PCT_P99]);
	jw_object_end(w);
}

/* The figures of pass p (rebuild and foreground), as members of the
 * current object. */
static void pass_json(struct jw *w, const struct rebuild_sweep *sw, const struct rebuild_pass *p)
{
	double sec = pass_sec(p);
	jw_kv_string(w, "rate", p->label);
	jw_kv_double(w, "rate_bytes", p->rate_bytes);
	jw_kv_double(w, "rate_pct", p->rate_pct);
	jw_kv_uint(w, "bytes", p->res.bytes);
	jw_kv_uint(w, "rows", p->res.rows);
	jw_kv_uint(w, "elapsed_ns", p->res.end_ns - p->res.start_ns);
	jw_kv_double(w, "bw_bytes", sec > 0 ? (double)p->res.bytes / sec : 0);
	jw_kv_bool(w, "direct", p->res.direct);
	jw_kv_double(w, "busy_pct", sec > 0 ? (double)p->res.busy_ns / 1e7 / sec : 0);
	jw_kv_uint(w, "max_chunks_in_flight", p->res.max_inflight);
	fg_json(w, "during", &p->during);
	bool both = sw->base.ran && p->during.ran;
	jw_kv_double(w, "iops_drop_pct",
		     both ? drop_pct(sw->base.s.total.iops, p->during.s.total.iops) : 0);
	jw_kv_double(w, "lat_mean_increase_pct",
		     both ? -drop_pct(sw->base.s.total.lat.mean, p->during.s.total.lat.mean) : 0);
}

void rebuild_sweep_json(const struct rebuild_sweep *sw, struct jw *w)
{
	const struct rebuild_pass *last = &sw->p[sw->n - 1];
	jw_key(w, "rebuild");
	jw_object_begin(w);
	jw_kv_uint(w, "member", sw->member);
	jw_kv_string(w, "path", sw->m->def.members[sw->member]);
	jw_kv_string(w, "level", vd_level_name(sw->m->def.level));
	pass_json(w, sw, last);
	jw_kv_uint(w, "inconsistent_rows", sw->bad);
	jw_kv_bool(w, "verified", sw->bad == 0);
	jw_object_end(w);
	jw_key(w, "foreground");
	jw_object_begin(w);
	fg_json(w, "before", &sw->base);
	fg_json(w, "during", &last->during);
	jw_kv_double(w, "iops_drop_pct",
		     sw->base.ran && last->during.ran
			     ? drop_pct(sw->base.s.total.iops, last->during.s.total.iops) : 0);
	jw_object_end(w);
	jw_key(w, "rates");
	jw_array_begin(w);
	for (unsigned i = 0; i < sw->n; i++) {
		jw_object_begin(w);
		pass_json(w, sw, &sw->p[i]);
		jw_object_end(w);
	}
	jw_array_end(w);
}

static int scrub_all(const struct vd_members *m, uint64_t *bad, uint64_t *rows,
		     struct ioc_err *err)
{
	struct vd_def def = m->def;
	struct vd_sync s;
	def.failed_mask = 0;
	int ret = vd_sync_open(&s, &def, m->member_bytes, false, err);
	if (ret)
		return ret;
	*rows = vd_sync_rows(&s);
	ret = vd_sync_scrub(&s, 0, *rows, bad, err);
	vd_sync_close(&s);
	return ret;
}

/* The baseline (with a workload), then one rebuild per rate: under the
 * workload, which runs until the rebuild ends, or alone. */
static int run_passes(struct job_spec *job, bool workload, atomic_bool *stop,
		      struct rebuild *rb, struct rebuild_sweep *sw, struct ioc_err *err)
{
	int ret;
	if (workload) {
		struct runner_hooks hooks = {.stop = stop};
		if ((ret = run_workload(job, &hooks, &sw->base, err)))
			return ret;
		job->time_based = true;
		job->runtime_ns = 3600ull * 1000000000ull; /* until the rebuild ends */
		job->ramp_ns = 0;
	}
	for (unsigned i = 0; i < sw->n && !rb->ret; i++) {
		rb->rate_bytes = sw->p[i].rate_bytes;
		rb->rate_pct = sw->p[i].rate_pct;
		if (workload) {
			atomic_bool done = false;
			rb->stop_workload = &done;
			struct runner_hooks rh = {
				.stop = &done, .arg = rb, .target_start = on_vd_start,
				.target_stop = on_vd_stop,
			};
			if ((ret = run_workload(job, &rh, &sw->p[i].during, err)))
				return ret;
			rb->stop_workload = NULL;
		} else {
			rebuild_main(rb);
		}
		sw->p[i].res = rb->res;
		if (stop && atomic_load(stop))
			break;
	}
	return 0;
}


int rebuild_sweep_run(struct job_spec *job, unsigned member, bool workload,
		      atomic_bool *stop, const struct vd_members *m,
		      struct rebuild_sweep *sw, struct ioc_err *err)
{
	struct rebuild rb = {.m = m, .member = member, .sig = stop};
	int fd = -1, ret;

	sw->member = member;
	sw->m = m;
	if (!(ret = vd_prepare_cache(m, err)) &&
	    !(ret = open_target(m, member, &fd, err)))
		ret = run_passes(job, workload, stop, &rb, sw, err);
	if (fd >= 0)
		close(fd);
	if (ret)
		return ret;
	if (rb.ret) {
		*err = rb.err;
		return rb.ret;
	}
	return scrub_all(m, &sw->bad, &sw->rows, err);
}
