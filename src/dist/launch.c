/* launch.c - joining and leaving a run over many hosts: launcher
 * detection, MPI start, hostnames, the final exit status; see dist.h. */
#define _GNU_SOURCE
#include "dist/dist.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "dist/comm.h"
#include "dist/internal.h"
#include "util/clock.h"

bool dist_launched(unsigned *size)
{
	/* Open MPI's mpirun sets OMPI_COMM_WORLD_SIZE; PMIx and PMI
	 * launchers (srun, hydra) set PMIX_RANK or PMI_RANK. */
	const char *s = getenv("OMPI_COMM_WORLD_SIZE");
	if (!s)
		s = getenv("PMI_SIZE");
	*size = s ? (unsigned)strtoul(s, NULL, 10) : 0;
	return s || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

int64_t dist_wall_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

/* At start ranks may be slow to arrive (MPI_Init on a loaded host). */
#define START_WAITS 6

static void dist_free(struct dist *d)
{
	if (!d)
		return;
	free(d->hosts);
	free(d->clock_offset_ns);
	free(d->clock_error_ns);
	free(d->lost);
	free(d);
}

static uint64_t timeout_from_env(void)
{
	const char *s = getenv("IOCHAR_DIST_TIMEOUT_MS");
	unsigned long ms = s ? strtoul(s, NULL, 10) : 0;
	if (!ms)
		ms = DIST_TIMEOUT_DEFAULT_MS;
	return (uint64_t)ms * 1000000ull;
}

/* Did mpirun say --enable-recovery (Open MPI 4's ORTE, or 5's PRRTE)?
 * Only then does a dead rank leave the others running (docs/mpi.md). */
static bool recovery_enabled(void)
{
	static const char *const vars[] = {"OMPI_MCA_orte_enable_recovery",
					   "PRTE_MCA_prte_enable_recovery",
					   "OMPI_MCA_prte_enable_recovery"};
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);
		if (v && (!strcmp(v, "1") || !strcasecmp(v, "true")))
			return true;
	}
	return false;
}

int dist_start(struct dist **out, struct ioc_err *err)
{
	unsigned size;
	struct dist *d;
	char me[DIST_HOST_MAX] = {0};
	int ret;

	*out = NULL;
	if (!dist_launched(&size))
		return 0;
#ifndef IOCHAR_MPI
	if (size == 1)
		return 0; /* one rank: nothing to coordinate */
	const char *rank = getenv("OMPI_COMM_WORLD_RANK");
	if (rank && strcmp(rank, "0")) { /* rank 0 says it, once */
		err->usage = 1;
		return -ENOTSUP;
	}
	return err_usage(err, ENOTSUP,
			 "started by mpirun with %u ranks, but distributed runs need the "
			 "MPI build of iochar (install libopenmpi-dev and rebuild)", size);
#endif
	d = calloc(1, sizeof(*d));
	if (!d)
		return err_set(err, ENOMEM, "out of memory");
	ret = comm_init(&d->rank, &d->size, err);
	if (ret) {
		free(d);
		return ret;
	}
	d->timeout_ns = timeout_from_env();
	d->hosts = calloc((size_t)d->size, sizeof(*d->hosts));
	d->clock_offset_ns = calloc((size_t)d->size, sizeof(int64_t));
	d->clock_error_ns = calloc((size_t)d->size, sizeof(uint64_t));
	d->lost = calloc((size_t)d->size, sizeof(bool));
	if (!d->hosts || !d->clock_offset_ns || !d->clock_error_ns || !d->lost) {
		ret = err_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	gethostname(me, sizeof(me) - 1);
	if ((ret = dist_allgather(d, me, sizeof(me), d->hosts, START_WAITS * d->timeout_ns, err)))
		goto fail;
	if ((ret = dist_clock_sync(d, err)))
		goto fail;
	if (d->rank == 0 && d->size > 1 && !recovery_enabled())
		fprintf(stderr, "iochar: mpirun without --enable-recovery: if a rank dies, "
				"mpirun ends every rank and this run's merged result is lost "
				"(finished plan steps stay on disk); add --enable-recovery to "
				"keep the other ranks' figures\n");
	*out = d;
	return 0;
fail:
	comm_finalize(false);
	dist_free(d);
	return ret;
}

int dist_rank(const struct dist *d)
{
	return d ? d->rank : 0;
}

int dist_size(const struct dist *d)
{
	return d ? d->size : 1;
}

bool dist_is_root(const struct dist *d)
{
	return !d || d->rank == 0;
}

const char *dist_host(const struct dist *d, int rank)
{
	return d && rank >= 0 && rank < d->size ? d->hosts[rank] : "";
}

int dist_post_all(struct dist *d, int tag, const void *buf, size_t len)
{
	int ret = 0;
	for (int r = 1; r < d->size; r++)
		if (!d->lost[r] && comm_post(r, tag, buf, len))
			ret = -EIO;
	return ret;
}

int dist_wait_msg(struct dist *d, int from, int tag, uint32_t seq,
		  uint64_t timeout_ns, void **buf, size_t *len)
{
	uint64_t end = clock_ns() + timeout_ns;
	*buf = NULL;
	for (;;) {
		int src;
		size_t n;
		comm_progress();
		if (comm_probe(from, tag, &src, &n)) {
			void *b = malloc(n ? n : 1);
			if (!b)
				return -ENOMEM;
			if (comm_take(src, tag, b, n)) {
				free(b);
				return -EIO;
			}
			uint32_t s = 0;
			if (n >= sizeof(s))
				memcpy(&s, b, sizeof(s));
			if (n >= sizeof(s) && s >= seq) {
				*buf = b;
				*len = n;
				return 0;
			}
			free(b); /* a late message of an earlier step */
			continue;
		}
		uint64_t now = clock_ns();
		if (now >= end)
			return -ETIMEDOUT;
		clock_sleep_until(now + 200000); /* 0.2 ms: no core is spun */
	}
}

int dist_finish(struct dist *d, int status)
{
	struct msg_head h = {0};
	bool clean = true;

	if (!d)
		return status;
	if (d->rank == 0) {
		for (int r = 1; r < d->size; r++)
			clean &= !d->lost[r];
		h.status = status;
		h.flags = clean;
		h.seq = d->seq;
		dist_post_all(d, TAG_END, &h, sizeof(h));
		uint64_t end = clock_ns() + d->timeout_ns;
		while (comm_progress() && clock_ns() < end)
			clock_sleep_until(clock_ns() + 200000);
	} else if (d->lost[0]) {
		clean = false;
	} else {
		void *buf;
		size_t len;
		/* rank 0 may still be writing its results: wait for it */
		if (dist_wait_msg(d, 0, TAG_END, 0, 6 * d->timeout_ns, &buf, &len) == 0 &&
		    len >= sizeof(h)) {
			memcpy(&h, buf, sizeof(h));
			free(buf);
			status = h.status;
			clean = h.flags != 0;
		} else {
			fprintf(stderr, "iochar: rank %d: no word from rank 0 (%s) at the end\n",
				d->rank, d->hosts[0]);
			clean = false;
			if (!status)
				status = 1;
		}
	}
	comm_finalize(clean);
	dist_free(d);
	return status;
}
