/* options_compat.c - docs/fio-compat.md, written from the option rows
 * (their fio status, enum opt_compat) and fio's own option list
 * (fio_names.c, generated from fio's source): `iochar run --fio-compat`.
 * tests/test_fio_parse.c checks the committed page equals this output.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/fio_names.h"
#include "cli/options.h"
#include "engine/engine.h"

/* Differences of the command line and job files themselves (no row has
 * them); run start announces those a run meets (run_config_differences). */
static const char *const general_differences[] = {
	"`iochar run` with no job file, no `--name` and no target runs a "
	"scratch file (iochar-data/scratch.dat, 4k random reads, direct, "
	"iodepth 32, 10 s); fio runs nothing without a job.",
	"Without a job file or `--name`, the command line's options make one "
	"job, `job0` (fio: \"No job(s) defined\").",
	"An unknown or unsupported option refuses the whole run, every culprit "
	"of the file named at once as FILE:LINE; fio names those of the first "
	"bad job and stops there.",
	"`$pagesize`, `$mb_memory`, `$ncpus` arithmetic is computed by iochar "
	"(integers, as bc at scale 0) instead of running bc.",
	"An include loop is refused; fio recurses until it fails.",
	"`${VAR}` substitution is bounded: a job file's values together hold "
	"at most 16 MiB after it (as much as a job file may be); past that "
	"the file is refused at the line, exit 2. fio has no bound (8,000 "
	"references to a 120 kB variable take it gigabytes).",
	"At most one job file per run.",
	"A job renamed with `name=` has every `numjobs` clone so named; fio "
	"names the clones after the first by the section.",
	"Parenthesized arithmetic in values (`size=(64k*2)`) is refused, as "
	"Debian's fio 3.33 (built without CONFIG_ARITHMETIC) refuses it.",
	"`ioengine`'s default is psync, as fio's, for a job file or a "
	"fio-style command line; io_uring for the scratch run and for "
	"iochar's own commands (plan, search, curve, precondition).",
	"`iodepth_batch_submit` and `iodepth_batch_complete_max` default "
	"to fio's 1 and 0 (one I/O per submission, one per reap) for a job "
	"file or a fio-style command line; to 0 and 65536 (what a loop "
	"pass queued in one submission, every completion there is) for the "
	"scratch run, iochar's own commands and any job with iochar's "
	"`journal=` (whose intents are made durable once per pass: one I/O "
	"per pass would be one fdatasync per write) (issue 23, "
	"bench/README.md).",
	"`iodepth` with `ioengine=io_uring` keeps the depth asked for "
	"outstanding. fio 3.33's io_uring engine rounds it up to a power of "
	"two (fio_ioring_init) and still reports the depth given: at "
	"iodepth=3 it keeps 4 I/Os outstanding (IOPS x mean latency; "
	"test_io_uring_depth_kept runs both), at 157 a mean of 204 on a "
	"virtio disk where its libaio and iochar keep 157 (bench/README.md). "
	"So at such depths fio's io_uring reports more latency than the "
	"depth it names gives.",
	"`--readonly` refuses a job that writes, or a read that would create "
	"or extend its file, before anything runs; fio refuses the first at "
	"start too, the second when it lays the file out.",
	"`ioengine=net` speaks fio's wire (its udp open and close messages, "
	"its udp sequence trailer, from which a receiver counts `drop_ios` "
	"as fio's), so either end of a pair may be fio; it "
	"differs in what it books and says. A block is one I/O once all of "
	"it has moved: fio books each short receive as an I/O of its own and "
	"counts only the last piece's bytes, so its receiver's `io_bytes` "
	"fall short of what was sent by up to a block per `short_ios`. "
	"A tcp or unix "
	"end that stops at its runtime reads what is still in flight (at "
	"most half a second) before it closes, so the other end, stopping "
	"at the same moment, is not reset in its last send (fio's `netio` "
	"example with `runtime=` fails so at times). fio's `fio: waiting for "
	"connection` line before the output is not printed. fio's "
	"unix-socket ends report error "
	"106 (EISCONN) from their close message; iochar's do not. "
	"`filename=host,port[,proto]` is not a form fio 3.33 reads (it wants "
	"`port=`), nor iochar; udp multicast (a 224-239 group) and `verify` are "
	"refused.",
	/* issue 14, fileng */
	"fio's file-operation engines `filecreate`, `filestat`, `filedelete`: "
	"when a file takes more than one I/O (filesize > bs), fio's latency "
	"figures sample only each file's operation, iochar's every I/O (the "
	"file's other I/Os, fio's fakes, at about zero); the I/O counts are "
	"fio's. A note at run start. `ioengine=ftruncate` with a reading "
	"rw is refused before the run (fio fails its first read with EINVAL). "
	"`--readonly` refuses `filedelete` and `falloc` (they change their "
	"files whatever rw says); fio runs them.",
	/* issue 14, trim */
	"`rw=trim`, `randtrim`, `trimwrite`, `randtrimwrite`: `bs=R,W,T`'s T "
	"sizes the trims of `trim`/`randtrim` and `randtrimwrite`, whose write "
	"copies the trim as fio's (as fio fills it in: W, or 4k "
	"after `R,W,`; with the random map and T other than W fio 3.33 ends "
	"the job before its size, iochar at it); `trimwrite` with a T other "
	"than W is refused (fio trims "
	"and writes from two positions that part); `bsrange`, `bssplit`, "
	"`blockalign` give trims the write's. `rate`/`rate_iops` pace trims "
	"with W (`R,W,T`'s T is accepted, not used). fio 3.33's `randtrimwrite` with an offset writes "
	"each block at offset + the trim's offset, past the region, and ends "
	"after one trim; iochar writes the block it trimmed (a note at run "
	"start). Trims are refused "
	"with verify and on a RAID VD (`--vd`); the live status line counts "
	"reads and writes only.",
	/* issue 35: fio's harnesses read any stderr as a failure */
	"`iochar run`'s notes (each difference of a run from fio, as "
	"`differs from fio here: OPTION: how`; files laid out before the "
	"run; progress lines; a depth capped at 1, which fio says on stdout) "
	"are on stderr only when it is a terminal or with iochar's "
	"`--verbose`, and always in the JSON's top-level `notes`; off a "
	"terminal stderr carries only errors, as fio's. `--eta=always` draws "
	"the live status line on stderr in any output format (fio: on "
	"stdout, with the normal output only); `--eta=never` hides it.",
	/* issue 35: fio's semantics, the null engine */
	"A fio-style `ioengine=null` job (a job file or `--name`) without "
	"`size=` or `filesize=` is refused, exit 1, as fio refuses it (\"you "
	"need to specify size=\"); iochar's own `iochar run --ioengine=null` "
	"(no job named) runs a virtual 1g. Its files are sized as fio 3.33 sizes "
	"a diskless engine's: `size=` split over `nrfiles` (the first files a "
	"block more for what does not divide), or `filesize=` (a range drawn "
	"per clone, as fio) less `offset=` and the clone's "
	"`offset_increment`, then `size=N%` of that; the job moves the "
	"smaller of `size=` and what its files hold.",
	/* issue 35: fio's semantics, verify phase */
	"fio's verify phase (`do_verify=1` with `verify=md5`, `crc32c`, ...) "
	"reads the blocks of its log of the writes, as fio 3.33 keeps it: in "
	"the order written for a random job with its random map (and with "
	"`experimental_verify=1`), else each block once, its last write, by "
	"file and offset. The log costs about 40 bytes a block written, as "
	"fio's. fio 3.33 fails its own phase of a mixed job whose log is "
	"sorted (`norandommap`, zipf, pareto, normal) with \"bad header "
	"rand_seed\", and of an `experimental_verify` job that wrote a block "
	"twice with \"bad header numberio\": it checks the seed and the "
	"write's number in the order it wrote. iochar checks the data and "
	"where it belongs, not those two, and passes such jobs. With "
	"`loops=N` fio reads back after each loop; iochar once, after the "
	"last, from its log of every loop's writes.",
	NULL,
};

/* Is iochar's engine one of those fio's engines/FILE.c declares? Two
 * of fio's files hold several engines iochar has by their own names. */
static bool fio_file_has(const char *file, const char *engine)
{
	static const char *const files[][6] = {
		{ "sync", "sync", "psync", "vsync", "pvsync", "pvsync2" },
		{ "fileoperations", "filecreate", "filestat", "filedelete" },
	};

	if (strcmp(file, engine) == 0)
		return true;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		for (size_t j = 1; j < 6 && files[i][j]; j++)
			if (!strcmp(files[i][0], file) && !strcmp(files[i][j], engine))
				return true;
	return false;
}

/* The row of an engine's option n (where "ioengine=FILE"), or NULL: one
 * of iochar's engines of that fio file must have it, by name or alias
 * (net's hostname is not libhdfs's, net's proto not rdma's). */
static const struct option_def *engine_row_of(const struct fio_name *n)
{
	const char *file = n->where + strlen("ioengine=");

	for (size_t e = 0; engine_table[e]; e++) {
		if (!fio_file_has(file, engine_table[e]->name))
			continue;
		for (const struct option_def *o = engine_table[e]->options;
		     o && o->name; o++)
			if (option_matches(o, n->name) ||
			    (n->alias[0] && option_matches(o, n->alias)))
				return o;
	}
	return NULL;
}

/* The iochar row fio option n is, or NULL. */
static const struct option_def *row_of(const struct fio_name *n)
{
	if (strncmp(n->where, "ioengine=", strlen("ioengine=")) == 0)
		return engine_row_of(n);
	const struct option_def *o = options_find(n->name);

	if (!o && n->alias[0])
		o = options_find(n->alias);
	return o;
}

static void write_fio_row(FILE *f, const struct fio_name *n)
{
	const struct option_def *o = row_of(n);
	const char *status = "refused", *how = "";

	if (o && o->fio == OPT_COMPAT_DIFFERENT) {
		status = "different";
		how = o->compat ? o->compat : "";
	} else if (o && o->type == OPT_IGNORED) {
		status = "accepted, ignored";
		how = o->help;
	} else if (o) {
		status = "supported";
		how = o->help ? o->help : "";
	}
	fprintf(f, "| `%s` | %s%s%s | %s | %s | %s |\n", n->name,
		n->alias[0] ? "`" : "", n->alias, n->alias[0] ? "`" : "",
		n->where[0] ? n->where : "job", status, how);
}

static void write_iochar_only(FILE *f)
{
	const struct option_def *o;

	fprintf(f, "\n## iochar's own job options\n\n"
		   "Options fio does not have.\n\n| option | what |\n|---|---|\n");
	for (size_t i = 0; (o = options_row(i)); i++)
		if (o->scope == OPT_SCOPE_JOB && !fio_name_find(o->name))
			fprintf(f, "| `%s` | %s |\n", o->name, o->help);
}

/* Engine options fio's engines do not have (io_uring's ring_setup). */
static void write_iochar_engine_rows(FILE *f)
{
	fprintf(f, "\n## iochar's own engine options\n\n"
		   "| option | of | what |\n|---|---|---|\n");
	for (size_t e = 0; engine_table[e]; e++)
		for (const struct option_def *o = engine_table[e]->options;
		     o && o->name; o++)
			if (o->fio == OPT_COMPAT_IOCHAR && !fio_name_find(o->name))
				fprintf(f, "| `%s` | ioengine=%s | %s |\n", o->name,
					engine_table[e]->name, o->help);
}

/* The command line's own options: fio's (same meaning) or iochar's. */
static void write_cli_rows(FILE *f)
{
	size_t nr;
	const struct option_def *rows = options_cli_rows(&nr);

	fprintf(f, "\n## The command line's own options\n\n"
		   "| option | | what |\n|---|---|---|\n");
	for (size_t i = 0; i < nr; i++)
		fprintf(f, "| `--%s` | %s | %s |\n", rows[i].name,
			rows[i].fio == OPT_COMPAT_IOCHAR ? "iochar's"
							 : "fio's",
			rows[i].help);
	fprintf(f, "\n### fio's command-line options not implemented yet\n\n"
		   "Refused, saying so (exit 2).\n\n| option | what it does in fio |\n"
		   "|---|---|\n");
	for (const struct options_missing *m = options_fio_cli_missing;
	     m->name; m++)
		fprintf(f, "| `--%s` | %s |\n", m->name, m->what);
}

void options_write_compat(FILE *f)
{
	unsigned nr = 0, refused = 0;

	fprintf(f, "# iochar and fio %s: every option\n\n"
		   "<!-- Generated by `iochar run --fio-compat` from the option "
		   "rows and fio's option list (src/cli/fio_names.c, made by "
		   "scripts/gen_fio_options.sh from fio's source); do not edit: "
		   "regenerate. -->\n\n",
		fio_names_version + 4);
	fprintf(f, "## General differences\n\n");
	for (size_t i = 0; general_differences[i]; i++)
		fprintf(f, "- %s\n", general_differences[i]);
	fprintf(f, "\n## fio's options\n\n"
		   "*supported*: as fio; *different*: accepted, with the "
		   "difference said; *accepted, ignored*: changes nothing in "
		   "iochar; *refused*: a job file or command line naming it is "
		   "refused before anything runs (exit 2).\n\n"
		   "| fio option | alias | of | iochar | how |\n"
		   "|---|---|---|---|---|\n");
	for (const struct fio_name *n = fio_names; n->name; n++) {
		write_fio_row(f, n);
		nr++;
		refused += !row_of(n);
	}
	fprintf(f, "\n%u fio options: %u accepted, %u refused.\n", nr,
		nr - refused, refused);
	write_cli_rows(f);
	write_iochar_only(f);
	write_iochar_engine_rows(f);
}
