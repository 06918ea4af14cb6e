/* fuzz_vd_def.c - libFuzzer target for the VD definition parser
 * (vd/def.h): any text either fails with a message or gives a definition
 * that keeps the parser's promises (strip a power of two in 4k..1m, enough
 * members for the level, no member twice, failures the level survives).
 * Parsing touches no file.
 *
 *     make fuzz && build-fuzz/fuzz_vd_def tests/fuzz/corpus/vd_def
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "vd/def.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct vd_def *d = malloc(sizeof(*d));
	struct ioc_err err = {0};

	if (!text || !d)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	if (vd_def_parse(text, d, &err)) {
		CHECK(err.msg[0] != '\0');
		goto out;
	}
	CHECK(d->strip >= VD_STRIP_MIN && d->strip <= VD_STRIP_MAX);
	CHECK((d->strip & (d->strip - 1)) == 0);
	CHECK(d->nr_members >= vd_level_min_members(d->level));
	CHECK(d->nr_members <= VD_MAX_MEMBERS);
	CHECK(vd_survives(d, d->failed_mask));
	CHECK(vd_data_members(d) >= 1);
	for (unsigned i = 0; i < d->nr_members; i++)
		for (unsigned k = 0; k < i; k++)
			CHECK(strcmp(d->members[i], d->members[k]) != 0);
	CHECK(vd_list_count(text) >= 1);
out:
	free(text);
	free(d);
	return 0;
}
