/* iolog.c - fio's iolog (versions 2 and 3) read into plain data
 * (base/iolog.h). fio's reader (iolog.c read_iolog) warns about a bad line
 * and goes on; iochar refuses the log, naming every bad line. */
#include "base/iolog.h"
#include "base/blktrace.h"
#include "base/blktrace_merge.h"
#include "base/json_writer.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IOLOG_LINE_MAX 4096
#define IOLOG_NAME_MAX 256 /* fio's sscanf reads %256s */
#define IOLOG_BAD_MAX 20   /* bad lines named before the rest are counted */

struct iolog_parse {
	struct iolog *log;
	const struct iolog_replay_opts *o;
	const char *path;
	unsigned line;
	uint64_t last_ttime, due_ns;
	struct ioc_err *err;
	unsigned nr_bad;
	bool started;
	char buf[IOLOG_LINE_MAX];
};

/* A decimal field: digits only (sscanf would take "-1"), no overflow. */
static bool number(const char *s, uint64_t *v)
{
	uint64_t x = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || x > (UINT64_MAX - 9) / 10)
			return false;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return true;
}

/* Keep the message of a bad line and go on: every culprit at once. */
static void bad(struct iolog_parse *p, const char *fmt, const char *what)
{
	char *msg = p->err->msg;
	size_t len = strlen(msg);
	if (p->nr_bad++ < IOLOG_BAD_MAX) {
		int n = snprintf(msg + len, sizeof(p->err->msg) - len, "%s%s:%u: ",
				 len ? "\n" : "", p->path, p->line);
		if (n > 0 && (size_t)n < sizeof(p->err->msg) - len) {
			char *at = msg + len + n;
			snprintf(at, sizeof(p->err->msg) - len - n, fmt, what);
			for (; *at; at++) /* no control byte of the log is echoed */
				if ((unsigned char)*at < 0x20 || *at == 0x7f)
					*at = '?';
		}
	}
	p->err->usage = 1;
}

static int add_file(struct iolog_parse *p, const char *name)
{
	struct iolog *log = p->log;
	if (iolog_file_index(log, name) >= 0)
		return 0; /* fio: a re-add (under replay_redirect) is ignored */
	if (log->nr_files == JOB_MAX_FILES) {
		bad(p, "more than %s files", "256");
		return 0;
	}
	return iolog_add_file(log, name) < 0 ? -ENOMEM : 0;
}

static int push(struct iolog_parse *p, const struct iolog_entry *e)
{
	return iolog_push(p->log, e);
}

/* fio's delay_since_ttime, in ns, added to the schedule. */
static void advance(struct iolog_parse *p, uint64_t ttime)
{
	uint64_t last = p->last_ttime;
	p->last_ttime = ttime;
	if (!last || p->o->no_stall || ttime < last)
		return;
	p->due_ns = iolog_due_add(p->due_ns, ttime - last, p->o->time_scale);
}

static bool op_of(const char *act, enum iolog_op *op)
{
	static const char *const names[] = {"read", "write", "trim", "sync", "datasync"};
	for (unsigned i = 0; i < 5; i++)
		if (!strcmp(act, names[i])) {
			*op = (enum iolog_op)i;
			return true;
		}
	return false;
}

/* One I/O line's action on file name. Returns 0 or -ENOMEM. */
static int io_line(struct iolog_parse *p, const char *name, const char *act,
		   uint64_t off, uint64_t len)
{
	struct iolog_entry e = {.len = len, .due_ns = p->due_ns};
	if (!strcmp(act, "wait")) { /* v2: until MSEC after the start */
		if (p->log->version == 3 || p->o->no_stall)
			return 0; /* fio ignores it in v3, skips it without stalls */
		if (off > UINT64_MAX / 4000000) {
			bad(p, "wait of %s: too long", "MSEC");
			return 0;
		}
		uint64_t at = off * 1000000 < IOLOG_DUE_MAX ? off * 1000000 : IOLOG_DUE_MAX;
		if (at > p->due_ns)
			p->due_ns = at;
		return 0;
	}
	if (!op_of(act, &e.op)) {
		bad(p, "bad action '%s' (read, write, trim, sync, datasync, wait)", act);
		return 0;
	}
	int f = iolog_file_index(p->log, p->o->redirect && p->o->redirect[0] ? p->o->redirect : name);
	if (f < 0) {
		bad(p, "file %s was not added before its I/O", name);
		return 0;
	}
	if (e.op >= IOLOG_SYNC)
		e.len = off = 0;
	else if (!len) {
		bad(p, "%s of 0 bytes", act);
		return 0;
	}
	if (p->o->skip & (1u << e.op))
		return 0; /* replay_skip; its time still counts (advance) */
	e.file = (unsigned)f;
	e.offset = p->o->scale > 1 ? off / p->o->scale : off;
	if (p->o->align)
		e.offset &= ~(p->o->align - 1);
	if (e.offset > UINT64_MAX / 2 || len > UINT64_MAX / 2) {
		bad(p, "%s past the largest offset", act);
		return 0;
	}
	return push(p, &e);
}

static int file_line(struct iolog_parse *p, const char *name, const char *act)
{
	const char *target = p->o->redirect && p->o->redirect[0] ? p->o->redirect : name;
	if (!strcmp(act, "add"))
		return add_file(p, target);
	if (strcmp(act, "open") && strcmp(act, "close"))
		bad(p, "bad file action '%s' (add, open, close)", act);
	else if (iolog_file_index(p->log, target) < 0)
		bad(p, "file %s was not added before it was opened or closed", name);
	return 0; /* iochar keeps every file open for the whole job */
}

/* One line after the version line: fio's fields, all checked. */
static int parse_line(struct iolog_parse *p, char *s)
{
	char *tok[6], *save = NULL;
	unsigned n = 0, first = p->log->version == 3;
	for (char *t = strtok_r(s, " \t\r\n", &save); t && n < 6;
	     t = strtok_r(NULL, " \t\r\n", &save))
		tok[n++] = t;
	uint64_t ttime = 0, off = 0, len = 0;
	unsigned fields = n >= first ? n - first : 0;
	if (fields != 2 && fields != 4) {
		bad(p, "%s", fields > 4 ? "too many fields" : first ?
		    "expected 'USEC FILE ACTION [OFFSET LENGTH]'" :
		    "expected 'FILE ACTION [OFFSET LENGTH]'");
		return 0;
	}
	if (first && !number(tok[0], &ttime)) {
		bad(p, "time '%s' is not a number of microseconds", tok[0]);
		return 0;
	}
	if (fields == 4 && (!number(tok[first + 2], &off) || !number(tok[first + 3], &len))) {
		bad(p, "%s", "offset and length must be numbers of bytes");
		return 0;
	}
	if (strlen(tok[first]) > IOLOG_NAME_MAX || strlen(tok[first + 1]) > IOLOG_NAME_MAX) {
		bad(p, "%s", "name longer than 256 bytes");
		return 0;
	}
	if (first)
		advance(p, ttime);
	return fields == 2 ? file_line(p, tok[first], tok[first + 1])
			   : io_line(p, tok[first], tok[first + 1], off, len);
}

/* One line into buf (max bytes, its '\n' kept, NUL-terminated), as
 * fgets, but saying what fgets hides: *len is the bytes read (a NUL byte
 * inside cut strlen short: "line longer than 4095 bytes" was said of
 * it, and a line starting with one was dropped unread), *nul where the
 * first NUL byte is (len when none), *cut whether the line went on past
 * max - 1 bytes (the rest read away). false at the end of the file. */
static bool read_line(FILE *f, char *buf, size_t max, size_t *len, size_t *nul, bool *cut)
{
	size_t n = 0;
	int c = EOF;

	*nul = SIZE_MAX;
	*cut = false;
	while (n + 1 < max && (c = getc_unlocked(f)) != EOF) {
		if (c == '\0' && *nul == SIZE_MAX)
			*nul = n;
		buf[n++] = (char)c;
		if (c == '\n')
			break;
	}
	if (n + 1 == max && c != '\n' && c != EOF) {
		int next = getc_unlocked(f);
		*cut = next != EOF && next != '\n';
		while (next != EOF && next != '\n')
			next = getc_unlocked(f);
	}
	buf[n] = '\0';
	*len = n;
	if (*nul == SIZE_MAX)
		*nul = n;
	return n > 0;
}

static int read_version(struct iolog_parse *p, FILE *f, char *buf)
{
	size_t n, nul;
	bool cut;

	p->line = 1;
	if (!read_line(f, buf, IOLOG_LINE_MAX, &n, &nul, &cut)) {
		bad(p, "%s", "empty: not an iolog");
		return 0;
	}
	if (nul < n)
		bad(p, "%s", "a NUL byte in the version line; an iolog is text");
	else if (!strncmp(buf, "fio version 2 iolog", 19))
		p->log->version = 2;
	else if (!strncmp(buf, "fio version 3 iolog", 19))
		p->log->version = 3;
	else
		bad(p, "%s", "not a fio iolog of version 2 or 3 (the first line is 'fio version 3 iolog')");
	return 0;
}

/* Lines until the log holds max I/Os: 0, 1 at the end, or -ENOMEM. */
static int parse_some(struct iolog_parse *p, FILE *f, size_t max)
{
	char *buf = p->buf;
	int ret = 0;
	if (!p->started) {
		p->started = true;
		ret = read_version(p, f, buf);
	}
	while (!ret && p->log->version && p->log->nr < max) {
		size_t n, nul;
		bool cut;
		if (!read_line(f, buf, IOLOG_LINE_MAX, &n, &nul, &cut))
			return 1;
		p->line++;
		if (cut) {
			bad(p, "%s", "line longer than 4095 bytes");
			continue;
		}
		if (nul < n) {
			char what[80];
			snprintf(what, sizeof(what), "NUL byte at column %zu; an iolog is text",
				 nul + 1);
			bad(p, "%s", what);
			continue;
		}
		/* another writer's (or run's) log appended to this one, as
		 * write_iolog appends: its version line again */
		if (!strncmp(buf, p->log->version == 3 ? "fio version 3 iolog" :
			     "fio version 2 iolog", 19) && strspn(buf + 19, " \t\r\n") == n - 19)
			continue;
		ret = parse_line(p, buf);
	}
	return ret ? ret : p->log->version ? 0 : 1;
}

static void count_left_out(struct iolog_parse *p)
{
	if (p->nr_bad <= IOLOG_BAD_MAX)
		return;
	char *msg = p->err->msg;
	size_t len = strlen(msg);
	snprintf(msg + len, sizeof(p->err->msg) - len, "\n%s: %u more bad lines",
		 p->path, p->nr_bad - IOLOG_BAD_MAX);
}

/* The end of a text log: a read error, no I/O at all, the bad lines. */
static int text_end(struct iolog_reader *rd, struct ioc_err *err)
{
	struct iolog_parse *p = rd->state;
	if (ferror(rd->f))
		return err_set(err, EIO, "read_iolog=%s: read error", rd->path);
	if (!p->nr_bad && !rd->total)
		bad(p, "%s", "no I/O to replay");
	if (!p->nr_bad)
		return 0;
	count_left_out(p);
	return err_usage(err, EINVAL, "%s", rd->bad.msg);
}

static int reader_start(struct iolog_reader *rd, FILE *f, const char *path,
			const struct iolog_replay_opts *o, bool blk, bool swap,
			struct ioc_err *err)
{
	memset(rd, 0, sizeof(*rd));
	rd->f = f;
	rd->path = path;
	rd->o = *o;
	rd->blk = blk;
	rd->swap = swap;
	if (blk)
		rd->state = blktrace_begin(&rd->log, path, &rd->o, swap);
	else if ((rd->state = calloc(1, sizeof(struct iolog_parse)))) {
		struct iolog_parse *p = rd->state;
		p->log = &rd->log;
		p->o = &rd->o;
		p->path = path;
		p->err = &rd->bad;
	}
	return rd->state ? 0 : err_set(err, ENOMEM, "read_iolog=%s: out of memory", path);
}

int iolog_reader_open(struct iolog_reader *rd, const char *path,
		      const struct iolog_replay_opts *o, struct ioc_err *err)
{
	memset(rd, 0, sizeof(*rd));
	FILE *f = fopen(blktrace_merge_reads(path), "r"); /* a merge not yet named */
	if (!f)
		return err_usage(err, errno, "read_iolog=%s: %s", path, strerror(errno));
	bool swap = false, blk = blktrace_is(f, &swap);
	int ret = reader_start(rd, f, path, o, blk, swap, err);
	if (ret)
		fclose(f);
	return ret;
}

int iolog_reader_next(struct iolog_reader *rd, size_t max, struct ioc_err *err)
{
	if (rd->end)
		return 1;
	rd->log.nr = 0;
	int ret = rd->blk ? blktrace_more(rd->state, rd->f, max)
			  : parse_some(rd->state, rd->f, max);
	rd->total += rd->log.nr;
	if (ret == -ENOMEM)
		return err_set(err, ENOMEM, "read_iolog=%s: out of memory", rd->path);
	if (ret < 0) /* the block trace's message is in its error */
		return blktrace_error(rd->state, err);
	if (ret == 1) {
		rd->end = true;
		ret = rd->blk ? blktrace_end(rd->state, rd->total, err) : text_end(rd, err);
	}
	return ret < 0 ? ret : rd->end;
}

void iolog_reader_close(struct iolog_reader *rd)
{
	if (!rd)
		return;
	if (rd->blk)
		blktrace_done(rd->state);
	else
		free(rd->state);
	if (rd->f) /* iolog_read's stream is its caller's: NULL here */
		fclose(rd->f);
	iolog_free(&rd->log);
	memset(rd, 0, sizeof(*rd));
}

/* Read the whole log of an open reader into *log (the reader's, moved). */
static int read_whole(struct iolog_reader *rd, struct iolog *log, struct ioc_err *err)
{
	int ret = iolog_reader_next(rd, SIZE_MAX, err);
	if (ret == 1) {
		*log = rd->log;
		memset(&rd->log, 0, sizeof(rd->log));
		ret = 0;
	}
	return ret;
}

int iolog_read(struct iolog *log, FILE *f, const char *path,
	       const struct iolog_replay_opts *o, struct ioc_err *err)
{
	struct iolog_reader rd;
	memset(log, 0, sizeof(*log));
	int ret = reader_start(&rd, f, path, o, false, false, err);
	if (!ret)
		ret = read_whole(&rd, log, err);
	rd.f = NULL; /* the caller's stream */
	iolog_reader_close(&rd);
	return ret;
}

int iolog_load(struct iolog *log, const char *path,
	       const struct iolog_replay_opts *o, struct ioc_err *err)
{
	struct iolog_reader rd;
	memset(log, 0, sizeof(*log));
	int ret = iolog_reader_open(&rd, path, o, err);
	if (!ret)
		ret = read_whole(&rd, log, err);
	iolog_reader_close(&rd);
	return ret;
}

/* What a scan of the whole log found (iolog_apply_files). */
struct log_shape {
	bool reads, writes, trims;
	uint64_t max_len[DIR_COUNT + 1];
};

static void shape_add(struct log_shape *sh, const struct iolog *log)
{
	for (size_t i = 0; i < log->nr; i++) {
		const struct iolog_entry *e = &log->e[i];
		int d = e->op == IOLOG_READ ? DIR_READ : e->op == IOLOG_TRIM ? DIR_TRIM : DIR_WRITE;
		sh->reads |= e->op == IOLOG_READ;
		sh->writes |= e->op == IOLOG_WRITE;
		sh->trims |= e->op == IOLOG_TRIM;
		if (e->len > sh->max_len[d])
			sh->max_len[d] = e->len;
	}
}

/* The whole log scanned a chunk at a time (memory for IOLOG_CHUNK I/Os,
 * however long the log): its shape, and *log its files, extents and
 * depth (no I/Os). */
static int scan_log(const struct job_spec *job, struct iolog *log, struct log_shape *sh,
		    struct ioc_err *err)
{
	struct iolog_reader rd;
	struct iolog_replay_opts o = iolog_opts_of(job);
	int ret = iolog_reader_open(&rd, job->read_iolog, &o, err);
	while (!ret) {
		ret = iolog_reader_next(&rd, IOLOG_CHUNK, err);
		if (ret >= 0)
			shape_add(sh, &rd.log);
	}
	if (ret == 1) {
		ret = 0;
		*log = rd.log;
		memset(&rd.log, 0, sizeof(rd.log));
	}
	iolog_reader_close(&rd);
	return ret;
}

int iolog_apply_files(struct job_spec *job, bool iodepth_set, bool defer_merge,
		      struct ioc_err *err)
{
	struct iolog log;
	struct log_shape sh = {false, false, false, {0, 0, 0}};
	int ret = 0;
	if (job->merge_blktrace_file[0] && !(ret = iolog_opts_check(job, err)))
		ret = blktrace_merge_job(job, defer_merge, err); /* fio: the merged trace is replayed */
	if (ret || (ret = scan_log(job, &log, &sh, err)))
		return ret;
	bool reads = sh.reads, writes = sh.writes, trims = sh.trims;
	uint64_t extent = 0, *max_len = sh.max_len;
	/* fio: max_bs grows to the largest logged I/O; the units' buffers
	 * are made from the job's block sizes */
	for (int d = 0; d < DIR_COUNT; d++) {
		job->bs_dir[d] = max_len[d] ? max_len[d] : max_len[!d];
		job->bs_range[d][0] = job->bs_range[d][1] = 0;
		job->bssplit[d].nr = 0;
	}
	if (!job->bs_dir[DIR_READ]) /* syncs only */
		job->bs_dir[DIR_READ] = job->bs_dir[DIR_WRITE] = 4096;
	job->bs = job->bs_dir[DIR_READ];
	job->bs_trim = max_len[DIR_TRIM];
	/* the job's filename list (':'-separated, a name's ':' as "\:") */
	size_t room = 1;
	for (unsigned i = 0; i < log.nr_files; i++)
		room += 2 * strlen(log.files[i]) + 1;
	char *list = malloc(room), *at = list;
	for (unsigned i = 0; list && i < log.nr_files; i++) {
		if (log.extent[i] > extent)
			extent = log.extent[i];
		if (i)
			*at++ = ':';
		for (const char *c = log.files[i]; *c; c++) {
			if (*c == ':')
				*at++ = '\\';
			*at++ = *c;
		}
	}
	if (list)
		*at = '\0';
	int ret2 = list ? job_spec_set_files(job, list) : -ENOMEM;
	free(list);
	if (ret2) {
		iolog_free(&log);
		return err_set(err, -ret2, "read_iolog=%s: out of memory", job->read_iolog);
	}
	job->files_per_clone = 0;
	/* fio's td_ddir from what the log holds: files opened to write (and
	 * guarded) when it writes or trims; iochar has no read+write+trim mode:
	 * rw=rw stands for any mix */
	job->rw = trims && !reads && !writes ? RW_TRIM : (reads && (writes || trims)) ||
		  (writes && trims) ? RW_RW : writes ? RW_WRITE : RW_READ;
	/* the layout keeps whole blocks of the largest size */
	uint64_t unit = job->bs_dir[DIR_READ] > job->bs_dir[DIR_WRITE] ?
				job->bs_dir[DIR_READ] : job->bs_dir[DIR_WRITE];
	extent = (extent + unit - 1) / unit * unit;
	/* the files hold every logged I/O (fio sizes the job from the log,
	 * whatever size= said) */
	if (job->filesize < extent) {
		job->filesize = extent;
		job->filesize_high = 0; /* each file as large as its log's */
	}
	if (job->size < job->filesize * log.nr_files)
		job->size = job->filesize * log.nr_files;
	job->size_pct = 0;
	if (log.depth && !iodepth_set)
		job->iodepth = log.depth;
	iolog_free(&log);
	return 0;
}
