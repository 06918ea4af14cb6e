/* journal_replay.c - reading a crash journal back: the header, then every
 * record in order into what each block must or may hold (journal.h).
 *
 * Per block the replay keeps the last acknowledged write (DONE) and the
 * one before it, and the writes announced since (INTENT without DONE).
 * Records that fail their CRC, carry another run id or a number that is
 * not their position, or name no block of the header are skipped and
 * counted: after a crash the tail may hold a torn record, and records
 * written after the last fdatasync may be missing in patches. A DONE
 * whose INTENT is missing leaves the block's history with a gap: it is
 * then checked on its own, like a block the journal never named.
 *
 * Blocks live in an open-addressing hash table sized by what the journal
 * names, not by the region: a short journal of a huge device stays small.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verify/block.h"
#include "verify/journal.h"
#include "verify/journal_fmt.h"

#define JB_UNKNOWN 1u /* a gap in the block's history */
#define READ_CHUNK (1u << 20)

struct jblock {
	uint64_t key; /* file * nblocks + block, + 1; 0 = empty slot */
	uint64_t done_time, prev_time;
	uint64_t maybe_time[JOURNAL_MAYBE_MAX];
	uint8_t done, prev; /* generations; 0 = none */
	uint8_t nmaybe;
	uint8_t maybe[JOURNAL_MAYBE_MAX];
	uint8_t flags;
};

struct journal_replay {
	struct journal_info info;
	struct journal_stats stats;
	uint64_t nblocks; /* per file */
	struct jblock *tab;
	size_t cap, used; /* cap a power of two */
	uint64_t slot;	  /* record slots seen, valid or not */
	uint64_t pending_bad;
};

static uint64_t hash64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static struct jblock *find(const struct journal_replay *r, uint64_t key)
{
	if (!r->cap)
		return NULL;
	for (size_t i = hash64(key) & (r->cap - 1);;
	     i = (i + 1) & (r->cap - 1)) {
		if (r->tab[i].key == key)
			return &r->tab[i];
		if (r->tab[i].key == 0)
			return NULL;
	}
}

static int rehash(struct journal_replay *r, size_t cap)
{
	struct jblock *tab = calloc(cap, sizeof(*tab));

	if (!tab)
		return -ENOMEM;
	for (size_t i = 0; i < r->cap; i++) {
		if (!r->tab[i].key)
			continue;
		size_t k = hash64(r->tab[i].key) & (cap - 1);
		while (tab[k].key)
			k = (k + 1) & (cap - 1);
		tab[k] = r->tab[i];
	}
	free(r->tab);
	r->tab = tab;
	r->cap = cap;
	return 0;
}

static struct jblock *get(struct journal_replay *r, uint64_t key)
{
	struct jblock *b = find(r, key);

	if (b)
		return b;
	if ((r->used + 1) * 2 > r->cap && rehash(r, r->cap ? r->cap * 2 : 1024))
		return NULL;
	size_t i = hash64(key) & (r->cap - 1);
	while (r->tab[i].key)
		i = (i + 1) & (r->cap - 1);
	r->tab[i].key = key;
	r->used++;
	r->stats.blocks++;
	return &r->tab[i];
}

static void on_intent(struct jblock *b, const struct journal_rec *rec)
{
	if (b->nmaybe == JOURNAL_MAYBE_MAX) {
		b->flags |= JB_UNKNOWN;
		return;
	}
	b->maybe[b->nmaybe] = rec->gen;
	b->maybe_time[b->nmaybe] = rec->time_ns;
	b->nmaybe++;
}

/* The write of rec->gen completed: the block holds it, and whatever was
 * announced before it was issued is settled (one I/O per block at a
 * time: those writes had completed, or failed, first). */
static void on_done(struct jblock *b, const struct journal_rec *rec)
{
	int i = (int)b->nmaybe - 1;

	while (i >= 0 && b->maybe[i] != rec->gen)
		i--;
	if (i < 0) {
		b->flags |= JB_UNKNOWN;
		return;
	}
	b->prev = b->done;
	b->prev_time = b->done_time;
	b->done = rec->gen;
	b->done_time = b->maybe_time[i];
	b->nmaybe = 0;
}

static bool rec_valid(const struct journal_replay *r,
		      const struct journal_rec *rec)
{
	return (rec->type == JOURNAL_REC_INTENT ||
		rec->type == JOURNAL_REC_DONE) &&
	       rec->gen != 0 && rec->file < r->info.nr_files &&
	       rec->block < r->nblocks && rec->run_id == r->info.run_id &&
	       rec->seq == (uint32_t)r->slot;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* Replay the record slot at p (JOURNAL_REC_LEN bytes). */
static int feed_slot(struct journal_replay *r, const uint8_t *p)
{
	struct journal_rec rec;

	if (all_zero(p, JOURNAL_REC_LEN)) { /* unused, pre-zeroed space */
		r->slot++;
		return 0;
	}
	if (!journal_rec_decode(p, &rec) || !rec_valid(r, &rec)) {
		r->slot++;
		r->pending_bad++;
		return 0;
	}
	r->slot++;
	r->stats.bad_records += r->pending_bad;
	r->pending_bad = 0;
	struct jblock *b = get(r, rec.file * r->nblocks + rec.block + 1);
	if (!b)
		return -ENOMEM;
	r->stats.records++;
	if (rec.type == JOURNAL_REC_INTENT)
		r->stats.intents++;
	else
		r->stats.dones++;
	if (b->flags & JB_UNKNOWN)
		return 0;
	if (rec.type == JOURNAL_REC_INTENT)
		on_intent(b, &rec);
	else
		on_done(b, &rec);
	return 0;
}

static int bad_header(struct ioc_err *err, const char *what)
{
	return err_usage(err, EINVAL, "not an iochar journal (%s)", what);
}

/* Check and decode the fixed part of the header at h (len bytes there):
 * what says the header's total length. */
static int header_len_of(const uint8_t *h, size_t len, uint32_t *hlen,
			 struct ioc_err *err)
{
	if (len < JOURNAL_HDR_FIXED || le_get64(h + JH_MAGIC) != JOURNAL_MAGIC)
		return bad_header(err, "no journal magic");
	uint32_t version = le_get32(h + JH_VERSION);
	if (version < JOURNAL_VERSION_MIN || version > JOURNAL_VERSION)
		return err_usage(err, EINVAL,
				 "journal version %u; this iochar reads "
				 "versions %u to %u",
				 version, JOURNAL_VERSION_MIN, JOURNAL_VERSION);
	*hlen = le_get32(h + JH_HDR_LEN);
	if (*hlen < JOURNAL_HDR_FIXED || *hlen > JOURNAL_HDR_MAX ||
	    *hlen % JOURNAL_HDR_ALIGN)
		return bad_header(err, "bad header length");
	return 0;
}

static int decode_paths(struct journal_info *info, const uint8_t *h,
			uint32_t hlen, uint32_t paths_len, struct ioc_err *err)
{
	const char *p = (const char *)h + JH_PATHS;
	const char *end = p + paths_len;

	if (paths_len > hlen - JH_PATHS)
		return bad_header(err, "bad path list");
	for (unsigned i = 0; i < info->nr_files; i++) {
		const char *nul = memchr(p, '\0', (size_t)(end - p));
		if (!nul || nul == p)
			return bad_header(err, "bad path list");
		info->files[i] = strdup(p);
		if (!info->files[i])
			return err_set(err, ENOMEM, "out of memory");
		p = nul + 1;
	}
	if (p != end)
		return bad_header(err, "bad path list");
	return 0;
}

/* Decode the whole header (hlen bytes at h) into r. */
static int decode_header(struct journal_replay *r, const uint8_t *h,
			 uint32_t hlen, struct ioc_err *err)
{
	struct journal_info *info = &r->info;
	uint8_t crc[4] = {0};
	uint32_t c = crc32c(0, h, JH_CRC);

	c = crc32c(c, crc, sizeof(crc));
	c = crc32c(c, h + JH_CRC + 4, hlen - JH_CRC - 4);
	if (c != le_get32(h + JH_CRC))
		return bad_header(err, "header CRC mismatch");
	if (le_get32(h + JH_REC_LEN) != JOURNAL_REC_LEN)
		return bad_header(err, "bad record length");
	info->version = le_get32(h + JH_VERSION);
	info->header_len = hlen;
	info->run_id = le_get32(h + JH_RUN);
	info->seed = le_get64(h + JH_SEED);
	info->bs = le_get64(h + JH_BS);
	info->unit_len = le_get32(h + JH_UNIT);
	info->offset = le_get64(h + JH_OFFSET);
	info->region = le_get64(h + JH_REGION);
	info->created_ns = le_get64(h + JH_CREATED);
	uint32_t nr = le_get32(h + JH_NR_FILES);
	if (info->bs == 0 || info->bs > (1ull << 30) || !info->unit_len ||
	    vblock_unit_len(info->bs) != info->unit_len ||
	    info->offset % info->unit_len || info->region < info->bs ||
	    info->region % info->bs || nr == 0 || nr > JOB_MAX_FILES ||
	    info->offset > UINT64_MAX - info->region)
		return bad_header(err, "inconsistent region");
	memcpy(info->job, h + JH_JOB, JOB_NAME_MAX - 1);
	info->job[JOB_NAME_MAX - 1] = '\0';
	info->nr_files = nr;
	int ret = decode_paths(info, h, hlen, le_get32(h + JH_PATHS_LEN), err);
	if (ret)
		return ret;
	r->nblocks = info->region / info->bs;
	if (r->nblocks > UINT64_MAX / JOB_MAX_FILES - 1)
		return bad_header(err, "inconsistent region");
	return 0;
}

static void finish(struct journal_replay *r)
{
	r->stats.torn_tail = r->pending_bad;
	for (size_t i = 0; i < r->cap; i++)
		if (r->tab[i].key && (r->tab[i].flags & JB_UNKNOWN))
			r->stats.unknown++;
}

int journal_replay_mem(const void *buf, size_t len, struct journal_replay **out,
		       struct ioc_err *err)
{
	const uint8_t *p = buf;
	struct journal_replay *r = calloc(1, sizeof(*r));
	uint32_t hlen = 0;
	int ret;

	*out = NULL;
	if (!r)
		return err_set(err, ENOMEM, "out of memory");
	ret = header_len_of(p, len, &hlen, err);
	if (!ret && hlen > len)
		ret = bad_header(err, "shorter than its header");
	if (!ret)
		ret = decode_header(r, p, hlen, err);
	size_t at = hlen;
	for (; !ret && at + JOURNAL_REC_LEN <= len; at += JOURNAL_REC_LEN)
		if (feed_slot(r, p + at))
			ret = err_set(err, ENOMEM, "out of memory");
	if (ret) {
		journal_replay_free(r);
		return ret;
	}
	if (at < len && !all_zero(p + at, len - at))
		r->pending_bad++; /* a record cut short */
	finish(r);
	*out = r;
	return 0;
}

static int read_full(int fd, const char *path, uint8_t *buf, size_t len,
		     uint64_t off, size_t *got, struct ioc_err *err)
{
	*got = 0;
	while (*got < len) {
		ssize_t n =
		    pread(fd, buf + *got, len - *got, (off_t)(off + *got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return err_set(err, errno, "journal %s: read: %s", path,
				       strerror(errno));
		if (n == 0)
			break;
		*got += (size_t)n;
	}
	return 0;
}

/* The records of the file from offset hlen on, chunk by chunk. */
static int feed_file(struct journal_replay *r, int fd, const char *path,
		     uint64_t hlen, struct ioc_err *err)
{
	uint8_t *buf = malloc(READ_CHUNK);
	uint64_t off = hlen;
	size_t got = 0;
	int ret = 0;

	if (!buf)
		return err_set(err, ENOMEM, "out of memory");
	do {
		ret = read_full(fd, path, buf, READ_CHUNK, off, &got, err);
		size_t whole = got - got % JOURNAL_REC_LEN;
		for (size_t at = 0; !ret && at < whole; at += JOURNAL_REC_LEN)
			if (feed_slot(r, buf + at))
				ret = err_set(err, ENOMEM, "out of memory");
		if (!ret && whole < got && !all_zero(buf + whole, got - whole))
			r->pending_bad++; /* a record cut short */
		off += whole;
	} while (!ret && got == READ_CHUNK);
	free(buf);
	return ret;
}

int journal_replay_file(const char *path, struct journal_replay **out,
			struct ioc_err *err)
{
	uint8_t head[JOURNAL_HDR_FIXED];
	uint8_t *h = NULL;
	struct journal_replay *r = NULL;
	uint32_t hlen = 0;
	size_t got = 0;
	int ret, fd = open(path, O_RDONLY | O_CLOEXEC);

	*out = NULL;
	if (fd < 0)
		return err_usage(err, errno, "journal %s: %s", path,
				 strerror(errno));
	ret = read_full(fd, path, head, sizeof(head), 0, &got, err);
	if (!ret)
		ret = header_len_of(head, got, &hlen, err);
	if (!ret && !(h = malloc(hlen)))
		ret = err_set(err, ENOMEM, "out of memory");
	if (!ret)
		ret = read_full(fd, path, h, hlen, 0, &got, err);
	if (!ret && got < hlen)
		ret = bad_header(err, "shorter than its header");
	if (!ret && !(r = calloc(1, sizeof(*r))))
		ret = err_set(err, ENOMEM, "out of memory");
	if (!ret)
		ret = decode_header(r, h, hlen, err);
	if (!ret)
		ret = feed_file(r, fd, path, hlen, err);
	free(h);
	close(fd);
	if (ret) {
		err_prefix(err, "journal %s", path);
		journal_replay_free(r);
		return ret;
	}
	finish(r);
	*out = r;
	return 0;
}

void journal_replay_free(struct journal_replay *r)
{
	if (!r)
		return;
	journal_info_free(&r->info);
	free(r->tab);
	free(r);
}

const struct journal_info *journal_replay_info(const struct journal_replay *r)
{
	return &r->info;
}

const struct journal_stats *journal_replay_stats(const struct journal_replay *r)
{
	return &r->stats;
}

static void add(struct journal_expect *e, uint8_t gen, uint64_t t, char role)
{
	struct journal_cand *c = &e->cand[e->nr++];

	c->gen = gen;
	c->time_ns = t;
	c->role = role;
	c->acceptable = role != 'p';
}

void journal_expect_block(const struct journal_replay *r, unsigned file,
			  uint64_t block, struct journal_expect *e)
{
	const struct jblock *b = NULL;

	memset(e, 0, sizeof(*e));
	if (file < r->info.nr_files && block < r->nblocks)
		b = find(r, file * r->nblocks + block + 1);
	if (!b || (b->flags & JB_UNKNOWN))
		return;
	e->known = true;
	e->prerun_ok = b->done == 0;
	e->in_flight = b->nmaybe > 0;
	if (b->done)
		add(e, b->done, b->done_time, 'd');
	for (unsigned i = 0; i < b->nmaybe; i++)
		add(e, b->maybe[i], b->maybe_time[i], 'n');
	if (b->done && b->prev)
		add(e, b->prev, b->prev_time, 'p');
}
