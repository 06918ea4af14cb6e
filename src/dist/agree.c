/* agree.c - before any I/O, every rank must have validated its part and
 * run the same job of the same iochar; see dist_agree in dist.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dist/dist.h"
#include "dist/internal.h"

struct vote {
	uint64_t what_hash;       /* FNV-1a of the job or plan text */
	char version[32];
	int32_t ret;              /* this rank's validation */
	int32_t usage;
	char msg[IOC_ERR_MAX];
};

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

#define AGREE_LINE 160

/* Where one rank's text first differs from rank 0's: the section
 * ("[job 0]") and the two lines, "" for a line one of them lacks. */
struct first_diff {
	int32_t differs;
	char section[64];
	char mine[AGREE_LINE], rank0[AGREE_LINE];
};

/* Line k's extent in s (its start; *len without the newline), NULL when s
 * has fewer lines. */
static const char *nth_line(const char *s, unsigned k, size_t *len)
{
	for (unsigned i = 0; i < k && s; i++) {
		s = strchr(s, '\n');
		s = s ? s + 1 : NULL;
	}
	if (!s || !*s)
		return NULL;
	*len = strcspn(s, "\n");
	return s;
}

static void first_diff(const char *mine, const char *rank0, struct first_diff *fd)
{
	memset(fd, 0, sizeof(*fd));
	for (unsigned k = 0;; k++) {
		size_t la = 0, lb = 0;
		const char *a = nth_line(mine, k, &la), *b = nth_line(rank0, k, &lb);
		if (!a && !b)
			return;
		if (a && b && la == lb && !memcmp(a, b, la)) {
			if (a[0] == '[')
				snprintf(fd->section, sizeof(fd->section), "%.*s", (int)la, a);
			continue;
		}
		fd->differs = 1;
		snprintf(fd->mine, sizeof(fd->mine), "%.*s", a ? (int)la : 0, a ? a : "");
		snprintf(fd->rank0, sizeof(fd->rank0), "%.*s", b ? (int)lb : 0, b ? b : "");
		return;
	}
}

/* The ranks' texts differ: rank 0's goes to every rank, each finds where
 * its own first differs, and all learn every rank's answer, so rank 0
 * names the option and both values. 0, or -errno with a message. */
static int name_difference(struct dist *d, const char *what, const struct vote *all,
			   struct ioc_err *err)
{
	uint32_t len = d->rank == 0 ? (uint32_t)strlen(what) : 0;
	struct first_diff mine, *diffs;
	char *text;
	int ret;

	if ((ret = dist_share(d, &len, sizeof(len), err)))
		return ret;
	text = calloc(1, (size_t)len + 1);
	diffs = calloc((size_t)d->size, sizeof(*diffs));
	if (!text || !diffs) {
		free(text);
		free(diffs);
		return err_set(err, ENOMEM, "out of memory");
	}
	if (d->rank == 0)
		memcpy(text, what, len);
	if (!(ret = dist_share(d, text, (size_t)len + 1, err))) {
		first_diff(what, text, &mine);
		ret = dist_allgather(d, &mine, sizeof(mine), diffs, d->timeout_ns, err);
	}
	for (int r = 1; r < d->size && !ret; r++) {
		if (all[r].what_hash == all[0].what_hash || !diffs[r].differs)
			continue;
		ret = err_usage(err, EPROTO,
				"rank %d (%s) was given a different job or plan than rank 0 (%s): "
				"%s%s'%s' there, '%s' on rank 0: every rank must run the same options",
				r, d->hosts[r], d->hosts[0], diffs[r].section,
				diffs[r].section[0] ? " " : "", diffs[r].mine[0] ? diffs[r].mine : "(none)",
				diffs[r].rank0[0] ? diffs[r].rank0 : "(none)");
	}
	free(text);
	free(diffs);
	return ret;
}

int dist_agree(struct dist *d, const char *what, int local_ret,
	       const struct ioc_err *local_err, struct ioc_err *err)
{
	struct vote mine = {0}, *all;
	int ret = 0;

	if (!d) {
		if (local_ret && err != local_err)
			*err = *local_err;
		return local_ret;
	}
	mine.what_hash = fnv1a(what);
	snprintf(mine.version, sizeof(mine.version), "%s", IOCHAR_VERSION);
	mine.ret = local_ret;
	mine.usage = local_err->usage;
	snprintf(mine.msg, sizeof(mine.msg), "%s", local_err->msg);
	all = calloc((size_t)d->size, sizeof(*all));
	if (!all)
		return err_set(err, ENOMEM, "out of memory");
	/* parsing and validating may take a while on some ranks (devices) */
	if ((ret = dist_allgather(d, &mine, sizeof(mine), all, 6 * d->timeout_ns, err))) {
		free(all);
		return ret;
	}
	memset(err, 0, sizeof(*err));
	/* versions first: a different binary may parse the same text apart */
	for (int r = 1; r < d->size && !ret; r++)
		if (strcmp(all[r].version, all[0].version))
			ret = err_usage(err, EPROTO,
					"rank %d (%s) runs iochar %s, rank 0 (%s) runs %s: "
					"use one version everywhere", r, d->hosts[r],
					all[r].version, d->hosts[0], all[0].version);
	for (int r = 0; r < d->size && !ret; r++)
		if (all[r].ret)
			ret = all[r].usage
				      ? err_usage(err, -all[r].ret, "rank %d (%s): %s", r,
						  d->hosts[r], all[r].msg)
				      : err_set(err, -all[r].ret, "rank %d (%s): %s", r,
						d->hosts[r], all[r].msg);
	bool differ = false;
	for (int r = 1; r < d->size && !ret; r++)
		differ |= all[r].what_hash != all[0].what_hash;
	if (!ret && differ) /* every rank sees it: all take this step together */
		ret = name_difference(d, what, all, err);
	if (!ret && differ) /* same text hashed apart: still refuse, unnamed */
		ret = err_usage(err, EPROTO, "a rank was given a different job or plan than "
				"rank 0 (%s): every rank must run the same options", d->hosts[0]);
	free(all);
	return ret;
}
