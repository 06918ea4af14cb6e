/* share.c - rank 0's bytes to every rank (dist_share in dist.h), with a
 * deadline like every wait of a run over many hosts. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dist/comm.h"
#include "dist/dist.h"
#include "dist/internal.h"

int dist_share(struct dist *d, void *buf, size_t len, struct ioc_err *err)
{
	if (!d || d->size == 1)
		return 0;
	size_t n = sizeof(uint32_t) + len;
	char *m = malloc(n);
	void *in = NULL;
	size_t in_len = 0;
	int ret;
	if (!m)
		return err_set(err, ENOMEM, "out of memory");
	memcpy(m, &d->seq, sizeof(uint32_t));
	if (d->rank == 0) {
		memcpy(m + sizeof(uint32_t), buf, len);
		ret = dist_post_all(d, TAG_SHARE, m, n);
		free(m);
		return ret ? err_set(err, EIO, "MPI: cannot send the figures to the ranks") : 0;
	}
	free(m);
	ret = dist_wait_msg(d, 0, TAG_SHARE, d->seq, d->timeout_ns, &in, &in_len);
	if (ret || in_len != n) {
		free(in);
		d->lost[0] = true;
		return err_set(err, EHOSTDOWN, "rank 0 (%s): lost: no figures after the run",
			       d->hosts[0]);
	}
	memcpy(buf, (char *)in + sizeof(uint32_t), len);
	free(in);
	return 0;
}

int msg_head_outcome(struct msg_head *h, struct ioc_err *err)
{
	h->msg[sizeof(h->msg) - 1] = '\0';
	if (!h->status)
		return 0;
	memset(err, 0, sizeof(*err));
	err_set(err, -h->status, "%s", h->msg);
	err->usage = h->usage;
	return h->status;
}
