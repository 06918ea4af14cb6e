/* fio_state.c - see fio_state.h. */
#include "verify/fio_state.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/le.h"
#include "verify/crc32c.h"

#define VSTATE_VERSION 3
#define HDR_LEN 24   /* version, size, crc */
#define LIST_LEN 152 /* thread_io_list up to its comps[] */
#define NAME_AT 88   /* its name[64] */
#define COMP_LEN 16

int fio_vstate_rec_init(struct fio_vstate_rec *r, unsigned depth,
			unsigned nofiles)
{
	memset(r, 0, sizeof(*r));
	r->depth = depth ? depth : 1;
	r->nofiles = nofiles ? nofiles : 1;
	r->last = calloc((size_t)r->depth * r->nofiles, sizeof(r->last[0]));
	r->next = calloc(r->nofiles, sizeof(r->next[0]));
	if (!r->last || !r->next) {
		fio_vstate_rec_free(r);
		return -ENOMEM;
	}
	return 0;
}

void fio_vstate_rec_free(struct fio_vstate_rec *r)
{
	if (!r)
		return;
	free(r->last);
	free(r->next);
	r->last = NULL;
	r->next = NULL;
}

void fio_vstate_rec_done(struct fio_vstate_rec *r, unsigned file,
			 uint64_t offset)
{
	r->completed++;
	if (file >= r->nofiles)
		return;
	r->last[(size_t)file * r->depth + r->next[file]] = offset;
	r->next[file] = (r->next[file] + 1) % r->depth;
}

/* fio's fio_crc32c: the register without the final inversion. */
static uint64_t fio_crc(const uint8_t *p, size_t n)
{
	return (uint32_t)~crc32c(0, p, n);
}

/* fio's --aux-path: the directory of the state files, "" = the current
 * one. Set once before any job starts (fio_vstate_set_dir). */
static char state_dir[4096];

void fio_vstate_set_dir(const char *dir)
{
	snprintf(state_dir, sizeof(state_dir), "%s", dir ? dir : "");
}

static void state_path(char *out, size_t len, const char *name, unsigned index)
{
	char ename[256];
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof(ename); i++)
		ename[i] = name[i] == '/' ? '.' : name[i];
	ename[i] = '\0';
	/* fio: aux_path + '/' + the name, the directory as given */
	snprintf(out, len, "%s%slocal-%s-%u-verify.state", state_dir,
		 state_dir[0] ? "/" : "", ename, index);
}

/* The thread_io_list of r into b (LIST_LEN + depth x files x COMP_LEN
 * bytes, zeroed): fio's __fill_file_completions, newest first. */
static void fill_list(const struct fio_vstate_rec *r, const char *name,
		      unsigned index, uint8_t *b)
{
	uint64_t comps = r->completed < r->depth ? r->completed : r->depth;
	uint64_t k = 0;

	for (unsigned f = 0; f < r->nofiles; f++)
		for (uint64_t i = 0; i < comps; i++) {
			unsigned j = (r->next[f] + r->depth - 1 - (unsigned)i) % r->depth;
			le_put64(b + LIST_LEN + k * COMP_LEN, f);
			le_put64(b + LIST_LEN + k * COMP_LEN + 8,
				 r->last[(size_t)f * r->depth + j]);
			k++;
		}
	le_put64(b, k);
	le_put32(b + 8, r->depth);
	le_put32(b + 12, r->nofiles);
	le_put64(b + 16, r->issued);
	le_put64(b + 24, index);
	snprintf((char *)b + NAME_AT, 64, "%s", name);
}

int fio_vstate_save(const struct fio_vstate_rec *r, const char *name,
		    unsigned index, struct ioc_err *err)
{
	size_t n = LIST_LEN + (size_t)r->depth * r->nofiles * COMP_LEN;
	uint8_t *b = calloc(1, HDR_LEN + n);
	char path[sizeof(state_dir) + 512];
	int ret = 0;

	state_path(path, sizeof(path), name, index);
	if (!b)
		return err_set(err, ENOMEM, "%s: out of memory", path);
	fill_list(r, name, index, b + HDR_LEN);
	le_put64(b, VSTATE_VERSION);
	le_put64(b + 8, n);
	le_put64(b + 16, fio_crc(b + HDR_LEN, n));
	int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_SYNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, b, HDR_LEN + n) != (ssize_t)(HDR_LEN + n))
		ret = err_set(err, errno ? errno : EIO, "verify state %s: %s",
			      path, strerror(errno ? errno : EIO));
	if (fd >= 0)
		close(fd);
	free(b);
	return ret;
}

/* The file's bytes (at most 64 MiB) into *out, its length in *len. */
static int read_all(const char *path, uint8_t **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 4096, n = 0, got;
	uint8_t *b = malloc(cap);

	if (!f || !b) {
		int e = f ? ENOMEM : errno;
		if (f)
			fclose(f);
		free(b);
		return -e;
	}
	while ((got = fread(b + n, 1, cap - n, f)) > 0) {
		n += got;
		uint8_t *p = n < cap || cap >= (64u << 20) ? NULL : realloc(b, cap * 2);
		if (n == cap && !p)
			break;
		if (p) {
			b = p;
			cap *= 2;
		}
	}
	fclose(f);
	*out = b;
	*len = n;
	return 0;
}

int fio_vstate_load(const char *name, unsigned index, struct fio_vstate *st,
		    struct ioc_err *err)
{
	char path[sizeof(state_dir) + 512];
	uint8_t *b = NULL;
	size_t n = 0;

	memset(st, 0, sizeof(*st));
	state_path(path, sizeof(path), name, index);
	int ret = read_all(path, &b, &n);
	if (ret)
		return err_usage(err, -ret, "verify_state_load=1: %s: %s (fio's "
				 "state file of job %s, written by its write run)",
				 path, strerror(-ret), name);
	uint64_t size = n >= HDR_LEN ? le_get64(b + 8) : 0;
	const char *why = n < HDR_LEN + LIST_LEN ? "too short"
			  : le_get64(b) != VSTATE_VERSION ? "not fio's version 3"
			  : size < LIST_LEN || size != n - HDR_LEN ? "wrong size"
			  : fio_crc(b + HDR_LEN, size) != le_get64(b + 16) ? "corrupt (crc)"
			  : NULL;
	const uint8_t *l = b + HDR_LEN;
	if (!why && le_get64(l) > (size - LIST_LEN) / COMP_LEN)
		why = "more completions than it holds";
	if (!why) {
		st->nr = le_get64(l);
		st->depth = le_get32(l + 8);
		st->numberio = le_get64(l + 16);
		st->comps = calloc(st->nr ? st->nr : 1, sizeof(st->comps[0]));
		if (!st->comps)
			why = "out of memory";
		for (uint64_t i = 0; st->comps && i < st->nr; i++) {
			st->comps[i].file = le_get64(l + LIST_LEN + i * COMP_LEN);
			st->comps[i].offset = le_get64(l + LIST_LEN + i * COMP_LEN + 8);
		}
	}
	free(b);
	if (why)
		return err_usage(err, EINVAL, "verify_state_load=1: %s: %s",
				 path, why);
	return 0;
}

void fio_vstate_free(struct fio_vstate *st)
{
	if (!st)
		return;
	free(st->comps);
	st->comps = NULL;
}

bool fio_vstate_admit(const struct fio_vstate *st, uint64_t reads_done,
		      unsigned file, uint64_t offset)
{
	/* outside the last depth reads of the count: read on (fio's
	 * unsigned arithmetic, past the count included) */
	if ((reads_done < st->depth || st->numberio - reads_done > st->depth) &&
	    st->numberio > st->depth)
		return true;
	for (uint64_t i = 0; i < st->nr; i++)
		if (st->comps[i].file == file && st->comps[i].offset == offset)
			return true;
	return false;
}
