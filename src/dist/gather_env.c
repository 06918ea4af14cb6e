/* gather_env.c - every rank's environment to rank 0 (dist_gather_env and
 * dist_gather_env_run in dist.h): each rank serialises its own snapshot
 * with the JSON emitter of every other environment (json_parts.h) and
 * sends the text; rank 0 waits for each with the usual deadline. The
 * environment is a description, never a figure, so nothing here fails a
 * run: a lost or silent rank simply has no environment. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dist/comm.h"
#include "dist/dist.h"
#include "dist/internal.h"
#include "output/json_parts.h"

/* Every rank's text (mine, any length; NULL sends nothing) into rank 0's
 * all[size] (malloc'd, NUL-terminated; NULL for a rank that is lost, sent
 * nothing in time or sent an empty one). A rank that stays silent past
 * the timeout is marked lost, as every other wait does. 0 or -ENOMEM. */
static int gather_text(struct dist *d, const char *mine, size_t len, char **all)
{
	uint32_t seq = ++d->seq;

	if (d->rank != 0) {
		char *m = malloc(sizeof(seq) + len);
		if (!m)
			return -ENOMEM;
		memcpy(m, &seq, sizeof(seq));
		if (len)
			memcpy(m + sizeof(seq), mine, len);
		int ret = comm_post(0, TAG_GATHER, m, sizeof(seq) + len);
		free(m);
		return ret == -ENOMEM ? ret : 0; /* rank 0 gone: it needs none */
	}
	if (mine && len && !(all[0] = strndup(mine, len)))
		return -ENOMEM;
	for (int r = 1; r < d->size; r++) {
		void *b = NULL;
		size_t n = 0;
		if (d->lost[r])
			continue;
		int ret = dist_wait_msg(d, r, TAG_GATHER, seq, d->timeout_ns, &b, &n);
		if (ret == -ENOMEM)
			return ret;
		if (ret) {
			d->lost[r] = true;
			continue;
		}
		if (n > sizeof(seq) &&
		    !(all[r] = strndup((char *)b + sizeof(seq), n - sizeof(seq)))) {
			free(b);
			return -ENOMEM;
		}
		free(b);
	}
	return 0;
}

int dist_gather_env(struct dist *d, const struct environment *env, char ***out,
		    struct ioc_err *err)
{
	char *text = NULL;
	size_t len = 0;
	char **all = NULL;

	*out = NULL;
	if (!d)
		return 0;
	if (d->rank == 0 && !(all = calloc((size_t)d->size, sizeof(*all))))
		return err_set(err, ENOMEM, "out of memory");
	/* a rank with none (stopped before it ran) or that cannot serialise
	 * its own still takes part, empty */
	if ((!env->inv && !env->hostname[0]) || json_environment_text(env, &text, &len))
		len = 0;
	int ret = gather_text(d, text, len, all);
	free(text);
	if (ret) {
		dist_env_free(all, d->size);
		return err_set(err, -ret, "out of memory gathering the hosts' environments");
	}
	*out = all;
	return 0;
}

int dist_gather_env_run(struct dist *d, struct run_result *r, struct ioc_err *err)
{
	char **all;
	static const struct environment none; /* a result without one */
	int ret = dist_gather_env(d, r->env ? r->env : &none, &all, err);
	if (ret || !all)
		return ret;
	for (unsigned i = 0; i < r->nr_hosts; i++) {
		int rank = r->hosts[i].rank;
		if (rank >= 0 && rank < d->size && !r->hosts[i].env_json) {
			r->hosts[i].env_json = all[rank];
			all[rank] = NULL;
		}
	}
	dist_env_free(all, d->size);
	return 0;
}

void dist_env_free(char **all, int size)
{
	for (int r = 0; all && r < size; r++)
		free(all[r]);
	free(all);
}
