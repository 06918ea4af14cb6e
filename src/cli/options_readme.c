/* options_readme.c - README.md's option table ("### Options"), written
 * from here: one row a line, its options named as the rows name them
 * (each checked to be a job, command-line or engine row, an alias shown
 * in parentheses checked to be that row's), with what the README says of
 * them; where the README says no more than the rows' defaults, the
 * default column is theirs. tests/test_readme_options.c checks the
 * README's table equals this output, so an option renamed or removed
 * fails there, and the table is edited here, not in the README. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/options.h"

struct readme_row {
	const char *names;   /* `name`, `name` (`alias`), `name=value`, `--cli` */
	const char *meaning;
	const char *def;     /* NULL: the rows' defaults, in the order named */
};

/* Rows naming another command's options (cmd/plan.c's, above cli/): not
 * checked here. */
static const char *const other_commands[] = {"`--discipline`"};

static bool of_other_command(const char *names)
{
	for (size_t i = 0; i < sizeof(other_commands) / sizeof(other_commands[0]); i++)
		if (!strcmp(names, other_commands[i]))
			return true;
	return false;
}

/* clang-format off */
static const struct readme_row readme_rows[] = {
	{"`filename`",
	 "one or more files or block devices, `:`-separated (`\\:` for a "
	  "colon in a name)",
	 "a named job (job file section, `--name`): fio's `jobname.0.0`; "
	  "neither job nor target: the scratch file"},
	{"`size`",
	 "bytes per job, split evenly over its files (`4k`, `8m`, `2g`, `1t`; "
	  "powers of 1024), or `N%` of each file",
	 "whole device or file"},
	{"`offset`",
	 "where the region starts in each file, or `N%` of each file (rounded "
	  "up to the block size, as fio); `offset` + the last clone's "
	  "`offset_increment` + `size` (or `filesize`) past 2^63-1 bytes is "
	  "refused, exit 2",
	 NULL},
	{"`rw`",
	 "`read`, `write`, `randread`, `randwrite`, `rw`/`readwrite`, "
	  "`randrw`, `trim`, `randtrim`, `trimwrite`, `randtrimwrite` (fio's "
	  "trims: BLKDISCARD on a block device, a punched hole with "
	  "`ioengine=falloc`, fio's ENOTTY job error on a regular file "
	  "otherwise; trimwrite writes each block it trimmed); `randread:8` a "
	  "new random offset every 8 I/Os "
	  "(`rw_sequencer=sequential\\|identical` between them), `write:4k` a "
	  "4k hole after each I/O (`read:-8k` backwards)",
	 "`read`"},
	{"`rwmixread`",
	 "% reads in mixed modes (`rwmixwrite` = 100 − it)",
	 NULL},
	{"`bs`",
	 "block size; `R,W` per direction",
	 NULL},
	{"`bsrange`, `bssplit`",
	 "sizes drawn in a range (`4k-64k` or `4k:64k`, multiples of the "
	  "smallest) or by weight (`4k/10:64k/90`; shares left out, or 0, "
	  "share what the others leave), with fio's generator and seeds: a "
	  "sequential job issues fio's sizes, I/O for I/O; `,` per direction "
	  "(`bs=4k,8k`, `bs=4k:8k`, `bs=,8k` as fio); `bs_unaligned`, "
	  "`bs_is_seq_rand` as fio",
	 "none"},
	{"`blockalign`",
	 "random offsets are multiples of this (turns the random map off, as "
	  "fio)",
	 "smallest bs"},
	{"`norandommap`",
	 "random blocks may repeat; without it each block is used once per "
	  "pass (fio's random map)",
	 "off"},
	{"`io_size`, `number_ios`",
	 "bytes to transfer (looping over the region) / I/Os before the job "
	  "ends",
	 "`size` / none"},
	{"`offset_increment`",
	 "clone N of `numjobs` starts at `offset` + N × this",
	 NULL},
	{"`percentage_random`",
	 "random modes: % of I/Os at random offsets, the rest sequential "
	  "(`R,W`)",
	 NULL},
	{"`randrepeat`, `random_generator`, `allrandrepeat`",
	 "fio's names; the same offsets every run unless `randrepeat=0`; "
	  "`random_generator=lfsr` draws fio's offsets in fio's order (each "
	  "block once a pass, seeded as fio); otherwise iochar has one "
	  "generator (not fio's sequences)",
	 "1, tausworthe, 0"},
	{"`write_iolog`, `read_iolog`",
	 "fio's iolog: append what the job issued to a file (fio 3.33's "
	  "version 3: `USEC FILE ACTION OFFSET LENGTH` lines), or replay one "
	  "(versions 2 and 3, or a `blktrace` binary file as `blkparse -d` "
	  "writes it, its devices by major:minor or `replay_redirect`, its "
	  "deepest queue the job's `iodepth` unless set; trim lines and "
	  "discards are trims): its files replace the job's, its I/Os go in "
	  "order on the log's schedule (v3 times, v2 `wait`), each I/O's "
	  "lateness against it is the issue lag and a replay that falls behind "
	  "says so; a bad line is refused naming `FILE:LINE`; "
	  "`replay_no_stall` (as fast as possible), `replay_time_scale` (% of "
	  "the log's speed), `replay_redirect` (every file's I/O onto one), "
	  "`replay_scale`, `replay_align` (offsets divided, aligned down), "
	  "`read_iolog_chunked` (accepted; the log is read whole)",
	 "none"},
	{"`iodepth`",
	 "I/Os in flight per job",
	 NULL},
	{"`numjobs`",
	 "clones of the job, each its own thread",
	 NULL},
	{"`runtime`, `ramp_time`",
	 "seconds, or with `ns`/`us`/`ms`/`s`/`m`/`h`/`d`",
	 "until `size` is done; 0"},
	{"`time_based`",
	 "keep going over the region until `runtime`",
	 "off"},
	{"`ioengine`",
	 "`io_uring`, `libaio`, `psync`, `sync`, `vsync`, `pvsync`, "
	  "`pvsync2`, `mmap`, `posixaio`, `null`, fio's file-operation engines "
	  "`falloc`, `ftruncate`, `filecreate`, `filestat`, `filedelete`, fio's `net` (the "
	  "synchronous ones run at depth 1 and say so, as fio)",
	 "`psync` (fio's); `io_uring` for the scratch run"},
	{"`fixedbufs`, `registerfiles`",
	 "io_uring: register the buffers, the files with the ring (fio's "
	  "names; fio's defaults are 0)",
	 "1"},
	{"`sqthread_poll`, `hipri`",
	 "io_uring: a kernel thread submits (SQPOLL; CAP_SYS_NICE before "
	  "5.11); polled completions (IOPOLL; `direct=1`, a device with poll "
	  "queues)",
	 "0"},
	{"`sqthread_poll_cpu`, `nonvectored`, `nowait`, `force_async`",
	 "io_uring, as fio: the SQPOLL thread's CPU; `0` for READV/WRITEV; "
	  "RWF_NOWAIT; IOSQE_ASYNC on every Nth I/O (`uncached` is refused: "
	  "fio's RWF_UNCACHED never reached Linux)",
	 "unset, -1, 0, 0"},
	{"`hipri`, `hipri_percentage`, `nowait`",
	 "pvsync2, as fio: RWF_HIPRI on that % of I/Os; RWF_NOWAIT",
	 NULL},
	{"`userspace_reap`",
	 "libaio: poll completions from the ring mapped into the process",
	 NULL},
	{"`direct`",
	 "O_DIRECT (`buffered` is its inverse)",
	 NULL},
	{"`fsync`, `fdatasync`",
	 "a flush through the engine after every N writes, as fio (before the "
	  "next I/O, never after the last); counted in fio's `sync` member "
	  "with its latency; on a RAID VD the write-back cache destages and "
	  "every member is flushed",
	 "0"},
	{"`end_fsync`, `fsync_on_close`",
	 "fsync each file when the job's I/O is done (through the engine; a "
	  "VD destages and flushes its members); as it is closed",
	 "0"},
	{"`sync`",
	 "open O_SYNC (`sync`, `1`) or O_DSYNC (`dsync`); `none`, `0`",
	 NULL},
	{"`rate_iops`",
	 "cap per job clone; latency then counts from each I/O's scheduled "
	  "time (the response time), reported beside the service time from "
	  "submission and the issue lag, and a run whose own lateness is a "
	  "material share of its latency is flagged tool-limited "
	  "([docs/output.md](docs/output.md))",
	 "none"},
	{"`random_distribution`",
	 "`random` (uniform), `zipf[:THETA]`, `pareto[:H]`, "
	  "`normal[:SIGMA%]`, `zoned:A/B:...` (A% of I/Os to the next B% of "
	  "the region), `zoned_abs:A/SIZE:...`; `,` per direction",
	 "uniform"},
	{"`cpus_allowed`",
	 "CPU list, e.g. `0-3,8`",
	 "any"},
	{"`randseed`",
	 "seed of the offsets; the same seed repeats a run exactly",
	 "fixed"},
	{"`stonewall` (`wait_for_previous`), `new_group`",
	 "start after every earlier job has ended, and a new reporting group; "
	  "only a new group (fio's group ids)",
	 "off"},
	{"`wait_for`",
	 "start after every worker of this earlier job has ended",
	 "none"},
	{"`startdelay`",
	 "start this long after the run's start; `LO-HI`: a random time in it "
	  "per worker",
	 NULL},
	{"`loops`",
	 "passes over the region of a size-bounded job",
	 NULL},
	{"`group_reporting`",
	 "report a group's workers as one entry (fio's JSON `jobs[]`, terse, "
	  "the text)",
	 "off"},
	{"`nrfiles`, `filesize`, `directory`, `filename_format`",
	 "without `filename`: files named as fio names them "
	  "(`$jobname.$jobnum.$filenum` in `directory`, which must exist; a "
	  "`:` list spreads the clones), `nrfiles` per clone (each clone of "
	  "`numjobs` its own), each `filesize` (or each drawn in fio's "
	  "`LOW-HIGH` range, with fio's seed: the same sizes as fio) or `size` "
	  "/ `nrfiles`",
	 "1, size / files, `.`, fio's"},
	{"`fallocate`",
	 "space for new files before their layout: `native`, `none`, `posix`, "
	  "`keep`, `truncate` (as fio)",
	 NULL},
	{"`overwrite`",
	 "write jobs: lay new files out with data too (fio: only reads do; "
	  "the scratch file always)",
	 NULL},
	{"`invalidate`",
	 "drop the files' page cache at job start (`posix_fadvise` DONTNEED; "
	  "block devices BLKFLSBUF)",
	 NULL},
	{"`unlink`",
	 "remove the job's files at the end (a file iochar did not create "
	  "needs `--force`)",
	 NULL},
	{"`file_service_type`",
	 "which file each I/O goes to: `roundrobin`, `sequential`, `random`, "
	  "each `:N`; fio's `zipf`, `pareto`, `normal` (`gauss`) with "
	  "`:VALUE[:CENTER]`",
	 NULL},
	{"`allow_file_create`",
	 "0: refuse a job whose file does not exist",
	 NULL},
	{"`create_on_open`",
	 "jobs that only write: files start empty, no layout, no fallocate "
	  "(jobs that read are refused)",
	 NULL},
	{"`pre_read`",
	 "each worker reads its files once before the job (buffered: then "
	  "cached); clears `invalidate`, as fio",
	 NULL},
	{"`create_only`",
	 "only lay the job's files out; no I/O",
	 NULL},
	{"`file_append`",
	 "jobs that only write: write after the end of the files (offset = "
	  "their size; files of one size)",
	 NULL},
	{"`opendir`",
	 "every regular file under a directory, recursively, joins the job's "
	  "files (fio's order)",
	 "none"},
	{"`exitall`, `exit_what`",
	 "when a worker ends, stop the others of its group (`group`), every "
	  "running worker (`stonewall`: the next stonewall still runs) or all, "
	  "those not started too (`all`); set in any job, it holds for all, as "
	  "fio",
	 NULL},
	{"`fill_device` (`fill_fs`)",
	 "jobs that only write: write until the device or file system is full "
	  "(ENOSPC, EDQUOT); the job then ends without error, as fio",
	 NULL},
	{"`zonemode=strided`, `zonesize`, `zonerange`, `zoneskip`",
	 "jobs of one file: `zonesize` bytes in a zone of `zonerange`, then "
	  "the zone `zonerange` + `zoneskip` on, as fio; a random job draws "
	  "uniform offsets over the zone's range (with `random_generator=lfsr` "
	  "fio's own offsets), its random map anew each `zonerange` bytes",
	 "`none`, 0, `zonesize`, 0"},
	{"`prio`, `prioclass`",
	 "I/O priority of the job's workers (`ioprio_set`, as ionice; class 0 "
	  "is best-effort, as fio); fio's logs carry it (`log_prio`)",
	 "unset"},
	{"`cmdprio_percentage`, `cmdprio_class`, `cmdprio`, `cmdprio_bssplit`",
	 "libaio and io_uring, as fio: that share of I/Os (or, with "
	  "`cmdprio_bssplit=BS/PCT[/CLASS/LEVEL]:...`, of the I/Os of each "
	  "size) carry their own priority in the iocb or SQE; fio's logs show "
	  "it (`log_prio`)",
	 "none"},
	{"`gtod_reduce`",
	 "fio's layout reports no latency and no bw/iops samples, as fio "
	  "(iochar still times every I/O for its own figures)",
	 NULL},
	{"`flow`, `flow_id`, `flow_sleep`",
	 "fio's flow control: jobs of one `flow_id` issue I/Os in the ratio "
	  "of their `flow` weights (at most 1000); one ahead of its share lets "
	  "its I/O finish and sleeps `flow_sleep` µs (0: retries at once)",
	 NULL},
	{"`steadystate` (`ss`), `ss_dur`, `ss_ramp`",
	 "fio's steady state: with `ss_dur`, a job ends once its IOPS or "
	  "bandwidth over the last `ss_dur` seconds deviates from the mean "
	  "(`iops`, `bw`) or slopes (`iops_slope`, `bw_slope`) by less than "
	  "the limit (`:10%` of the mean, or absolute); samples begin "
	  "`ss_ramp` + 1 s in; fio's `steadystate` JSON member",
	 "`iops_slope:0.01%`, 0, 0"},
	{"`latency_target`, `latency_window`, `latency_percentile`",
	 "fio's depth search: from depth 1 up to `iodepth`, the deepest at "
	  "which `latency_percentile` % of I/Os in each `latency_window` (µs) "
	  "finish within `latency_target` (µs); the job's figures are its last "
	  "window at that depth (`latency_depth` in the JSON)",
	 NULL},
	{"`buffer_compress_percentage`, `buffer_compress_chunk`",
	 "write buffers that compress by this %: each chunk that % zeros, the "
	  "rest random, made anew for every write",
	 NULL},
	{"`dedupe_percentage`, `dedupe_mode`, "
	 "`dedupe_working_set_percentage`, `dedupe_global`",
	 "that % of written blocks repeat one: the last unique block "
	  "(`repeat`) or one of a working set of that % of `size` "
	  "(`working_set`; `dedupe_global`: across the jobs)",
	 NULL},
	{"`io_submit_mode`",
	 "`inline` or `offload`: accepted, iochar always submits from the "
	  "job's thread (docs/fio-compat.md)",
	 NULL},
	{"`--output-format`",
	 "`normal`, `json` (iochar's members and fio's `jobs[]` layout, "
	  "docs/output.md), `json+` (with fio's latency `bins`), `csv`, "
	  "`terse` (fio's terse v3), or several comma-separated as fio "
	  "(`json,normal`: each once, in fio's order); `--minimal` is `terse` "
	  "(command line only)",
	 "`normal`"},
	{"`--output`",
	 "write results to a file instead of stdout (command line only)",
	 "stdout"},
	{"`--status-interval`",
	 "fio's: while the jobs run, the whole report in `--output-format` "
	  "every T (at least 1 ms), cumulative from the start, where the final "
	  "one goes (json: a sequence of documents) (command line only)",
	 "none"},
	{"`--progress-interval`",
	 "without a terminal (logs, pipes), a progress line this often "
	  "(`iochar run`: with `--verbose` only); `0` for none (command line "
	  "only; `plan` too)",
	 "`10s`"},
	{"`--verbose`",
	 "iochar's own: `iochar run`'s notes (differences from fio, files "
	  "laid out, progress lines) on stderr without a terminal too; always "
	  "in the JSON's `notes` (command line only)",
	 "off"},
	{"`--discipline`",
	 "`plan`/`search`/`curve`: `auto` probes each target's submission "
	  "discipline and keeps the best, `fixed` the job's own, or a name "
	  "(`defer_taskrun`, `coop_taskrun`, `none`, `pass`, `fio_batch`)",
	 "`auto`"},
};
/* clang-format on */

/* The row the option in token names ("--x", "x" or "x=value"), or NULL. */
static const struct option_def *row_of(const char *tok)
{
	char key[64];
	const char *k = tok + (strncmp(tok, "--", 2) ? 0 : 2);

	snprintf(key, sizeof(key), "%.*s", (int)strcspn(k, "="), k);
	return options_find(key);
}

/* Each `name` of a row's first column, with its `(alias)` or "". */
typedef int (*name_fn)(const char *tok, const char *alias, void *arg, struct ioc_err *err);

static int each_name(const char *names, name_fn fn, void *arg, struct ioc_err *err)
{
	for (const char *p = strchr(names, '`'); p; p = strchr(p, '`')) {
		const char *end = strchr(p + 1, '`');
		char tok[64], alias[64] = "";
		if (!end)
			return err_set(err, EINVAL, "README option table: unclosed ` in %s", names);
		snprintf(tok, sizeof(tok), "%.*s", (int)(end - p - 1), p + 1);
		p = end + 1;
		if (!strncmp(p, " (`", 3)) {
			const char *ae = strchr(p + 3, '`');
			if (!ae)
				return err_set(err, EINVAL, "README option table: unclosed ` in %s",
					       names);
			snprintf(alias, sizeof(alias), "%.*s", (int)(ae - p - 3), p + 3);
			p = ae + 2; /* past "`)" */
		}
		int ret = fn(tok, alias, arg, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* Does tok name a row, and alias (when given) another name of it? */
static int check_name(const char *tok, const char *alias, void *arg, struct ioc_err *err)
{
	const struct option_def *o = row_of(tok);

	(void)arg;
	if (!o)
		return err_set(err, EINVAL, "README option table: no option '%s'", tok);
	if (alias[0] && !option_matches(o, alias))
		return err_set(err, EINVAL, "README option table: '%s' is not another name of '%s'",
			       alias, tok);
	return 0;
}

struct derived {
	char text[256];
	size_t n;
};

/* Append tok's row's default to the derived column: an enum or string
 * value in backticks, as the README writes values. */
static int add_default(const char *tok, const char *alias, void *arg, struct ioc_err *err)
{
	struct derived *d = arg;
	const struct option_def *o = row_of(tok);

	(void)alias;
	if (!o || !o->def)
		return err_set(err, EINVAL, "README option table: '%s' has no default to show", tok);
	bool tick = o->type == OPT_ENUM || o->type == OPT_STRING;
	d->n += (size_t)snprintf(d->text + d->n, sizeof(d->text) - d->n, "%s%s%s%s",
				 d->n ? ", " : "", tick ? "`" : "", o->def, tick ? "`" : "");
	if (d->n >= sizeof(d->text))
		return err_set(err, ENOSPC, "README option table: defaults of %s too long", tok);
	return 0;
}

int options_readme_table(FILE *f, struct ioc_err *err)
{
	size_t nr = sizeof(readme_rows) / sizeof(readme_rows[0]);
	struct derived def[sizeof(readme_rows) / sizeof(readme_rows[0])] = {0};

	for (size_t i = 0; i < nr; i++) {
		const struct readme_row *r = &readme_rows[i];
		int ret = of_other_command(r->names) ? 0 : each_name(r->names, check_name, NULL, err);
		if (!ret && !r->def)
			ret = each_name(r->names, add_default, &def[i], err);
		if (ret)
			return ret;
	}
	fputs("| option | meaning | default |\n|---|---|---|\n", f);
	for (size_t i = 0; i < nr; i++)
		fprintf(f, "| %s | %s | %s |\n", readme_rows[i].names, readme_rows[i].meaning,
			readme_rows[i].def ? readme_rows[i].def : def[i].text);
	return ferror(f) ? -EIO : 0;
}
