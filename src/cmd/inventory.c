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
#include "inventory/inventory.h"
#include "output/json_writer.h"
#include "output/output.h"
#include "util/err.h"

struct inventory_args {
	enum output_format format;
	bool show_serial;
	const char *sysroot;
};

static void usage(FILE *f)
{
	fputs("usage: iochar inventory [--output-format=normal|json|csv] "
	      "[--show-serial]\n"
	      "                        [--sysroot=DIR]\n\n"
	      "The machine results are measured on: CPU, memory, kernel and "
	      "distribution,\nblock devices (transport, queues, stacking), "
	      "PCIe links, network interfaces.\n\n"
	      "  --output-format=FMT  normal (default), json or csv\n"
	      "  --show-serial        include device serial numbers (hidden "
	      "by default)\n"
	      "  --sysroot=DIR        read DIR/sys, DIR/proc, DIR/etc instead "
	      "of / (also $IOCHAR_SYSROOT)\n",
	      f);
}

/* The value of --key=value or --key value; NULL (and *i unchanged) if
 * arg is not key. */
static const char *opt_value(int argc, char **argv, int *i, const char *key)
{
	size_t n = strlen(key);
	const char *arg = argv[*i] + 2;

	if (strncmp(arg, key, n) != 0)
		return NULL;
	if (arg[n] == '=')
		return arg + n + 1;
	if (arg[n] == '\0' && *i + 1 < argc)
		return argv[++*i];
	if (arg[n] == '\0')
		return "";
	return NULL;
}

static int parse_args(int argc, char **argv, struct inventory_args *a,
		      struct ioc_err *err)
{
	const char *v;

	a->format = OUTPUT_NORMAL;
	a->sysroot = getenv("IOCHAR_SYSROOT");
	for (int i = 1; i < argc; i++) {
		if (strncmp(argv[i], "--", 2) != 0)
			return err_usage(err, EINVAL,
					 "inventory: unexpected argument '%s'",
					 argv[i]);
		if (!strcmp(argv[i], "--show-serial") ||
		    !strcmp(argv[i], "--show_serial")) {
			a->show_serial = true;
		} else if ((v = opt_value(argc, argv, &i, "output-format")) ||
			   (v = opt_value(argc, argv, &i, "output_format"))) {
			if (output_format_parse(v, &a->format))
				return err_usage(
				    err, EINVAL,
				    "--output-format=%s: accepted: "
				    "normal, json, csv",
				    v);
		} else if ((v = opt_value(argc, argv, &i, "sysroot"))) {
			a->sysroot = v;
		} else {
			return err_usage(err, EINVAL,
					 "inventory: unknown option '%s'; "
					 "accepted: --output-format, "
					 "--show-serial, --sysroot",
					 argv[i]);
		}
	}
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

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		}
	if (parse_args(argc, argv, &a, &err)) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (inventory_collect(&inv, a.sysroot)) {
		fprintf(stderr, "iochar: inventory: out of memory\n");
		return 1;
	}
	ret = write_inventory(&inv, &a, stdout);
	if (!ret && fflush(stdout))
		ret = -errno;
	inventory_free(&inv);
	if (ret) {
		fprintf(stderr, "iochar: inventory: writing stdout: %s\n",
			strerror(-ret));
		return 1;
	}
	return 0;
}
