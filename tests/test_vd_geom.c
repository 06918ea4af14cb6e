/* test_vd_geom.c - the VD layouts are the documented ones (docs/vd.md
 * diagrams: md's left-symmetric RAID 5 and RAID 6), every VD byte maps to
 * exactly one data location, and the definition parser's arithmetic. */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vd/def.h"
#include "vd/geom.h"

static struct vd_def *parse(const char *text)
{
	struct vd_def *d = malloc(sizeof(*d));
	struct ioc_err err = {0};
	if (vd_def_parse(text, d, &err))
		fail_msg("%s: %s", text, err.msg);
	return d;
}

/* Diagram rows: for each member, "D<n>", "P" or "Q". */
static void check_diagram(const char *text, const char *const *rows, unsigned nrows)
{
	struct vd_def *d = parse(text);
	struct vd_geom g;
	vd_geom_init(&g, d, 1 << 20);
	for (unsigned r = 0; r < nrows; r++) {
		char line[128] = "";
		for (unsigned m = 0; m < g.n; m++) {
			char cell[16] = "?";
			if (vd_geom_p_member(&g, r) == m)
				snprintf(cell, sizeof(cell), "P");
			else if (g.np == 2 && vd_geom_q_member(&g, r) == m)
				snprintf(cell, sizeof(cell), "Q");
			for (unsigned i = 0; i < g.k; i++)
				if (vd_geom_data_member(&g, r, i) == m)
					snprintf(cell, sizeof(cell), "D%llu", (unsigned long long)(r * g.k + i));
			strcat(line, cell);
			strcat(line, m + 1 < g.n ? " " : "");
		}
		assert_string_equal(line, rows[r]);
	}
	free(d);
}

static void test_raid5_left_symmetric(void **state)
{
	(void)state;
	const char *rows[] = {"D0 D1 D2 P", "D4 D5 P D3", "D8 P D6 D7", "P D9 D10 D11",
			      "D12 D13 D14 P"};
	check_diagram("raid5,strip=64k,members=a:b:c:d", rows, 5);
}

static void test_raid6_left_symmetric(void **state)
{
	(void)state;
	const char *rows[] = {"Q D0 D1 D2 P", "D3 D4 D5 P Q", "D7 D8 P Q D6",
			      "D11 P Q D9 D10", "P Q D12 D13 D14"};
	check_diagram("raid6,strip=64k,members=a:b:c:d:e", rows, 5);
}

/* Every (member, member offset) holds at most one VD byte, and each row
 * has every member exactly once. */
static void test_bijective(void **state)
{
	(void)state;
	const char *defs[] = {"raid0,strip=4k,members=a:b:c", "raid5,strip=4k,members=a:b:c:d:e",
			      "raid6,strip=4k,members=a:b:c:d:e:f",
			      "raid10,strip=4k,members=a:b:c:d:e:f:g:h,spans=2",
			      "span,strip=4k,members=a:b:c"};
	for (unsigned t = 0; t < 5; t++) {
		struct vd_def *d = parse(defs[t]);
		struct vd_geom g;
		vd_geom_init(&g, d, 64 * 4096);
		uint8_t *seen = calloc(g.n * 64, 1);
		for (uint64_t off = 0; off < g.capacity; off += 4096) {
			struct vd_piece p;
			vd_geom_piece(&g, off, 4096, &p);
			assert_int_equal(p.len, 4096);
			unsigned m = vd_level_concat(d->level) ? p.idx : vd_geom_data_member(&g, p.row, p.idx);
			uint64_t blk = vd_level_concat(d->level) ? p.in_strip / 4096 : p.row;
			assert_true(m < g.n && blk < 64);
			assert_int_equal(seen[m * 64 + blk], 0);
			seen[m * 64 + blk] = 1;
		}
		free(seen);
		free(d);
	}
}

static void test_raid10_spans(void **state)
{
	(void)state;
	struct vd_def *d = parse("raid10,strip=64k,members=a:b:c:d:e:f:g:h,spans=2");
	struct vd_geom g;
	vd_geom_init(&g, d, 1 << 20);
	assert_int_equal(g.k, 4);
	/* strips alternate spans: pairs 0 (span 0), 2 (span 1), 1, 3 */
	assert_int_equal(vd_geom_data_member(&g, 0, 0), 0);
	assert_int_equal(vd_geom_data_member(&g, 0, 1), 4);
	assert_int_equal(vd_geom_data_member(&g, 0, 2), 2);
	assert_int_equal(vd_geom_data_member(&g, 0, 3), 6);
	assert_int_equal(g.capacity, 4u << 20);
	free(d);
}

static void test_parse_values(void **state)
{
	(void)state;
	struct vd_def *d = parse("RAID6,strip=128k,members=a:b:c:d:e,failed=1:3,readahead=always,"
				 "write=back,cache=8m,access=rw");
	assert_int_equal(d->level, VD_RAID6);
	assert_int_equal(d->strip, 128 * 1024);
	assert_int_equal(d->nr_members, 5);
	assert_string_equal(d->members[4], "e");
	assert_int_equal(d->failed_mask, (1u << 1) | (1u << 3));
	assert_true(d->readahead);
	assert_int_equal(d->write, VD_WRITE_BACK);
	assert_int_equal(d->cache, 8u << 20);
	assert_int_equal(vd_data_members(d), 3);
	free(d);
	assert_int_equal(vd_list_count("a;b;c"), 3);
	char one[16];
	assert_int_equal(vd_list_item("x1;y22;z", 1, one, sizeof(one)), 0);
	assert_string_equal(one, "y22");
}

/* A run's drives: one per VD of the list, one per member of a jbod (its
 * item with that member alone, its other keys kept); span and concat
 * are one drive over the members; a jbod has no cache to configure. */
static void test_jbod_drives(void **state)
{
	(void)state;
	const char *list = "raid5,strip=64k,members=a:b:c;jbod,members=d:e:f,disk_cache=off;span,members=g:h";
	const char *want[] = {"raid5,strip=64k,members=a:b:c", "jbod,members=d,disk_cache=off",
			      "jbod,members=e,disk_cache=off", "jbod,members=f,disk_cache=off",
			      "span,members=g:h"};
	char out[256];
	assert_int_equal(vd_drives_count(list), 5);
	for (unsigned i = 0; i < 5; i++) {
		assert_int_equal(vd_drives_item(list, i, out, sizeof(out)), 0);
		assert_string_equal(out, want[i]);
	}
	assert_int_equal(vd_drives_item(list, 5, out, sizeof(out)), -EINVAL);
	assert_int_equal(vd_drives_count("JBOD,members=x"), 1);
	struct vd_def *d = parse("concat,members=a:b");
	assert_int_equal(d->level, VD_SPAN);
	assert_int_equal(d->strip, 65536); /* optional: nothing is striped */
	free(d);
	d = parse("jbod,members=a:b:c");
	assert_int_equal(d->level, VD_JBOD);
	free(d);
	struct vd_def def;
	struct ioc_err err = {0};
	assert_int_equal(vd_def_parse("jbod,members=a,write=back", &def, &err), -EINVAL);
	assert_non_null(strstr(err.msg, "jbod"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_raid5_left_symmetric),
		cmocka_unit_test(test_raid6_left_symmetric),
		cmocka_unit_test(test_bijective),
		cmocka_unit_test(test_raid10_spans),
		cmocka_unit_test(test_parse_values),
		cmocka_unit_test(test_jbod_drives),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
