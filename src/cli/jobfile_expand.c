/* jobfile_expand.c - fio's substitutions in job-file values. See
 * jobfile_expand.h; fio 3.33 does them in options.c (fio_option_dup_subs,
 * fio_keyword_replace, bc_calc). */
#include "cli/jobfile_expand.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A growing string, never past max bytes (the job file's expansion
 * budget): -E2BIG rather than a value that outgrows memory. */
struct sbuf {
	char *s;
	size_t len, cap, max;
};

static int sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (n > b->max || b->len > b->max - n)
		return -E2BIG;
	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *grown = realloc(b->s, cap);

		if (!grown)
			return -ENOMEM;
		b->s = grown;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

/* ${VAR}: fio substitutes the variable's value, or nothing when it is
 * unset; "${}" and a "${" without '}' stay as they are. Text between
 * references is copied a run at a time, and the next '}' is searched for
 * only once it is behind: linear in the value (a '}' search per byte
 * made a 1 MB value take seconds). */
static int expand_env(const char *v, struct sbuf *b)
{
	const char *close = strchr(v, '}');
	int ret = sb_add(b, "", 0);

	while (!ret && *v) {
		const char *dollar = strchr(v + 1, '$');
		size_t run = dollar ? (size_t)(dollar - v) : strlen(v);

		if (close && close < v)
			close = strchr(v, '}');
		if (v[0] == '$' && v[1] == '{' && close && close > v + 2) {
			char name[256];
			const char *env;

			snprintf(name, sizeof(name), "%.*s",
				 (int)(close - v - 2), v + 2);
			env = getenv(name);
			if (env)
				ret = sb_add(b, env, strlen(env));
			v = close + 1;
			continue;
		}
		ret = sb_add(b, v, run);
		v += run;
	}
	return ret;
}

/* The keywords' values, as fio computes them at start. */
static unsigned long long keyword_value(int i)
{
	long page = sysconf(_SC_PAGESIZE), pages = sysconf(_SC_PHYS_PAGES);

	if (i == 0)
		return page > 0 ? (unsigned long long)page : 4096;
	if (i == 1)
		return page > 0 && pages > 0
			   ? (unsigned long long)pages * (unsigned long long)page
				 >> 20
			   : 0;
	return (unsigned long long)sysconf(_SC_NPROCESSORS_CONF);
}

/* Replace every keyword of in; *hit says whether one was there. */
static int expand_keywords(const char *in, struct sbuf *b, bool *hit)
{
	static const char *const words[] = {"$pagesize", "$mb_memory",
					    "$ncpus"};
	int ret = sb_add(b, "", 0);

	*hit = false;
	while (!ret && *in) {
		int k = -1;

		for (int i = 0; i < 3 && k < 0; i++)
			if (!strncmp(in, words[i], strlen(words[i])))
				k = i;
		if (k < 0) {
			const char *dollar = strchr(in + 1, '$');
			size_t run = dollar ? (size_t)(dollar - in) : strlen(in);

			ret = sb_add(b, in, run);
			in += run;
			continue;
		}
		char num[32];
		int n = snprintf(num, sizeof(num), "%llu", keyword_value(k));

		ret = sb_add(b, num, (size_t)n);
		in += strlen(words[k]);
		*hit = true;
	}
	return ret;
}

struct arith {
	const char *p;
	int depth;
	int bad; /* -EINVAL or -ERANGE */
};

static long long arith_sum(struct arith *a);

static void arith_skip(struct arith *a)
{
	while (isspace((unsigned char)*a->p))
		a->p++;
}

static long long arith_atom(struct arith *a)
{
	long long v = 0;

	arith_skip(a);
	if (*a->p == '-') {
		a->p++;
		v = arith_atom(a);
		return v == INT64_MIN ? (a->bad = -ERANGE, 0) : -v;
	}
	if (*a->p == '(') {
		if (++a->depth > 64)
			return a->bad = -EINVAL, 0;
		a->p++;
		v = arith_sum(a);
		arith_skip(a);
		if (*a->p != ')')
			return a->bad = -EINVAL, 0;
		a->p++;
		a->depth--;
		return v;
	}
	if (!isdigit((unsigned char)*a->p))
		return a->bad = -EINVAL, 0;
	while (isdigit((unsigned char)*a->p)) {
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, *a->p - '0', &v))
			a->bad = -ERANGE;
		a->p++;
	}
	return v;
}

static long long arith_product(struct arith *a)
{
	long long v = arith_atom(a);

	for (arith_skip(a); !a->bad && strchr("*/%", *a->p) && *a->p;
	     arith_skip(a)) {
		char op = *a->p++;
		long long r = arith_atom(a);

		if (op == '*' && __builtin_mul_overflow(v, r, &v))
			a->bad = -ERANGE;
		else if (op != '*' && (r == 0 || (v == INT64_MIN && r == -1)))
			a->bad = -EINVAL;
		else if (op != '*')
			v = op == '/' ? v / r : v % r;
	}
	return v;
}

static long long arith_sum(struct arith *a)
{
	long long v = arith_product(a);

	for (arith_skip(a); !a->bad && (*a->p == '+' || *a->p == '-');
	     arith_skip(a)) {
		char op = *a->p++;
		long long r = arith_product(a);

		if (op == '+' ? __builtin_add_overflow(v, r, &v)
			      : __builtin_sub_overflow(v, r, &v))
			a->bad = -ERANGE;
	}
	return v;
}

int jobfile_arith(const char *s, long long *v)
{
	struct arith a = {.p = s};
	long long r = arith_sum(&a);

	arith_skip(&a);
	if (!a.bad && *a.p)
		a.bad = -EINVAL;
	if (a.bad)
		return a.bad;
	*v = r;
	return 0;
}

int jobfile_expand(const char *key, const char *value, size_t *budget,
		   char **out, struct ioc_err *err)
{
	struct sbuf env = {.max = *budget}, kw = {.max = *budget};
	size_t used;
	bool hit;
	long long v;
	int ret;

	ret = expand_env(value, &env);
	if (!ret)
		ret = expand_keywords(env.s, &kw, &hit);
	free(env.s);
	if (ret) {
		free(kw.s);
		if (ret == -E2BIG)
			return err_usage(err, E2BIG,
					 "%s: after ${VAR} substitution the job "
					 "file's values pass %u MiB, the most "
					 "they may hold",
					 key, JOBFILE_EXPAND_MAX >> 20);
		return err_set(err, ENOMEM, "%s: out of memory", key);
	}
	used = kw.len; /* taken from the budget on success only */
	/* fio asks bc only when a keyword was replaced and there is math;
	 * a quote keeps bc out too. */
	if (hit && strpbrk(kw.s, "+-*/") && !strchr(kw.s, '\'')) {
		ret = jobfile_arith(kw.s, &v);
		if (ret) {
			err_usage(err, EINVAL,
				  "%s=%s: after $pagesize/$mb_memory/$ncpus "
				  "this is '%s', which is not integer "
				  "arithmetic (+ - * / %% and parentheses)",
				  key, value, kw.s);
			free(kw.s);
			return -EINVAL;
		}
		char num[24];

		snprintf(num, sizeof(num), "%lld", v);
		free(kw.s);
		kw.s = strdup(num);
		if (!kw.s)
			return err_set(err, ENOMEM, "%s: out of memory", key);
	}
	*budget -= used;
	*out = kw.s;
	return 0;
}
