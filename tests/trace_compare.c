/* trace_compare.c - running the same job through fio and iochar under
 * strace and comparing the calls each made on its file; see
 * trace_compare.h. */
/* cmocka.h needs these first, in this order */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <json-c/json.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "trace_compare.h"


char tc_iochar[4096];

/* Run the shell command made from fmt; its exit status (-1: not run). */
int tc_sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	int st = system(cmd);
	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

void tc_skip_without_tools(void)
{
	if (tc_sh("command -v fio >/dev/null 2>&1")) {
		print_message("SKIP: fio is not installed (scripts/deps.sh)\n");
		skip();
	}
	if (tc_sh("command -v strace >/dev/null 2>&1")) {
		print_message("SKIP: strace is not installed (scripts/deps.sh)\n");
		skip();
	}
	if (tc_sh("timeout 10 strace -qq -o /dev/null true >/dev/null 2>&1")) {
		print_message("SKIP: strace cannot trace here (ptrace refused)\n");
		skip();
	}
}

int tc_setup(void **state)
{
	char *d = strdup("/tmp/iochar-engines-XXXXXX");

	if (!d || !mkdtemp(d))
		return -1;
	if (iochar_path()[0] == '/')
		snprintf(tc_iochar, sizeof(tc_iochar), "%s", iochar_path());
	else if (!realpath(iochar_path(), tc_iochar))
		return -1;
	*state = d;
	return 0;
}

int tc_teardown(void **state)
{
	char *d = *state;

	if (d && strncmp(d, "/tmp/iochar-engines-", 20) == 0)
		tc_sh("rm -rf '%s'", d);
	free(d);
	return 0;
}

/* The descriptor a traced call works on: its first argument, mmap's
 * fifth. -1 when the line is not a call of a descriptor, -2 for msync
 * (of an address: kept whenever it is asked for). */
static int call_fd(const char *line)
{
	const char *p = strchr(line, '(');

	if (!p)
		return -1;
	if (strncmp(line, "msync(", 6) == 0)
		return -2;
	if (strncmp(line, "mmap(", 5) == 0)
		for (int i = 0; i < 4 && p; i++)
			p = strchr(p + 1, ',');
	return p ? atoi(p + 1) : -1;
}

/* line without its descriptor (-> F) and addresses (0x... -> A), blanks
 * squeezed: what must be equal between fio's call and iochar's. */
static void normalize(const char *line, char *out, size_t cap)
{
	size_t o = 0;
	int fd = call_fd(line);
	char fdtxt[16];
	bool blank = false;

	snprintf(fdtxt, sizeof(fdtxt), "%d", fd);
	for (const char *p = line; *p && o + 2 < cap;) {
		bool at_arg = p > line && (p[-1] == '(' || p[-1] == ' ');
		if (at_arg && strncmp(p, fdtxt, strlen(fdtxt)) == 0 &&
		    (p[strlen(fdtxt)] == ',' || p[strlen(fdtxt)] == ')')) {
			out[o++] = 'F';
			p += strlen(fdtxt);
		} else if (p[0] == '0' && p[1] == 'x') {
			out[o++] = 'A';
			p += 2;
			while ((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'))
				p++;
		} else if (*p == ' ') {
			if (!blank)
				out[o++] = ' ';
			p++;
		} else {
			out[o++] = *p++;
		}
		blank = o && out[o - 1] == ' ';
	}
	out[o] = '\0';
}

/* A pid's line cut by "<unfinished ...>" waits for its "<... resumed>". */
struct partial {
	int pid;
	char text[CALL_LEN * 2];
};

/* One whole traced line (without its pid) from raw, joining a resumed
 * call to its start; false when there is nothing whole yet. */
static bool join_line(struct partial *pend, unsigned npend, const char *raw,
		      char *out, size_t cap)
{
	int pid = atoi(raw);
	const char *rest = strchr(raw, ' ');
	const char *cut = strstr(raw, " <unfinished ...>");

	if (!rest)
		return false;
	while (*rest == ' ') /* strace pads the pid */
		rest++;
	for (unsigned i = 0; i < npend && cut; i++)
		if (pend[i].pid == 0) {
			pend[i].pid = pid;
			snprintf(pend[i].text, sizeof(pend[i].text), "%.*s",
				 (int)(cut - rest), rest);
			return false;
		}
	if (strncmp(rest, "<... ", 5) == 0) {
		const char *r = strstr(rest, "resumed>");
		for (unsigned i = 0; i < npend && r; i++)
			if (pend[i].pid == pid) {
				pend[i].pid = 0;
				snprintf(out, cap, "%s%s", pend[i].text, r + 8);
				return true;
			}
		return false;
	}
	snprintf(out, cap, "%s", rest);
	return true;
}

/* What each traced task knows of a descriptor: fio's job is a process of
 * its own (its descriptors are not its parent's, which may close the same
 * number meanwhile), iochar's workers and glibc's AIO helpers are threads
 * (one table). A task's own openat/close decide for it; a task that never
 * touched the number (an AIO helper) sees the others'. */
struct fd_view {
	int pid, fd;
	bool file; /* open on the job's file */
};

#define FD_VIEWS 512

static struct fd_view *view_of(struct fd_view *v, unsigned *n, int pid, int fd)
{
	for (unsigned i = 0; i < *n; i++)
		if (v[i].pid == pid && v[i].fd == fd)
			return &v[i];
	if (*n == FD_VIEWS)
		fail_msg("trace: more than %d descriptors", FD_VIEWS);
	v[*n] = (struct fd_view){.pid = pid, .fd = fd, .file = false};
	return &v[(*n)++];
}

static bool fd_is_file(const struct fd_view *v, unsigned n, int pid, int fd)
{
	bool any = false;

	for (unsigned i = 0; i < n; i++) {
		if (v[i].fd != fd)
			continue;
		if (v[i].pid == pid)
			return v[i].file;
		any |= v[i].file;
	}
	return any;
}

/* The calls named in names (space-separated, each with its '(') that the
 * trace at path shows on the descriptors of file, in the order made. */
void tc_read_calls(const char *path, const char *file, const char *names,
		       struct calls *out)
{
	FILE *f = fopen(path, "re");
	char raw[4096], line[4096], key[CALL_LEN];
	static struct fd_view views[FD_VIEWS];
	unsigned nv = 0;
	struct partial pend[16] = {{0}};

	assert_non_null(f);
	out->n = 0;
	snprintf(key, sizeof(key), "\"%s\"", file);
	while (fgets(raw, sizeof(raw), f)) {
		raw[strcspn(raw, "\n")] = '\0';
		if (!join_line(pend, 16, raw, line, sizeof(line)))
			continue;
		const char *eq = strrchr(line, '=');
		int fd = call_fd(line), pid = atoi(raw);
		if (strncmp(line, "openat(", 7) == 0 && eq) {
			int r = atoi(eq + 1);
			if (r >= 0)
				view_of(views, &nv, pid, r)->file = strstr(line, key);
		} else if (strncmp(line, "close(", 6) == 0) {
			if (fd >= 0)
				view_of(views, &nv, pid, fd)->file = false;
		} else if (fd == -2 || (fd >= 0 && fd_is_file(views, nv, pid, fd))) {
			char name[32];
			snprintf(name, sizeof(name), "%.*s(",
				 (int)(strchr(line, '(') - line), line);
			if (strstr(names, name) && out->n < MAX_CALLS)
				normalize(line, out->c[out->n++], CALL_LEN);
		}
	}
	fclose(f);
}

/* Run the job through fio and iochar under strace, each on its own file
 * holding the same FILE_BYTES bytes; their calls in *fio, *ioc. */
void tc_trace_both_rc(const char *dir, const char *job, const char *names,
			  struct calls *fio, struct calls *ioc, bool may_fail)
{
	int rf, ri;
	char a[4200], b[4200], ta[4200], tb[4200];

	snprintf(a, sizeof(a), "%s/fio.dat", dir);
	snprintf(b, sizeof(b), "%s/ioc.dat", dir);
	snprintf(ta, sizeof(ta), "%s/fio.trace", dir);
	snprintf(tb, sizeof(tb), "%s/ioc.trace", dir);
	make_file(a, FILE_BYTES);
	assert_int_equal(tc_sh("cp '%s' '%s'", a, b), 0);
	rf = tc_sh("cd '%s' && timeout 60 strace -f -qq -s 0 -e trace=" TRACED
		" -o '%s' fio --name=j --filename='%s' --size=64k --bs=16k %s "
		"--output-format=json --output='%s/fio.json' >'%s/fio.err' 2>&1",
		dir, ta, a, job, dir, dir);
	if (rf && !may_fail) {
		tc_sh("cat '%s/fio.err'", dir);
		fail_msg("fio %s failed", job);
	}
	ri = tc_sh("cd '%s' && " TC_UNDER_STRACE "timeout 60 strace -f -qq -s 0 -e trace=" TRACED
		" -o '%s' '%s' run --name=j --filename='%s' --size=64k "
		"--bs=16k %s --force --output-format=json --output='%s/ioc.json' "
		">/dev/null 2>'%s/ioc.err'",
		dir, tb, tc_iochar, b, job, dir, dir);
	if ((ri != 0) != (rf != 0)) {
		tc_sh("cat '%s/ioc.err'", dir);
		fail_msg("iochar run %s failed", job);
	}
	tc_read_calls(ta, a, names, fio);
	tc_read_calls(tb, b, names, ioc);
}

void tc_trace_both(const char *dir, const char *job, const char *names,
		       struct calls *fio, struct calls *ioc)
{
	tc_trace_both_rc(dir, job, names, fio, ioc, false);
}

void tc_expect_same(const char *what, const struct calls *fio,
			const struct calls *ioc)
{
	for (unsigned i = 0; i < fio->n || i < ioc->n; i++) {
		const char *f = i < fio->n ? fio->c[i] : "(none)";
		const char *o = i < ioc->n ? ioc->c[i] : "(none)";
		if (strcmp(f, o))
			fail_msg("%s: call %u: fio made\n  %s\niochar made\n  %s",
				 what, i, f, o);
	}
}

/* Count the calls of c that start with prefix. */
unsigned tc_count_prefix(const struct calls *c, const char *prefix)
{
	unsigned n = 0;

	for (unsigned i = 0; i < c->n; i++)
		n += strncmp(c->c[i], prefix, strlen(prefix)) == 0;
	return n;
}

json_object *tc_load_json(const char *dir, const char *name)
{
	char p[4200];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	json_object *o = json_object_from_file(p);
	if (!o)
		fail_msg("%s: not JSON", p);
	return o;
}

/* The openat of file in the trace at path (the last one for writing). */
void tc_open_line(const char *path, const char *file, char *out, size_t cap)
{
	char cmd[8400];

	snprintf(cmd, sizeof(cmd),
		 "grep 'openat(AT_FDCWD, \"%s\", O_RDWR' '%s' | tail -n 1", file,
		 path);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	out[0] = '\0';
	if (!fgets(out, (int)cap, p))
		out[0] = '\0';
	pclose(p);
}
