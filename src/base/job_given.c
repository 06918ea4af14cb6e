/* job_given.c - the options a job was given, as fio lists them in its
 * JSON; see job.h (given). */
#include "base/job.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int job_given_add(struct job_spec *spec, const char *name, const char *value)
{
	size_t nl = strlen(name) + 1, vl = strlen(value) + 1;
	char *grown = realloc(spec->given, spec->given_len + nl + vl);

	if (!grown)
		return -ENOMEM;
	memcpy(grown + spec->given_len, name, nl);
	memcpy(grown + spec->given_len + nl, value, vl);
	spec->given = grown;
	spec->given_len += nl + vl;
	return 0;
}

const char *job_given_next(const struct job_spec *spec, size_t *pos, size_t end,
			   const char **value)
{
	if (!spec->given || *pos >= end || *pos >= spec->given_len)
		return NULL;
	const char *name = spec->given + *pos;
	*value = name + strlen(name) + 1;
	*pos = (size_t)(*value + strlen(*value) + 1 - spec->given);
	return name;
}

/* Rank by rank, highest first: a stable sort by passes over the ranks
 * present (a section holds few options). */
int job_given_sort(struct job_spec *spec, size_t from, int (*rank)(const char *name))
{
	size_t n = spec->given_len > from ? spec->given_len - from : 0;
	char *out = n ? malloc(n) : NULL;
	const char *name, *value;
	size_t pos, len = 0;
	int hi = -1000000, lo = 1000000;

	if (!n)
		return 0;
	if (!out)
		return -ENOMEM;
	for (pos = from; (name = job_given_next(spec, &pos, spec->given_len, &value));) {
		int r = rank(name);
		hi = r > hi ? r : hi;
		lo = r < lo ? r : lo;
	}
	for (int r = hi; r >= lo; r--) {
		size_t at = from;
		for (pos = from; (name = job_given_next(spec, &pos, spec->given_len, &value));
		     at = pos)
			if (rank(name) == r) {
				memcpy(out + len, spec->given + at, pos - at);
				len += pos - at;
			}
	}
	memcpy(spec->given + from, out, n);
	free(out);
	return 0;
}

int job_given_copy(struct job_spec *dst, const struct job_spec *src)
{
	dst->given = NULL;
	dst->given_len = dst->given_own = 0;
	if (!src->given_len)
		return 0;
	if (!(dst->given = malloc(src->given_len)))
		return -ENOMEM;
	memcpy(dst->given, src->given, src->given_len);
	dst->given_len = src->given_len;
	dst->given_own = src->given_own;
	return 0;
}
