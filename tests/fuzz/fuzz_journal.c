/* fuzz_journal.c - libFuzzer target for the crash journal's reader
 * (verify/journal.h): the input is a journal file's bytes, as
 * `iochar verify --journal` would read them after any crash or damage.
 * Besides the sanitizers, the target checks the reader's contract: a
 * failure says why in err and returns no replay; a success has a sane
 * header (1..256 targets, a unit that fits bs, a region of whole blocks),
 * counts that add up, per-block expectations within their bounds, and
 * unit verdicts (on a unit cut from the input) that agree with
 * themselves. Each input is read as given, then again with its header
 * CRC made right, so the header's fields are fuzzed too.
 *
 *     make fuzz && build-fuzz/fuzz_journal tests/fuzz/corpus/journal
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verify/block.h"
#include "verify/journal.h"
#include "verify/journal_fmt.h"

#include "fuzz.h"

static void check_expect(const struct journal_expect *e)
{
	unsigned acceptable = 0;

	CHECK(e->nr <= JOURNAL_CAND_MAX);
	if (!e->known) {
		CHECK(e->nr == 0);
		return;
	}
	CHECK(e->nr >= 1);
	for (unsigned i = 0; i < e->nr; i++) {
		const struct journal_cand *c = &e->cand[i];
		CHECK(c->gen != 0);
		CHECK(c->role == 'd' || c->role == 'n' || c->role == 'p');
		CHECK(c->acceptable == (c->role != 'p'));
		acceptable += c->acceptable;
	}
	CHECK(acceptable >= 1);
	CHECK(e->prerun_ok == (e->cand[0].role != 'd'));
	CHECK(!e->prerun_ok || e->in_flight);
}

static void check_unit(const struct journal_replay *r, unsigned file,
		       uint64_t offset, const uint8_t *unit)
{
	const struct journal_info *info = journal_replay_info(r);
	struct journal_verdict v;
	enum journal_kind k = journal_check_unit(r, file, offset, unit, &v);
	size_t maplen = strlen(v.map);

	CHECK(k == v.kind);
	CHECK(v.offset == offset && v.unit_len == info->unit_len);
	CHECK(v.why != NULL);
	CHECK(maplen == 0 || maplen == info->unit_len / JOURNAL_SECTOR);
	CHECK(strspn(v.map, "dnopftx") == maplen);
	CHECK((k == JK_OK) == (v.outcome != JO_NONE));
	CHECK(v.first_bad_sector < (int)(info->unit_len / JOURNAL_SECTOR));
	if (k == JK_TORN)
		CHECK(strchr(v.map, 't') != NULL);
	if (k == JK_OK && maplen)
		CHECK(strcspn(v.map, "pftx") == maplen);
	struct journal_counts c = {0};
	journal_count(&c, &v);
	CHECK(c.checked_units + c.unverified_units == 1);
	CHECK(c.failures == c.lost + c.torn + c.corrupted + c.misplaced);
}

static void one(const uint8_t *data, size_t size)
{
	struct journal_replay *r = (struct journal_replay *)1;
	struct ioc_err err = {0};
	int ret = journal_replay_mem(data, size, &r, &err);

	if (ret) {
		CHECK(ret < 0);
		CHECK(r == NULL);
		CHECK(err.msg[0] != '\0');
		return;
	}
	const struct journal_info *info = journal_replay_info(r);
	const struct journal_stats *st = journal_replay_stats(r);
	CHECK(info->nr_files >= 1 && info->nr_files <= JOB_MAX_FILES);
	for (unsigned i = 0; i < info->nr_files; i++)
		CHECK(info->files[i] && info->files[i][0]);
	CHECK(memchr(info->job, '\0', sizeof(info->job)) != NULL);
	CHECK(info->unit_len == vblock_unit_len(info->bs));
	CHECK(info->region >= info->bs && info->region % info->bs == 0);
	CHECK(info->header_len <= size);
	CHECK(st->records == st->intents + st->dones);
	CHECK(st->blocks <= st->records && st->unknown <= st->blocks);
	CHECK((st->records + st->bad_records + st->torn_tail) *
		  JOURNAL_REC_LEN <=
	      size - info->header_len + JOURNAL_REC_LEN);

	/* the blocks the records can name, and the unit the input ends with
	 * (or zeros) checked at the first ones */
	uint64_t nblocks = info->region / info->bs;
	uint8_t *unit = calloc(1, info->unit_len);
	CHECK(unit != NULL);
	if (size >= info->unit_len)
		memcpy(unit, data + size - info->unit_len, info->unit_len);
	for (unsigned f = 0; f < info->nr_files && f < 4; f++) {
		for (uint64_t b = 0; b < nblocks && b < 16; b++) {
			struct journal_expect e;
			journal_expect_block(r, f, b, &e);
			check_expect(&e);
			check_unit(r, f, info->offset + b * info->bs, unit);
		}
	}
	struct journal_expect e;
	journal_expect_block(r, info->nr_files, 0, &e);
	CHECK(!e.known);
	journal_expect_block(r, 0, nblocks, &e);
	CHECK(!e.known);
	free(unit);
	journal_replay_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	one(data, size);
	/* A mutated header almost never keeps its CRC: check the input a
	 * second time with the CRC made right, so the header's fields are
	 * explored too. */
	if (size < JOURNAL_HDR_FIXED)
		return 0;
	uint32_t hlen = le_get32(data + 12);
	if (hlen < JOURNAL_HDR_FIXED || hlen > size)
		return 0;
	uint8_t *copy = malloc(size);
	CHECK(copy != NULL);
	memcpy(copy, data, size);
	le_put32(copy + 72, 0);
	le_put32(copy + 72, crc32c(0, copy, hlen));
	one(copy, size);
	free(copy);
	return 0;
}
