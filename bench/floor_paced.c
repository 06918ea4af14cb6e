/* floor_paced.c - the floor of a rate-limited reader at QD 1 (issue 17).
 *
 * One thread per file or device, each with its own io_uring of depth 1,
 * 4k random O_DIRECT reads. I/O k of a thread is due at start + k / RATE,
 * the linear schedule fio and iochar use by default (a ring set up as
 * iochar's: single issuer, deferred task work). The thread sleeps to
 * the due time with clock_nanosleep (absolute, timer slack 1 ns), never
 * spins, submits and waits in one io_uring_enter, and keeps three figures
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
 *   floor_paced SECONDS RATE_PER_THREAD FILE...
 *
 * Prints {"ios", "elapsed_ns", "iops", "resp_mean_ns", "resp_p99_ns",
 * "svc_mean_ns", "svc_p99_ns", "lag_p99_ns"} over all threads.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
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
#define CLOSED_LOOP_CAP 400000u /* I/Os a second kept per thread, closed loop */

struct reader {
	const char *path;
	int fd;
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
static int ring_init(struct io_uring *ring)
{
	unsigned flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;

	if (io_uring_queue_init(1, ring, flags) == 0)
		return 0;
	return io_uring_queue_init(1, ring, 0);
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	void *buf;

	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	if (posix_memalign(&buf, BS, BS) || ring_init(&ring) < 0) {
		r->failed = 1;
		return NULL;
	}
	sleep_until(r->start);
	for (uint64_t k = 0;; k++) {
		uint64_t due = r->rate ? r->start + k * 1000000000ull / r->rate : 0;
		if (due >= r->end)
			break;
		if (due > now_ns())
			sleep_until(due);
		struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
		io_uring_prep_read(sqe, r->fd, buf, BS, next_off(r));
		uint64_t sub = now_ns();
		if (!due)
			due = sub;
		if (io_uring_submit_and_wait(&ring, 1) < 0 || io_uring_wait_cqe(&ring, &cqe) ||
		    cqe->res != BS) {
			r->failed = 1;
			break;
		}
		io_uring_cqe_seen(&ring, cqe);
		uint64_t done = now_ns();
		if (r->ios < r->cap) {
			r->resp[r->ios] = clamp32(done - due);
			r->svc[r->ios] = clamp32(done - sub);
			r->lag[r->ios] = clamp32(sub - due);
		}
		r->ios++;
		if (done >= r->end)
			break;
	}
	io_uring_queue_exit(&ring);
	free(buf);
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
	if (argc < 4 || argc - 3 > MAX_THREADS) {
		fprintf(stderr, "usage: floor_paced SECONDS RATE_PER_THREAD FILE... (at most %d)\n",
			MAX_THREADS);
		return 2;
	}
	uint64_t secs = strtoull(argv[1], NULL, 10), rate = strtoull(argv[2], NULL, 10);
	int nr = argc - 3;
	struct reader rs[MAX_THREADS];
	pthread_t th[MAX_THREADS];
	uint64_t start = now_ns() + 10000000ull; /* every thread set up by then */

	if (!secs) {
		fprintf(stderr, "floor_paced: SECONDS must be at least 1\n");
		return 2;
	}
	for (int i = 0; i < nr; i++) {
		struct reader *r = &rs[i];
		*r = (struct reader){ .path = argv[3 + i], .rate = rate, .start = start,
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
