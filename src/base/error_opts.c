/* error_opts.c - see error_opts.h. */
#define _GNU_SOURCE
#include "base/error_opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_writer.h"

#define ERR_ALL 0xffffu /* fio's ERROR_TYPE_ANY */

static const struct {
	const char *name;
	unsigned bits;
} continue_values[] = {
	{"none", 0}, {"read", 1u << ERR_CLASS_READ}, {"write", 1u << ERR_CLASS_WRITE},
	{"io", 1u << ERR_CLASS_READ | 1u << ERR_CLASS_WRITE},
	{"verify", 1u << ERR_CLASS_VERIFY}, {"all", ERR_ALL}, {"0", 0}, {"1", ERR_ALL},
};

#define NR_CONTINUE (sizeof(continue_values) / sizeof(continue_values[0]))

int error_opts_parse_continue(void *obj, const struct option_def *o, const char *v,
			      struct ioc_err *err)
{
	for (size_t i = 0; i < NR_CONTINUE; i++)
		if (!strcmp(v, continue_values[i].name)) {
			((struct job_spec *)obj)->continue_on_error = continue_values[i].bits;
			return 0;
		}
	return err_usage(err, EINVAL, "%s=%s: not one of the accepted values: none, read, "
			 "write, io, verify, all, 0, 1", o->name, v);
}

/* fio's name of bits, or NULL for a mix only ignore_error makes */
static const char *continue_name(unsigned bits)
{
	for (size_t i = 0; i < NR_CONTINUE; i++)
		if (continue_values[i].bits == bits)
			return continue_values[i].name;
	return NULL;
}

int error_opts_show_continue(const void *obj, const struct option_def *o, FILE *f)
{
	(void)o;
	return fprintf(f, "%u", ((const struct job_spec *)obj)->continue_on_error) < 0 ? -EIO : 0;
}

void error_opts_emit_continue(const void *obj, const struct option_def *o, struct jw *w)
{
	unsigned bits = ((const struct job_spec *)obj)->continue_on_error;
	const char *name = continue_name(bits);
	char buf[16];
	snprintf(buf, sizeof(buf), "%u", bits);
	jw_kv_string(w, o->json ? o->json : o->name, name ? name : buf);
}

/* One error of a list: a name (EIO) or a number (-5 is 5); 0 if neither. */
static int error_number(const char *s)
{
	if (s[0] == 'E') {
		for (int e = 1; e < 4096; e++) {
			const char *n = strerrorname_np(e);
			if (n && !strcmp(n, s))
				return e;
		}
		return 0;
	}
	int v = atoi(s);
	return v < 0 ? -v : v;
}

/* One class's ':' list into out (*nr errors; none when empty). */
static int parse_list(const struct option_def *o, char *s, int *out, unsigned *nr,
		      struct ioc_err *err)
{
	char *save = NULL;
	*nr = 0;
	for (char *p = strtok_r(s, ":", &save); p; p = strtok_r(NULL, ":", &save)) {
		int e = error_number(p);
		if (!e)
			return err_usage(err, EINVAL, "%s: unknown error '%s' (an errno name "
					 "such as EIO, or its number)", o->name, p);
		if (*nr == JOB_MAX_IGNORE)
			return err_usage(err, E2BIG, "%s: more than %d errors in one class",
					 o->name, JOB_MAX_IGNORE);
		out[(*nr)++] = e;
	}
	return 0;
}

int error_opts_parse_ignore(void *obj, const struct option_def *o, const char *v,
			    struct ioc_err *err)
{
	struct job_spec *j = obj;
	int lists[ERR_CLASS_COUNT][JOB_MAX_IGNORE];
	unsigned nr[ERR_CLASS_COUNT] = {0};
	char *copy = strdup(v), *p = copy;
	int ret = 0;

	if (!copy)
		return err_set(err, ENOMEM, "out of memory");
	for (int c = 0; p && !ret; c++) {
		char *next = strchr(p, ',');
		if (next)
			*next++ = '\0';
		if (c == ERR_CLASS_COUNT)
			ret = err_usage(err, EINVAL, "%s=%s: at most 3 lists (read, write, "
					"verify errors)", o->name, v);
		else
			ret = parse_list(o, p, lists[c], &nr[c], err);
		p = next;
	}
	free(copy);
	for (int c = 0; c < ERR_CLASS_COUNT && !ret; c++) {
		if (!nr[c])
			continue; /* fio: an empty list leaves the class as it was */
		memcpy(j->ignore_errs[c], lists[c], nr[c] * sizeof(int));
		j->nr_ignore[c] = nr[c];
		j->continue_on_error |= 1u << c;
	}
	return ret;
}

int error_opts_show_ignore(const void *obj, const struct option_def *o, FILE *f)
{
	const struct job_spec *j = obj;
	(void)o;
	for (int c = 0; c < ERR_CLASS_COUNT; c++) {
		if (c && fputc(',', f) == EOF)
			return -EIO;
		for (unsigned i = 0; i < j->nr_ignore[c]; i++)
			if (fprintf(f, "%s%d", i ? ":" : "", j->ignore_errs[c][i]) < 0)
				return -EIO;
	}
	return 0;
}

void error_opts_emit_ignore(const void *obj, const struct option_def *o, struct jw *w)
{
	char buf[ERR_CLASS_COUNT * JOB_MAX_IGNORE * 12];
	FILE *f = fmemopen(buf, sizeof(buf), "w");
	buf[0] = 0;
	if (f) {
		(void)error_opts_show_ignore(obj, o, f);
		fclose(f);
	}
	jw_kv_string(w, o->json ? o->json : o->name, buf);
}

bool error_opts_continues(const struct job_spec *j, enum io_dir d, int err)
{
	static const int fio_default[] = {EIO, EILSEQ};
	int c = err == EILSEQ ? ERR_CLASS_VERIFY : d == DIR_READ ? ERR_CLASS_READ : ERR_CLASS_WRITE;

	if (!(j->continue_on_error & (1u << c)))
		return false;
	if (!j->nr_ignore[c])
		return err == fio_default[0] || err == fio_default[1];
	for (unsigned i = 0; i < j->nr_ignore[c]; i++)
		if (j->ignore_errs[c][i] == err)
			return true;
	return false;
}
