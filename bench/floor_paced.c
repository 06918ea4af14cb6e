/* floor_paced.c - the floor of a rate-limited (open-loop) reader.
 *
 * One thread per file or device, each with its own io_uring of DEPTH
 * (1 unless -d says otherwise), 4k random O_DIRECT reads. I/O k of a thread is due at start + k / RATE,
 * the linear schedule fio and iochar use by default (a ring set up as
 * iochar's: single issuer, deferred task work). The thread sleeps to
 * the due time with clock_nanosleep (absolute, timer slack 1 ns), never
 * spins; at QD 1 it submits and waits in one io_uring_enter, deeper it
 * submits every due I/O at once and waits for a completion or the next
 * due time, whichever is first (reader_main), and keeps three figures
 * per I/O: response (completion - due), service (completion - submission)
 * and lag (submission - due). A thread that is late submits at once and
 * catches up, as both tools do. RATE 0 reads back to back (closed loop).
 *
 * It is the least a paced reader can do: one sleep, one enter and two
 * wake-ups per I/O, no statistics until the end. So its CPU at 10 % of
 * the maximum over its CPU at the maximum is the floor of that share on
 * this machine, and its response p99 at QD 1 is what any open-loop reader
 * sees of the devices' own queueing: at QD 1 an I/O due while the one
 * before it is still in flight waits for it, and that wait is response
 * time, not the tool's. bench/pacing.py runs it beside iochar and fio.
 *
 *   floor_paced [-d DEPTH] SECONDS RATE_PER_THREAD FILE...
 *
 * Prints {"ios", "elapsed_ns", "iops", "resp_mean_ns", "resp_p99_ns",
 * "svc_mean_ns", "svc_p99_ns", "lag_p99_ns"} over all threads.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdbool.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#define BS 4096
#define MAX_THREADS 64
#define MAX_DEPTH 1024
#define CLOSED_LOOP_CAP 400000u /* I/Os a second kept per thread, closed loop */

struct reader {
	const char *path;
	int fd;
	unsigned depth;
	uint64_t nblocks, rate, start, end, rng;
	uint32_t *resp, *svc, *lag; /* ns, one per I/O kept */
	uint64_t cap, ios;
	int failed;
};

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { (time_t)(t / 1000000000ull), (long)(t % 1000000000ull) };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

static uint64_t next_off(struct reader *r)
{
	r->rng ^= r->rng >> 12;
	r->rng ^= r->rng << 25;
	r->rng ^= r->rng >> 27;
	return ((r->rng * 0x2545f4914f6cdd1dull) % r->nblocks) * BS;
}

static uint32_t clamp32(uint64_t ns)
{
	return ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
}

/* The cheapest ring the kernel offers a single thread: completions run
 * in the waiting thread, not by task-work interrupts (6.1+), as iochar's
 * engine sets it up; a plain ring on older kernels. */
static int ring_init(struct io_uring *ring, unsigned depth)
{
	unsigned flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;

	if (io_uring_queue_init(depth, ring, flags) == 0)
		return 0;
	return io_uring_queue_init(depth, ring, 0);
}

/* One I/O slot: its buffer and the two times its figures need. */
struct slot {
	void *buf;
	uint64_t due, sub;
};

static void keep(struct reader *r, const struct slot *s, uint64_t done)
{
	if (r->ios < r->cap) {
		r->resp[r->ios] = clamp32(done - s->due);
		r->svc[r->ios] = clamp32(done - s->sub);
		r->lag[r->ios] = clamp32(s->sub - s->due);
	}
	r->ios++;
}

/* Collect every completion there is, each stamped when it was seen. */
static int reap(struct reader *r, struct io_uring *ring, struct slot *slots,
		unsigned *free_ids, unsigned *nfree)
{
	struct io_uring_cqe *cqe;
	unsigned head, seen = 0;
	uint64_t done = now_ns();

	io_uring_for_each_cqe(ring, head, cqe) {
		if (cqe->res != BS)
			return -1;
		unsigned id = (unsigned)cqe->user_data;
		keep(r, &slots[id], done);
		free_ids[(*nfree)++] = id;
		seen++;
	}
	io_uring_cq_advance(ring, seen);
	return (int)seen;
}

/* Open loop at depth r->depth: I/O k is due at start + k / rate; every
 * due I/O with a free slot is submitted at once (one enter for all due),
 * and the thread then waits for a completion or the next due time,
 * whichever comes first, so completions are stamped when they happen
 * and never held for the queue to fill. An I/O due while every slot is
 * busy waits for a slot: that is response time (the depth bound), not
 * lag of the reader's own. Rate 0: closed loop, each slot refilled at
 * once. */
static void *reader_main(void *arg)
{
	struct reader *r = arg;
	unsigned depth = r->depth, nfree = depth, inflight = 0;
	struct io_uring ring;
	struct slot slots[MAX_DEPTH];
	unsigned free_ids[MAX_DEPTH];

	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	if (ring_init(&ring, depth) < 0) {
		r->failed = 1;
		return NULL;
	}
	for (unsigned i = 0; i < depth; i++) {
		free_ids[i] = depth - 1 - i;
		if (posix_memalign(&slots[i].buf, BS, BS)) {
			r->failed = 1;
			return NULL;
		}
	}
	sleep_until(r->start);
	uint64_t k = 0;
	for (;;) {
		uint64_t now = now_ns();
		uint64_t due = r->rate ? r->start + k * 1000000000ull / r->rate : now;
		unsigned issued = 0;
		while (nfree && due <= now && due < r->end && now < r->end) {
			unsigned id = free_ids[--nfree];
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
			io_uring_prep_read(sqe, r->fd, slots[id].buf, BS, next_off(r));
			sqe->user_data = id;
			slots[id].due = due;
			issued++;
			k++;
			due = r->rate ? r->start + k * 1000000000ull / r->rate : now;
		}
		if (issued) {
			uint64_t sub = now_ns(); /* as the QD 1 reader: before the enter */
			/* nothing else to do before a completion: one enter for both */
			bool block = !nfree || !(due < r->end);
			int ret = block ? io_uring_submit_and_wait(&ring, 1) : io_uring_submit(&ring);
			if (ret != (int)issued) {
				r->failed = 1;
				break;
			}
			for (unsigned i = 0; i < issued; i++) /* the ids just taken */
				slots[free_ids[nfree + i]].sub = sub;
			inflight += issued;
		}
		bool more = due < r->end && now < r->end;
		if (!inflight) {
			if (!more)
				break;
			sleep_until(due);
			continue;
		}
		struct io_uring_cqe *cqe;
		int ret;
		uint64_t t = now_ns();
		if (more && nfree && due > t) {
			struct __kernel_timespec ts = { .tv_sec = (long long)((due - t) / 1000000000ull),
							.tv_nsec = (long long)((due - t) % 1000000000ull) };
			ret = io_uring_wait_cqe_timeout(&ring, &cqe, &ts);
			if (ret == -ETIME)
				continue;
		} else if (more && nfree) {
			ret = io_uring_peek_cqe(&ring, &cqe); /* due now: issue first */
			if (ret == -EAGAIN)
				continue;
		} else {
			ret = io_uring_wait_cqe(&ring, &cqe);
		}
		if (ret < 0 && ret != -EINTR) {
			r->failed = 1;
			break;
		}
		int seen = reap(r, &ring, slots, free_ids, &nfree);
		if (seen < 0) {
			r->failed = 1;
			break;
		}
		inflight -= (unsigned)seen;
	}
	io_uring_queue_exit(&ring);
	for (unsigned i = 0; i < depth; i++)
		free(slots[i].buf);
	return NULL;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

enum figure { RESP, SVC, LAG };

static uint32_t *kept_values(struct reader *r, enum figure which)
{
	return which == RESP ? r->resp : which == SVC ? r->svc : r->lag;
}

/* Mean and p99 of one figure over every reader's kept I/Os, merged:
 * exact, from all the values, not from per-thread percentiles. */
static void figures(struct reader *rs, int nr, enum figure which, double *mean, double *p99)
{
	uint64_t n = 0;
	for (int i = 0; i < nr; i++)
		n += rs[i].ios < rs[i].cap ? rs[i].ios : rs[i].cap;
	uint32_t *all = malloc((n ? n : 1) * sizeof(*all));
	double sum = 0;
	uint64_t k = 0;
	if (!all) {
		*mean = *p99 = -1;
		return;
	}
	for (int i = 0; i < nr; i++) {
		uint32_t *v = kept_values(&rs[i], which);
		uint64_t kept = rs[i].ios < rs[i].cap ? rs[i].ios : rs[i].cap;
		for (uint64_t j = 0; j < kept; j++) {
			all[k++] = v[j];
			sum += v[j];
		}
	}
	qsort(all, n, sizeof(*all), cmp_u32);
	*mean = n ? sum / (double)n : 0;
	*p99 = n ? all[(n * 99 + 99) / 100 - 1] : 0;
	free(all);
}

int main(int argc, char **argv)
{
	unsigned depth = 1;
	int a = 1;

	if (argc > 2 && !strcmp(argv[1], "-d")) {
		depth = (unsigned)strtoul(argv[2], NULL, 10);
		a = 3;
	}
	if (argc - a < 3 || argc - a - 2 > MAX_THREADS || !depth || depth > MAX_DEPTH) {
		fprintf(stderr, "usage: floor_paced [-d DEPTH] SECONDS RATE_PER_THREAD FILE... "
				"(at most %d files, depth 1-%d)\n", MAX_THREADS, MAX_DEPTH);
		return 2;
	}
	uint64_t secs = strtoull(argv[a], NULL, 10), rate = strtoull(argv[a + 1], NULL, 10);
	int nr = argc - a - 2;
	struct reader rs[MAX_THREADS];
	pthread_t th[MAX_THREADS];
	uint64_t start = now_ns() + 10000000ull; /* every thread set up by then */

	if (!secs) {
		fprintf(stderr, "floor_paced: SECONDS must be at least 1\n");
		return 2;
	}
	for (int i = 0; i < nr; i++) {
		struct reader *r = &rs[i];
		*r = (struct reader){ .path = argv[a + 2 + i], .depth = depth, .rate = rate, .start = start,
				      .end = start + secs * 1000000000ull,
				      .rng = 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1) };
		r->fd = open(r->path, O_RDONLY | O_DIRECT);
		off_t size = r->fd < 0 ? -1 : lseek(r->fd, 0, SEEK_END);
		if (size < BS) {
			fprintf(stderr, "floor_paced: %s: %s\n", r->path,
				r->fd < 0 ? strerror(errno) : "smaller than one block");
			return 1;
		}
		r->nblocks = (uint64_t)size / BS;
		r->cap = (rate ? rate : CLOSED_LOOP_CAP) * secs + 1024;
		r->resp = malloc(r->cap * sizeof(uint32_t));
		r->svc = malloc(r->cap * sizeof(uint32_t));
		r->lag = malloc(r->cap * sizeof(uint32_t));
		if (!r->resp || !r->svc || !r->lag) {
			fprintf(stderr, "floor_paced: out of memory\n");
			return 1;
		}
	}
	for (int i = 0; i < nr; i++)
		if (pthread_create(&th[i], NULL, reader_main, &rs[i])) {
			fprintf(stderr, "floor_paced: cannot start a thread\n");
			return 1;
		}
	uint64_t ios = 0;
	for (int i = 0; i < nr; i++) {
		pthread_join(th[i], NULL);
		if (rs[i].failed) {
			fprintf(stderr, "floor_paced: %s: I/O failed\n", rs[i].path);
			return 1;
		}
		ios += rs[i].ios;
	}
	uint64_t el = now_ns() - start;
	double rm, rp, sm, sp, lm, lp;
	figures(rs, nr, RESP, &rm, &rp);
	figures(rs, nr, SVC, &sm, &sp);
	figures(rs, nr, LAG, &lm, &lp);
	printf("{\"ios\": %llu, \"elapsed_ns\": %llu, \"iops\": %.1f, \"resp_mean_ns\": %.0f, "
	       "\"resp_p99_ns\": %.0f, \"svc_mean_ns\": %.0f, \"svc_p99_ns\": %.0f, "
	       "\"lag_mean_ns\": %.0f, \"lag_p99_ns\": %.0f}\n",
	       (unsigned long long)ios, (unsigned long long)el, (double)ios * 1e9 / (double)el,
	       rm, rp, sm, sp, lm, lp);
	return 0;
}
