/* journal.c - the crash journal's file: the probe that keeps iochar from
 * overwriting what is not its journal, and the writer the worker's
 * session feeds. The format and the ordering rules are in journal.h;
 * replaying is journal_replay.c, checking units journal_check.c.
 */
#define _GNU_SOURCE
#include "verify/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "verify/journal_fmt.h"
#include "verify/journal_lock.h"

/* The file grows by this many zeroed bytes at a time: records then
 * overwrite allocated blocks, and fdatasync has no metadata to commit. */
#define JOURNAL_GROW (1u << 20)

struct journal_writer {
	int fd;
	char *path;
	uint32_t run_id;
	uint32_t seq;	  /* number of the next record */
	uint64_t pos;	  /* file offset of the next record */
	uint64_t zeroed;  /* the file is allocated (zeroed) up to here */
	uint8_t *buf;	  /* queued records */
	unsigned nr, cap; /* records queued, room */
	bool unsynced;	  /* an intent was queued since the last sync */
	int error;	  /* sticky -errno; the message in msg */
	char msg[IOC_ERR_MAX];
};

void journal_info_free(struct journal_info *info)
{
	if (!info)
		return;
	for (unsigned i = 0; i < info->nr_files; i++)
		free(info->files[i]);
	info->nr_files = 0;
}

static int probe_dir(const char *what, const char *path, struct ioc_err *err)
{
	char *copy = strdup(path);
	struct stat st;
	int ret = 0;

	if (!copy)
		return err_set(err, ENOMEM, "out of memory");
	const char *dir = dirname(copy);
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		ret =
		    err_usage(err, ENOENT, "%s=%s: directory %s does not exist",
			      what, path, dir);
	else if (access(dir, W_OK) < 0)
		ret =
		    err_usage(err, EACCES, "%s=%s: cannot create it in %s: %s",
			      what, path, dir, strerror(errno));
	free(copy);
	return ret;
}

int journal_probe(const char *what, const char *path, struct ioc_err *err)
{
	struct stat st;
	uint8_t head[8];

	if (!path[0])
		return err_usage(err, EINVAL, "%s=: empty path", what);
	if (stat(path, &st) < 0) {
		if (errno == ENOENT)
			return probe_dir(what, path, err);
		return err_usage(err, errno, "%s=%s: %s", what, path,
				 strerror(errno));
	}
	if (!S_ISREG(st.st_mode))
		return err_usage(err, EINVAL,
				 "%s=%s: not a regular file; a journal is a "
				 "file iochar creates",
				 what, path);
	if (st.st_size == 0)
		return 0; /* nothing in it to lose */
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_usage(err, errno, "%s=%s: %s", what, path,
				 strerror(errno));
	ssize_t n = pread(fd, head, sizeof(head), 0);
	close(fd);
	if (n != (ssize_t)sizeof(head) || le_get64(head) != JOURNAL_MAGIC)
		return err_usage(err, EEXIST,
				 "%s=%s: exists and is not an iochar journal; "
				 "refusing to overwrite it (remove it, or "
				 "choose another path)",
				 what, path);
	return 0;
}

static void writer_fail(struct journal_writer *j, int e, const char *doing)
{
	if (j->error)
		return;
	j->error = -e;
	snprintf(j->msg, sizeof(j->msg),
		 "journal %s: %s: %s; the run stops here (no write whose "
		 "intent is not in the journal was issued)",
		 j->path, doing, strerror(e));
}

static int pwrite_full(int fd, const void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pwrite(fd, (const char *)buf + done, len - done,
				   (off_t)(off + done));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		done += (size_t)n;
	}
	return 0;
}

/* Zero the file ahead of pos + len. */
static int grow(struct journal_writer *j, uint64_t len)
{
	static const uint8_t zeros[64 * 1024];

	while (j->pos + len > j->zeroed) {
		for (uint64_t o = 0; o < JOURNAL_GROW; o += sizeof(zeros)) {
			int ret = pwrite_full(j->fd, zeros, sizeof(zeros),
					      j->zeroed + o);
			if (ret)
				return ret;
		}
		j->zeroed += JOURNAL_GROW;
	}
	return 0;
}

/* Write the queued records (no sync). */
static void write_out(struct journal_writer *j)
{
	uint64_t len = (uint64_t)j->nr * JOURNAL_REC_LEN;
	int ret;

	if (!j->nr || j->error)
		return;
	ret = grow(j, len);
	if (ret) {
		writer_fail(j, -ret, "cannot extend it");
		return;
	}
	ret = pwrite_full(j->fd, j->buf, (size_t)len, j->pos);
	if (ret) {
		writer_fail(j, -ret, "write");
		return;
	}
	j->pos += len;
	j->nr = 0;
}

static void queue_rec(struct journal_writer *j, const struct journal_rec *r)
{
	if (j->nr == j->cap)
		write_out(j);
	if (j->error)
		return;
	journal_rec_encode(j->buf + (size_t)j->nr * JOURNAL_REC_LEN, r);
	j->nr++;
	j->seq++;
}

void journal_intent(struct journal_writer *j, unsigned file, uint64_t block,
		    uint8_t gen, uint64_t time_ns)
{
	struct journal_rec r = {
	    .type = JOURNAL_REC_INTENT,
	    .gen = gen,
	    .file = (uint16_t)file,
	    .seq = j->seq,
	    .run_id = j->run_id,
	    .block = block,
	    .time_ns = time_ns,
	};

	j->unsynced = true;
	queue_rec(j, &r);
}

void journal_done(struct journal_writer *j, unsigned file, uint64_t block,
		  uint8_t gen)
{
	struct journal_rec r = {
	    .type = JOURNAL_REC_DONE,
	    .gen = gen,
	    .file = (uint16_t)file,
	    .seq = j->seq,
	    .run_id = j->run_id,
	    .block = block,
	};

	queue_rec(j, &r);
}

int journal_flush(struct journal_writer *j, struct ioc_err *err)
{
	write_out(j);
	/* Why fdatasync and not a barrier: the intents must be on stable
	 * storage before the writes they announce can reach the device,
	 * whatever order the kernel and the device would pick. */
	if (!j->error && j->unsynced) {
		if (fdatasync(j->fd) < 0)
			writer_fail(j, errno, "fdatasync");
		else
			j->unsynced = false;
	}
	if (j->error)
		return err_set(err, -j->error, "%s", j->msg);
	return 0;
}

static void encode_header(uint8_t *h, uint32_t len, uint32_t paths_len,
			  const struct journal_info *info)
{
	memset(h, 0, len);
	le_put64(h + JH_MAGIC, JOURNAL_MAGIC);
	le_put32(h + JH_VERSION, JOURNAL_VERSION);
	le_put32(h + JH_HDR_LEN, len);
	le_put32(h + JH_REC_LEN, JOURNAL_REC_LEN);
	le_put32(h + JH_RUN, info->run_id);
	le_put64(h + JH_SEED, info->seed);
	le_put64(h + JH_BS, info->bs);
	le_put32(h + JH_UNIT, info->unit_len);
	le_put32(h + JH_NR_FILES, info->nr_files);
	le_put64(h + JH_OFFSET, info->offset);
	le_put64(h + JH_REGION, info->region);
	le_put64(h + JH_CREATED, info->created_ns);
	le_put32(h + JH_PATHS_LEN, paths_len);
	memcpy(h + JH_JOB, info->job, strnlen(info->job, JOB_NAME_MAX - 1));
	size_t at = JH_PATHS;
	for (unsigned i = 0; i < info->nr_files; i++) {
		size_t n = strlen(info->files[i]) + 1;
		memcpy(h + at, info->files[i], n);
		at += n;
	}
	le_put32(h + JH_CRC, crc32c(0, h, len));
}

/* Write the header at offset 0 of an emptied file; make the file and its
 * name durable. */
static int write_header(struct journal_writer *j,
			const struct journal_info *info, struct ioc_err *err)
{
	uint32_t paths_len, len = journal_hdr_len(info, &paths_len);
	uint8_t *h = NULL;
	int ret;

	if (len > JOURNAL_HDR_MAX)
		return err_usage(err, ENAMETOOLONG,
				 "journal %s: the target paths take more than "
				 "%u bytes",
				 j->path, JOURNAL_HDR_MAX);
	h = malloc(len);
	if (!h)
		return err_set(err, ENOMEM, "out of memory");
	encode_header(h, len, paths_len, info);
	ret = ftruncate(j->fd, 0) < 0 ? -errno : 0;
	if (!ret)
		ret = pwrite_full(j->fd, h, len, 0);
	free(h);
	j->pos = j->zeroed = len;
	if (!ret)
		ret = grow(j, JOURNAL_REC_LEN);
	if (!ret && fsync(j->fd) < 0)
		ret = -errno;
	if (ret)
		return err_set(err, -ret, "journal %s: %s", j->path,
			       strerror(-ret));
	/* a new file's name must survive a power cut too */
	char *copy = strdup(j->path);
	if (!copy)
		return err_set(err, ENOMEM, "out of memory");
	int dfd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		if (fsync(dfd) < 0)
			ret = err_set(err, errno,
				      "journal %s: fsync of its "
				      "directory: %s",
				      j->path, strerror(errno));
		close(dfd);
	}
	free(copy);
	return ret;
}

int journal_create(const char *path, const struct journal_info *info,
		   unsigned depth, struct journal_writer **out,
		   struct ioc_err *err)
{
	struct journal_writer *j;
	int ret = journal_probe("journal", path, err);

	*out = NULL;
	if (!ret) /* held since the run's checks; taken here otherwise */
		ret = journal_lock("journal", path, err);
	if (ret)
		return ret;
	j = calloc(1, sizeof(*j));
	if (!j)
		return err_set(err, ENOMEM, "out of memory");
	j->fd = -1;
	j->run_id = info->run_id;
	/* a pass queues at most depth intents, a reap at most depth
	 * completions; more is written out early, never lost */
	j->cap = 2 * depth + 64;
	j->path = strdup(path);
	j->buf = malloc((size_t)j->cap * JOURNAL_REC_LEN);
	if (!j->path || !j->buf) {
		ret = err_set(err, ENOMEM, "out of memory");
		goto fail;
	}
	j->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (j->fd < 0) {
		ret = err_set(err, errno, "journal %s: %s", path,
			      strerror(errno));
		goto fail;
	}
	ret = write_header(j, info, err);
	if (ret)
		goto fail;
	*out = j;
	return 0;
fail:
	if (j->fd >= 0)
		close(j->fd);
	free(j->buf);
	free(j->path);
	free(j);
	return ret;
}

int journal_close(struct journal_writer *j, struct ioc_err *err)
{
	int ret;

	if (!j)
		return 0;
	j->unsynced = true; /* a clean end leaves every DONE durable too */
	ret = journal_flush(j, err);
	if (close(j->fd) < 0 && !ret)
		ret = err_set(err, errno, "journal %s: close: %s", j->path,
			      strerror(errno));
	free(j->buf);
	free(j->path);
	free(j);
	return ret;
}
