/* app_args.c - see app_args.h. */
#define _GNU_SOURCE
#include "cmd/app_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"

#define AROW(F, nm, ty) ARG_ROW(struct app_args, F, nm, ty)
#define ASTR(F, nm) ARG_STR(struct app_args, F, nm)

static const struct arg_def rows[] = {
	{ASTR(bench, "bench"), .flags = ARG_POS, .o.arg = "BENCH",
	 .o.help = "sysbench-oltp, sysbench-read, sysbench-write or pgbench"},
	{ASTR(directory, "directory"), .o.arg = "DIR",
	 .o.help = "put the database in DIR (a directory on a mounted file system)"},
	{ASTR(filename, "filename"), .o.arg = "DEVICE",
	 .o.help = "make a file system on DEVICE (erases it: needs --force), mount it for the run"},
	{AROW(force, "force", OPT_BOOL), .o.help = "allow --filename to erase DEVICE"},
	{ASTR(fs, "fs"), .o.def = "ext4", .o.arg = "ext4|xfs",
	 .o.help = "the file system --filename makes"},
	{ASTR(threads, "threads"), .o.def = "1,2,4,8", .o.arg = "LIST",
	 .o.help = "client counts of the sweep, one point each"},
	{AROW(time_ns, "time", OPT_TIME), .o.def = "60", .o.min = 1000000000ull,
	 .o.max = 3600ull * 1000000000ull, .o.arg = "T",
	 .o.help = "how long each point runs (no suffix: seconds; 1s to 1h)"},
	{ASTR(workload, "workload"), .o.arg = "W",
	 .o.help = "sysbench: read_write, read_only, write_only, point_select; "
		   "pgbench: tpcb-like, select-only, simple-update"},
	{AROW(tables, "tables", OPT_UINT), .o.def = "4", .o.min = 1, .o.max = 1024,
	 .o.arg = "N", .o.help = "sysbench: tables of the data set"},
	{AROW(table_size, "table-size", OPT_UINT), .o.def = "100000", .o.min = 100,
	 .o.max = 1000000000ull, .o.arg = "N", .o.help = "sysbench: rows per table"},
	{AROW(scale, "scale", OPT_UINT), .o.def = "10", .o.min = 1, .o.max = 100000,
	 .o.arg = "N", .o.help = "pgbench: scale factor (about 15 MiB each)"},
	{ASTR(ratio, "memory-ratio"), .o.def = "8", .o.arg = "R",
	 .o.help = "data set / buffer pool (8: the pool holds an eighth of the data)"},
	{AROW(lat_target_ns, "latency-target", OPT_TIME), .o.arg = "T",
	 .o.help = "name the highest thread count whose p99 stays inside T (e.g. 2ms)"},
	{ASTR(lat_metric, "latency-metric"), .o.def = "p99", .o.arg = "p99|device",
	 .o.help = "what --latency-target judges: the benchmark's p99, or the device's "
		   "average read latency (r_await; SLOB's criterion)"},
	{ASTR(out, "out"), .o.arg = "DIR",
	 .o.help = "results.json, results.csv, traces and logs (a new or empty directory)"},
	{ASTR(format, "output-format"), .o.def = "text", .o.arg = "text|json",
	 .o.help = "what stdout shows"},
	{AROW(no_capture, "no-capture", OPT_BOOL),
	 .o.help = "do not trace the device's block I/O"},
	{AROW(progress, "progress", OPT_BOOL),
	 .o.help = "progress lines on stderr (on by default on a terminal)"},
};

static const struct args_spec spec = {
	.usage = "usage: iochar app BENCH (--directory=DIR | --filename=DEVICE --force)\n"
		 "                 [--threads=LIST] [--time=T] [--out DIR] [--output-format=json]\n",
	.about = "Runs a real database benchmark on the device under test: a private\n"
		 "MariaDB (sysbench) or PostgreSQL (pgbench) server with its data on the\n"
		 "target, its buffer pool a stated fraction of the data set, one point per\n"
		 "thread count, the device's own figures and block I/O trace for each;\n"
		 "everything iochar made is removed at the end (docs/app.md).\n",
	ARGS_TABLE(rows),
	.unknown = "app: unknown option '%s'; see 'iochar app --help'",
	.extra = "app: unexpected argument '%s'",
};

static int check_bench(struct app_args *a, struct app_run *r, struct ioc_err *err)
{
	if (!a->bench)
		return err_usage(err, EINVAL, "app: needs BENCH: %s", app_bench_names());
	r->bench = app_bench_find(a->bench);
	if (!r->bench)
		return err_usage(err, EINVAL, "app: unknown bench '%s'; accepted: %s", a->bench,
				 app_bench_names());
	r->cfg.workload = a->workload ? a->workload : r->bench->workloads[0];
	if (!app_bench_has_workload(r->bench, r->cfg.workload)) {
		char list[256] = "";
		for (const char *const *w = r->bench->workloads; *w; w++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 list[0] ? ", " : "", *w);
		return err_usage(err, EINVAL, "--workload=%s: %s runs %s", r->cfg.workload,
				 r->bench->name, list);
	}
	return 0;
}

static int check_rest(struct app_args *a, struct app_run *r, struct ioc_err *err)
{
	char *end;

	if (strcmp(a->format, "text") && strcmp(a->format, "json"))
		return err_usage(err, EINVAL, "--output-format=%s: text or json", a->format);
	a->json = !strcmp(a->format, "json");
	if (strcmp(a->fs, "ext4") && strcmp(a->fs, "xfs"))
		return err_usage(err, EINVAL, "--fs=%s: ext4 or xfs", a->fs);
	r->memory_ratio = strtod(a->ratio, &end);
	if (end == a->ratio || *end || !(r->memory_ratio >= 0.01 && r->memory_ratio <= 1e6))
		return err_usage(err, EINVAL, "--memory-ratio=%s: a number from 0.01 up "
				 "(the data set over the buffer pool)", a->ratio);
	if (strcmp(a->lat_metric, "p99") && strcmp(a->lat_metric, "device"))
		return err_usage(err, EINVAL, "--latency-metric=%s: p99 or device", a->lat_metric);
	r->latency_device = !strcmp(a->lat_metric, "device");
	if (a->filename && a->directory)
		return err_usage(err, EINVAL, "app: --directory and --filename: give one");
	return 0;
}

int app_args_parse(int argc, char **argv, struct app_args *a, struct app_run *r,
		   struct ioc_err *err)
{
	int ret = args_parse(&spec, argc, argv, a, err);

	if (ret == ARGS_HELP) {
		args_help(&spec, stdout);
		return ret;
	}
	if (ret || (ret = check_bench(a, r, err)) || (ret = app_parse_threads("--threads", a->threads, r->threads, &r->nthreads, err)) ||
	    (ret = check_rest(a, r, err)))
		return ret;
	r->secs = (unsigned)(a->time_ns / 1000000000ull);
	r->latency_target_ms = (double)a->lat_target_ns / 1e6;
	r->cfg.tables = a->tables;
	r->cfg.table_size = a->table_size;
	r->cfg.scale = a->scale;
	r->place = (struct app_place){.dir_arg = a->directory, .dev_arg = a->filename,
				      .mkfs = a->fs, .force = a->force};
	r->progress = a->progress || isatty(2);
	return 0;
}
