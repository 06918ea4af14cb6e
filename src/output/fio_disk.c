/* fio_disk.c - see fio_disk.h. A dm/md device's slaves are entries of their
 * own too (fio lists every device it watches); the master adds their
 * averages (sum / count, integer, as fio) and the busiest one's util. */
#include "output/fio_disk.h"

#include <inttypes.h>

static void json_one(struct jw *w, const struct run_result *r, unsigned i)
{
	const struct disk_util *d = &r->disks[i];
	struct disk_counts a;
	double max_util;
	unsigned n = disk_util_slaves(r->disks, r->nr_disks, i, &a, &max_util);

	jw_object_begin(w);
	jw_kv_string(w, "name", d->name);
	jw_kv_uint(w, "read_ios", d->delta.ios[0]);
	jw_kv_uint(w, "write_ios", d->delta.ios[1]);
	jw_kv_uint(w, "read_merges", d->delta.merges[0]);
	jw_kv_uint(w, "write_merges", d->delta.merges[1]);
	jw_kv_uint(w, "read_ticks", d->delta.ticks[0]);
	jw_kv_uint(w, "write_ticks", d->delta.ticks[1]);
	jw_kv_uint(w, "in_queue", d->delta.in_queue);
	jw_kv_double(w, "util", disk_util_pct(d));
	if (n) { /* fio 3.33's key names, "aggr_write_merge" included */
		jw_kv_uint(w, "aggr_read_ios", a.ios[0] / n);
		jw_kv_uint(w, "aggr_write_ios", a.ios[1] / n);
		jw_kv_uint(w, "aggr_read_merges", a.merges[0] / n);
		jw_kv_uint(w, "aggr_write_merge", a.merges[1] / n);
		jw_kv_uint(w, "aggr_read_ticks", a.ticks[0] / n);
		jw_kv_uint(w, "aggr_write_ticks", a.ticks[1] / n);
		jw_kv_uint(w, "aggr_in_queue", a.in_queue / n);
		jw_kv_double(w, "aggr_util", max_util);
	}
	jw_object_end(w);
}

void fio_disk_json(struct jw *w, const struct run_result *r)
{
	jw_key(w, "disk_util");
	jw_array_begin(w);
	for (unsigned i = 0; i < r->nr_disks; i++)
		json_one(w, r, i);
	jw_array_end(w);
}

/* The seven counts and the util of one section, in fio's order. */
static void counts(FILE *f, const char *fmt, const struct disk_counts *c, unsigned n,
		   double util)
{
	fprintf(f, fmt, c->ios[0] / n, c->ios[1] / n, c->merges[0] / n, c->merges[1] / n,
		c->ticks[0] / n, c->ticks[1] / n, c->in_queue / n, util);
}

static void one_disk(FILE *f, const struct run_result *r, unsigned i, bool terse)
{
	static const char *const text = "ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64
					"/%" PRIu64 ", ticks=%" PRIu64 "/%" PRIu64
					", in_queue=%" PRIu64 ", util=%3.2f%%";
	static const char *const agg = ", aggrios=%" PRIu64 "/%" PRIu64 ", aggrmerge=%" PRIu64
				       "/%" PRIu64 ", aggrticks=%" PRIu64 "/%" PRIu64
				       ", aggrin_queue=%" PRIu64 ", aggrutil=%3.2f%%";
	static const char *const semi = ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
					";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%3.2f%%";
	const struct disk_util *d = &r->disks[i];
	struct disk_counts a;
	double max_util;
	unsigned n = disk_util_slaves(r->disks, r->nr_disks, i, &a, &max_util);

	if (terse) {
		fprintf(f, ";%s", d->name);
		counts(f, semi, &d->delta, 1, disk_util_pct(d));
		if (n) {
			fputs(";slaves", f);
			counts(f, semi, &a, n, max_util);
		}
		return;
	}
	fprintf(f, "%s  %s: ", n ? "  " : "", d->name);
	counts(f, text, &d->delta, 1, disk_util_pct(d));
	if (n)
		counts(f, agg, &a, n, max_util);
	fputc('\n', f);
}

void fio_disk_text(FILE *f, const struct run_result *r)
{
	if (!r->nr_disks)
		return;
	fputs("\nDisk stats (read/write):\n", f);
	for (unsigned i = 0; i < r->nr_disks; i++)
		one_disk(f, r, i, false);
}

void fio_disk_terse(FILE *f, const struct run_result *r)
{
	for (unsigned i = 0; i < r->nr_disks; i++)
		one_disk(f, r, i, true);
}
