/* inventory.c - `iochar inventory`: the machine, as text, JSON or CSV.
 *
 *   iochar inventory [--output-format=normal|json|csv] [--show-serial]
 *                    [--sysroot=DIR]
 *
 * --sysroot (or $IOCHAR_SYSROOT) reads DIR/sys, DIR/proc and DIR/etc
 * instead of the running system's (tests use fixture trees). Serials are
 * left out unless --show-serial. Reading never fails; only bad options
 * (exit 2) and a failed write (exit 1) do.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/cmd_args.h"
#include "cmd/stdout_end.h"
#include "inventory/inventory.h"
#include "base/json_writer.h"
#include "output/output.h"
#include "util/err.h"

struct inventory_args {
	enum output_format format;
	bool show_serial;
	const char *sysroot;
};

static const struct arg_def rows[] = {
	{ARG_ROW(struct inventory_args, format, "output-format", OPT_CUSTOM),
	 .o.parse = cmd_arg_output_format, .o.def = "normal", .o.arg = "FMT",
	 .o.help = "normal, json or csv"},
	{ARG_ROW(struct inventory_args, show_serial, "show-serial", OPT_BOOL),
	 .o.help = "include device serial numbers (hidden by default)"},
	{ARG_STR(struct inventory_args, sysroot, "sysroot"), .o.arg = "DIR",
	 .o.help = "read DIR/sys, DIR/proc, DIR/etc instead of / (also "
		   "$IOCHAR_SYSROOT)"},
};

static const struct args_spec spec = {
	.usage = "usage: iochar inventory [--output-format=normal|json|csv] "
		 "[--show-serial]\n"
		 "                        [--sysroot=DIR]\n",
	.about = "The machine results are measured on: CPU, memory, kernel "
		 "and distribution,\nblock devices (transport, queues, "
		 "stacking), PCIe links, network interfaces.\n",
	ARGS_TABLE(rows),
	.flags = ARGS_HELP_FIRST,
	.unknown = "inventory: unknown option '%s'; accepted: "
		   "--output-format, --show-serial, --sysroot",
	.extra = "inventory: unexpected argument '%s'",
};

/* 0, ARGS_HELP, or -errno with a usage message. */
static int parse_args(int argc, char **argv, struct inventory_args *a,
		      struct ioc_err *err)
{
	int ret;

	a->sysroot = getenv("IOCHAR_SYSROOT");
	ret = args_parse(&spec, argc, argv, a, err);
	if (ret)
		return ret;
	if (a->sysroot && a->sysroot[0]) {
		struct stat st;

		if (stat(a->sysroot, &st) != 0 || !S_ISDIR(st.st_mode))
			return err_usage(err, ENOENT,
					 "--sysroot=%s: not a directory",
					 a->sysroot);
	}
	return 0;
}

static int write_inventory(const struct inventory *inv,
			   const struct inventory_args *a, FILE *f)
{
	struct jw w;

	switch (a->format) {
	case OUTPUT_JSON:
		jw_init(&w, f, 2);
		inventory_json_emit(&w, inv, a->show_serial);
		return jw_finish(&w);
	case OUTPUT_CSV:
		return inventory_write_csv(inv, f, a->show_serial);
	default:
		return inventory_write_text(inv, f, a->show_serial);
	}
}

int cmd_inventory(int argc, char **argv)
{
	struct inventory_args a = {0};
	struct ioc_err err = {0};
	struct inventory inv;
	int ret;

	ret = parse_args(argc, argv, &a, &err);
	if (ret == ARGS_HELP) {
		args_help(&spec, stdout);
		return 0;
	}
	if (ret) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (inventory_collect(&inv, a.sysroot)) {
		fprintf(stderr, "iochar: inventory: out of memory\n");
		return 1;
	}
	ret = write_inventory(&inv, &a, stdout);
	inventory_free(&inv);
	/* stdout's own failure (a full disk, a closed pipe) is main's
	 * stdout_end line, with the real errno; only others are said here */
	if (ret && !stdout_failed())
		fprintf(stderr, "iochar: inventory: writing stdout: %s\n",
			strerror(-ret));
	return ret ? 1 : 0;
}
