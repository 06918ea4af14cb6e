/* net.c - `iochar net server` and `iochar net client`: TCP throughput,
 * wire-compatible with iperf3 3.x. Options follow iperf3's letters where
 * iperf3 has one. All input is validated before anything is opened. */
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
#include "inventory/environment.h"
#include "net/net_client.h"
#include "net/proto.h"
#include "net/result_csv.h"
#include "net/server.h"

struct client_cli {
	struct net_client_opts o;
	int fmt; /* enum net_format */
	const char *out_dir;
	bool force; /* --force: --out's results.json over any file */
	unsigned port, timeout_ms;
};

#define CROW(F, nm, ty) ARG_ROW(struct client_cli, F, nm, ty)
#define CSTR(F, nm) ARG_STR(struct client_cli, F, nm)

/* iperf3's letters and names; values as iperf3 takes them. */
static const struct arg_def client_rows[] = {
	{CSTR(o.host, "host"), .flags = ARG_POS, .o.arg = "HOST",
	 .o.help = "`iochar net server` or a stock `iperf3 -s`"},
	{CROW(port, "port", OPT_UINT), .letter = 'p', .o.def = "5201",
	 .o.min = 1, .o.max = 65535, .o.arg = "N", .o.help = "server port"},
	{CROW(o.params.parallel, "parallel", OPT_UINT), .letter = 'P',
	 .label = "-P", .o.def = "1", .o.min = 1, .o.max = 128, .o.arg = "N",
	 .o.help = "parallel streams"},
	{CROW(o.params.duration, "time", OPT_UINT), .letter = 't',
	 .label = "-t", .o.def = "10", .o.min = 1, .o.max = 86400,
	 .o.arg = "S", .o.help = "seconds to send"},
	{CROW(o.params.reverse, "reverse", OPT_BOOL), .letter = 'R',
	 .o.help = "the server sends"},
	{CROW(o.params.bidir, "bidir", OPT_BOOL),
	 .o.help = "both send, N streams each way"},
	{CROW(o.params.get_server_output, "get-server-output", OPT_BOOL),
	 .o.help = "show the server's report of the test too (in -J: "
		   "server_output_json or server_output_text, as iperf3)"},
	{CROW(o.params.bandwidth, "bitrate", OPT_CUSTOM), .o.parse = net_arg_rate,
	 .letter = 'b', .label = "-b", .o.arg = "RATE",
	 .o.help = "bits/s per sending stream, K/M/G as 1000s (0 = unlimited); "
		   "the server paces its side too"},
	{CROW(o.params.fqrate, "fq-rate", OPT_CUSTOM), .o.parse = net_arg_rate,
	 .o.arg = "RATE",
	 .o.help = "fq/TCP pacing per stream (SO_MAX_PACING_RATE), bits/s, both ends"},
	{CROW(o.params.tos, "tos", OPT_UINT), .letter = 'S', .o.max = 255,
	 .o.arg = "N", .o.help = "IP type of service (IPv6 traffic class), both ends"},
	{CROW(o.params.len, "len", OPT_CUSTOM), .o.parse = net_arg_size,
	 .letter = 'l', .label = "-l", .o.def = "128k", .o.min = 1,
	 .o.max = 1u << 30, .o.arg = "SIZE", .o.help = "bytes per write"},
	{CROW(o.params.window, "window", OPT_CUSTOM), .o.parse = net_arg_size,
	 .letter = 'w', .label = "-w", .o.min = 1, .o.max = 1u << 30,
	 .o.arg = "SIZE", .o.help = "socket buffer size (kernel autotuning)"},
	{CROW(o.params.congestion, "congestion", OPT_CUSTOM), .letter = 'C',
	 .o.parse = net_arg_congestion, .o.arg = "ALG",
	 .o.help = "TCP congestion control (e.g. cubic, bbr)"},
	{CROW(o.params.mss, "set-mss", OPT_UINT), .letter = 'M', .label = "-M",
	 .o.min = 88, .o.max = 65535, .o.arg = "N",
	 .o.help = "TCP maximum segment size"},
	{CROW(o.params.nodelay, "no-delay", OPT_BOOL), .letter = 'N',
	 .o.help = "TCP_NODELAY"},
	{CROW(o.zerocopy, "zerocopy", OPT_BOOL), .letter = 'Z',
	 .o.help = "send with MSG_ZEROCOPY"},
	{CROW(o.interval_s, "interval", OPT_CUSTOM), .letter = 'i',
	 .o.parse = net_arg_interval, .o.arg = "S",
	 .o.help = "interval reports every S seconds (0 = none; 1 with -J, "
		   "as iperf3)"},
	{CROW(o.threads, "threads", OPT_UINT), .o.min = 1, .o.max = 1024,
	 .o.arg = "N",
	 .o.help = "stream threads (one per CPU, at most one per stream)"},
	NET_FORMAT_ROWS(struct client_cli, "JSON output in iperf3 3.12's layout",
			"text, json (iperf3's layout, as -J), iochar-json "
			"(iochar's) or csv (docs/net.md)"),
	{CSTR(out_dir, "out"), .o.arg = "DIR",
	 .o.help = "write DIR/results.json too (never over a file iochar did "
		   "not write, unless --force)"},
	{CROW(force, "force", OPT_BOOL),
	 .o.help = "--out's results.json over any file"},
	{CROW(o.params.secret, "secret", OPT_CUSTOM), .o.parse = net_arg_secret,
	 .o.arg = "S", .o.help = "shared secret for an iochar server",
	 .section = "Control"},
	{CROW(o.params.secret, "secret-file", OPT_CUSTOM),
	 .o.parse = net_arg_secret_file, .o.arg = "F",
	 .o.help = "read the secret from file F (first line)"},
	{CROW(timeout_ms, "timeout", OPT_UINT), .o.def = "10000", .o.min = 100,
	 .o.max = 600000, .o.arg = "MS", .o.help = "bound on each control step"},
};

static const struct args_spec client_spec = {
	.usage = "usage: iochar net client HOST [OPTIONS]\n",
	.about = "Measures TCP throughput to HOST, which runs `iochar net "
		 "server`\nor a stock `iperf3 -s`.\n",
	NET_ARGS_SPEC("client", client_rows),
	.extra = "net client: give one server (HOST)",
};

static void print_interval(void *arg, const struct net_result *r, unsigned i)
{
	(void)arg;
	net_interval_text(stdout, r, i);
	fflush(stdout);
}

/* 0, ARGS_HELP, or -errno with a usage message. */
static int parse_client(int argc, char **argv, struct client_cli *c,
			struct ioc_err *err)
{
	int rc;

	net_params_default(&c->o.params);
	c->o.interval_s = -1; /* not given */
	rc = args_parse(&client_spec, argc, argv, c, err);
	if (rc)
		return rc;
	/* iperf3's -J holds 1 s intervals unless -i says otherwise */
	if (c->o.interval_s < 0)
		c->o.interval_s = c->fmt == NET_FMT_JSON ? 1 : 0;
	if (!c->o.host)
		return err_usage(err, EINVAL, "net client: give one server (HOST)");
	c->o.port = (uint16_t)c->port;
	c->o.timeout_ms = (int)c->timeout_ms;
	return net_client_check(&c->o, err);
}

static int cmd_net_client(int argc, char **argv)
{
	struct client_cli c = {0};
	struct ioc_err err = {0};
	struct environment env = {0};
	struct net_result r;
	int rc = parse_client(argc, argv, &c, &err);

	if (rc == ARGS_HELP) {
		args_help(&client_spec, stdout);
		return 0;
	}
	/* where the results go is checked before the test, not after it */
	if (!rc && c.out_dir)
		rc = net_out_check(c.out_dir, c.force, &err);
	if (rc) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		return EXIT_USAGE;
	}
	c.o.stop = signals_catch();
	if (c.fmt == NET_FMT_TEXT && c.o.interval_s > 0)
		c.o.on_interval = print_interval;
	rc = net_client_run(&c.o, &r, &err);
	if (rc) {
		fprintf(stderr, "iochar: net client: %s\n", err.msg);
		return err.usage ? EXIT_USAGE : 1;
	}
	environment_collect(&env, NULL, 0);
	if (c.fmt == NET_FMT_JSON || c.fmt == NET_FMT_IOCHAR_JSON) {
		struct jw w;
		jw_init(&w, stdout, 2);
		if (c.fmt == NET_FMT_JSON)
			net_result_iperf3_json(&w, &r);
		else
			net_result_json(&w, &r, &env);
		rc = jw_finish(&w);
	} else if (c.fmt == NET_FMT_CSV) {
		net_result_csv_header(stdout);
		net_result_csv_rows(stdout, &r);
		rc = fflush(stdout) || ferror(stdout) ? -EIO : 0;
	} else {
		net_result_text(stdout, &r);
		if (r.server_output) /* as iperf3 prints it */
			printf("\nServer output:\n%s", r.server_output);
	}
	/* stdout's own failure (a full disk, a closed pipe) is main's
	 * stdout_end line and exit 1; the results still go to --out-dir */
	if (rc && stdout_failed())
		rc = 0;
	if (!rc && c.out_dir)
		rc = net_result_write_dir(c.out_dir, c.force, &r, &env, &err);
	if (rc)
		fprintf(stderr, "iochar: net client: %s\n",
			err.msg[0] ? err.msg : strerror(-rc));
	environment_free(&env);
	net_result_free(&r);
	if (!rc && c.o.stop && atomic_load(c.o.stop))
		return EXIT_SIGNAL;
	return rc ? 1 : 0;
}

struct server_cli {
	struct net_server_opts o;
	int fmt; /* enum net_format */
	unsigned port;
	char secret[NET_SECRET_MAX];
};

#define SROW(F, nm, ty) ARG_ROW(struct server_cli, F, nm, ty)
#define SCAP(F, nm, lo, hi, dflt, a, h)                                  \
	{SROW(o.caps.F, nm, OPT_UINT), .o.min = (lo), .o.max = (hi),     \
	 .o.def = (dflt), .o.arg = (a), .o.help = (h)}
#define SSIZE(F, nm, lo, hi, dflt, h)                                    \
	{SROW(o.caps.F, nm, OPT_CUSTOM), .o.parse = net_arg_size,        \
	 .o.min = (lo), .o.max = (hi), .o.def = (dflt), .o.arg = "SIZE", \
	 .o.help = (h)}

/* The caps' defaults are net_caps_default's (net/server.c). */
static const struct arg_def server_rows[] = {
	{ARG_STR(struct server_cli, o.bind, "bind"), .letter = 'B',
	 .o.arg = "ADDR",
	 .o.help = "IPv4 or IPv6 address to listen on (127.0.0.1)"},
	{SROW(port, "port", OPT_UINT), .letter = 'p', .o.def = "5201",
	 .o.max = 65535, .o.arg = "N", .o.help = "port (0 = any free port)"},
	{SROW(o.max_total, "one-off", OPT_UINT), .letter = '1',
	 .implied = "1", .o.help = "exit after one test"},
	{SROW(o.max_total, "tests", OPT_UINT), .o.min = 1, .o.max = 1u << 30,
	 .o.arg = "N", .o.help = "exit after N tests"},
	SCAP(max_streams, "max-streams", 1, 4096, "128", "N",
	     "streams per test and direction (as iperf3's -P)"),
	SCAP(max_duration, "max-duration", 1, 86400 * 7, "3600", "S",
	     "seconds per test"),
	SCAP(max_tests, "max-tests", 1, 1024, "4", "N", "tests at once"),
	SCAP(max_peer_tests, "max-peer-tests", 1, 1024, "2", "N",
	     "of them from one client address"),
	SSIZE(max_len, "max-len", 1, 1u << 30, "8m",
	      "bytes per write a client may ask"),
	SSIZE(max_window, "max-window", 1, 1u << 30, "64m",
	      "socket buffer a client may ask"),
	SSIZE(max_json, "max-json", 64, 64u << 20, "256k",
	      "bytes in one JSON message"),
	SSIZE(max_test_mem, "max-test-memory", 1u << 20, 1ull << 40, "256m",
	      "stream buffers per test"),
	SCAP(idle_ms, "idle-timeout", 10, 3600000, "10000", "MS",
	     "longest wait for a client's next step"),
	SCAP(handshake_ms, "handshake-timeout", 10, 600000, "3000", "MS",
	     "cookie and parameters within"),
	SCAP(max_pending, "max-pending", 1, 65536, "512", "N",
	     "connections not yet admitted"),
	SCAP(max_peer_pending, "max-peer-pending", 1, 65536, "256", "N",
	     "of them from one address"),
	{SROW(secret, "secret", OPT_CUSTOM), .o.parse = net_arg_secret,
	 .o.arg = "S", .o.help = "clients must present S (iochar clients only)",
	 .section = "Control"},
	{SROW(secret, "secret-file", OPT_CUSTOM), .o.parse = net_arg_secret_file,
	 .o.arg = "F", .o.help = "read the secret from file F (first line)"},
	{SROW(o.threads, "threads", OPT_UINT), .o.min = 1, .o.max = 1024,
	 .o.arg = "N", .o.help = "stream threads per test (auto)"},
	{SROW(o.zerocopy, "zerocopy", OPT_BOOL), .letter = 'Z',
	 .o.help = "send with MSG_ZEROCOPY (reverse tests)"},
	NET_FORMAT_ROWS(struct server_cli,
			"print each finished test as one JSON line",
			"text (log only), json (as -J: iperf3's layout), iochar-json "
			"(iochar's) or csv: a header, "
			"then each finished test's rows"),
};

static const struct args_spec server_spec = {
	.usage = "usage: iochar net server [OPTIONS]\n",
	.about = "Serves iperf3-compatible TCP tests (from `iochar net client` "
		 "or a\nstock `iperf3 -c`), several at once, each isolated.\n",
	NET_ARGS_SPEC("server", server_rows),
	.extra = "net server: unexpected '%s'",
};

/* 0, ARGS_HELP, or -errno with a usage message. */
static int parse_server(int argc, char **argv, struct server_cli *c,
			struct ioc_err *err)
{
	struct net_server_opts *o = &c->o;
	int rc;

	net_caps_default(&o->caps);
	rc = args_parse(&server_spec, argc, argv, c, err);
	if (rc)
		return rc;
	o->json = c->fmt == NET_FMT_JSON || c->fmt == NET_FMT_IOCHAR_JSON ? stdout : NULL;
	o->json_native = c->fmt == NET_FMT_IOCHAR_JSON;
	o->csv = c->fmt == NET_FMT_CSV ? stdout : NULL;
	o->port = (uint16_t)c->port;
	if (c->secret[0])
		o->secret = c->secret;
	return 0;
}

static int cmd_net_server(int argc, char **argv)
{
	struct server_cli c = {0};
	struct net_server_opts *o = &c.o;
	struct ioc_err err = {0};
	int rc = parse_server(argc, argv, &c, &err);

	if (rc == ARGS_HELP) {
		args_help(&server_spec, stdout);
		return 0;
	}
	if (rc) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		return EXIT_USAGE;
	}
	o->stop = signals_catch();
	if (o->csv) {
		net_result_csv_header(o->csv);
		fflush(o->csv);
	}
	rc = net_server_run(o, &err);
	if (rc) {
		fprintf(stderr, "iochar: net server: %s\n", err.msg);
		return err.usage ? EXIT_USAGE : 1;
	}
	return atomic_load(o->stop) ? EXIT_SIGNAL : 0;
}

int cmd_net(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		FILE *f = argc < 2 ? stderr : stdout;
		fprintf(f, "usage: iochar net server [OPTIONS]\n"
			   "       iochar net client HOST [OPTIONS]\n"
			   "       mpirun -np N iochar net mesh [OPTIONS]\n"
			   "'iochar net server --help' and 'iochar net client --help' "
			   "list the options; docs/net.md has the rest.\n");
		return argc < 2 ? EXIT_USAGE : 0;
	}
	if (!strcmp(argv[1], "server"))
		return cmd_net_server(argc - 1, argv + 1);
	if (!strcmp(argv[1], "client"))
		return cmd_net_client(argc - 1, argv + 1);
	if (!strcmp(argv[1], "mesh"))
		return cmd_net_mesh(argc - 1, argv + 1);
	fprintf(stderr, "iochar: net: unknown '%s'; use server, client or mesh\n",
		argv[1]);
	return EXIT_USAGE;
}
