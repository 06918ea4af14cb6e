/* blktrace_merge.c - block traces merged by time (base/blktrace_merge.h). */
#define _GNU_SOURCE /* O_TMPFILE */
#include "base/blktrace_merge.h"
#include "base/blktrace.h"
#include "base/iolog_opts.h"
#include "util/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One trace being merged: its next kept record, already timed. */
struct cursor {
	const struct blktrace_merge_in *in;
	bool swap;
	unsigned iter;
	uint64_t scale_milli;      /* the scalar % x 1000 */
	uint64_t end, length;      /* the last record's time; scaled */
	uint64_t record, at, kept; /* records read this pass, byte, kept in all */
	struct blktrace_rec t;     /* the next record, its time merged */
};

/* Whole scalars exactly as fio's time * scalar / 100; never past
 * UINT64_MAX (a wild time stays the latest). */
static uint64_t scaled(const struct cursor *c, uint64_t t)
{
	unsigned __int128 v = (unsigned __int128)t * c->scale_milli / 100000;
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

static uint64_t repeat_time(const struct cursor *c, uint64_t t)
{
	unsigned __int128 v = (unsigned __int128)scaled(c, t) +
			      (unsigned __int128)c->iter * c->length;
	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

static int bad(const struct cursor *c, const char *why, struct ioc_err *err)
{
	return err_usage(err, EINVAL, "merge_blktrace_file: %s: record %llu (byte %llu): %s",
			 c->in->name, (unsigned long long)c->record,
			 (unsigned long long)c->at, why);
}

/* fio's t_get_ddir: a read, a write or a discard. */
static bool kept(const struct blktrace_rec *t)
{
	return (t->action & 0xffff) == BLKTRACE_TA_QUEUE &&
	       (t->action & (BLKTRACE_ACT(BLKTRACE_TC_READ) | BLKTRACE_ACT(BLKTRACE_TC_WRITE) |
			     BLKTRACE_ACT(BLKTRACE_TC_DISCARD)));
}

/* The cursor's next kept record into c->t: 0, 1 at the end of this
 * pass, -errno. */
static int next_record(struct cursor *c, struct ioc_err *err)
{
	unsigned char b[BLKTRACE_RECORD];
	for (;;) {
		long pos = ftell(c->in->f);
		c->at = pos > 0 ? (uint64_t)pos : 0;
		size_t n = fread(b, 1, sizeof(b), c->in->f);
		if (n == 0 && feof(c->in->f))
			break;
		if (n != sizeof(b))
			return ferror(c->in->f) ? err_set(err, EIO, "merge_blktrace_file: %s: "
							  "read error", c->in->name)
						: bad(c, "truncated record", err);
		struct blktrace_rec t;
		blktrace_decode(b, c->swap, &t);
		if ((t.magic & 0xffffff00u) != BLKTRACE_MAGIC)
			return bad(c, "bad magic: not a blktrace record", err);
		if ((t.magic & 0xff) != BLKTRACE_VERSION)
			return bad(c, "blktrace version is not 7", err);
		unsigned char skip[512];
		for (size_t left = t.pdu_len, k; left; left -= k) {
			k = left < sizeof(skip) ? left : sizeof(skip);
			if (fread(skip, 1, k, c->in->f) != k)
				return bad(c, "truncated payload", err);
		}
		c->record++;
		/* the trace ends at its last record's time (a notification's
		 * is no I/O's: left out, unless it is also a kept queue event) */
		if (!c->iter && (kept(&t) || !(t.action & BLKTRACE_ACT(BLKTRACE_TC_NOTIFY))) &&
		    t.time > c->end)
			c->end = t.time;
		if (!kept(&t))
			continue;
		t.time = repeat_time(c, t.time);
		t.pdu_len = 0;
		c->t = t;
		c->kept++;
		return 0;
	}
	if (!c->kept)
		return err_usage(err, EINVAL, "merge_blktrace_file: %s: no I/O in the block trace",
				 c->in->name);
	return 1;
}

/* The cursor at the end of a pass: the next one from the start, 1 when
 * all are done (fio's merge_finish_file). */
static int next_pass(struct cursor *c, struct ioc_err *err)
{
	if (!c->iter)
		c->length = scaled(c, c->end);
	if (++c->iter >= c->in->iters)
		return 1;
	if (fseek(c->in->f, 0, SEEK_SET))
		return err_set(err, EIO, "merge_blktrace_file: %s: cannot seek", c->in->name);
	c->record = 0;
	int ret = next_record(c, err);
	return ret == 1 ? next_pass(c, err) : ret;
}

/* Advance cursor i; when it is done, the last one takes its place (fio's
 * order, which breaks ties). */
static int advance(struct cursor *cs, unsigned i, unsigned *nr, struct ioc_err *err)
{
	int ret = next_record(&cs[i], err);
	if (ret == 1)
		ret = next_pass(&cs[i], err);
	if (ret == 1) {
		cs[i] = cs[--*nr];
		ret = 0;
	}
	return ret;
}

static int start(struct cursor *c, const struct blktrace_merge_in *in, struct ioc_err *err)
{
	memset(c, 0, sizeof(*c));
	c->in = in;
	c->scale_milli = (uint64_t)(in->scalar * 1000 + 0.5);
	if (!blktrace_is(in->f, &c->swap))
		return err_usage(err, EINVAL, "merge_blktrace_file: %s is not a blktrace file",
				 in->name);
	return 0;
}

long long blktrace_merge(const struct blktrace_merge_in *in, unsigned nr, FILE *out,
			 struct ioc_err *err)
{
	struct cursor *cs = calloc(nr ? nr : 1, sizeof(*cs));
	if (!cs)
		return err_set(err, ENOMEM, "merge_blktrace_file: out of memory");
	long long written = 0;
	int ret = 0;
	unsigned live = 0;
	for (unsigned i = 0; !ret && i < nr; i++) {
		if (!(ret = start(&cs[live], &in[i], err)))
			live++;
		if (!ret && (ret = next_record(&cs[live - 1], err)) == 1)
			ret = err_usage(err, EINVAL, "merge_blktrace_file: %s: no I/O in the "
					"block trace", in[i].name);
	}
	while (!ret && live) {
		unsigned at = 0;
		for (unsigned i = 1; i < live; i++)
			if (cs[i].t.time < cs[at].t.time)
				at = i;
		unsigned char b[BLKTRACE_RECORD];
		blktrace_encode(&cs[at].t, false, b);
		if (fwrite(b, 1, sizeof(b), out) != sizeof(b))
			ret = err_set(err, EIO, "merge_blktrace_file: write error");
		written++;
		if (!ret)
			ret = advance(cs, at, &live, err);
	}
	free(cs);
	return ret ? ret : written;
}

/* The ':'-separated names of list into names[] (copies in buf). */
static unsigned split(char *buf, char **names)
{
	unsigned n = 0;
	for (char *save = NULL, *t = strtok_r(buf, ":", &save); t && n < JOB_MAX_MERGE;
	     t = strtok_r(NULL, ":", &save))
		names[n++] = t;
	return n;
}

static long long merge_files(const struct job_spec *job, char **names, unsigned n,
			     FILE *out, struct ioc_err *err)
{
	struct blktrace_merge_in in[JOB_MAX_MERGE] = {{0}};
	long long ret = 0;
	unsigned open = 0;
	for (; open < n; open++) {
		in[open] = (struct blktrace_merge_in){
			.f = fopen(names[open], "rb"), .name = names[open],
			.scalar = job->nr_merge_scalars ? job->merge_scalars[open] : 100,
			.iters = job->nr_merge_iters ? job->merge_iters[open] : 1,
		};
		if (!in[open].f) {
			ret = err_usage(err, errno, "read_iolog=%s: %s", names[open], strerror(errno));
			break;
		}
	}
	if (!ret)
		ret = blktrace_merge(in, n, out, err);
	while (open)
		fclose(in[--open].f);
	return ret;
}

/* Merges made while a command line was read, each in an unnamed file
 * (O_TMPFILE) until blktrace_merge_commit: nothing of them is visible
 * before the whole input is validated. */
struct pending_merge {
	char path[sizeof(((struct job_spec *)0)->merge_blktrace_file)];
	char proc[32]; /* /proc/self/fd/N: how the run's checks read it */
	int fd;
};
static struct pending_merge pending[JOB_MAX_MERGE * 4];
static unsigned nr_pending;

/* An unnamed file in path's directory, registered; NULL when full. */
static struct pending_merge *pending_open(const char *path, int *ret)
{
	char dir[sizeof(pending[0].path)];
	if (nr_pending == sizeof(pending) / sizeof(pending[0])) {
		*ret = -EMFILE;
		return NULL;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	int fd = open(dirname(dir), O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
	if (fd < 0) {
		*ret = -errno;
		return NULL;
	}
	struct pending_merge *p = &pending[nr_pending++];
	snprintf(p->path, sizeof(p->path), "%s", path);
	snprintf(p->proc, sizeof(p->proc), "/proc/self/fd/%d", fd);
	p->fd = fd;
	return p;
}

const char *blktrace_merge_reads(const char *path)
{
	for (unsigned i = nr_pending; i-- > 0;) /* the latest merge of path */
		if (!strcmp(pending[i].path, path))
			return pending[i].proc;
	return path;
}

/* p's contents under its name, through an atomic rename. */
static int pending_commit(const struct pending_merge *p)
{
	struct atomic_file af;
	char buf[1 << 16];
	int ret = atomic_file_open(&af, p->path);
	if (ret)
		return ret;
	for (off_t at = 0;;) {
		ssize_t n = pread(p->fd, buf, sizeof(buf), at);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : 0;
			break;
		}
		if (fwrite(buf, 1, (size_t)n, af.f) != (size_t)n) {
			ret = -EIO;
			break;
		}
		at += n;
	}
	if (ret) {
		atomic_file_abort(&af);
		return ret;
	}
	return atomic_file_commit(&af);
}

int blktrace_merge_commit(struct ioc_err *err)
{
	int ret = 0;
	for (unsigned i = 0; i < nr_pending; i++) {
		int r = ret ? 0 : pending_commit(&pending[i]);
		if (r)
			ret = err_set(err, -r, "merge_blktrace_file=%s: %s", pending[i].path,
				      strerror(-r));
		close(pending[i].fd);
	}
	nr_pending = 0;
	return ret;
}

/* The merge is a new file renamed into place: over a device node, a
 * FIFO or a socket that rename would replace the node itself (as root,
 * one in /dev too). A regular file, a symlink (replaced, its target
 * untouched) or a new path is taken. */
static int renamable(const char *path, struct ioc_err *err)
{
	struct stat st;

	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
		return err_usage(err, EINVAL,
				 "merge_blktrace_file=%s: not a regular file; the merged "
				 "trace is a new file renamed into place, which would "
				 "replace it",
				 path);
	return 0;
}

int blktrace_merge_job(struct job_spec *job, bool defer, struct ioc_err *err)
{
	int ret = iolog_opts_check(job, err);
	if (!ret)
		ret = renamable(job->merge_blktrace_file, err);
	if (ret)
		return ret;
	char buf[sizeof(job->read_iolog)], *names[JOB_MAX_MERGE];
	snprintf(buf, sizeof(buf), "%s", job->read_iolog);
	unsigned n = split(buf, names);
	long long w;
	if (defer) {
		struct pending_merge *p = pending_open(job->merge_blktrace_file, &ret);
		FILE *out = p ? fdopen(dup(p->fd), "w") : NULL;
		if (!out)
			return err_usage(err, p ? errno : -ret, "merge_blktrace_file=%s: %s",
					 job->merge_blktrace_file, strerror(p ? errno : -ret));
		w = merge_files(job, names, n, out, err);
		if (fclose(out) && w >= 0)
			w = err_set(err, errno, "merge_blktrace_file=%s: %s",
				    job->merge_blktrace_file, strerror(errno));
		if (w < 0)
			return (int)w; /* the unnamed file goes at exit */
	} else {
		struct atomic_file af;
		if ((ret = atomic_file_open(&af, job->merge_blktrace_file)))
			return err_usage(err, -ret, "merge_blktrace_file=%s: %s",
					 job->merge_blktrace_file, strerror(-ret));
		w = merge_files(job, names, n, af.f, err);
		if (w < 0) {
			atomic_file_abort(&af);
			return (int)w;
		}
		if ((ret = atomic_file_commit(&af)))
			return err_set(err, -ret, "merge_blktrace_file=%s: %s",
				       job->merge_blktrace_file, strerror(-ret));
	}
	snprintf(job->read_iolog, sizeof(job->read_iolog), "%s", job->merge_blktrace_file);
	job->merge_blktrace_file[0] = '\0';
	return 0;
}
