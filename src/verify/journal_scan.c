/* journal_scan.c - see journal_scan.h; the rules are in journal.h and
 * docs/output.md ("Crash journal"). */
#include "verify/journal_scan.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "target/target.h"
#include "verify/report.h"

/* What the scan's per-unit callback needs. */
struct jscan {
	const struct journal_replay *r;
	unsigned file;
	const char *path;
	struct journal_counts *c;
	uint64_t *printed;
	bool fatal;
	const struct journal_reader *rd; /* NULL: a file */
};

static int check_unit(void *arg, const uint8_t *unit, uint32_t len,
		      uint64_t offset, struct ioc_err *err)
{
	struct jscan *js = arg;
	struct journal_verdict v;

	(void)len;
	(void)err;
	enum journal_kind k =
	    journal_check_unit(js->r, js->file, offset, unit, &v);
	journal_count(js->c, &v);
	if (k == JK_OK || k == JK_UNVERIFIED)
		return 0;
	uint64_t n = (*js->printed)++;
	if (n < VREPORT_MAX_LINES) {
		journal_print_failure(stderr, js->path, &v);
		if (js->rd && js->rd->where)
			js->rd->where(js->rd->arg, stderr, offset);
	} else if (n == VREPORT_MAX_LINES)
		vreport_print_cap(stderr, js->path);
	return js->fatal ? 1 : 0;
}

/* The target must exist; its size is t->size. One shorter than the
 * journal's region lost data: the scan reports what is missing. */
int journal_target_inspect(struct journal_target *t, struct ioc_err *err)
{
	struct target_info ti;
	int ret = target_inspect(t->path, &ti, err);

	if (ret) {
		err->usage = 1;
		return ret;
	}
	if (!ti.exists)
		return err_usage(err, ENOENT, "%s: does not exist", t->path);
	t->size = ti.size;
	return 0;
}

/* Bytes of the journal's region that target t holds, whole units. */
static uint64_t held_len(const struct journal_info *info,
			 const struct journal_target *t)
{
	uint64_t len = t->size > info->offset ? t->size - info->offset : 0;

	if (len >= info->region)
		return info->region;
	return len - len % info->unit_len;
}

bool journal_scan_targets(const struct journal_replay *r,
			  struct journal_target *t, bool fatal,
			  const struct journal_reader *rd,
			  struct journal_counts *total)
{
	const struct journal_info *info = journal_replay_info(r);
	uint64_t printed = 0;
	bool io_error = false;

	for (unsigned i = 0; i < info->nr_files; i++) {
		struct ioc_err err = {0};
		struct verify_counts ignored = {0};
		struct jscan js = {
		    .r = r,
		    .file = i,
		    .path = t[i].path,
		    .c = &t[i].c,
		    .printed = &printed,
		    .fatal = fatal,
		    .rd = rd,
		};
		struct vscan p = {
		    .path = t[i].path,
		    .start = info->offset,
		    .len = held_len(info, &t[i]),
		    .unit = info->unit_len,
		    .check = check_unit,
		    .check_arg = &js,
		    .report = stderr,
		    .printed = &printed,
		};
		if (rd) { /* reads only: failures go through check_unit */
			rd->hook(rd->arg, &p);
			p.where = NULL;
		}
		t[i].error = vscan_target(&p, &ignored, &err);
		uint64_t n = vreport_missing(
		    stderr, t[i].path, info->offset + p.len,
		    info->offset + info->region, info->unit_len);
		t[i].c.missing_units += n;
		t[i].c.failures += n;
		if (t[i].error) {
			snprintf(t[i].msg, sizeof(t[i].msg), "%s", err.msg);
			fprintf(stderr, "iochar: verify: %s\n", err.msg);
			io_error = true;
		}
		journal_counts_add(total, &t[i].c);
		if (fatal && total->failures)
			break;
	}
	return io_error;
}
