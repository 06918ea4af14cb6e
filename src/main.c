/* main.c - command dispatch only: each command lives in src/cmd/. */
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/seams.h"
#include "cmd/stdout_end.h"
#include "util/closest.h"

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{"run", cmd_run, "run a workload (fio options or a fio job file)"},
	{"verify", cmd_verify, "check the data a verify=1 run wrote"},
	{"plan", cmd_plan, "run a characterization plan (iochar plan --list)"},
	{"search", cmd_plan, "best iodepth and numjobs inside a latency limit"},
	{"curve", cmd_plan, "latency-versus-load curve: max, then % of it"},
	{"precondition", cmd_plan, "fill, then random writes to steady state"},
	{"inventory", cmd_inventory, "the machine: CPU, memory, disks, PCIe, NICs"},
	{"vd", cmd_vd, "RAID virtual drives: vd rebuild --vd=DEF --replace=N"},
	{"capture", cmd_capture, "record block devices' I/O into a replayable trace (blktrace)"},
	{"app", cmd_app, "a real database benchmark (sysbench, pgbench) on the device"},
	{"report", cmd_report, "HTML report of results (charts, environment, parameters)"},
	{"compare", cmd_compare, "compare result sets: difference and whether it beats noise"},
	{"model", cmd_model, "model of the I/O path: fit, predict, say what bounds it"},
	{"net", cmd_net, "TCP throughput, iperf3-compatible (net server|client)"},
	{NULL, NULL, NULL},
};

static void usage(FILE *f)
{
	int w = 0; /* the longest name sets the help's column */
	for (const struct command *c = commands; c->name; c++)
		w = (int)strlen(c->name) > w ? (int)strlen(c->name) : w;
	fprintf(f, "usage: iochar COMMAND [OPTIONS]\n\ncommands:\n");
	for (const struct command *c = commands; c->name; c++)
		fprintf(f, "  %-*s  %s\n", w, c->name, c->help);
	fprintf(f, "\n'iochar COMMAND --help' lists a command's options.\n");
}

/* argv[0]'s last path component. */
static const char *run_name(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	return slash ? slash + 1 : argv0;
}

static int dispatch(int argc, char **argv)
{
	/* a harness's `fio` (a link or copy named fio) is `iochar run`:
	 * argv[0] stands in for "run", which cmd_run skips */
	if (argc > 0 && !strcmp(run_name(argv[0]), "fio"))
		return cmd_run(argc, argv);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("iochar %s\n", IOCHAR_VERSION);
		return 0;
	}
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(argv[1], c->name))
			return c->fn(argc - 1, argv + 1);
	struct closest near;
	closest_init(&near, argv[1]);
	for (const struct command *c = commands; c->name; c++)
		closest_offer(&near, c->name);
	const char *guess = argv[1][0] == '-' ? NULL : closest_name(&near);
	fprintf(stderr, "iochar: unknown command '%s'%s%s%s; try 'iochar --help'\n", argv[1],
		guess ? " (did you mean " : "", guess ? guess : "", guess ? "?)" : "");
	return 2;
}

/* Every command's stdout ends here: results that did not reach it (a full
 * disk, a closed pipe) make a command that succeeded exit 1, whichever
 * command wrote them and however (stdout_end.h); a command that failed
 * keeps its own status (2 for usage). */
int main(int argc, char **argv)
{
	cmd_seams_install();
	stdout_begin();
	int status = dispatch(argc, argv);
	int out = stdout_end();
	return status ? status : out;
}
