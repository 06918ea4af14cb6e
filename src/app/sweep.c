/* sweep.c - one point of the sweep (app.h): the benchmark run while the
 * device's counters are read each second and its block I/O is captured. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "app/app.h"
#include "app/devstat.h"
#include "app/trace_sum.h"

/* The run's seconds: the benchmark, the device each second. The grace
 * after --time: a benchmark that has not ended by then is killed. */
#define GRACE_S 60.0

struct watch {
	struct app_devstat first, last;
	bool dev;
};

static void watch_tick(struct app_run *r, struct app_point *p, struct watch *w)
{
	struct app_devstat now;

	if (!w->dev || app_dev_sample(r->place.devstat, &now))
		return;
	if (p->ndev_sec < APP_MAX_SECONDS)
		app_dev_figures(&w->last, &now, &p->dev_sec[p->ndev_sec++]);
	w->last = now;
}

/* Wait for the benchmark pid, sampling the device each second. 0, or
 * -EINTR (stopped), -ETIMEDOUT (killed after the grace). */
static int watch_run(struct app_run *r, struct app_point *p, pid_t pid,
		     atomic_bool *stop, int *status)
{
	struct watch w = {.dev = r->place.devstat[0] &&
				 !app_dev_sample(r->place.devstat, &w.first)};
	double t0 = app_now_s(), next = t0 + 1.0;

	w.last = w.first;
	for (;;) {
		int rc = app_wait(pid, 20);
		if (rc != APP_RUNNING) {
			*status = rc;
			break;
		}
		if (atomic_load(stop) || app_now_s() - t0 > r->secs + GRACE_S) {
			app_kill(pid, SIGTERM, 5000);
			return atomic_load(stop) ? -EINTR : -ETIMEDOUT;
		}
		if (app_now_s() >= next) {
			watch_tick(r, p, &w);
			next += 1.0;
		}
	}
	struct app_devstat end;
	if (w.dev && !app_dev_sample(r->place.devstat, &end)) {
		app_dev_figures(&w.first, &end, &p->dev);
		p->has_dev = true;
	}
	return 0;
}

static void capture_begin(struct app_run *r, struct app_point *p, void **session)
{
	struct ioc_err err = {0};
	char dev[80];

	*session = NULL;
	if (!r->capture) {
		snprintf(p->trace_skipped, sizeof(p->trace_skipped), "%s",
			 r->no_capture_why ? r->no_capture_why : "no capture");
		return;
	}
	if (!r->place.device[0]) {
		snprintf(p->trace_skipped, sizeof(p->trace_skipped),
			 "the target's file system (%s) has no block device", r->place.fs);
		return;
	}
	snprintf(dev, sizeof(dev), "/dev/%s", r->place.device);
	if (r->capture->begin(session, dev, r->outdir, &err)) {
		*session = NULL;
		snprintf(p->trace_skipped, sizeof(p->trace_skipped), "%.255s", err.msg);
	}
}

static void capture_end(struct app_run *r, struct app_point *p, void *session)
{
	struct ioc_err err = {0};
	char name[64], path[1200];

	if (!session)
		return;
	snprintf(name, sizeof(name), "trace-T%u.bin", p->threads);
	snprintf(path, sizeof(path), "%s/%s", r->outdir, name);
	if (r->capture->end(session, path, &err)) {
		snprintf(p->trace_skipped, sizeof(p->trace_skipped), "%.255s", err.msg);
		return;
	}
	snprintf(p->trace, sizeof(p->trace), "%s", name);
	if (app_trace_summary(path, &p->tsum, &err))
		snprintf(p->trace_skipped, sizeof(p->trace_skipped), "%.255s", err.msg);
}

int app_point_run(struct app_run *r, struct app_point *p, atomic_bool *stop)
{
	struct ioc_err err = {0};
	char log[1200];
	void *session;
	int status = 0, ret;

	snprintf(log, sizeof(log), "%s/%s-T%u.out", r->outdir, r->bench->ops->tool, p->threads);
	capture_begin(r, p, &session);
	pid_t pid = r->bench->ops->start(&r->cfg, p->threads, r->secs, log);
	if (pid < 0) {
		ret = (int)pid;
		snprintf(p->error, sizeof(p->error), "%s: %s", r->bench->ops->tool, strerror(-ret));
	} else {
		ret = watch_run(r, p, pid, stop, &status);
		if (ret == -EINTR)
			snprintf(p->error, sizeof(p->error), "stopped by a signal");
		else if (ret)
			snprintf(p->error, sizeof(p->error), "%s did not end %.0f s after --time: killed",
				 r->bench->ops->tool, GRACE_S);
	}
	capture_end(r, p, session);
	if (ret)
		return ret;
	ret = r->bench->ops->parse(&r->cfg, log, p, &err);
	if (!ret && status) {
		char tail[600];
		app_log_tail(log, tail, sizeof(tail));
		ret = err_set(&err, EIO, "%s ended with status %d: %s", r->bench->ops->tool,
			      status, tail);
	}
	if (ret)
		snprintf(p->error, sizeof(p->error), "%.511s", err.msg);
	return ret;
}
