/* figures.c - reading a figures table (figures.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/figures.h"

struct fig_cols {
	int id, server, drive_type, drive_count, interface, controller;
	int raid_level, vd_count, disks_per_vd, access, read_pct, bs;
	int metric, value, unit, latency_ms, qualifier, source;
};

static int find_cols(const struct mdl_figs *f, struct fig_cols *c,
		     struct ioc_err *err)
{
	static const char *const required[] = {"id", "access", "metric", "value"};
	const struct csv_doc *d = &f->doc;

	for (unsigned i = 0; i < 4; i++)
		if (csv_doc_col(d, required[i]) < 0)
			return err_usage(err, EINVAL, "%s:1: no column '%s'",
					 f->origin, required[i]);
	*c = (struct fig_cols){
		csv_doc_col(d, "id"),          csv_doc_col(d, "server"),
		csv_doc_col(d, "drive_type"),  csv_doc_col(d, "drive_count"),
		csv_doc_col(d, "interface"),   csv_doc_col(d, "controller"),
		csv_doc_col(d, "raid_level"),  csv_doc_col(d, "vd_count"),
		csv_doc_col(d, "disks_per_vd"), csv_doc_col(d, "access"),
		csv_doc_col(d, "read_pct"),    csv_doc_col(d, "block_size_kib"),
		csv_doc_col(d, "metric"),      csv_doc_col(d, "value"),
		csv_doc_col(d, "unit"),        csv_doc_col(d, "latency_ms"),
		csv_doc_col(d, "qualifier"),   csv_doc_col(d, "source"),
	};
	return 0;
}

static const char *field(char **row, int col)
{
	return col >= 0 ? row[col] : "";
}

/* Is end only a unit the column is already in ("%", "K", "KiB", "KB",
 * "IOPS", "MBps", "MB/s", "ms"), or nothing? Tables written by hand say
 * "70%" or "4K"; the number means the same. */
static bool unit_only(const char *end)
{
	static const char *const units[] = {"", "%", "k", "kib", "kb", "iops", "mbps", "mb/s", "ms"};

	while (*end == ' ')
		end++;
	for (unsigned i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcasecmp(end, units[i]))
			return true;
	return false;
}

/* A number in [lo, hi], NaN when blank; thousands separators ("3,000,000")
 * and a trailing unit_only() are allowed. */
static int num(const struct mdl_figs *f, char **row, int col, unsigned line,
	       double lo, double hi, double *v, struct ioc_err *err)
{
	const char *s = field(row, col);
	char buf[64], *end;
	size_t n = 0;

	*v = NAN;
	if (!*s)
		return 0;
	for (const char *p = s; *p && n + 1 < sizeof(buf); p++)
		if (*p != ',')
			buf[n++] = *p;
	buf[n] = '\0';
	errno = 0;
	double x = strtod(buf, &end);
	if (end == buf || !unit_only(end) || errno || !isfinite(x))
		return err_usage(err, EINVAL, "%s:%u: %s '%s': not a number",
				 f->origin, line, f->doc.head[col], s);
	if (x < lo || x > hi)
		return err_usage(err, EINVAL, "%s:%u: %s %s: outside %g..%g",
				 f->origin, line, f->doc.head[col], s, lo, hi);
	*v = x;
	return 0;
}

static int count(const struct mdl_figs *f, char **row, int col, unsigned line,
		 unsigned *v, struct ioc_err *err)
{
	double x;
	int ret = num(f, row, col, line, 0, 4096, &x, err);

	if (!ret && !isnan(x) && x != floor(x))
		return err_usage(err, EINVAL, "%s:%u: %s %s: not a whole number",
				 f->origin, line, f->doc.head[col], field(row, col));
	*v = ret || isnan(x) ? 0 : (unsigned)x;
	return ret;
}

static int kinds(const struct mdl_figs *f, const struct fig_cols *c, char **row,
		 struct mdl_figrow *r, struct ioc_err *err)
{
	const char *acc = field(row, c->access);

	if (!strncasecmp(acc, "rand", 4))
		r->random = true;
	else if (strncasecmp(acc, "seq", 3))
		return err_usage(err, EINVAL, "%s:%u: access '%s': expected random or sequential",
				 f->origin, r->line, acc);
	const char *m = r->metric;
	r->is_limit = !strncasecmp(m, "limit", 5);
	if (r->is_limit)
		m += m[5] == '_' ? 6 : 5;
	if (!strcasecmp(m, "iops"))
		r->mbps = false;
	else if (!strcasecmp(m, "MBps") || !strcasecmp(m, "MB/s"))
		r->mbps = true;
	else if (!*m)
		r->mbps = !r->random;
	else
		return err_usage(err, EINVAL, "%s:%u: metric '%s': expected iops, MBps or limit_iops, limit_MBps",
				 f->origin, r->line, r->metric);
	return 0;
}

static int read_row(const struct mdl_figs *f, const struct fig_cols *c,
		    unsigned i, struct mdl_figrow *r, struct ioc_err *err)
{
	char **row = f->doc.rows[i];
	unsigned line = f->doc.line[i];
	int ret;

	*r = (struct mdl_figrow){
		.id = field(row, c->id), .server = field(row, c->server),
		.drive_type = field(row, c->drive_type),
		.interface = field(row, c->interface),
		.controller = field(row, c->controller),
		.raid_level = field(row, c->raid_level),
		.metric = field(row, c->metric), .unit = field(row, c->unit),
		.qualifier = field(row, c->qualifier),
		.source = field(row, c->source), .line = line,
	};
	if (!r->id[0])
		return err_usage(err, EINVAL, "%s:%u: id: empty", f->origin, line);
	if ((ret = kinds(f, c, row, r, err)) ||
	    (ret = count(f, row, c->drive_count, line, &r->drive_count, err)) ||
	    (ret = count(f, row, c->vd_count, line, &r->vd_count, err)) ||
	    (ret = count(f, row, c->disks_per_vd, line, &r->disks_per_vd, err)) ||
	    (ret = num(f, row, c->read_pct, line, 0, 100, &r->read_pct, err)) ||
	    (ret = num(f, row, c->bs, line, 1.0 / 1024, 1 << 20, &r->bs_kib, err)) ||
	    (ret = num(f, row, c->value, line, 0, 1e15, &r->value, err)) ||
	    (ret = num(f, row, c->latency_ms, line, 0, 1e9, &r->latency_ms, err)))
		return ret;
	if (isnan(r->bs_kib))
		r->bs_kib = 0;
	enum mdl_level l;
	if (r->raid_level[0] && mdl_level_parse(r->raid_level, &l))
		return err_usage(err, EINVAL, "%s:%u: raid_level '%s': expected JBOD, none, R0, R1, R5, R6, R10, R50 or R60",
				 f->origin, line, r->raid_level);
	return 0;
}

int mdl_figs_parse(const char *text, const char *origin, struct mdl_figs *figs,
		   struct ioc_err *err)
{
	struct fig_cols c = {0};
	int ret;

	memset(figs, 0, sizeof(*figs));
	figs->origin = origin;
	if ((ret = csv_doc_parse(text, origin, &figs->doc, err)) ||
	    (ret = find_cols(figs, &c, err)))
		return ret;
	figs->rows = calloc(figs->doc.nr_rows ? figs->doc.nr_rows : 1, sizeof(*figs->rows));
	if (!figs->rows)
		return -ENOMEM;
	for (unsigned i = 0; i < figs->doc.nr_rows; i++, figs->nr++)
		if ((ret = read_row(figs, &c, i, &figs->rows[i], err)))
			return ret;
	return 0;
}

void mdl_figs_free(struct mdl_figs *figs)
{
	if (!figs)
		return;
	csv_doc_free(&figs->doc);
	free(figs->rows);
	figs->rows = NULL;
	figs->nr = 0;
}

bool mdl_figrow_same_config(const struct mdl_figrow *a, const struct mdl_figrow *b)
{
	return !strcmp(a->server, b->server) && !strcmp(a->drive_type, b->drive_type) &&
	       a->drive_count == b->drive_count && !strcmp(a->interface, b->interface) &&
	       !strcmp(a->controller, b->controller) &&
	       !strcmp(a->raid_level, b->raid_level) && a->vd_count == b->vd_count &&
	       a->disks_per_vd == b->disks_per_vd;
}
