/* verify_journal.c - `iochar verify --journal=FILE`: see verify_journal.h.
 * Which targets (the journal's, --filename's or --vd's) and the printing
 * are here; the check itself is verify/journal_scan.c, the rules
 * verify/journal.h and docs/output.md ("Crash journal"). */
#include "cmd/verify_journal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/stdout_end.h"
#include "cmd/verify_vd.h"
#include "base/json_writer.h"
#include "verify/report_csv.h"
#include "verify/crc32c.h"
#include "verify/journal.h"
#include "verify/journal_lock.h"
#include "verify/journal_scan.h"
#include "verify/report.h"


static void print_counts(const char *what, const struct journal_counts *c)
{
	printf("%s: %" PRIu64 " units checked, %" PRIu64
	       " failures (lost %" PRIu64 ", torn %" PRIu64
	       ", corrupted %" PRIu64 ", misplaced %" PRIu64
	       ", missing %" PRIu64 "); acknowledged %" PRIu64
	       ", in flight: old %" PRIu64 ", new %" PRIu64 ", mixed %" PRIu64
	       "; not in the journal %" PRIu64 ", unverified %" PRIu64 "\n",
	       what, c->checked_units, c->failures, c->lost, c->torn,
	       c->corrupted, c->misplaced, c->missing_units,
	       c->acknowledged_units, c->old_units, c->new_units,
	       c->mixed_units, c->unjournaled_units, c->unverified_units);
}

static void emit_text(const char *journal, const struct journal_replay *r,
		      const struct journal_target *t,
		      const struct journal_counts *total)
{
	const struct journal_info *info = journal_replay_info(r);
	const struct journal_stats *st = journal_replay_stats(r);
	char what[4300];

	printf("journal %s: job %s, run_id 0x%08x, %" PRIu64
	       " records (%" PRIu64 " intents, %" PRIu64 " done), %" PRIu64
	       " blocks, %" PRIu64 " bad records, %" PRIu64
	       " torn at the tail\n",
	       journal, info->job, info->run_id, st->records, st->intents,
	       st->dones, st->blocks, st->bad_records, st->torn_tail);
	for (unsigned i = 0; i < info->nr_files; i++) {
		snprintf(what, sizeof(what),
			 "verify %s [%" PRIu64 ", +%" PRIu64 ")", t[i].path,
			 info->offset, info->region);
		print_counts(what, &t[i].c);
		if (t[i].error)
			printf("  error: %s\n", t[i].msg);
	}
	if (info->nr_files > 1)
		print_counts("verify total", total);
}

static void kv_counts(struct jw *w, const struct journal_counts *c)
{
	jw_kv_uint(w, "checked_units", c->checked_units);
	jw_kv_uint(w, "failures", c->failures);
	jw_kv_uint(w, "lost", c->lost);
	jw_kv_uint(w, "torn", c->torn);
	jw_kv_uint(w, "corrupted", c->corrupted);
	jw_kv_uint(w, "misplaced", c->misplaced);
	jw_kv_uint(w, "missing_units", c->missing_units);
	jw_kv_uint(w, "acknowledged_units", c->acknowledged_units);
	jw_kv_uint(w, "old_units", c->old_units);
	jw_kv_uint(w, "new_units", c->new_units);
	jw_kv_uint(w, "mixed_units", c->mixed_units);
	jw_kv_uint(w, "unjournaled_units", c->unjournaled_units);
	jw_kv_uint(w, "unverified_units", c->unverified_units);
}

static void kv_journal(struct jw *w, const char *journal,
		       const struct journal_replay *r)
{
	const struct journal_info *info = journal_replay_info(r);
	const struct journal_stats *st = journal_replay_stats(r);

	jw_key(w, "journal");
	jw_object_begin(w);
	jw_kv_string(w, "path", journal);
	jw_kv_string(w, "job", info->job);
	jw_kv_uint(w, "run_id", info->run_id);
	jw_kv_uint(w, "seed", info->seed);
	jw_kv_uint(w, "bs", info->bs);
	jw_kv_uint(w, "unit", info->unit_len);
	jw_kv_uint(w, "created_unix_ns", info->created_ns);
	jw_kv_uint(w, "records", st->records);
	jw_kv_uint(w, "intents", st->intents);
	jw_kv_uint(w, "dones", st->dones);
	jw_kv_uint(w, "blocks", st->blocks);
	jw_kv_uint(w, "bad_records", st->bad_records);
	jw_kv_uint(w, "torn_tail", st->torn_tail);
	jw_kv_uint(w, "gaps", st->unknown);
	jw_object_end(w);
}

static int emit_json(const char *journal, const struct journal_replay *r,
		     const struct journal_target *t,
		     const struct journal_counts *total)
{
	const struct journal_info *info = journal_replay_info(r);
	struct jw w;

	jw_init(&w, stdout, 2);
	jw_object_begin(&w);
	jw_kv_string(&w, "iochar_version", IOCHAR_VERSION);
	jw_kv_string(&w, "crc32c", crc32c_impl());
	kv_journal(&w, journal, r);
	jw_key(&w, "verify");
	jw_object_begin(&w);
	jw_kv_bool(&w, "enabled", true);
	jw_kv_string(&w, "mode", "journal");
	kv_counts(&w, total);
	jw_object_end(&w);
	jw_key(&w, "targets");
	jw_array_begin(&w);
	for (unsigned i = 0; i < info->nr_files; i++) {
		jw_object_begin(&w);
		jw_kv_string(&w, "path", t[i].path);
		jw_kv_uint(&w, "offset", info->offset);
		jw_kv_uint(&w, "bytes", info->region);
		kv_counts(&w, &t[i].c);
		jw_kv_string(&w, "error", t[i].error ? t[i].msg : NULL);
		jw_object_end(&w);
	}
	jw_array_end(&w);
	jw_object_end(&w);
	return jw_finish(&w);
}

/* Header, a row per target, the total row (verify/report_csv.h). */
static void emit_csv(const struct journal_replay *r, const struct journal_target *t,
		     const struct journal_counts *total)
{
	const struct journal_info *info = journal_replay_info(r);
	struct vreport_csv_target all = {0};

	vreport_journal_csv_header(stdout);
	for (unsigned i = 0; i < info->nr_files; i++) {
		struct vreport_csv_target row = {
		    .path = t[i].path, .offset = info->offset,
		    .bytes = info->region,
		    .error = t[i].error ? t[i].msg : NULL,
		};
		vreport_journal_csv_row(stdout, &row, &t[i].c);
	}
	vreport_journal_csv_row(stdout, &all, total);
}

/* journal_reader's hook for a VD target. */
static void vd_hook(void *arg, struct vscan *p)
{
	verify_vd_hook(arg, p);
}

/* The journal's target is a VD (the run's --vd): its definition, or
 * --vd's in its place. Opened into *vd. */
static int pick_vd(const struct journal_info *info, const struct job_spec *spec,
		   struct journal_target *t, struct verify_vd **vd, struct ioc_err *err)
{
	bool journal_vd = info->nr_files == 1 &&
			  strncmp(info->files[0], VERIFY_VD_PREFIX,
				  strlen(VERIFY_VD_PREFIX)) == 0;
	uint64_t cap;

	if (spec->nr_files && journal_vd)
		return err_usage(err, EINVAL,
				 "verify: the journal's target is a VD: give "
				 "--vd=DEF in its place, not --filename");
	if (!journal_vd && info->nr_files != 1)
		return err_usage(err, EINVAL,
				 "verify: --vd, but the journal has %u "
				 "targets, not one VD",
				 info->nr_files);
	t[0].path = spec->vd[0] ? spec->vd
				: info->files[0] + strlen(VERIFY_VD_PREFIX);
	int ret = verify_vd_open(t[0].path, info->region, info->offset, vd,
				 &cap, err);
	t[0].size = cap;
	if (!ret && cap < info->offset + info->region)
		ret = err_usage(err, EINVAL,
				"verify: the VD holds %" PRIu64
				" bytes, less than the journal's region "
				"[%" PRIu64 ", +%" PRIu64 ")",
				cap, info->offset, info->region);
	return ret;
}

/* Which paths to read: the journal's, or filename's in their place. */
static int pick_targets(const struct journal_info *info,
			const struct job_spec *spec, struct journal_target *t,
			struct verify_vd **vd, struct ioc_err *err)
{
	if (spec->vd[0] || (info->nr_files == 1 &&
			    strncmp(info->files[0], VERIFY_VD_PREFIX,
				    strlen(VERIFY_VD_PREFIX)) == 0))
		return pick_vd(info, spec, t, vd, err);
	if (spec->nr_files && spec->nr_files != info->nr_files)
		return err_usage(err, EINVAL,
				 "verify: --filename names %u files, the "
				 "journal %u (its targets, in order: omit "
				 "--filename to use them)",
				 spec->nr_files, info->nr_files);
	for (unsigned i = 0; i < info->nr_files; i++) {
		t[i].path = spec->nr_files ? spec->files[i] : info->files[i];
		int ret = journal_target_inspect(&t[i], err);
		if (ret)
			return ret;
	}
	return 0;
}

int verify_journal_main(const char *journal, const struct job_spec *spec,
			bool fatal, enum output_format format)
{
	struct journal_replay *r = NULL;
	struct journal_target *t = NULL;
	struct verify_vd *vd = NULL;
	struct journal_counts total = {0};
	struct ioc_err err = {0};
	int ret = journal_lock_shared("--journal", journal, &err);

	if (!ret)
		ret = journal_replay_file(journal, &r, &err);

	if (!ret && !(t = calloc(journal_replay_info(r)->nr_files, sizeof(*t))))
		ret = err_set(&err, ENOMEM, "out of memory");
	if (!ret)
		ret = pick_targets(journal_replay_info(r), spec, t, &vd, &err);
	if (ret) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		verify_vd_close(vd);
		free(t);
		journal_replay_free(r);
		return err.usage ? EXIT_USAGE : 1;
	}
	const struct journal_stats *st = journal_replay_stats(r);
	if (st->bad_records)
		fprintf(stderr,
			"iochar: verify: journal %s: %" PRIu64
			" damaged records before its end were skipped; blocks "
			"they named may be reported wrongly\n",
			journal, st->bad_records);
	struct journal_reader rd = {vd_hook, verify_vd_where, vd};
	bool io_error =
	    journal_scan_targets(r, t, fatal, vd ? &rd : NULL, &total);
	if (format == OUTPUT_JSON)
		ret = emit_json(journal, r, t, &total);
	else if (format == OUTPUT_CSV)
		emit_csv(r, t, &total);
	else
		emit_text(journal, r, t, &total);
	/* stdout's own errors (ENOSPC, a closed pipe) are stdout_end's */
	int out_err = stdout_end();
	if (ret && !out_err)
		fprintf(stderr, "iochar: writing results: %s\n", strerror(-ret));
	int status = io_error || total.failures || ret || out_err ? 1 : 0;
	verify_vd_close(vd);
	free(t);
	journal_replay_free(r);
	return status;
}
