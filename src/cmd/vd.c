/* vd.c - `iochar vd rebuild`: regenerate one member of a RAID virtual
 * drive from the others, optionally while a workload runs on the VD.
 *
 *     iochar vd rebuild --vd=DEF --replace=N [--force]
 *                       [--rw=... --bs=... --iodepth=... --runtime=...]
 *                       [--output-format=normal|json]
 *
 * Member N (counted from 0; it may be listed in failed=) is written in
 * place: a missing file is created, as a new disk would be put in. With a
 * workload (--rw given), the workload first runs for --runtime on the VD as
 * defined (the baseline), then again while the rebuild runs, until the
 * rebuild ends; the foreground impact is the drop between the two. During
 * the rebuild, member N counts as lost above the rebuild cursor (vd/vd.h),
 * so foreground reads there are rebuilt from the others and writes below
 * it reach N. Afterwards every row is checked (scrub): the rebuilt member
 * must agree with the others. Exit 0 when it does, 1 when not or on an I/O
 * error, 2 on bad input.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/options.h"
#include "cli/run_config.h"
#include "cli/units.h"
#include "cmd/cmd.h"
#include "cmd/signals.h"
#include "cmd/vd_cmd.h"
#include "core/runner.h"
#include "output/json_writer.h"
#include "output/summary.h"
#include "target/marker.h"
#include "target/target.h"
#include "util/clock.h"
#include "verify/guard.h"
#include "vd/members.h"
#include "vd/sync.h"
#include "vd/vd.h"

struct rebuild {
	struct vd_members *m;
	unsigned member;
	int fd;                     /* the member being rebuilt */
	struct vd *vd;              /* the running VD, or NULL (no workload) */
	atomic_bool *stop_workload; /* set when the rebuild is over */
	pthread_t tid;
	bool started;
	uint64_t start_ns, end_ns;
	int ret;
	struct ioc_err err;
};

static void lock_row(struct vd *vd, uint64_t r)
{
	while (!vd_lock_try(vd, r, r, true))
		sched_yield();
}

/* Row by row; with a running VD each row under its lock, the cursor
 * moved before the lock is released. */
static void *rebuild_main(void *arg)
{
	struct rebuild *rb = arg;
	struct vd_sync s;
	struct vd_def def = rb->m->def;

	def.failed_mask &= ~(1ull << rb->member);
	/* under load, start once the workload completes its first I/O (at
	 * most 5 s), so a short rebuild cannot end before it is measured */
	for (int i = 0; rb->vd && i < 5000 &&
			!atomic_load_explicit(&rb->vd->host_started, memory_order_acquire); i++)
		usleep(1000);
	rb->start_ns = clock_ns();
	rb->ret = vd_sync_open(&s, &def, rb->m->member_bytes, false, &rb->err);
	if (!rb->ret) {
		s.def = &rb->m->def;
		uint64_t rows = s.geom.rows;
		for (uint64_t r = 0; r < rows && !rb->ret; r++) {
			if (rb->vd)
				lock_row(rb->vd, r);
			rb->ret = vd_sync_rebuild_rows(&s, rb->member, rb->fd, r, r + 1, &rb->err);
			if (rb->vd) {
				atomic_store_explicit(&rb->vd->rebuild_cursor, r + 1,
						      memory_order_release);
				vd_unlock(rb->vd, r, r, true);
			}
		}
		vd_sync_close(&s);
	}
	if (!rb->ret && fdatasync(rb->fd) < 0)
		rb->ret = err_set(&rb->err, errno, "%s: fdatasync: %s",
				  rb->m->def.members[rb->member], strerror(errno));
	rb->end_ns = clock_ns();
	if (rb->stop_workload)
		atomic_store(rb->stop_workload, true);
	return NULL;
}

static void on_vd_start(void *arg, unsigned job, struct vd *vd)
{
	struct rebuild *rb = arg;
	(void)job;
	vd->rebuild_member = (int)rb->member;
	atomic_store(&vd->rebuild_cursor, 0);
	rb->vd = vd;
	rb->started = pthread_create(&rb->tid, NULL, rebuild_main, rb) == 0;
	if (!rb->started)
		rb->ret = err_set(&rb->err, EAGAIN, "cannot start the rebuild thread");
}

static void on_vd_stop(void *arg, unsigned job, struct vd *vd)
{
	struct rebuild *rb = arg;
	(void)job;
	(void)vd;
	if (rb->started)
		pthread_join(rb->tid, NULL);
	rb->started = false;
	rb->vd = NULL;
}

/* --replace=N out of argv (in place); -1 when absent. */
static int take_replace(int *argc, char **argv, long *out, struct ioc_err *err)
{
	uint64_t n;
	const char *v = vd_cmd_take(argc, argv, "--replace");
	*out = -1;
	if (!v)
		return 0;
	int ret = units_parse_uint("--replace", v, 0, VD_MAX_MEMBERS - 1, &n, err);
	if (!ret)
		*out = (long)n;
	return ret;
}

/* Look at everything before anything is written. */
static int check(const struct job_spec *job, long n, bool workload,
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
	if (d->level == VD_RAID0 || d->level == VD_JBOD)
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

struct fg {
	bool ran;
	struct dir_summary total;
};

static int run_workload(struct job_spec *job, const struct runner_hooks *hooks,
			struct fg *out, struct ioc_err *err)
{
	struct run_result r;
	struct stats_summary s;
	int ret = runner_run(job, 1, hooks, &r, err);
	if (ret && !r.nr_workers)
		return ret;
	if (!summary_stats(&r.total, r.elapsed_ns, &s)) {
		out->total = s.total;
		out->ran = true;
	}
	run_result_free(&r);
	return ret;
}

static void print_text(const struct rebuild *rb, uint64_t bytes, uint64_t bad,
		       const struct fg *base, const struct fg *during)
{
	double sec = (double)(rb->end_ns - rb->start_ns) / 1e9;
	printf("rebuild of member %u (%s): %llu bytes in %.2f s, %.1f MB/s\n",
	       rb->member, rb->m->def.members[rb->member], (unsigned long long)bytes,
	       sec, sec > 0 ? (double)bytes / sec / 1e6 : 0);
	if (base->ran && during->ran) {
		double impact = base->total.iops > 0
					? 100.0 * (1.0 - during->total.iops / base->total.iops) : 0;
		printf("foreground: %.0f IOPS %.1f MB/s before, %.0f IOPS %.1f MB/s during the rebuild (%.1f%% lower), mean latency %.1f -> %.1f us\n",
		       base->total.iops, base->total.bw_bytes / 1e6, during->total.iops,
		       during->total.bw_bytes / 1e6, impact, base->total.lat.mean / 1e3,
		       during->total.lat.mean / 1e3);
	}
	printf("verify: %llu inconsistent rows%s\n", (unsigned long long)bad,
	       bad ? " - REBUILT MEMBER DISAGREES" : ", rebuilt member agrees with the others");
}

static void fg_json(struct jw *w, const char *key, const struct fg *f)
{
	jw_key(w, key);
	if (!f->ran) {
		jw_null(w);
		return;
	}
	jw_object_begin(w);
	jw_kv_double(w, "iops", f->total.iops);
	jw_kv_double(w, "bw_bytes", f->total.bw_bytes);
	jw_kv_double(w, "lat_mean_ns", f->total.lat.mean);
	jw_kv_uint(w, "lat_p99_ns", f->total.lat.pct[PCT_P99]);
	jw_object_end(w);
}

static int print_json(const struct rebuild *rb, uint64_t bytes, uint64_t rows,
		      uint64_t bad, const struct fg *base, const struct fg *during)
{
	struct jw w;
	double sec = (double)(rb->end_ns - rb->start_ns) / 1e9;
	jw_init(&w, stdout, 2);
	jw_object_begin(&w);
	jw_key(&w, "rebuild");
	jw_object_begin(&w);
	jw_kv_uint(&w, "member", rb->member);
	jw_kv_string(&w, "path", rb->m->def.members[rb->member]);
	jw_kv_string(&w, "level", vd_level_name(rb->m->def.level));
	jw_kv_uint(&w, "bytes", bytes);
	jw_kv_uint(&w, "rows", rows);
	jw_kv_uint(&w, "elapsed_ns", rb->end_ns - rb->start_ns);
	jw_kv_double(&w, "bw_bytes", sec > 0 ? (double)bytes / sec : 0);
	jw_kv_uint(&w, "inconsistent_rows", bad);
	jw_kv_bool(&w, "verified", bad == 0);
	jw_object_end(&w);
	jw_key(&w, "foreground");
	jw_object_begin(&w);
	fg_json(&w, "before", base);
	fg_json(&w, "during", during);
	jw_kv_double(&w, "iops_drop_pct",
		     base->ran && during->ran && base->total.iops > 0
			     ? 100.0 * (1.0 - during->total.iops / base->total.iops) : 0);
	jw_object_end(&w);
	jw_object_end(&w);
	return jw_finish(&w);
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

static int rebuild_cmd(int argc, char **argv)
{
	struct run_config cfg = {0};
	struct ioc_err err = {0};
	struct vd_members *m = calloc(1, sizeof(*m));
	struct rebuild rb = {.fd = -1};
	struct fg base = {0}, during = {0};
	long n;
	int ret, status = 1;

	if (!m)
		return 1;
	ret = take_replace(&argc, argv, &n, &err);
	if (!ret)
		ret = run_config_parse(argc, argv, &cfg, &err);
	if (ret == RUN_CONFIG_HELP) {
		printf("usage: iochar vd rebuild --vd=DEF --replace=N [--force] [workload options of iochar run]\n");
		free(m);
		return 0;
	}
	if (!ret && cfg.nr_jobs != 1)
		ret = err_usage(&err, EINVAL, "vd rebuild: one job only");
	struct job_spec *job = ret ? NULL : &cfg.jobs[0];
	bool workload = job && options_is_set(job, "rw");
	if (!ret)
		ret = check(job, n, workload, m, &err);
	if (!ret && workload)
		ret = runner_validate(job, 1, &err);
	if (ret) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		status = err.usage ? EXIT_USAGE : 1;
		goto out;
	}
	/* validated: from here on things are written */
	rb.m = m;
	rb.member = (unsigned)n;
	atomic_bool *stop = signals_catch();
	if ((ret = vd_prepare_cache(m, &err)) || (ret = open_target(m, rb.member, &rb.fd, &err)))
		goto fail;
	if (workload) {
		struct runner_hooks hooks = {.stop = stop};
		if ((ret = run_workload(job, &hooks, &base, &err)))
			goto fail;
		atomic_bool done = false;
		rb.stop_workload = &done;
		struct runner_hooks rh = {
			.stop = &done, .arg = &rb, .vd_start = on_vd_start, .vd_stop = on_vd_stop,
		};
		job->time_based = true;
		job->runtime_ns = 3600ull * 1000000000ull; /* until the rebuild ends */
		job->ramp_ns = 0;
		if ((ret = run_workload(job, &rh, &during, &err)))
			goto fail;
	} else {
		rebuild_main(&rb);
	}
	if (rb.ret) {
		fprintf(stderr, "iochar: %s\n", rb.err.msg);
		goto out;
	}
	uint64_t bad = 0, rows = 0;
	if ((ret = scrub_all(m, &bad, &rows, &err)))
		goto fail;
	uint64_t bytes = rows * m->def.strip;
	if (cfg.format == OUTPUT_JSON)
		print_json(&rb, bytes, rows, bad, &base, &during);
	else
		print_text(&rb, bytes, bad, &base, &during);
	status = bad ? 1 : 0;
	goto out;
fail:
	fprintf(stderr, "iochar: %s\n", err.msg);
	status = err.usage ? EXIT_USAGE : 1;
out:
	if (rb.fd >= 0)
		close(rb.fd);
	run_config_free(&cfg);
	free(m);
	return status;
}

int cmd_vd(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "rebuild") == 0)
		return rebuild_cmd(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "init") == 0)
		return vd_init_cmd(argc - 1, argv + 1);
	fprintf(stderr, "usage: iochar vd rebuild --vd=DEF --replace=N [--rebuild_rate=MB/s|N%%] [workload options]\n"
			"       iochar vd init --vd=DEF [--mode=full|fast] [--size=SIZE]\n");
	return argc >= 2 && (strcmp(argv[1], "--help") == 0) ? 0 : EXIT_USAGE;
}
