/* harness.c - see harness.h. */
#define _GNU_SOURCE
#include "harness.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Absolute, so that a test may run it from any directory it changes to
 * (make check gives IOCHAR=build/iochar). */
const char *iochar_path(void)
{
	static char abs[PATH_MAX];
	const char *p = getenv("IOCHAR");

	p = p && *p ? p : "build/iochar";
	if (!abs[0] && (p[0] == '/' || !realpath(p, abs)))
		snprintf(abs, sizeof(abs), "%s", p);
	return abs;
}

static void append(char **buf, size_t *len, const char *data, size_t n)
{
	*buf = realloc(*buf, *len + n + 1);
	assert_non_null(*buf);
	memcpy(*buf + *len, data, n);
	*len += n;
	(*buf)[*len] = '\0';
}

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void run_iochar(struct proc_out *po, const char *cwd, int sigint_after_ms,
		const char *const *args)
{
	run_iochar_signal(po, cwd, SIGINT, sigint_after_ms, args);
}

void run_iochar_signal(struct proc_out *po, const char *cwd, int sig,
		       int after_ms, const char *const *args)
{
	int sigint_after_ms = after_ms;
	int op[2], ep[2];
	char bin[4096];

	/* make a relative binary path survive the chdir */
	if (iochar_path()[0] != '/') {
		assert_non_null(realpath(iochar_path(), bin));
	} else {
		snprintf(bin, sizeof(bin), "%s", iochar_path());
	}
	memset(po, 0, sizeof(*po));
	assert_int_equal(pipe2(op, O_CLOEXEC), 0);
	assert_int_equal(pipe2(ep, O_CLOEXEC), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		const char *argv[64] = {bin};
		int n = 1;
		for (const char *const *a = args; *a && n < 63; a++)
			argv[n++] = *a;
		argv[n] = NULL;
		dup2(op[1], 1);
		dup2(ep[1], 2);
		if (cwd && chdir(cwd) < 0)
			_exit(127);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	close(op[1]);
	close(ep[1]);
	size_t olen = 0, elen = 0;
	append(&po->out, &olen, "", 0);
	append(&po->err, &elen, "", 0);
	struct pollfd pf[2] = {{op[0], POLLIN, 0}, {ep[0], POLLIN, 0}};
	uint64_t t0 = now_ms();
	bool signalled = false;
	int open_fds = 2;
	while (open_fds) {
		int timeout = -1;
		if (sigint_after_ms > 0 && !signalled) {
			int64_t left = (int64_t)t0 + sigint_after_ms - (int64_t)now_ms();
			if (left <= 0) {
				kill(pid, sig);
				signalled = true;
			} else {
				timeout = (int)left;
			}
		}
		if (poll(pf, 2, timeout) < 0 && errno != EINTR)
			fail_msg("poll: %s", strerror(errno));
		for (int i = 0; i < 2; i++) {
			if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP)))
				continue;
			char buf[65536];
			ssize_t n = read(pf[i].fd, buf, sizeof(buf));
			if (n <= 0) {
				close(pf[i].fd);
				pf[i].fd = -1;
				open_fds--;
			} else if (i == 0) {
				append(&po->out, &olen, buf, (size_t)n);
			} else {
				append(&po->err, &elen, buf, (size_t)n);
			}
		}
	}
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	po->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

void proc_out_free(struct proc_out *po)
{
	free(po->out);
	free(po->err);
	po->out = po->err = NULL;
}

void expect_exit(const struct proc_out *po, int want)
{
	if (po->status != want)
		fail_msg("exit %d, wanted %d\nstdout:\n%.3000s\nstderr:\n%.3000s",
			 po->status, want, po->out, po->err);
}

void expect_has(const char *s, const char *want)
{
	if (!strstr(s, want))
		fail_msg("'%s' not in:\n%.4000s", want, s);
}

void expect_note(json_object *run, const char *want)
{
	json_object *notes;
	if (!json_object_object_get_ex(run, "notes", &notes) ||
	    !json_object_is_type(notes, json_type_array))
		fail_msg("no \"notes\" array in the run's JSON (wanted '%s')", want);
	for (size_t i = 0; i < json_object_array_length(notes); i++) {
		const char *s = json_object_get_string(json_object_array_get_idx(notes, i));
		if (s && strstr(s, want))
			return;
	}
	fail_msg("'%s' not in the notes: %.4000s", want,
		 json_object_to_json_string(notes));
}

unsigned count_lines(const char *s)
{
	unsigned n = 0;
	for (const char *p = s; *p; p++)
		n += *p == '\n';
	size_t len = strlen(s);
	return n + (len && s[len - 1] != '\n');
}

json_object *parse_json(const struct proc_out *po)
{
	json_object *o = json_tokener_parse(po->out);
	if (!o || !json_object_is_type(o, json_type_object))
		fail_msg("stdout is not a JSON object:\n%.2000s\nstderr:\n%.2000s",
			 po->out, po->err);
	return o;
}

json_object *jget(json_object *o, const char *path)
{
	char key[256];
	const char *p = path;
	while (*p) {
		size_t n = strcspn(p, ".");
		snprintf(key, sizeof(key), "%.*s", (int)n, p);
		json_object *next;
		if (!json_object_object_get_ex(o, key, &next))
			fail_msg("JSON has no '%s' (in %s)", key, path);
		o = next;
		p += n + (p[n] == '.');
	}
	return o;
}

uint64_t jget_u64(json_object *o, const char *path)
{
	return (uint64_t)json_object_get_int64(jget(o, path));
}

double jget_double(json_object *o, const char *path)
{
	return json_object_get_double(jget(o, path));
}

char *tmpdir_make(void)
{
	char *d = strdup("/var/tmp/iochar-test-XXXXXX");
	assert_non_null(d);
	assert_non_null(mkdtemp(d));
	return d;
}

char *shmdir_make(void)
{
	char *d = strdup("/dev/shm/iochar-test-XXXXXX");
	assert_non_null(d);
	assert_non_null(mkdtemp(d));
	return d;
}

void tmpdir_remove(char *dir)
{
	char cmd[4200];
	if (!dir)
		return;
	/* only ever our own mkdtemp directory */
	if (strncmp(dir, "/var/tmp/iochar-test-", 21) == 0 ||
	    strncmp(dir, "/dev/shm/iochar-test-", 21) == 0) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			fprintf(stderr, "warning: could not remove %s\n", dir);
	}
	free(dir);
}

int tmpdir_setup(void **state)
{
	*state = tmpdir_make();
	return 0;
}

int tmpdir_teardown(void **state)
{
	tmpdir_remove(*state);
	return 0;
}

int shmdir_setup(void **state)
{
	*state = shmdir_make();
	return 0;
}

void make_file(const char *path, uint64_t size)
{
	FILE *f = fopen(path, "we");
	assert_non_null(f);
	char buf[65536];
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 7 + 1);
	for (uint64_t done = 0; done < size;) {
		size_t n = size - done < sizeof(buf) ? (size_t)(size - done) : sizeof(buf);
		assert_int_equal(fwrite(buf, 1, n, f), n);
		done += n;
	}
	assert_int_equal(fclose(f), 0);
}

bool is_root(void)
{
	return geteuid() == 0;
}

bool loop_attach(const char *backing, uint64_t size, unsigned sector,
		 char *dev, size_t devlen)
{
	char opts[64];
	make_file(backing, size);
	snprintf(opts, sizeof(opts), "--sector-size %u", sector);
	return loop_attach_file(backing, opts, dev, devlen);
}

bool loop_attach_file(const char *backing, const char *opts, char *dev,
		      size_t devlen)
{
	char cmd[4400];
	snprintf(cmd, sizeof(cmd), "losetup --find --show %s '%s'", opts,
		 backing);
	FILE *p = popen(cmd, "r");
	if (!p)
		return false;
	bool ok = fgets(dev, (int)devlen, p) != NULL;
	int rc = pclose(p);
	dev[strcspn(dev, "\n")] = '\0';
	if (!ok || rc != 0 || strncmp(dev, "/dev/loop", 9) != 0) {
		dev[0] = '\0';
		printf("SKIP: cannot attach a loop device here (losetup failed)\n");
		return false;
	}
	return true;
}

void loop_detach(const char *dev)
{
	char cmd[256];
	if (strncmp(dev, "/dev/loop", 9) != 0)
		return;
	snprintf(cmd, sizeof(cmd), "losetup -d '%s'", dev);
	if (system(cmd) != 0)
		fprintf(stderr, "warning: could not detach %s\n", dev);
}

uint64_t file_hash(const char *path)
{
	FILE *f = fopen(path, "re");
	assert_non_null(f);
	uint64_t h = 1469598103934665603ull;
	int c;
	while ((c = getc(f)) != EOF)
		h = (h ^ (uint64_t)c) * 1099511628211ull;
	fclose(f);
	return h;
}

bool file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

void expect_usage_line(const char *const *args, const char *want)
{
	struct proc_out po;
	run_iochar(&po, NULL, 0, args);
	expect_exit(&po, 2);
	expect_has(po.err, want);
	assert_int_equal(count_lines(po.err), 1);
	proc_out_free(&po);
}

char *file_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&buf, &n);
	assert_non_null(m);
	char chunk[65536];
	size_t got;
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		assert_int_equal(fwrite(chunk, 1, got, m), got);
	fclose(f);
	assert_int_equal(fclose(m), 0);
	if (len)
		*len = n;
	return buf;
}

int scratch_setup(void **state, size_t size)
{
	struct scratch *s = calloc(1, size);
	if (!s)
		return -1;
	s->dir = tmpdir_make();
	*state = s;
	return 0;
}

int scratch_teardown(void **state)
{
	struct scratch *s = *state;
	if (s->mnt[0] && umount(s->mnt) < 0)
		fprintf(stderr, "warning: could not unmount %s\n", s->mnt);
	if (s->dev[0])
		loop_detach(s->dev);
	tmpdir_remove(s->dir);
	free(s);
	return 0;
}

bool scratch_mount(struct scratch *s, const char *sub, const char *src,
		   const char *type, const char *opts)
{
	snprintf(s->mnt, sizeof(s->mnt), "%s/%s", s->dir, sub);
	assert_int_equal(mkdir(s->mnt, 0755), 0);
	if (mount(src, s->mnt, type, 0, opts) == 0)
		return true;
	s->mnt[0] = '\0';
	return false;
}

char *capture_text(void (*write)(FILE *f, const void *arg), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	write(f, arg);
	assert_int_equal(fclose(f), 0);
	return buf;
}

bool test_src_dir(char *out, size_t len)
{
	char exe[PATH_MAX];
	struct stat st;

	if (stat("src/main.c", &st) == 0)
		return realpath("src", out) != NULL;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return false;
	exe[n] = '\0';
	snprintf(out, len, "%s/../../src", dirname(exe));
	char probe[PATH_MAX + 16];
	snprintf(probe, sizeof(probe), "%s/main.c", out);
	return stat(probe, &st) == 0;
}
