/* floor.c - the floor: the least a program can do per 4k random read.
 *
 * No statistics, no latency clock, no options beyond these: uniform random
 * 4k offsets (xorshift64*) over the file, read until the deadline, print
 * {"ios": N, "elapsed_ns": T, "iops": X} on stdout. bench/bench.py builds
 * it (cc -O2 ... -luring) and runs it under the same rusage helper as
 * iochar and fio, so its CPU per I/O is measured exactly as theirs.
 *
 *   floor pread FILE DIRECT SECONDS
 *   floor uring FILE DIRECT SECONDS QD REG   (REG: 0 plain, 1 files+buffers)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <liburing.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BS 4096
#define CLOCK_EVERY 64 /* I/Os between deadline checks */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_off(uint64_t nblocks)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return ((rng * 0x2545f4914f6cdd1dull) % nblocks) * BS;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int die(const char *what)
{
	perror(what);
	return 1;
}

static uint64_t loop_pread(int fd, uint64_t nblocks, uint64_t end)
{
	void *buf;
	uint64_t ios = 0;

	if (posix_memalign(&buf, BS, BS))
		return 0;
	for (;;) {
		if (pread(fd, buf, BS, (off_t)next_off(nblocks)) != BS)
			return 0;
		if (++ios % CLOCK_EVERY == 0 && now_ns() >= end)
			break;
	}
	free(buf);
	return ios;
}

static void prep(struct io_uring *r, int fd, char *bufs, unsigned i, int reg,
		 uint64_t nblocks)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(r);

	if (reg) {
		io_uring_prep_read_fixed(sqe, 0, bufs + (size_t)i * BS, BS,
					 next_off(nblocks), (int)i);
		sqe->flags |= IOSQE_FIXED_FILE;
	} else {
		io_uring_prep_read(sqe, fd, bufs + (size_t)i * BS, BS, next_off(nblocks));
	}
	io_uring_sqe_set_data64(sqe, i);
}

static int ring_setup(struct io_uring *r, int fd, char *bufs, unsigned qd, int reg)
{
	if (io_uring_queue_init(qd, r, 0) < 0)
		return -1;
	if (!reg)
		return 0;
	struct iovec *iov = calloc(qd, sizeof(*iov));
	if (!iov)
		return -1;
	for (unsigned i = 0; i < qd; i++)
		iov[i] = (struct iovec){ bufs + (size_t)i * BS, BS };
	int rc = io_uring_register_buffers(r, iov, qd);
	free(iov);
	if (rc < 0 || io_uring_register_files(r, &fd, 1) < 0)
		return -1;
	return 0;
}

static uint64_t loop_uring(int fd, uint64_t nblocks, uint64_t end, unsigned qd, int reg)
{
	struct io_uring r;
	struct io_uring_cqe *cqe;
	char *bufs;
	uint64_t ios = 0;

	if (posix_memalign((void **)&bufs, BS, (size_t)qd * BS) ||
	    ring_setup(&r, fd, bufs, qd, reg) < 0)
		return 0;
	for (unsigned i = 0; i < qd; i++)
		prep(&r, fd, bufs, i, reg, nblocks);
	for (int done = 0; !done;) {
		if (io_uring_submit_and_wait(&r, 1) < 0)
			return 0;
		unsigned head, n = 0;
		io_uring_for_each_cqe(&r, head, cqe) {
			if (cqe->res != BS)
				return 0;
			n++;
			if (++ios % CLOCK_EVERY == 0 && now_ns() >= end)
				done = 1;
			if (!done)
				prep(&r, fd, bufs, (unsigned)io_uring_cqe_get_data64(cqe), reg,
				     nblocks);
		}
		io_uring_cq_advance(&r, n);
	}
	io_uring_queue_exit(&r);
	free(bufs);
	return ios;
}

int main(int argc, char **argv)
{
	if (argc < 5 || (strcmp(argv[1], "pread") && argc < 7)) {
		fprintf(stderr, "usage: floor pread|uring FILE DIRECT SECONDS [QD REG]\n");
		return 2;
	}
	int direct = atoi(argv[3]);
	int fd = open(argv[2], O_RDONLY | (direct ? O_DIRECT : 0));
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		return die(argv[2]);
	uint64_t nblocks = (uint64_t)st.st_size / BS;
	if (nblocks == 0) {
		fprintf(stderr, "floor: %s: smaller than one block\n", argv[2]);
		return 2;
	}
	uint64_t t0 = now_ns(), end = t0 + (uint64_t)atoi(argv[4]) * 1000000000ull;
	uint64_t ios = strcmp(argv[1], "pread") == 0
			       ? loop_pread(fd, nblocks, end)
			       : loop_uring(fd, nblocks, end, (unsigned)atoi(argv[5]), atoi(argv[6]));
	uint64_t el = now_ns() - t0;
	if (ios == 0)
		return die("floor: I/O");
	printf("{\"ios\": %llu, \"elapsed_ns\": %llu, \"iops\": %.1f}\n", (unsigned long long)ios,
	       (unsigned long long)el, (double)ios * 1e9 / (double)el);
	return 0;
}
