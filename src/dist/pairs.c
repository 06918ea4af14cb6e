/* pairs.c - what `iochar net mesh` needs from the MPI layer: a barrier
 * with an outcome, bytes between two ranks, a gather to rank 0, and a
 * sweep over rank pairs one at a time (see dist.h). Every wait has a
 * deadline, as in step.c, so a lost rank ends the sweep instead of
 * hanging it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/comm.h"
#include "dist/dist.h"
#include "dist/internal.h"

int dist_sync(struct dist *d, uint64_t wait_ns, int local_ret,
	      const struct ioc_err *local_err, struct ioc_err *err)
{
	struct msg_head h = {.seq = ++d->seq, .status = local_ret, .usage = local_err->usage};
	uint64_t limit = wait_ns + d->timeout_ns;
	void *b = NULL;
	size_t len;
	int ret;

	snprintf(h.msg, sizeof(h.msg), "%s", local_err->msg);
	if (d->rank != 0) {
		if (comm_post(0, TAG_SYNC, &h, sizeof(h)) ||
		    dist_wait_msg(d, 0, TAG_SYNC_GO, h.seq, limit, &b, &len) ||
		    len < sizeof(h)) {
			free(b);
			d->lost[0] = true;
			return err_set(err, EHOSTDOWN, "rank 0 (%s): lost: no word at a barrier",
				       d->hosts[0]);
		}
		memcpy(&h, b, sizeof(h));
		free(b);
		return msg_head_outcome(&h, err);
	}
	/* rank 0: the first failure in rank order is everyone's, but a rank
	 * that only waited in vain for another (a timeout) is a consequence:
	 * the other's own failure is named first */
	struct msg_head out = {.seq = h.seq};
	if (local_ret)
		snprintf(out.msg, sizeof(out.msg), "rank 0 (%s): %.400s", d->hosts[0], h.msg);
	out.status = local_ret;
	out.usage = h.usage;
	for (int r = 1; r < d->size; r++) {
		if (d->lost[r])
			continue;
		ret = dist_wait_msg(d, r, TAG_SYNC, h.seq, limit, &b, &len);
		struct msg_head in = {0};
		if (!ret && len >= sizeof(in))
			memcpy(&in, b, sizeof(in));
		free(b);
		b = NULL;
		in.msg[sizeof(in.msg) - 1] = '\0';
		if (ret) {
			d->lost[r] = true;
			in.status = -EHOSTDOWN;
			snprintf(in.msg, sizeof(in.msg), "lost: never reached the barrier");
		}
		bool waited = out.status == -ETIMEDOUT || out.status == -EHOSTDOWN;
		if (in.status && (!out.status || (waited && in.status != -ETIMEDOUT &&
						   in.status != -EHOSTDOWN))) {
			out.status = in.status;
			out.usage = in.usage;
			snprintf(out.msg, sizeof(out.msg), "rank %d (%s): %.400s", r,
				 d->hosts[r], in.msg);
		}
	}
	dist_post_all(d, TAG_SYNC_GO, &out, sizeof(out));
	if (!out.status)
		return 0;
	memset(err, 0, sizeof(*err));
	err_set(err, -out.status, "%s", out.msg);
	err->usage = out.usage;
	return out.status;
}

int dist_send(struct dist *d, int to, const void *buf, size_t len,
	      struct ioc_err *err)
{
	size_t n = sizeof(uint32_t) + len;
	char *m = malloc(n);
	if (!m)
		return err_set(err, ENOMEM, "out of memory");
	memcpy(m, &d->seq, sizeof(uint32_t));
	memcpy(m + sizeof(uint32_t), buf, len);
	int ret = comm_post(to, TAG_P2P, m, n);
	free(m);
	if (ret)
		return err_set(err, EIO, "MPI: cannot send to rank %d (%s)", to, d->hosts[to]);
	return 0;
}

int dist_recv(struct dist *d, int from, void *buf, size_t len,
	      struct ioc_err *err)
{
	void *b = NULL;
	size_t n = 0;
	int ret = dist_wait_msg(d, from, TAG_P2P, d->seq, d->timeout_ns, &b, &n);
	if (ret || n != sizeof(uint32_t) + len) {
		free(b);
		return err_set(err, ret ? -ret : EPROTO, "rank %d (%s): %s", from,
			       d->hosts[from], ret ? "nothing received in time" : "unexpected message");
	}
	memcpy(buf, (char *)b + sizeof(uint32_t), len);
	free(b);
	return 0;
}

int dist_gather(struct dist *d, const void *mine, size_t len, void *all,
		struct ioc_err *err)
{
	uint32_t seq = ++d->seq;
	if (d->rank != 0) {
		size_t n = sizeof(seq) + len;
		char *m = malloc(n);
		if (!m)
			return err_set(err, ENOMEM, "out of memory");
		memcpy(m, &seq, sizeof(seq));
		memcpy(m + sizeof(seq), mine, len);
		int ret = comm_post(0, TAG_GATHER, m, n);
		free(m);
		return ret ? err_set(err, EIO, "MPI: cannot send to rank 0") : 0;
	}
	memcpy(all, mine, len);
	for (int r = 1; r < d->size; r++) {
		void *b = NULL;
		size_t n = 0;
		if (d->lost[r] || dist_wait_msg(d, r, TAG_GATHER, seq, d->timeout_ns, &b, &n) ||
		    n != sizeof(seq) + len) {
			free(b);
			d->lost[r] = true;
			return err_set(err, EHOSTDOWN, "rank %d (%s): lost: sent nothing",
				       r, d->hosts[r]);
		}
		memcpy((char *)all + (size_t)r * len, (char *)b + sizeof(seq), len);
		free(b);
	}
	return 0;
}

int dist_allgather(struct dist *d, const void *mine, size_t len, void *all,
		   uint64_t wait_ns, struct ioc_err *err)
{
	uint32_t seq = ++d->seq;
	size_t total = (size_t)d->size * len;
	char *m = malloc(sizeof(seq) + (total > len ? total : len));
	void *b = NULL;
	size_t n = 0;
	int ret = 0;

	if (!m)
		return err_set(err, ENOMEM, "out of memory");
	memcpy(m, &seq, sizeof(seq));
	if (d->rank != 0) {
		memcpy(m + sizeof(seq), mine, len);
		if (comm_post(0, TAG_GATHER, m, sizeof(seq) + len) ||
		    dist_wait_msg(d, 0, TAG_ALL, seq, wait_ns, &b, &n) ||
		    n != sizeof(seq) + total)
			ret = err_set(err, EHOSTDOWN, "rank 0: no answer at start (lost?)");
		else
			memcpy(all, (char *)b + sizeof(seq), total);
		free(b);
		free(m);
		return ret;
	}
	memcpy(all, mine, len);
	for (int r = 1; r < d->size && !ret; r++) {
		if (dist_wait_msg(d, r, TAG_GATHER, seq, wait_ns, &b, &n) ||
		    n != sizeof(seq) + len) {
			d->lost[r] = true;
			ret = err_set(err, EHOSTDOWN, "rank %d: did not answer at start (lost?)", r);
		} else {
			memcpy((char *)all + (size_t)r * len, (char *)b + sizeof(seq), len);
		}
		free(b);
		b = NULL;
	}
	if (!ret) {
		memcpy(m + sizeof(seq), all, total);
		ret = dist_post_all(d, TAG_ALL, m, sizeof(seq) + total)
			      ? err_set(err, EIO, "MPI: cannot answer the ranks at start") : 0;
	}
	free(m);
	return ret;
}

int dist_pairs(struct dist *d, bool ring, uint64_t pair_ns, dist_pair_fn fn,
	       void *arg, struct ioc_err *err)
{
	struct ioc_err none = {0};
	int ret = dist_sync(d, 0, 0, &none, err); /* everyone is here */

	for (int a = 0; a < d->size && !ret; a++) {
		for (int b = 0; b < d->size && !ret; b++) {
			if (a == b || (ring && b != (a + 1) % d->size))
				continue;
			struct ioc_err local = {0};
			int lret = 0;
			if (d->rank == a)
				lret = fn(arg, b, true, &local);
			else if (d->rank == b)
				lret = fn(arg, a, false, &local);
			ret = dist_sync(d, pair_ns, lret, &local, err);
		}
	}
	return ret;
}
