/* fio_side.c - see fio_side.h. */
#define _GNU_SOURCE
#include "fio_side.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "harness.h"

bool side_have(const char *prog)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "command -v '%s' >/dev/null 2>&1", prog);
	return system(cmd) == 0;
}

/* The shell command running tool in dir/sub (made), its status in rc. */
static void run_cmd(char *cmd, size_t size, const char *tool, const char *dir,
		    const char *sub, const char *opts)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	mkdir(path, 0755);
	bool fio = !strcmp(tool, "fio");
	char *bin = realpath(iochar_path(), NULL); /* the run cds */
	assert_non_null(bin);
	snprintf(cmd, size,
		 "(cd '%s' && timeout 60 %s%s %s%s > out.json "
		 "2> err.txt; echo $? > rc)", path, fio ? "fio" : bin,
		 fio ? "" : " run", opts,
		 strstr(opts, "--output-format=") ? "" : " --output-format=json");
	free(bin);
}

static int read_rc(const char *dir, const char *sub)
{
	char path[4200];
	int rc = -1;
	snprintf(path, sizeof(path), "%s/%s/rc", dir, sub);
	FILE *f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &rc) != 1)
			rc = -1;
		fclose(f);
	}
	return rc;
}

int side_run(const char *tool, const char *dir, const char *sub,
	     const char *opts)
{
	char cmd[16384];
	run_cmd(cmd, sizeof(cmd), tool, dir, sub, opts);
	if (system(cmd) == -1)
		return -1;
	return read_rc(dir, sub);
}

void side_run_both(const char *dir, const char *opts, int *rf, int *ri)
{
	char a[16384], b[16384], cmd[33000];
	run_cmd(a, sizeof(a), "fio", dir, "fio", opts);
	run_cmd(b, sizeof(b), "iochar", dir, "iochar", opts);
	snprintf(cmd, sizeof(cmd), "%s & %s & wait", a, b);
	*rf = *ri = -1;
	if (system(cmd) == -1)
		return;
	*rf = read_rc(dir, "fio");
	*ri = read_rc(dir, "iochar");
}

json_object *side_json(const char *dir, const char *sub)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s/out.json", dir, sub);
	json_object *o = json_object_from_file(path);
	if (!o)
		fprintf(stderr, "%s: not JSON\n", path);
	return o;
}

double side_jobs_sum(json_object *doc, const char *dir, const char *key)
{
	json_object *jobs, *d, *v;
	double sum = 0;
	if (!json_object_object_get_ex(doc, "jobs", &jobs))
		return -1;
	for (size_t i = 0; i < json_object_array_length(jobs); i++) {
		json_object *j = json_object_array_get_idx(jobs, i);
		if (json_object_object_get_ex(j, dir, &d) &&
		    json_object_object_get_ex(d, key, &v))
			sum += json_object_get_double(v);
	}
	return sum;
}

bool side_log_read(const char *path, struct side_log *l)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t cap = 0;

	*l = (struct side_log){0};
	if (!f)
		return false;
	bool first = true;
	while (fgets(line, sizeof(line), f)) {
		if (l->n == cap) {
			cap = cap ? cap * 2 : 1024;
			l->v = realloc(l->v, cap * sizeof(*l->v));
			assert_non_null(l->v);
		}
		unsigned c = 0;
		char *p = line, *end;
		while (c < 6) {
			unsigned long long x = strtoull(p, &end, 0);
			if (end == p)
				break;
			l->v[l->n][c++] = x;
			p = end + strspn(end, ", \n");
		}
		if (first)
			l->cols = c;
		else if (c != l->cols)
			l->cols = 0;
		first = false;
		l->n++;
	}
	fclose(f);
	return true;
}

void side_log_free(struct side_log *l)
{
	free(l->v);
	*l = (struct side_log){0};
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *side_listing(const char *dir, const char *suffix)
{
	DIR *d = opendir(dir);
	char *names[512];
	size_t n = 0, len = 1;
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d)) && n < 512) {
		size_t l = strlen(e->d_name), s = strlen(suffix);
		if (e->d_name[0] == '.' || l < s || strcmp(e->d_name + l - s, suffix))
			continue;
		names[n++] = strdup(e->d_name);
		len += l + 1;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	char *out = calloc(1, len);
	assert_non_null(out);
	for (size_t i = 0; i < n; i++) {
		strcat(out, names[i]);
		strcat(out, "\n");
		free(names[i]);
	}
	return out;
}

void side_run_both_json(const char *dir, const char *opts, json_object **f,
			json_object **i)
{
	int rf, ri;
	side_run_both(dir, opts, &rf, &ri);
	if (rf || ri)
		fail_msg("fio exit %d, iochar exit %d for %s (see %s/*/err.txt)",
			 rf, ri, opts, dir);
	*f = side_json(dir, "fio");
	*i = side_json(dir, "iochar");
	assert_non_null(*f);
	assert_non_null(*i);
}

void side_need_fio(void)
{
	if (!side_have("fio")) {
		print_message("SKIP: fio is not installed (Debian package fio)\n");
		skip();
	}
}

void side_fio_tries(const char *dir, const char *opts, int rc,
		    json_object **doc, side_fio_check *check, unsigned tries)
{
	char why[512];
	unsigned t = 1;
	const char *no = check(rc, *doc, why, sizeof(why));

	for (; no; t++) {
		print_message("fio, try %u of %u: %s\n", t, tries, no);
		if (t == tries)
			fail_msg("fio did not hold in %u tries: %s (%s; see %s/fio/err.txt)",
				 tries, no, opts, dir);
		json_object_put(*doc);
		rc = side_run("fio", dir, "fio", opts);
		*doc = rc == 0 ? side_json(dir, "fio") : NULL;
		no = check(rc, *doc, why, sizeof(why));
	}
	print_message("fio held on try %u of %u%s\n", t, tries,
		      t > 1 ? " (run again alone)" : "");
}

void side_write_job(const char *dir, const char *name, const char *text,
		    char *path, size_t cap)
{
	char own[4200];
	if (!path) {
		path = own;
		cap = sizeof(own);
	}
	snprintf(path, cap, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

json_object *side_job_at(json_object *doc, size_t k)
{
	json_object *jobs;
	assert_true(json_object_object_get_ex(doc, "jobs", &jobs));
	assert_true(k < json_object_array_length(jobs));
	return json_object_array_get_idx(jobs, k);
}

double side_num(json_object *o, const char *key)
{
	json_object *v;
	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("no \"%s\" member", key);
	return json_object_get_double(v);
}

double side_job0(json_object *doc, const char *path)
{
	json_object *jobs = jget(doc, "jobs");
	assert_non_null(jobs);
	return jget_double(json_object_array_get_idx(jobs, 0), path);
}

void side_expect_within(const char *what, double got, double lo, double hi)
{
	if (got < lo || got > hi)
		fail_msg("%s: %.2f, not in %.2f..%.2f", what, got, lo, hi);
}

int side_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}
