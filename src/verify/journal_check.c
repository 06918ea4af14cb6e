/* journal_check.c - one unit read back after a crash, held against what
 * the journal's replay says its block must or may hold (journal.h).
 *
 * An intact unit (magic, unit length, CRC) is judged by its header: its
 * offset, then its run, generation and time_ns against the block's
 * candidates (the time tells a write from the one 255 generations before
 * it, which had the same number).
 * Anything else is looked at sector by sector (512 bytes, what a device
 * writes atomically): every candidate's unit is rebuilt byte for byte
 * from offset, generation, seed, run id and the time_ns the INTENT
 * recorded, and each sector is classified:
 *
 *   d  the acknowledged write      n  a write that was in flight
 *   o  old content from before the run (unknown, so unchecked: only when
 *      no write of the block completed)
 *   p  the acknowledged write before the last one (lost)
 *   f  nothing iochar wrote here (lost: zeros, prefill, foreign data)
 *   t  a sector that mixes two contents (torn inside the sector)
 *   x  bytes that match nothing the block may hold (damaged)
 *
 * "Match" is per 8-byte word; the pattern words (past the 64-byte header
 * in a unit's first sector) decide whether a sector has anything of a
 * candidate at all, since header words (magic, offset, seed) are alike in
 * every generation.
 */
#include <inttypes.h>
#include <string.h>

#include "verify/block.h"
#include "verify/journal.h"

#define WORDS_PER_SECTOR (JOURNAL_SECTOR / 8)

static enum journal_kind verdict(struct journal_verdict *v, enum journal_kind k,
				 enum journal_outcome o, const char *why)
{
	v->kind = k;
	v->outcome = o;
	v->why = why;
	return k;
}

/* A unit the journal says nothing about: the self-describing check. */
static enum journal_kind check_alone(uint64_t offset, const uint8_t *unit,
				     uint32_t unit_len,
				     struct journal_verdict *v)
{
	struct vexpect exp = {.offset = offset};
	struct vfailure f;

	switch (vunit_check(unit, unit_len, &exp, &f)) {
	case VK_OK:
		v->found_gen = f.found.gen;
		return verdict(v, JK_OK, JO_UNJOURNALED, "");
	case VK_MISPLACED:
		v->found_gen = f.found.gen;
		return verdict(v, JK_MISPLACED, JO_NONE, f.why);
	case VK_CORRUPTED:
		return verdict(v, JK_CORRUPTED, JO_NONE, f.why);
	default:
		return verdict(v, JK_UNVERIFIED, JO_NONE, "not in the journal");
	}
}

static void fill_expected(struct journal_verdict *v,
			  const struct journal_expect *e)
{
	size_t used = 0;

	v->expected[0] = '\0';
	if (e->prerun_ok)
		used +=
		    (size_t)snprintf(v->expected, sizeof(v->expected), "old");
	for (unsigned i = 0; i < e->nr && used < sizeof(v->expected); i++)
		if (e->cand[i].acceptable)
			used += (size_t)snprintf(
			    v->expected + used, sizeof(v->expected) - used,
			    "%s%u", used ? "|" : "", e->cand[i].gen);
}

/* The candidate a unit of this run stamped (gen, time_ns) is: the time
 * tells a write from one 255 generations earlier with the same number. */
static const struct journal_cand *cand_of(const struct journal_expect *e,
					  uint8_t gen, uint64_t time_ns)
{
	for (unsigned i = 0; i < e->nr; i++)
		if (e->cand[i].gen == gen && e->cand[i].time_ns == time_ns)
			return &e->cand[i];
	return NULL;
}

static enum journal_outcome outcome_of(char role, bool in_flight)
{
	if (role == 'n')
		return JO_NEW;
	if (role == 'o' || in_flight)
		return JO_OLD;
	return JO_ACKED;
}

static void fill_map(struct journal_verdict *v, char c)
{
	uint32_t n = v->unit_len / JOURNAL_SECTOR;

	memset(v->map, c, n);
	v->map[n] = '\0';
}

/* Why an intact unit of this run that the journal does not list is lost:
 * its time says whether it is older than every write the journal lists
 * for the block, or newer than one (a write the journal never recorded),
 * or between them. */
static const char *unlisted_why(const struct journal_expect *e,
				uint64_t time_ns)
{
	bool older = false, newer = false;

	for (unsigned i = 0; i < e->nr; i++) {
		older |= time_ns < e->cand[i].time_ns;
		newer |= time_ns > e->cand[i].time_ns;
	}
	if (newer && !older)
		return "a newer write of this run than the journal records "
		       "(written without its intent in the journal)";
	if (older && !newer)
		return "an older write of this run (its generation and time "
		       "are not the ones the journal allows)";
	return "a write of this run the journal does not record (its "
	       "generation and time are not the ones the journal allows)";
}

/* Why an intact unit of another run (or seed) is where this run's
 * acknowledged write must be: its time says whether a run after the
 * journal's overwrote the block, or the write never replaced an earlier
 * run's. */
static const char *other_run_why(const struct journal_info *info,
				 const struct vblock_hdr *h)
{
	if (h->run_id == info->run_id)
		return "written with another seed";
	if (h->time_ns > info->created_ns)
		return "written by a later run (the journal's run no longer "
		       "describes the block)";
	return "written by an earlier run";
}

static enum journal_kind check_intact(const struct journal_info *info,
				      const struct journal_expect *e,
				      const struct vblock_hdr *h,
				      struct journal_verdict *v)
{
	if (h->offset != v->offset) {
		v->found_gen = h->gen;
		return verdict(v, JK_MISPLACED, JO_NONE,
			       "unit of another offset");
	}
	if (h->run_id != info->run_id || h->seed != info->seed) {
		if (e->prerun_ok) {
			fill_map(v, 'o');
			return verdict(v, JK_OK, JO_OLD, "");
		}
		fill_map(v, 'f');
		v->first_bad_sector = 0;
		return verdict(v, JK_LOST, JO_NONE, other_run_why(info, h));
	}
	v->found_gen = h->gen;
	const struct journal_cand *c = cand_of(e, h->gen, h->time_ns);
	if (c && c->acceptable) {
		fill_map(v, c->role);
		return verdict(v, JK_OK, outcome_of(c->role, e->in_flight), "");
	}
	fill_map(v, c ? 'p' : 'f');
	v->first_bad_sector = 0;
	return verdict(v, JK_LOST, JO_NONE,
		       c ? "an older generation than the "
			   "acknowledged write"
			 : unlisted_why(e, h->time_ns));
}

/* Is [from, to) of sector sec other data than candidate c's bytes there:
 * at least 8 bytes, none of its whole words c's, most of its bytes unlike
 * c's? Bytes before skip (the header words alike in every write, in a
 * unit's first sector) say nothing and are left out. */
static bool foreign(const uint8_t *sec, const uint8_t *c, unsigned from,
		    unsigned to, unsigned skip)
{
	unsigned diff = 0;

	from = from > skip ? from : skip;
	if (to < from + 8)
		return false;
	for (unsigned w = (from + 7) / 8; (w + 1) * 8 <= to; w++)
		if (memcmp(sec + w * 8, c + w * 8, 8) == 0)
			return false;
	for (unsigned b = from; b < to; b++)
		diff += sec[b] != c[b];
	return diff * 2 > to - from;
}

/* Does the sector at sec (its bytes; the candidates' at cbuf[i] + at)
 * look like a write cut inside it, over old content nothing describes?
 * Then the candidate holding the most of its words has its bytes from one
 * edge of the sector up to a point, and other data from there to the
 * other edge (foreign). A flipped byte, or damage with the candidate's
 * words on both sides, is corruption, not a tear. */
static bool cut_sector(const uint8_t *sec, uint8_t (*cbuf)[VBLOCK_UNIT_LARGE],
		       const struct journal_expect *e, size_t at, unsigned skip)
{
	unsigned best = 0, best_n = 0, first = JOURNAL_SECTOR, last = 0;

	for (unsigned i = 0; i < e->nr; i++) {
		unsigned n = 0;
		for (unsigned w = 0; w < WORDS_PER_SECTOR; w++)
			n += memcmp(sec + w * 8, cbuf[i] + at + w * 8, 8) == 0;
		if (n > best_n) {
			best = i;
			best_n = n;
		}
	}
	const uint8_t *c = cbuf[best] + at;
	for (unsigned b = skip; b < JOURNAL_SECTOR; b++) {
		if (sec[b] == c[b])
			continue;
		first = b < first ? b : first;
		last = b;
	}
	if (first > last)
		return false;
	return foreign(sec, c, first, JOURNAL_SECTOR, skip) ||
	       foreign(sec, c, 0, last + 1, skip);
}

/* Which of the candidate units (cbuf[i], nr of them) sector s of unit
 * matches: a role letter (see the file comment). */
static char classify_sector(const uint8_t *unit, unsigned s,
			    uint8_t (*cbuf)[VBLOCK_UNIT_LARGE],
			    const struct journal_expect *e)
{
	const size_t at = (size_t)s * JOURNAL_SECTOR;
	unsigned first_pattern = s == 0 ? VBLOCK_HDR_LEN / 8 : 0;
	unsigned matched = 0;
	bool covered = true;

	for (unsigned i = 0; i < e->nr; i++)
		if (memcmp(unit + at, cbuf[i] + at, JOURNAL_SECTOR) == 0)
			return e->cand[i].role;
	for (unsigned w = 0; w < WORDS_PER_SECTOR; w++) {
		bool m = false;
		for (unsigned i = 0; i < e->nr && !m; i++)
			m = memcmp(unit + at + w * 8, cbuf[i] + at + w * 8,
				   8) == 0;
		if (m && w >= first_pattern)
			matched++;
		covered &= m;
	}
	if (matched == 0)
		return e->prerun_ok ? 'o' : 'f';
	if (covered || (e->prerun_ok &&
			cut_sector(unit + at, cbuf, e, at, first_pattern * 8)))
		return 't';
	return 'x';
}

static enum journal_kind judge_map(const struct journal_expect *e,
				   struct journal_verdict *v)
{
	const char *m = v->map;
	bool d = strchr(m, 'd'), n = strchr(m, 'n'), o = strchr(m, 'o');
	size_t bad = strcspn(m, "pftx");

	if (m[bad])
		v->first_bad_sector = (int)bad;
	if (strchr(m, 'x'))
		return verdict(v, JK_CORRUPTED, JO_NONE,
			       "bytes that match no generation the block may "
			       "hold");
	if (strchr(m, 't'))
		return verdict(v, JK_TORN, JO_NONE,
			       "a sector mixes two writes");
	if (strchr(m, 'p'))
		return verdict(v, JK_LOST, JO_NONE,
			       "sectors of an older generation than the "
			       "acknowledged write");
	if (strchr(m, 'f'))
		return verdict(v, JK_LOST, JO_NONE,
			       d || n ? "sectors without the acknowledged write"
				      : "no iochar data where the acknowledged "
					"write should be");
	if ((int)d + (int)n + (int)o > 1)
		return verdict(v, JK_OK, JO_MIXED, "");
	return verdict(v, JK_OK,
		       outcome_of(d   ? 'd'
				  : n ? 'n'
				      : 'o',
				  e->in_flight),
		       "");
}

static enum journal_kind check_sectors(const struct journal_info *info,
				       const struct journal_expect *e,
				       const uint8_t *unit,
				       struct journal_verdict *v)
{
	uint8_t cbuf[JOURNAL_CAND_MAX][VBLOCK_UNIT_LARGE]
	    __attribute__((aligned(8)));
	uint32_t nsec = v->unit_len / JOURNAL_SECTOR;

	for (unsigned i = 0; i < e->nr; i++) {
		struct vblock_stamp st = {
		    .seed = info->seed,
		    .time_ns = e->cand[i].time_ns,
		    .run_id = info->run_id,
		    .block_len = (uint32_t)info->bs,
		    .extent = info->offset + info->region,
		    .gen = e->cand[i].gen,
		    .version = journal_block_version(info),
		};
		vblock_fill(cbuf[i], v->unit_len, v->unit_len, v->offset, &st);
	}
	for (uint32_t s = 0; s < nsec; s++)
		v->map[s] = classify_sector(unit, s, cbuf, e);
	v->map[nsec] = '\0';
	return judge_map(e, v);
}

enum journal_kind journal_check_unit(const struct journal_replay *r,
				     unsigned file, uint64_t offset,
				     const uint8_t *unit,
				     struct journal_verdict *v)
{
	const struct journal_info *info = journal_replay_info(r);
	struct journal_expect e;
	struct vblock_hdr h;

	memset(v, 0, sizeof(*v));
	v->offset = offset;
	v->unit_len = info->unit_len;
	v->found_gen = -1;
	v->first_bad_sector = -1;
	v->data = unit;
	if (offset < info->offset || offset - info->offset >= info->region)
		return check_alone(offset, unit, info->unit_len, v);
	journal_expect_block(r, file, (offset - info->offset) / info->bs, &e);
	if (!e.known)
		return check_alone(offset, unit, info->unit_len, v);
	fill_expected(v, &e);
	vblock_hdr_decode(unit, &h);
	if (h.magic == VBLOCK_MAGIC && h.unit_len == info->unit_len &&
	    h.crc == vblock_unit_crc(unit, info->unit_len))
		return check_intact(info, &e, &h, v);
	if (h.magic == VBLOCK_MAGIC && h.run_id == info->run_id)
		v->found_gen = h.gen;
	return check_sectors(info, &e, unit, v);
}

void journal_count(struct journal_counts *c, const struct journal_verdict *v)
{
	switch (v->kind) {
	case JK_OK:
		c->checked_units++;
		c->acknowledged_units += v->outcome == JO_ACKED;
		c->old_units += v->outcome == JO_OLD;
		c->new_units += v->outcome == JO_NEW;
		c->mixed_units += v->outcome == JO_MIXED;
		c->unjournaled_units += v->outcome == JO_UNJOURNALED;
		return;
	case JK_UNVERIFIED:
		c->unverified_units++;
		return;
	case JK_LOST:
		c->lost++;
		break;
	case JK_TORN:
		c->torn++;
		break;
	case JK_CORRUPTED:
		c->corrupted++;
		break;
	case JK_MISPLACED:
		c->misplaced++;
		break;
	}
	c->checked_units++;
	c->failures++;
}

void journal_counts_add(struct journal_counts *to,
			const struct journal_counts *from)
{
	to->checked_units += from->checked_units;
	to->failures += from->failures;
	to->lost += from->lost;
	to->torn += from->torn;
	to->corrupted += from->corrupted;
	to->misplaced += from->misplaced;
	to->missing_units += from->missing_units;
	to->acknowledged_units += from->acknowledged_units;
	to->old_units += from->old_units;
	to->new_units += from->new_units;
	to->mixed_units += from->mixed_units;
	to->unjournaled_units += from->unjournaled_units;
	to->unverified_units += from->unverified_units;
}

const char *journal_kind_name(enum journal_kind k)
{
	switch (k) {
	case JK_OK:
		return "ok";
	case JK_UNVERIFIED:
		return "unverified";
	case JK_LOST:
		return "lost";
	case JK_TORN:
		return "torn";
	case JK_CORRUPTED:
		return "corrupted";
	case JK_MISPLACED:
		return "misplaced";
	}
	return "?";
}

void journal_print_failure(FILE *out, const char *target,
			   const struct journal_verdict *v)
{
	char line[1400], found[16] = "-", bad[16] = "-", hex[128];
	size_t used = 0;
	uint32_t n =
	    v->unit_len < VBLOCK_DUMP_LEN ? v->unit_len : VBLOCK_DUMP_LEN;

	for (uint32_t i = 0; i < n; i++)
		used +=
		    (size_t)snprintf(hex + used, sizeof(hex) - used, "%s%02x",
				     i && i % 4 == 0 ? " " : "", v->data[i]);
	if (v->found_gen >= 0)
		snprintf(found, sizeof(found), "%d", v->found_gen);
	if (v->first_bad_sector >= 0)
		snprintf(bad, sizeof(bad), "%d", v->first_bad_sector);
	snprintf(line, sizeof(line),
		 "verify failure: target=%.1000s offset=%" PRIu64
		 " kind=%s why=\"%s\" expected_gen=%s found_gen=%s"
		 " sectors=%s first_bad_sector=%s unit=%u data=%s\n",
		 target, v->offset, journal_kind_name(v->kind), v->why,
		 v->expected[0] ? v->expected : "-", found,
		 v->map[0] ? v->map : "-", bad, v->unit_len, hex);
	fputs(line, out);
}
