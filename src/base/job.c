/* job.c - job spec memory: the spec owns its filename strings. */
#include "base/job.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void job_spec_init(struct job_spec *spec)
{
	memset(spec, 0, sizeof(*spec));
}

static void free_files(struct job_spec *spec)
{
	for (unsigned i = 0; i < spec->nr_files; i++)
		free(spec->files[i]);
	spec->nr_files = 0;
	free(spec->filename);
	spec->filename = NULL;
}

void job_spec_free(struct job_spec *spec)
{
	if (!spec)
		return;
	free_files(spec);
	free(spec->given);
	spec->given = NULL;
	spec->given_len = spec->given_own = 0;
}

/* Split list on ':' ("\:" stays a colon) into freshly allocated strings. */
static int split_files(const char *list, char **files, unsigned *nr)
{
	size_t len = strlen(list);
	char *cur = malloc(len + 1);
	size_t n = 0;
	int ret = 0;

	*nr = 0;
	if (!cur)
		return -ENOMEM;
	for (size_t i = 0; i <= len; i++) {
		char c = list[i];
		if (c == '\\' && list[i + 1] == ':') {
			cur[n++] = ':';
			i++;
			continue;
		}
		if (c != ':' && c != '\0') {
			cur[n++] = c;
			continue;
		}
		if (n == 0)
			continue; /* empty element: "a::b" or trailing ':' */
		if (*nr >= JOB_MAX_FILES) {
			ret = -E2BIG;
			break;
		}
		cur[n] = '\0';
		files[*nr] = strdup(cur);
		if (!files[*nr]) {
			ret = -ENOMEM;
			break;
		}
		(*nr)++;
		n = 0;
	}
	free(cur);
	return ret;
}

int job_spec_set_files(struct job_spec *spec, const char *list)
{
	char *files[JOB_MAX_FILES];
	unsigned nr = 0;
	char *copy = strdup(list);
	int ret = copy ? split_files(list, files, &nr) : -ENOMEM;

	if (ret) {
		for (unsigned i = 0; i < nr; i++)
			free(files[i]);
		free(copy);
		return ret;
	}
	free_files(spec);
	spec->filename = copy;
	memcpy(spec->files, files, nr * sizeof(files[0]));
	spec->nr_files = nr;
	return 0;
}

int job_spec_copy(struct job_spec *dst, const struct job_spec *src)
{
	*dst = *src;
	dst->filename = NULL;
	dst->nr_files = 0;
	if (job_given_copy(dst, src))
		return -ENOMEM;
	if (!src->filename)
		return 0;
	int ret = job_spec_set_files(dst, src->filename);
	if (ret)
		job_spec_free(dst);
	return ret;
}

const char *io_dir_name(enum io_dir d)
{
	return d == DIR_READ ? "read" : d == DIR_WRITE ? "write" : "trim";
}

const char *rw_name(enum rw_mode rw)
{
	switch (rw) {
	case RW_READ:
		return "read";
	case RW_WRITE:
		return "write";
	case RW_RANDREAD:
		return "randread";
	case RW_RANDWRITE:
		return "randwrite";
	case RW_RW:
		return "rw";
	case RW_RANDRW:
		return "randrw";
	case RW_TRIM:
		return "trim";
	case RW_RANDTRIM:
		return "randtrim";
	case RW_TRIMWRITE:
		return "trimwrite";
	case RW_RANDTRIMWRITE:
		return "randtrimwrite";
	}
	return "?";
}
