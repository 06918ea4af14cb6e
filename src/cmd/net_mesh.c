/* net_mesh.c - `iochar net mesh`: its arguments and the printing of the
 * matrix; the running is net/mesh_run.c (docs/net.md, "net mesh"). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "cmd/cmd.h"
#include "cmd/net_args.h"
#include "cmd/signals.h"
#include "cmd/stdout_end.h"
#include "dist/dist.h"
#include "inventory/environment.h"
#include "net/mesh.h"
#include "net/mesh_csv.h"
#include "net/mesh_run.h"

struct mesh_cli {
	struct net_mesh_opts o;
	int fmt; /* enum net_format */
	const char *out_dir;
	bool force; /* --force: --out's results.json over any file */
};

/* -l as net mesh has said it. */
static int mesh_len(void *obj, const struct option_def *o, const char *v,
		    struct ioc_err *err)
{
	uint64_t n;
	int rc = units_parse_size(o->name, v, &n, err);

	if (!rc && (n < 1 || n > (1u << 30)))
		rc = err_usage(err, ERANGE, "-l %s: must be 1 B to 1 GiB", v);
	if (!rc)
		*(uint32_t *)((char *)obj + o->off) = (uint32_t)n;
	return rc;
}

#define MROW(F, nm, ty) ARG_ROW(struct mesh_cli, F, nm, ty)

static const struct arg_def mesh_rows[] = {
	{MROW(o.params.duration, "time", OPT_UINT), .letter = 't',
	 .label = "-t", .o.def = "10", .o.min = 1, .o.max = 86400,
	 .o.arg = "S", .o.help = "seconds per test"},
	{MROW(o.params.parallel, "parallel", OPT_UINT), .letter = 'P',
	 .label = "-P", .o.def = "1", .o.min = 1, .o.max = 128, .o.arg = "N",
	 .o.help = "parallel streams per test"},
	{MROW(o.params.len, "len", OPT_CUSTOM), .o.parse = mesh_len,
	 .letter = 'l', .label = "-l", .o.def = "128k", .o.min = 1,
	 .o.max = 1u << 30, .o.arg = "SIZE", .o.help = "bytes per write"},
	{MROW(o.ring, "ring", OPT_BOOL),
	 .o.help = "rank r -> r + 1 mod N, all at once"},
	{ARG_STR(struct mesh_cli, o.bind, "bind"), .letter = 'B',
	 .o.arg = "ADDR",
	 .o.help = "address every rank serves on (default: the address of "
		   "the host name MPI reports)"},
	{MROW(o.port_base, "port", OPT_UINT), .letter = 'p', .o.max = 65535,
	 .o.arg = "N", .o.help = "rank r serves on port N + r (0 = any free)"},
	{MROW(o.timeout_ms, "timeout", OPT_UINT), .o.def = "10000",
	 .o.min = 100, .o.max = 600000, .o.arg = "MS",
	 .o.help = "bound on each control step"},
	NET_FORMAT_ROWS(struct mesh_cli, "JSON output",
			"text, json (as -J; iochar-json the same) or csv: one row per pair "
			"(columns: docs/net.md)"),
	{ARG_STR(struct mesh_cli, out_dir, "out"), .o.arg = "DIR",
	 .o.help = "write DIR/results.json too (never over a file iochar did "
		   "not write, unless --force)"},
	{MROW(force, "force", OPT_BOOL),
	 .o.help = "--out's results.json over any file"},
};

static const struct args_spec mesh_spec = {
	.usage = "usage: mpirun -np N iochar net mesh [OPTIONS]\n",
	.about = "Measures TCP throughput between every pair of ranks, one "
		 "ordered\npair at a time (the others idle), or with --ring "
		 "each rank to the\nnext, all at once. Rank 0 prints the "
		 "matrix.\n",
	NET_ARGS_SPEC("mesh", mesh_rows),
	.extra = "net mesh: unexpected '%s'",
};

/* Rank 0: the matrix printed and written. */
static int report(const struct mesh_cli *c, const struct net_mesh *m,
		  struct ioc_err *err)
{
	struct environment env = {0};
	int rc = 0;

	environment_collect(&env, NULL, 0);
	if (c->fmt == NET_FMT_JSON || c->fmt == NET_FMT_IOCHAR_JSON) { /* mesh's own layout */
		struct jw w;
		jw_init(&w, stdout, 2);
		net_mesh_json(&w, m, &env);
		rc = jw_finish(&w);
		/* stdout's own failure is main's stdout_end line and exit 1;
		 * the matrix still goes to --out-dir */
		if (rc && stdout_failed())
			rc = 0;
		else if (rc)
			err_set(err, -rc, "stdout: %s", strerror(-rc));
	} else if (c->fmt == NET_FMT_CSV) {
		net_mesh_csv(stdout, m);
	} else {
		net_mesh_text(stdout, m);
	}
	fflush(stdout);
	if (!rc && c->out_dir)
		rc = net_mesh_write_dir(c->out_dir, c->force, m, &env, err);
	environment_free(&env);
	return rc;
}

static int sweep(struct dist *d, const struct mesh_cli *c, const char *addr,
		 struct ioc_err *err)
{
	struct net_mesh m;
	int rc = net_mesh_run(d, &c->o, addr, &m, err);

	if (!rc && dist_is_root(d))
		rc = report(c, &m, err);
	net_mesh_run_free(&m);
	return rc;
}

int cmd_net_mesh(int argc, char **argv)
{
	struct mesh_cli c = {0};
	struct ioc_err err = {0}, local = {0};
	struct dist *d = NULL;
	char addr[64] = "";
	unsigned ranks;
	int rc;

	net_params_default(&c.o.params);
	rc = args_parse(&mesh_spec, argc, argv, &c, &local);
	if (rc == ARGS_HELP) {
		const char *r = getenv("OMPI_COMM_WORLD_RANK");
		if (!r || !strcmp(r, "0"))
			args_help(&mesh_spec, stdout);
		return 0;
	}
	if (!dist_launched(&ranks)) {
		fprintf(stderr, "iochar: net mesh needs mpirun: mpirun -np N iochar net mesh "
				"(N >= 2, with the MPI build of iochar)\n");
		return EXIT_USAGE;
	}
	int ret = dist_start(&d, &err);
	if (ret || !d) {
		if (ret && err.msg[0])
			fprintf(stderr, "iochar: %s\n", err.msg);
		else if (!ret)
			fprintf(stderr, "iochar: net mesh needs mpirun with 2 or more ranks "
					"(and the MPI build of iochar)\n");
		return ret && !err.usage ? 1 : EXIT_USAGE;
	}
	if (!rc && dist_size(d) < 2)
		rc = err_usage(&local, EINVAL, "net mesh needs 2 or more ranks (mpirun -np N, N >= 2)");
	if (!rc)
		rc = net_mesh_addr(d, &c.o, addr, sizeof(addr), &local);
	if (!rc && c.out_dir && dist_is_root(d)) /* rank 0 writes it */
		rc = net_out_check(c.out_dir, c.force, &local);
	char what[256];
	snprintf(what, sizeof(what), "net mesh ring=%d t=%u P=%u l=%u port=%u timeout=%u",
		 c.o.ring, c.o.params.duration, c.o.params.parallel,
		 c.o.params.len, c.o.port_base, c.o.timeout_ms);
	ret = dist_agree(d, what, rc, &local, &err);
	if (!ret) {
		c.o.stop = signals_catch();
		ret = sweep(d, &c, addr, &err);
	}
	int status = 0;
	if (ret) {
		if (dist_is_root(d))
			fprintf(stderr, "iochar: net mesh: %s\n", err.msg);
		status = ret == -EINTR ? EXIT_SIGNAL : err.usage ? EXIT_USAGE : 1;
	}
	return dist_finish(d, status);
}
