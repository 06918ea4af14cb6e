/* verify.c - `iochar verify`: read a target back and check the units
 * iochar wrote with verify=1.
 *
 *     iochar verify --filename=PATH[:PATH] [--bs=4k] [--size=] [--offset=]
 *                   [--verify_fatal] [--output-format=normal|json|csv]
 *     iochar verify --journal=FILE [--filename=PATH[:PATH]] [--verify_fatal]
 *                   [--output-format=normal|json|csv]
 *     iochar verify --vd=DEF [--bs=] [--size=] [--offset=] | [--journal=FILE]
 *
 * --vd reads a RAID virtual drive back through its layout (degraded too,
 * with failed=), as the run with the same --vd, size= and offset= wrote
 * it (cmd/verify_vd.h).
 *
 * --filename, --bs, --size and --offset mean what they mean to `iochar
 * run` (the same option rows parse them), so the run's options name the
 * same region. Every unit that carries an iochar header is checked (CRC,
 * offset); units without one are counted as unverified. With --journal
 * the region, and the generation every block must or may hold, come from
 * a run's crash journal (cmd/verify_journal.c). Exit status: 0 no
 * failure, 1 failures (or a read error), 2 bad input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "base/units.h"
#include "cmd/cmd.h"
#include "cmd/cmd_args.h"
#include "cmd/stdout_end.h"
#include "cmd/verify_journal.h"
#include "cmd/verify_vd.h"
#include "base/json_writer.h"
#include "verify/report_csv.h"
#include "output/output.h"
#include "target/target.h"
#include "verify/block.h"
#include "verify/crc32c.h"
#include "verify/report.h"
#include "verify/scan.h"

/* The job options this command takes: they describe the region. */
static const char *const region_keys[] = {"filename", "vd", "bs", "size",
					  "offset", NULL};
#define JOURNAL_OWNS_FROM 2 /* bs, size, offset: with --journal, its own */

struct verify_args {
	struct job_spec spec; /* filename, bs, size, offset */
	const char *journal;  /* --journal: in argv; NULL = none */
	bool fatal;
	enum output_format format;
};

struct target_result {
	const char *path;
	uint64_t start, len;
	uint64_t size;	 /* a file's length; 0: not checked (a VD) */
	uint64_t extent; /* where its units say the region ends */
	struct verify_counts c;
	int error;
	char msg[IOC_ERR_MAX];
};

static const char about[] =
	"Reads the region back (as `iochar run` with the same options\n"
	"lays it out) and checks every unit written by a run with\n"
	"verify=1: CRC32C and offset. Units without an iochar header\n"
	"are counted as unverified. A target that ends before the region\n"
	"its units were written for is a failure (kind=missing, with\n"
	"the range). Failures are listed on stderr.\n"
	"Units are 4096 bytes, or 512 when bs is not a multiple of 4096;\n"
	"a unit's header overrides that.\n\n"
	"With --journal (a run's journal=FILE), the targets, the region\n"
	"and what every block must hold come from the journal: blocks\n"
	"whose write completed must hold it, whole; blocks with a write\n"
	"in flight may hold the old or the new data, per 512-byte\n"
	"sector, never a sector mixing both. Lost, torn, corrupted and\n"
	"misplaced units are listed on stderr. --filename replaces the\n"
	"journal's paths (as many, in order).\n\n"
	"With --vd (the run's --vd definition, failed= included), the\n"
	"blocks are read through the virtual drive: lost members are\n"
	"rebuilt from parity or mirrors; a failure also names the member\n"
	"the block lives on. With --journal, --vd replaces the journal's\n"
	"VD (e.g. to add failed=).\n\n"
	"Exit status: 0 no failure, 1 failures or a read error,\n"
	"2 bad input.\n";

static bool is_region_key(const struct option_def *o)
{
	for (unsigned i = 0; region_keys[i]; i++)
		if (strcmp(o->name, region_keys[i]) == 0)
			return true;
	return false;
}

/* A region key: through `run`'s own row (the label is the key), so it
 * parses, checks and counts as set exactly as it does there. */
static int region_key(void *obj, const struct option_def *o, const char *v,
		      struct ioc_err *err)
{
	return options_apply(&((struct verify_args *)obj)->spec, o->name, v,
			     err);
}

static int journal_file(void *obj, const struct option_def *o, const char *v,
			struct ioc_err *err)
{
	(void)o;
	if (!v[0])
		return err_usage(err, EINVAL, "verify: --journal needs a file");
	((struct verify_args *)obj)->journal = v;
	return 0;
}

/* An option no row names: a region key by another of `run`'s names
 * ("--blocksize=4k"), or an error. */
static int other_key(void *obj, const char *word, struct ioc_err *err)
{
	struct verify_args *a = obj;
	const char *eq = strchr(word, '=');
	char key[64];

	snprintf(key, sizeof(key), "%.*s", (int)strcspn(word + 2, "="),
		 word + 2);
	const struct option_def *o = options_find(key);
	if (o && is_region_key(o))
		return options_apply(&a->spec, key, eq ? eq + 1 : NULL, err);
	return err_usage(err, EINVAL,
			 "verify: unknown option '--%s'; accepted: --filename, "
			 "--vd, --bs, --size, --offset, --journal, "
			 "--verify_fatal, --output-format",
			 key);
}

#define REGION(nm, a, h)                                                  \
	{.o.name = (nm), .label = (nm), .o.type = OPT_CUSTOM,             \
	 .o.parse = region_key, .o.arg = (a), .o.help = (h)}

/* The first rows are `run`'s (region_keys): they name the same region. */
static const struct arg_def rows[] = {
	REGION("filename", "PATH[:PATH]", "the targets, as `iochar run`'s"),
	REGION("vd", "DEF", "a RAID virtual drive, as `iochar run --vd`"),
	REGION("bs", "SIZE", "block size of the run (4k)"),
	REGION("size", "SIZE", "bytes of the region (the target's)"),
	REGION("offset", "SIZE", "where the region starts (0)"),
	{ARG_ROW(struct verify_args, journal, "journal", OPT_CUSTOM),
	 .o.parse = journal_file, .o.arg = "FILE",
	 .missing = "verify: --journal needs a file",
	 .o.help = "check against a run's crash journal (journal=FILE)"},
	{ARG_ROW(struct verify_args, fatal, "verify_fatal", OPT_BOOL),
	 .label = "verify_fatal", .o.help = "stop at the first failure"},
	{ARG_ROW(struct verify_args, format, "output-format", OPT_CUSTOM),
	 .o.parse = cmd_arg_output_format, .o.def = "normal", .o.arg = "FMT",
	 .o.help = "normal, json or csv"},
};

static const struct args_spec spec = {
	.usage = "usage: iochar verify --filename=PATH[:PATH] [--bs=4k] "
		 "[--size=SIZE]\n"
		 "                     [--offset=SIZE] [--verify_fatal]\n"
		 "                     [--output-format=normal|json|csv]\n"
		 "       iochar verify --journal=FILE [--filename=PATH[:PATH]]\n"
		 "                     [--verify_fatal] "
		 "[--output-format=normal|json|csv]\n"
		 "       iochar verify --vd=DEF [--bs=4k] [--size=SIZE] "
		 "[--offset=SIZE] | [--journal=FILE] ...\n",
	.about = about,
	ARGS_TABLE(rows),
	.flags = ARGS_VALUE_NOT_OPTION | ARGS_HELP_FIRST,
	.unknown = "verify: unexpected argument '%s' (options are --key=value; "
		   "see 'iochar verify --help')",
	.extra = "verify: unexpected argument '%s' (options are --key=value; "
		 "see 'iochar verify --help')",
	.other = other_key,
};

/* The region must be one `iochar run` could have written. */
static int check_region(const struct verify_args *a, struct ioc_err *err)
{
	uint32_t unit = vblock_unit_len(a->spec.bs);

	if (!unit)
		return err_usage(err, EINVAL,
				 "verify: bs=%llu: must be a multiple of 512",
				 (unsigned long long)a->spec.bs);
	if (a->spec.offset % VBLOCK_UNIT_SMALL)
		return err_usage(
		    err, EINVAL,
		    "verify: offset=%llu: must be a multiple of 512",
		    (unsigned long long)a->spec.offset);
	return 0;
}

/* 0, ARGS_HELP, or -errno with a usage message. */
static int parse_args(int argc, char **argv, struct verify_args *a,
		      struct ioc_err *err)
{
	int ret;

	job_spec_init(&a->spec);
	options_set_defaults(&a->spec);
	ret = args_parse(&spec, argc, argv, a, err);
	if (ret)
		return ret;
	if (a->spec.nr_files && a->spec.vd[0])
		return err_usage(err, EINVAL,
				 "verify: give either --filename or --vd, not "
				 "both");
	if (a->journal) {
		for (unsigned i = JOURNAL_OWNS_FROM; region_keys[i]; i++)
			if (options_is_set(&a->spec, region_keys[i]))
				return err_usage(
				    err, EINVAL,
				    "verify: --%s with --journal: the region "
				    "comes from the journal",
				    region_keys[i]);
		return 0;
	}
	if (a->spec.nr_files == 0 && !a->spec.vd[0])
		return err_usage(err, EINVAL,
				 "verify: --filename is required (or --vd, "
				 "or --journal)");
	return check_region(a, err);
}

/* The VD's range, as `iochar run` lays a VD job out (core/validate.c). */
static int region_of_vd(const struct job_spec *s, struct verify_vd **vd,
			struct target_result *t, struct ioc_err *err)
{
	uint64_t cap;
	int ret = verify_vd_open(s->vd, s->size, s->offset, vd, &cap, err);

	if (ret)
		return ret;
	uint64_t room = cap - s->offset;
	uint64_t len = s->size && s->size < room ? s->size : room;
	len -= len % s->bs;
	if (len == 0)
		return err_usage(err, EINVAL,
				 "verify: the VD (%llu bytes from offset %llu) "
				 "holds no whole block of bs=%llu",
				 (unsigned long long)room,
				 (unsigned long long)s->offset,
				 (unsigned long long)s->bs);
	t->path = s->vd;
	t->start = s->offset;
	t->len = len;
	return 0;
}

/* The range of file i, as `iochar run` lays a job out. */
static int region_of(const struct job_spec *s, unsigned i,
		     struct target_result *t, struct ioc_err *err)
{
	struct target_info ti;
	int ret = target_inspect(s->files[i], &ti, err);

	if (ret) {
		err->usage = 1;
		return ret;
	}
	if (!ti.exists)
		return err_usage(err, ENOENT, "%s: does not exist",
				 s->files[i]);
	uint64_t room = ti.size > s->offset ? ti.size - s->offset : 0;
	uint64_t len = s->size ? s->size / s->nr_files : room;
	if (len > room)
		return err_usage(err, EINVAL,
				 "%s: size=%llu from offset %llu goes past its "
				 "end (%llu bytes)",
				 s->files[i], (unsigned long long)len,
				 (unsigned long long)s->offset,
				 (unsigned long long)ti.size);
	len -= len % s->bs;
	if (len == 0)
		return err_usage(
		    err, EINVAL,
		    "%s: no whole block of bs=%llu from offset %llu",
		    s->files[i], (unsigned long long)s->bs,
		    (unsigned long long)s->offset);
	t->path = s->files[i];
	t->start = s->offset;
	t->len = len;
	t->size = ti.size;
	return 0;
}

static void emit_text(const struct target_result *t, unsigned n,
		      const struct verify_counts *total)
{
	char what[4200];

	for (unsigned i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "verify %s [%llu, +%llu)",
			 t[i].path, (unsigned long long)t[i].start,
			 (unsigned long long)t[i].len);
		verify_counts_print(stdout, what, &t[i].c);
		if (t[i].error)
			printf("  error: %s\n", t[i].msg);
	}
	if (n > 1)
		verify_counts_print(stdout, "verify total", total);
}

/* {"iochar_version", "crc32c", "verify": {...}, "targets": [...]} */
static int emit_json(const struct target_result *t, unsigned n,
		     const struct verify_counts *total)
{
	struct jw w;

	jw_init(&w, stdout, 2);
	jw_object_begin(&w);
	jw_kv_string(&w, "iochar_version", IOCHAR_VERSION);
	jw_kv_string(&w, "crc32c", crc32c_impl());
	jw_key(&w, "verify");
	jw_object_begin(&w);
	jw_kv_bool(&w, "enabled", true);
	verify_counts_json(&w, total);
	jw_object_end(&w);
	jw_key(&w, "targets");
	jw_array_begin(&w);
	for (unsigned i = 0; i < n; i++) {
		jw_object_begin(&w);
		jw_kv_string(&w, "path", t[i].path);
		jw_kv_uint(&w, "offset", t[i].start);
		jw_kv_uint(&w, "bytes", t[i].len);
		verify_counts_json(&w, &t[i].c);
		jw_kv_string(&w, "error", t[i].error ? t[i].msg : NULL);
		jw_object_end(&w);
	}
	jw_array_end(&w);
	jw_object_end(&w);
	return jw_finish(&w);
}

/* Header, a row per target, the total row (verify/report_csv.h). */
static void emit_csv(const struct target_result *t, unsigned n,
		     const struct verify_counts *total)
{
	struct vreport_csv_target all = {0};

	vreport_csv_header(stdout);
	for (unsigned i = 0; i < n; i++) {
		struct vreport_csv_target r = {
		    .path = t[i].path, .offset = t[i].start,
		    .bytes = t[i].len, .error = t[i].error ? t[i].msg : NULL,
		};
		vreport_csv_row(stdout, &r, &t[i].c);
	}
	vreport_csv_row(stdout, &all, total);
}

/* Scan every target; a read error on one is recorded and the next still
 * checked. Returns true when any target could not be read. */
static bool scan_all(const struct verify_args *a, struct target_result *t,
		     unsigned n, struct verify_vd *vd,
		     struct verify_counts *total)
{
	uint64_t printed = 0;
	bool io_error = false;

	for (unsigned i = 0; i < n; i++) {
		struct ioc_err err = {0};
		struct vscan p = {
		    .path = t[i].path,
		    .start = t[i].start,
		    .len = t[i].len,
		    .unit = vblock_unit_len(a->spec.bs),
		    .stop_at_first = a->fatal,
		    .report = stderr,
		    .printed = &printed,
		    .extent = &t[i].extent,
		};
		if (vd)
			verify_vd_hook(vd, &p);
		t[i].error = vscan_target(&p, &t[i].c, &err);
		/* a file cut short: its units say how far it went */
		if (!t[i].error && t[i].size) {
			uint64_t gone = vreport_missing(
			    stderr, t[i].path, t[i].size, t[i].extent, p.unit);
			t[i].c.missing_units += gone;
			t[i].c.failures += gone;
		}
		if (t[i].error) {
			snprintf(t[i].msg, sizeof(t[i].msg), "%s", err.msg);
			fprintf(stderr, "iochar: verify: %s\n", err.msg);
			io_error = true;
		}
		verify_counts_add(total, &t[i].c);
		if (a->fatal && total->failures)
			break;
	}
	return io_error;
}

int cmd_verify(int argc, char **argv)
{
	struct verify_args a = {0};
	struct ioc_err err = {0};
	struct verify_counts total = {0};
	struct target_result *t = NULL;
	struct verify_vd *vd = NULL;
	int status = EXIT_USAGE;

	stdout_begin();
	int ret = parse_args(argc, argv, &a, &err);
	if (ret == ARGS_HELP) {
		args_help(&spec, stdout);
		job_spec_free(&a.spec);
		return 0;
	}
	if (!ret && a.journal) {
		status =
		    verify_journal_main(a.journal, &a.spec, a.fatal, a.format);
		goto out;
	}
	unsigned n = a.spec.vd[0] ? 1 : a.spec.nr_files;
	if (!ret && !(t = calloc(n, sizeof(*t))))
		ret = err_set(&err, ENOMEM, "out of memory");
	if (!ret && a.spec.vd[0])
		ret = region_of_vd(&a.spec, &vd, &t[0], &err);
	for (unsigned i = 0; !ret && !vd && i < n; i++)
		ret = region_of(&a.spec, i, &t[i], &err);
	if (ret) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		status = err.usage ? EXIT_USAGE : 1;
		goto out;
	}
	bool io_error = scan_all(&a, t, n, vd, &total);
	if (a.format == OUTPUT_JSON)
		ret = emit_json(t, n, &total);
	else if (a.format == OUTPUT_CSV)
		emit_csv(t, n, &total);
	else
		emit_text(t, n, &total);
	/* stdout's own errors (ENOSPC, a closed pipe) are stdout_end's */
	int out_err = stdout_end();
	if (ret && !out_err)
		fprintf(stderr, "iochar: writing results: %s\n", strerror(-ret));
	status = io_error || total.failures || ret || out_err ? 1 : 0;
out:
	verify_vd_close(vd);
	free(t);
	job_spec_free(&a.spec);
	return status;
}
