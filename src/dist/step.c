/* step.c - one run on every rank at once (dist_run in dist.h).
 *
 * While the runner works on the main thread, a watcher thread of each rank
 * is the only one to talk to the others (MPI_THREAD_SERIALIZED):
 *
 *   rank r                           rank 0
 *   READY (workers set up)  ---->    all READY: RELEASE to everyone
 *   HB every 200 ms         <--->    HB every 200 ms to everyone
 *                                    a DONE with an error, a signal, or a
 *                                    rank silent past the timeout: STOP to
 *                                    every rank still running (why)
 *   DONE (status, result)   ---->    every rank DONE or lost: watcher ends
  *   VERDICT                 <----    merged; the step's outcome, same for all
 *
 * Nothing waits without a deadline, so a rank killed mid-step is found by
 * its silence and the others end the step in order, their figures kept.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/comm.h"
#include "dist/dist.h"
#include "dist/internal.h"
#include "util/clock.h"

enum local_state { LOCAL_PREP, LOCAL_READY, LOCAL_DONE };

/* Between runs a rank may be busy for a while (rank 0 writes the step's
 * results, a rank lays out its files): before the first message of a run,
 * silence is allowed this many timeouts. */
#define FIRST_CONTACT 6

#define DONE_BY_STOP   1 /* this rank stopped because rank 0 said so */
#define DONE_BY_SIGNAL 2 /* a signal on this rank stopped it */

/* A rank's live totals as one tick of its runner saw them. Its
 * heartbeats carry its last two to rank 0, whose live line is the sum
 * over the ranks of the same tick (the ticks fall on the same whole
 * seconds of the run everywhere): one tick late, so every rank's has
 * arrived. */
struct live_totals {
	uint64_t tick; /* which: the run's second it fell on, + 1; 0 = none */
	uint64_t elapsed_ns, planned_ns;
	uint64_t ios[DIR_COUNT], bytes[DIR_COUNT], lat_sum_ns;
};

struct hb_msg {
	struct msg_head h;
	struct live_totals live[2]; /* the last tick's, the one before */
};

struct peer {
	struct live_totals live[2]; /* its last heartbeat's, under step.mu */
	uint64_t last_ns;      /* when rank 0 last heard from it */
	bool heard;            /* in this step: until then, a longer wait */
	bool ready, done;
	void *done_msg;        /* its DONE: msg_head + release time + result */
	size_t done_len;
};

struct step {
	struct dist *d;
	uint32_t seq;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	/* main -> watcher, under mu */
	struct live_totals own_live[2]; /* this rank's last two ticks */
	enum local_state local;
	struct msg_head own;   /* this rank's outcome, with LOCAL_DONE */
	void *done_msg;        /* rank != 0: what to send as DONE */
	size_t done_len;
	/* watcher -> main, under mu */
	bool released, aborted;
	char abort_msg[IOC_ERR_MAX];
	int abort_code;
	/* the runner's stop flag; the caller's (signals) is relayed into it */
	atomic_bool stop;
	atomic_bool *user_stop;
	bool stopped_by_root;  /* rank != 0 */
	bool root_lost;        /* rank != 0: rank 0 went silent */
	/* rank 0 */
	struct peer *peers;
	int fail_rank;         /* first rank at fault, or -1 */
	int fail_code;
	char fail_msg[IOC_ERR_MAX];
	int64_t release_wall_ns;
	const struct runner_hooks *hooks; /* the caller's */
};

static void set_aborted(struct step *s, int code, const char *msg)
{
	atomic_store(&s->stop, true);
	pthread_mutex_lock(&s->mu);
	if (!s->released && !s->aborted) {
		s->aborted = true;
		s->abort_code = code;
		snprintf(s->abort_msg, sizeof(s->abort_msg), "%s", msg);
	}
	pthread_cond_broadcast(&s->cv);
	pthread_mutex_unlock(&s->mu);
}

/* Rank 0: the first fault of the step stops every rank still running. */
static void root_fail(struct step *s, int rank, int code, const char *why)
{
	struct dist *d = s->d;
	struct msg_head h = {.seq = s->seq, .status = -code};

	if (s->fail_rank >= 0)
		return;
	s->fail_rank = rank;
	s->fail_code = code;
	snprintf(s->fail_msg, sizeof(s->fail_msg), "rank %d (%s): %s", rank,
		 d->hosts[rank], why);
	snprintf(h.msg, sizeof(h.msg), "%s", s->fail_msg);
	for (int r = 1; r < d->size; r++)
		if (!d->lost[r] && !s->peers[r].done)
			comm_post(r, TAG_STOP, &h, sizeof(h));
	set_aborted(s, code, s->fail_msg);
}

static void root_take(struct step *s, int tag)
{
	int src;
	size_t len;
	while (comm_probe(COMM_ANY, tag, &src, &len)) {
		void *b = malloc(len ? len : 1);
		if (!b || comm_take(src, tag, b, len)) {
			free(b);
			return;
		}
		uint32_t seq = 0;
		if (len >= sizeof(seq))
			memcpy(&seq, b, sizeof(seq));
		struct peer *p = &s->peers[src];
		if (seq != s->seq || s->d->lost[src] || p->done) {
			free(b);
			continue;
		}
		p->last_ns = clock_ns();
		p->heard = true;
		if (tag == TAG_HB && len >= sizeof(struct hb_msg)) {
			pthread_mutex_lock(&s->mu);
			memcpy(p->live, (char *)b + offsetof(struct hb_msg, live), sizeof(p->live));
			pthread_mutex_unlock(&s->mu);
		}
		if (tag == TAG_READY)
			p->ready = true;
		if (tag == TAG_DONE && len >= sizeof(struct msg_head)) {
			struct msg_head h;
			memcpy(&h, b, sizeof(h));
			h.msg[sizeof(h.msg) - 1] = '\0';
			p->done = true;
			p->done_msg = b;
			p->done_len = len;
			b = NULL;
			if (h.flags & DONE_BY_SIGNAL)
				root_fail(s, src, EINTR, "stopped by a signal");
			else if (h.status && !(h.flags & DONE_BY_STOP))
				root_fail(s, src, -h.status, h.msg);
		}
		free(b);
	}
}

static void *root_watch(void *arg)
{
	struct step *s = arg;
	struct dist *d = s->d;
	uint64_t next_hb = 0;
	bool release_sent = false;

	for (int r = 1; r < d->size; r++)
		s->peers[r].last_ns = clock_ns();
	for (;;) {
		uint64_t now = clock_ns();
		comm_progress();
		root_take(s, TAG_HB);
		root_take(s, TAG_READY);
		root_take(s, TAG_DONE);

		pthread_mutex_lock(&s->mu);
		enum local_state local = s->local;
		struct msg_head own = s->own;
		pthread_mutex_unlock(&s->mu);
		if (local == LOCAL_DONE && own.status && !(own.flags & DONE_BY_STOP))
			root_fail(s, 0, -own.status, own.msg);
		if (s->user_stop && atomic_load(s->user_stop))
			root_fail(s, 0, EINTR, "stopped by a signal");
		bool all_ready = local != LOCAL_PREP, all_done = local == LOCAL_DONE;
		for (int r = 1; r < d->size; r++) {
			struct peer *p = &s->peers[r];
			if (d->lost[r])
				continue;
			if (!p->done && now > p->last_ns &&
			    now - p->last_ns > (p->heard ? 1 : FIRST_CONTACT) * d->timeout_ns) {
				char why[160];
				d->lost[r] = true;
				snprintf(why, sizeof(why),
					 "lost: no message for %.1f s (killed, crashed or "
					 "unreachable); the other ranks' results are kept",
					 (double)(now - p->last_ns) / 1e9);
				root_fail(s, r, EHOSTDOWN, why);
				continue;
			}
			all_ready &= p->ready;
			all_done &= p->done;
		}
		if (all_ready && !release_sent && s->fail_rank < 0) {
			struct msg_head h = {.seq = s->seq};
			dist_post_all(d, TAG_RELEASE, &h, sizeof(h));
			release_sent = true;
			pthread_mutex_lock(&s->mu);
			s->released = true;
			pthread_cond_broadcast(&s->cv);
			pthread_mutex_unlock(&s->mu);
		}
		if (all_done)
			break;
		if (now >= next_hb) {
			struct msg_head h = {.seq = s->seq};
			dist_post_all(d, TAG_HB, &h, sizeof(h));
			next_hb = now + DIST_HB_NS;
		}
		/* waiting to release: poll finely, it is the start skew */
		clock_sleep_until(now + (local == LOCAL_READY && !release_sent ? 20000 : 1000000));
	}
	return NULL;
}

/* Rank != 0: handle what rank 0 sent. */
static void rank_take(struct step *s, uint64_t *last0)
{
	static const int tags[] = {TAG_HB, TAG_RELEASE, TAG_STOP};
	for (unsigned i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		int src;
		size_t len;
		while (comm_probe(0, tags[i], &src, &len)) {
			struct msg_head h = {0};
			void *b = malloc(len ? len : 1);
			if (!b || comm_take(0, tags[i], b, len)) {
				free(b);
				return;
			}
			memcpy(&h, b, len < sizeof(h) ? len : sizeof(h));
			free(b);
			h.msg[sizeof(h.msg) - 1] = '\0';
			if (h.seq != s->seq)
				continue;
			*last0 = clock_ns();
			if (tags[i] == TAG_RELEASE) {
				pthread_mutex_lock(&s->mu);
				s->released = true;
				pthread_cond_broadcast(&s->cv);
				pthread_mutex_unlock(&s->mu);
			} else if (tags[i] == TAG_STOP) {
				s->stopped_by_root = true;
				set_aborted(s, -h.status, h.msg);
			}
		}
	}
}

static void *rank_watch(void *arg)
{
	struct step *s = arg;
	struct dist *d = s->d;
	uint64_t last0 = clock_ns(), next_hb = 0;
	bool ready_sent = false, done_sent = false, heard0 = false;

	for (;;) {
		uint64_t now = clock_ns();
		unsigned in_flight = comm_progress();
		uint64_t before = last0;
		rank_take(s, &last0);
		heard0 |= last0 != before;
		if (s->user_stop && atomic_load(s->user_stop))
			atomic_store(&s->stop, true);
		struct hb_msg hb = {.h = {.seq = s->seq}};
		pthread_mutex_lock(&s->mu);
		enum local_state local = s->local;
		memcpy(hb.live, s->own_live, sizeof(hb.live));
		pthread_mutex_unlock(&s->mu);
		struct msg_head h = {.seq = s->seq};
		if (local >= LOCAL_READY && !ready_sent) {
			comm_post(0, TAG_READY, &h, sizeof(h));
			ready_sent = true;
		}
		if (local == LOCAL_DONE && !done_sent) {
			comm_post(0, TAG_DONE, s->done_msg, s->done_len);
			done_sent = true;
			continue;
		}
		if (done_sent && !in_flight)
			break;
		if (now > last0 && now - last0 > (heard0 ? 1 : FIRST_CONTACT) * d->timeout_ns) {
			char why[IOC_ERR_MAX];
			d->lost[0] = true;
			s->root_lost = true;
			snprintf(why, sizeof(why), "rank 0 (%s): lost: no message for %.1f s",
				 d->hosts[0], (double)(now - last0) / 1e9);
			set_aborted(s, EHOSTDOWN, why);
			if (local == LOCAL_DONE)
				break;
		}
		if (now >= next_hb) {
			comm_post(0, TAG_HB, &hb, sizeof(hb));
			next_hb = now + DIST_HB_NS;
		}
		clock_sleep_until(now + (local == LOCAL_READY ? 20000 : 1000000));
	}
	return NULL;
}

/* The runner's before_start hook: held here until rank 0 releases all. */
static int at_barrier(void *arg, struct ioc_err *err)
{
	struct step *s = arg;
	pthread_mutex_lock(&s->mu);
	s->local = LOCAL_READY;
	while (!s->released && !s->aborted)
		pthread_cond_wait(&s->cv, &s->mu);
	bool go = s->released;
	pthread_mutex_unlock(&s->mu);
	s->release_wall_ns = dist_wall_ns();
	if (go)
		return 0;
	return err_set(err, s->abort_code ? s->abort_code : EIO, "%s", s->abort_msg);
}

/* This rank's outcome, as the DONE message (and rank 0's own record). */
static int finish_local(struct step *s, int ret, const struct ioc_err *err,
			const struct run_result *r)
{
	struct msg_head h = {.seq = s->seq, .status = ret, .usage = err->usage};
	void *res = NULL;
	size_t res_len = 0;

	int fail = 0;
	snprintf(h.msg, sizeof(h.msg), "%s", err->msg);
	if (s->stopped_by_root)
		h.flags |= DONE_BY_STOP;
	if (s->user_stop && atomic_load(s->user_stop))
		h.flags |= DONE_BY_SIGNAL;
	if (s->d->rank != 0 && r->nr_workers && wire_pack(r, &res, &res_len))
		fail = -ENOMEM;
	size_t len = sizeof(h) + sizeof(int64_t) + res_len;
	char *m = fail ? NULL : malloc(len);
	if (!m) { /* report the failure without figures; never leave the
		   * watcher waiting for a LOCAL_DONE that does not come */
		free(res);
		res = NULL;
		res_len = 0;
		fail = -ENOMEM;
		h.status = fail;
		h.flags &= ~DONE_BY_STOP;
		snprintf(h.msg, sizeof(h.msg), "out of memory reporting its figures");
		len = sizeof(h) + sizeof(int64_t);
		m = malloc(len); /* NULL: an empty DONE, and rank 0 times out on us */
		if (!m)
			len = 0;
	}
	if (m) {
		memcpy(m, &h, sizeof(h));
		memcpy(m + sizeof(h), &s->release_wall_ns, sizeof(int64_t));
		if (res_len)
			memcpy(m + sizeof(h) + sizeof(int64_t), res, res_len);
	}
	free(res);
	pthread_mutex_lock(&s->mu);
	s->own = h;
	s->done_msg = m;
	s->done_len = len;
	s->local = LOCAL_DONE;
	pthread_mutex_unlock(&s->mu);
	return fail;
}

/* Peer p's totals of tick t (its last two), else its latest before t. */
static const struct live_totals *peer_at(const struct peer *p, uint64_t t)
{
	if (p->live[0].tick && p->live[0].tick <= t)
		return &p->live[0];
	return p->live[1].tick && p->live[1].tick <= t ? &p->live[1] : NULL;
}

/* Every rank's tick: its totals kept for its heartbeats. Rank 0's caller
 * gets the sum over the ranks of its previous tick, and no latency
 * histogram (the others' stay on their hosts: the mean comes from the
 * sums); on one rank, this tick as it is. */
static void tick_relay(void *arg, uint64_t elapsed_ns, uint64_t planned_ns,
		       const uint64_t ios[DIR_COUNT], const uint64_t bytes[DIR_COUNT],
		       uint64_t lat_sum_ns, const struct hist *lat)
{
	struct step *s = arg;
	struct live_totals now = {.tick = (elapsed_ns + 250000000ull) / 1000000000ull + 1,
				  .elapsed_ns = elapsed_ns, .planned_ns = planned_ns,
				  .lat_sum_ns = lat_sum_ns};

	memcpy(now.ios, ios, sizeof(now.ios));
	memcpy(now.bytes, bytes, sizeof(now.bytes));
	pthread_mutex_lock(&s->mu);
	s->own_live[1] = s->own_live[0];
	s->own_live[0] = now;
	struct live_totals sum = s->own_live[1];
	for (int r = 1; s->peers && sum.tick && r < s->d->size; r++) {
		const struct live_totals *t = peer_at(&s->peers[r], sum.tick);
		for (int d = 0; t && d < DIR_COUNT; d++) {
			sum.ios[d] += t->ios[d];
			sum.bytes[d] += t->bytes[d];
		}
		sum.lat_sum_ns += t ? t->lat_sum_ns : 0;
	}
	pthread_mutex_unlock(&s->mu);
	if (!s->hooks || !s->hooks->tick)
		return;
	if (s->d->size == 1)
		s->hooks->tick(s->hooks->arg, elapsed_ns, planned_ns, ios, bytes, lat_sum_ns, lat);
	else if (sum.tick)
		s->hooks->tick(s->hooks->arg, sum.elapsed_ns, sum.planned_ns, sum.ios, sum.bytes,
			       sum.lat_sum_ns, NULL);
}

static void fill_relay(void *arg, const char *path, uint64_t done, uint64_t total)
{
	const struct step *s = arg;
	s->hooks->fill_progress(s->hooks->arg, path, done, total);
}

/* Rank 0, after the watcher: every rank's figures into out, the start
 * skew, and the verdict for all. */
static int root_conclude(struct step *s, const struct job_spec *jobs,
			 unsigned nr_jobs, struct run_result *out,
			 struct ioc_err *err)
{
	struct dist *d = s->d;
	struct host_result *hosts = calloc((size_t)d->size, sizeof(*hosts));
	struct run_result *peers = calloc((size_t)d->size, sizeof(*peers));
	int64_t start_min = INT64_MAX, start_max = INT64_MIN;
	int ret = 0;

	if (!hosts || !peers) {
		ret = -ENOMEM;
		goto out;
	}
	for (int r = 0; r < d->size; r++) {
		struct host_result *h = &hosts[r];
		struct msg_head mh = s->own;
		int64_t start = s->release_wall_ns;
		snprintf(h->host, sizeof(h->host), "%s", d->hosts[r]);
		h->rank = r;
		h->lost = d->lost[r];
		h->clock_offset_ns = d->clock_offset_ns[r];
		h->clock_error_ns = d->clock_error_ns[r];
		if (r > 0) {
			struct peer *p = &s->peers[r];
			if (d->lost[r]) {
				h->error = -EHOSTDOWN;
				snprintf(h->error_msg, sizeof(h->error_msg),
					 "lost: stopped responding during the run");
			}
			if (!p->done || p->done_len < sizeof(mh) + sizeof(int64_t))
				continue;
			memcpy(&mh, p->done_msg, sizeof(mh));
			memcpy(&start, (char *)p->done_msg + sizeof(mh), sizeof(start));
			size_t off = sizeof(mh) + sizeof(int64_t);
			if (p->done_len > off &&
			    wire_unpack((char *)p->done_msg + off, p->done_len - off, &peers[r])) {
				run_result_free(&peers[r]);
				snprintf(mh.msg, sizeof(mh.msg), "its result could not be read");
				mh.status = -EPROTO;
			}
			start -= d->clock_offset_ns[r];
		}
		h->error = mh.status;
		snprintf(h->error_msg, sizeof(h->error_msg), "%.*s",
			 (int)sizeof(h->error_msg) - 1, mh.msg);
		h->start_offset_ns = start;
		if (start && s->released) {
			if (start < start_min)
				start_min = start;
			if (start > start_max)
				start_max = start;
		}
	}
	for (int r = 0; r < d->size; r++)
		hosts[r].start_offset_ns = start_min <= start_max && hosts[r].start_offset_ns
						   ? hosts[r].start_offset_ns - start_min : 0;
	ret = merge_cluster(out, peers, hosts, (unsigned)d->size, jobs, nr_jobs);
	if (!ret) {
		hosts = NULL; /* out owns them */
		out->start_skew_ns = start_min <= start_max ? (uint64_t)(start_max - start_min) : 0;
		if (s->fail_rank >= 0)
			out->partial = true;
	}
out:
	if (hosts) {
		for (int r = 0; r < d->size; r++)
			stats_free(&hosts[r].stats);
		free(hosts);
	}
	for (int r = 0; peers && r < d->size; r++)
		run_result_free(&peers[r]);
	free(peers);
	if (ret)
		return err_set(err, ENOMEM, "out of memory");
	return 0;
}

static int send_verdict(struct step *s, int ret, const struct ioc_err *err)
{
	struct msg_head h = {.seq = s->seq, .status = ret, .usage = err->usage};
	snprintf(h.msg, sizeof(h.msg), "%s", err->msg);
	return dist_post_all(s->d, TAG_VERDICT, &h, sizeof(h));
}

static int rank_verdict(struct step *s, struct ioc_err *err)
{
	void *b;
	size_t len;
	struct msg_head h;
	int ret = dist_wait_msg(s->d, 0, TAG_VERDICT, s->seq, s->d->timeout_ns, &b, &len);
	if (ret) {
		s->d->lost[0] = true;
		return err_set(err, EHOSTDOWN, "rank 0 (%s): lost: no verdict after the run",
			       s->d->hosts[0]);
	}
	memset(&h, 0, sizeof(h));
	memcpy(&h, b, len < sizeof(h) ? len : sizeof(h));
	free(b);
	return msg_head_outcome(&h, err);
}

int dist_run(struct dist *d, const struct job_spec *jobs, unsigned nr_jobs,
	     const struct runner_hooks *hooks, struct run_result *out,
	     struct ioc_err *err)
{
	struct step s = {
		.d = d, .seq = ++d->seq, .fail_rank = -1, .hooks = hooks,
		.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER,
		.user_stop = hooks ? hooks->stop : NULL,
	};
	struct runner_hooks h = {
		/* the caller's hooks, relayed: their arg is s */
		.tick = tick_relay, /* on every rank: its totals go to rank 0 */
		.fill_progress = hooks && hooks->fill_progress ? fill_relay : NULL,
		.arg = &s,
		.stop = &s.stop,
		.before_start = at_barrier,
		.start_arg = &s,
	};
	struct ioc_err local = {0};
	pthread_t watcher;
	int ret;

	memset(out, 0, sizeof(*out));

	if (d->rank == 0 && !(s.peers = calloc((size_t)d->size, sizeof(*s.peers))))
		return err_set(err, ENOMEM, "out of memory");
	ret = pthread_create(&watcher, NULL, d->rank == 0 ? root_watch : rank_watch, &s);
	if (ret) {
		free(s.peers);
		return err_set(err, ret, "cannot start the MPI watcher thread: %s",
			       strerror(ret));
	}
	ret = runner_run(jobs, nr_jobs, &h, out, &local);
	if (s.aborted && !s.released) {
		run_result_free(out); /* stopped at the barrier: nothing ran */
		memset(out, 0, sizeof(*out));
	}
	dist_dump_hist(d, out);
	int fret = finish_local(&s, ret, &local, out);
	if (fret) /* reported without figures */
		ret = fret;
	pthread_join(watcher, NULL);

	if (d->rank == 0) {
		int cret = root_conclude(&s, jobs, nr_jobs, out, err);
		if (s.fail_rank >= 0) {
			memset(err, 0, sizeof(*err));
			ret = err_set(err, s.fail_code, "%s", s.fail_msg);
		} else if (cret) {
			ret = cret;
		} else {
			ret = 0;
		}
		send_verdict(&s, ret, err);
		for (int r = 1; r < d->size; r++)
			free(s.peers[r].done_msg);
		free(s.peers);
	} else if (s.root_lost) {
		memset(err, 0, sizeof(*err));
		ret = err_set(err, EHOSTDOWN, "%s", s.abort_msg);
	} else {
		ret = rank_verdict(&s, err);
	}
	free(s.done_msg);
	if (out->nr_workers == 0 && ret) {
		run_result_free(out);
		memset(out, 0, sizeof(*out));
	}
	return ret;
}
