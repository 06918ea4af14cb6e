/* net.c - `iochar net server` and `iochar net client`: TCP throughput,
 * wire-compatible with iperf3 3.x. Options follow iperf3's letters where
 * iperf3 has one. All input is validated before anything is opened. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/units.h"
#include "cmd/cmd.h"
#include "cmd/signals.h"
#include "inventory/environment.h"
#include "net/net_client.h"
#include "net/proto.h"
#include "net/result_csv.h"
#include "net/server.h"

enum {
	OPT_BIDIR = 256, OPT_OUT, OPT_FORMAT, OPT_THREADS, OPT_SECRET,
	OPT_SECRET_FILE, OPT_TIMEOUT, OPT_MAX_STREAMS, OPT_MAX_DURATION,
	OPT_MAX_TESTS, OPT_MAX_LEN, OPT_MAX_WINDOW, OPT_MAX_JSON, OPT_IDLE,
	OPT_TESTS, OPT_MAX_PEER_TESTS, OPT_MAX_TEST_MEM, OPT_HANDSHAKE, OPT_FORCE,
	OPT_MAX_PENDING, OPT_MAX_PEER_PENDING,
};

static void help_client(FILE *f)
{
	fprintf(f,
		"usage: iochar net client HOST [OPTIONS]\n\n"
		"Measures TCP throughput to HOST, which runs `iochar net server`\n"
		"or a stock `iperf3 -s`.\n\n"
		"  -p, --port N          server port (5201)\n"
		"  -P, --parallel N      parallel streams (1; 1 to 128)\n"
		"  -t, --time S          seconds to send (10)\n"
		"  -R, --reverse         the server sends\n"
		"      --bidir           both send, N streams each way\n"
		"  -l, --len SIZE        bytes per write (128K)\n"
		"  -w, --window SIZE     socket buffer size (kernel autotuning)\n"
		"  -C, --congestion ALG  TCP congestion control (e.g. cubic, bbr)\n"
		"  -M, --set-mss N       TCP maximum segment size\n"
		"  -N, --no-delay        TCP_NODELAY\n"
		"  -Z, --zerocopy        send with MSG_ZEROCOPY\n"
		"  -i, --interval S      interval reports every S seconds (0 = none)\n"
		"      --threads N       stream threads (one per CPU, at most one\n"
		"                        per stream)\n"
		"  -J, --json            JSON output (same as --output-format=json)\n"
		"      --output-format F text, json or csv (columns: docs/net.md)\n"
		"      --out DIR         write DIR/results.json too (never over a file\n"
		"                        iochar did not write, unless --force)\n"
		"      --secret S        shared secret for an iochar server\n"
		"      --secret-file F   read the secret from file F (first line)\n"
		"      --timeout MS      bound on each control step (10000)\n");
}

static void help_server(FILE *f)
{
	fprintf(f,
		"usage: iochar net server [OPTIONS]\n\n"
		"Serves iperf3-compatible TCP tests (from `iochar net client` or a\n"
		"stock `iperf3 -c`), several at once, each isolated.\n\n"
		"  -B, --bind ADDR       IPv4 or IPv6 address to listen on (127.0.0.1)\n"
		"  -p, --port N          port (5201; 0 = any free port)\n"
		"  -1, --one-off         exit after one test\n"
		"      --tests N         exit after N tests\n"
		"      --max-streams N   streams per test, both ways (128)\n"
		"      --max-duration S  seconds per test (3600)\n"
		"      --max-tests N     tests at once (4)\n"
		"      --max-peer-tests N  of them from one client address (2)\n"
		"      --max-len SIZE    bytes per write a client may ask (8M)\n"
		"      --max-window SIZE socket buffer a client may ask (64M)\n"
		"      --max-json SIZE   bytes in one JSON message (256K)\n"
		"      --max-test-memory SIZE  stream buffers per test (256M)\n"
		"      --idle-timeout MS longest wait for a client's next step (10000)\n"
		"      --handshake-timeout MS  cookie and parameters within (3000)\n"
		"      --max-pending N   connections not yet admitted (512)\n"
		"      --max-peer-pending N  of them from one address (256)\n"
		"      --secret S        clients must present S (iochar clients only)\n"
		"      --secret-file F   read the secret from file F (first line)\n"
		"      --threads N       stream threads per test (auto)\n"
		"  -Z, --zerocopy        send with MSG_ZEROCOPY (reverse tests)\n"
		"  -J, --json            print each finished test as one JSON line\n"
		"      --output-format F text (log only), json (as -J) or csv: a\n"
		"                        header, then each finished test's rows\n");
}

static int read_secret_file(const char *path, char *out, size_t len,
			    struct ioc_err *err)
{
	FILE *f = fopen(path, "re");

	if (!f)
		return err_usage(err, errno, "--secret-file %s: %s", path,
				 strerror(errno));
	if (!fgets(out, (int)len, f)) {
		fclose(f);
		return err_usage(err, EINVAL, "--secret-file %s: empty", path);
	}
	fclose(f);
	out[strcspn(out, "\r\n")] = '\0';
	if (!out[0])
		return err_usage(err, EINVAL, "--secret-file %s: empty", path);
	return 0;
}

static int set_secret(const char *s, char *out, size_t len,
		      struct ioc_err *err)
{
	if (!s[0] || strlen(s) >= len)
		return err_usage(err, EINVAL, "--secret: 1 to %zu characters",
				 len - 1);
	memcpy(out, s, strlen(s) + 1);
	return 0;
}

static int parse_u64_size(const char *opt, const char *s, uint64_t min,
			  uint64_t max, uint64_t *out, struct ioc_err *err)
{
	uint64_t v;
	int rc = units_parse_size(opt, s, &v, err);

	if (rc)
		return rc;
	if (v < min || v > max)
		return err_usage(err, ERANGE, "%s=%s: must be %llu to %llu",
				 opt, s, (unsigned long long)min,
				 (unsigned long long)max);
	*out = v;
	return 0;
}

static int parse_u32_size(const char *opt, const char *s, uint64_t min,
			  uint64_t max, uint32_t *out, struct ioc_err *err)
{
	uint64_t v = 0;
	int rc = parse_u64_size(opt, s, min, max, &v, err);

	if (!rc)
		*out = (uint32_t)v;
	return rc;
}

static int parse_uint(const char *opt, const char *s, uint64_t min,
		      uint64_t max, unsigned *out, struct ioc_err *err)
{
	uint64_t v;
	int rc = units_parse_uint(opt, s, min, max, &v, err);

	if (!rc)
		*out = (unsigned)v;
	return rc;
}

enum net_format { NET_FMT_TEXT, NET_FMT_JSON, NET_FMT_CSV };

/* --output-format's argument into *fmt. */
static int parse_format(const char *arg, enum net_format *fmt,
			struct ioc_err *err)
{
	if (!strcmp(arg, "json"))
		*fmt = NET_FMT_JSON;
	else if (!strcmp(arg, "csv"))
		*fmt = NET_FMT_CSV;
	else if (!strcmp(arg, "text"))
		*fmt = NET_FMT_TEXT;
	else
		return err_usage(err, EINVAL, "--output-format=%s: text, json or csv",
				 arg);
	return 0;
}

struct client_cli {
	struct net_client_opts o;
	enum net_format fmt;
	const char *out_dir;
	bool force; /* --force: --out's results.json over any file */
};

static void print_interval(void *arg, const struct net_result *r, unsigned i)
{
	(void)arg;
	net_interval_text(stdout, r, i);
	fflush(stdout);
}

static int parse_client(int argc, char **argv, struct client_cli *c,
			struct ioc_err *err)
{
	static const struct option lo[] = {
		{"port", 1, 0, 'p'},       {"parallel", 1, 0, 'P'},
		{"time", 1, 0, 't'},       {"reverse", 0, 0, 'R'},
		{"bidir", 0, 0, OPT_BIDIR}, {"len", 1, 0, 'l'},
		{"window", 1, 0, 'w'},     {"congestion", 1, 0, 'C'},
		{"set-mss", 1, 0, 'M'},    {"no-delay", 0, 0, 'N'},
		{"zerocopy", 0, 0, 'Z'},   {"interval", 1, 0, 'i'},
		{"threads", 1, 0, OPT_THREADS}, {"json", 0, 0, 'J'},
		{"output-format", 1, 0, OPT_FORMAT}, {"out", 1, 0, OPT_OUT},
		{"force", 0, 0, OPT_FORCE},
		{"secret", 1, 0, OPT_SECRET},
		{"secret-file", 1, 0, OPT_SECRET_FILE},
		{"timeout", 1, 0, OPT_TIMEOUT}, {"help", 0, 0, 'h'},
		{0, 0, 0, 0},
	};
	struct net_params *p = &c->o.params;
	unsigned port = NET_DEFAULT_PORT, tmo = 10000;
	int ch, rc = 0;

	net_params_default(p);
	optind = 1;
	opterr = 0;
	while (!rc && (ch = getopt_long(argc, argv, "p:P:t:Rl:w:C:M:NZi:Jh",
					 lo, NULL)) != -1) {
		switch (ch) {
		case 'p': rc = parse_uint("--port", optarg, 1, 65535, &port, err); break;
		case 'P': rc = parse_uint("-P", optarg, 1, 128, &p->parallel, err); break;
		case 't': rc = parse_uint("-t", optarg, 1, 86400, &p->duration, err); break;
		case 'R': p->reverse = true; break;
		case OPT_BIDIR: p->bidir = true; break;
		case 'l': rc = parse_u32_size("-l", optarg, 1, 1u << 30, &p->len, err); break;
		case 'w': rc = parse_u32_size("-w", optarg, 1, 1u << 30, &p->window, err); break;
		case 'C':
			if (!optarg[0] || strlen(optarg) >= sizeof(p->congestion))
				rc = err_usage(err, EINVAL, "-C %s: bad name", optarg);
			else
				memcpy(p->congestion, optarg, strlen(optarg) + 1);
			break;
		case 'M': rc = parse_uint("-M", optarg, 88, 65535, &p->mss, err); break;
		case 'N': p->nodelay = true; break;
		case 'Z': c->o.zerocopy = true; break;
		case 'i': {
			char *end;
			errno = 0;
			c->o.interval_s = strtod(optarg, &end);
			if (errno || end == optarg || *end ||
			    !(c->o.interval_s >= 0 && c->o.interval_s <= 3600) ||
			    (c->o.interval_s > 0 && c->o.interval_s < 0.1))
				rc = err_usage(err, EINVAL,
					       "-i %s: 0, or 0.1 to 3600 seconds", optarg);
			break;
		}
		case OPT_THREADS: rc = parse_uint("--threads", optarg, 1, 1024, &c->o.threads, err); break;
		case 'J': c->fmt = NET_FMT_JSON; break;
		case OPT_FORMAT: rc = parse_format(optarg, &c->fmt, err); break;
		case OPT_OUT: c->out_dir = optarg; break;
		case OPT_FORCE: c->force = true; break;
		case OPT_SECRET: rc = set_secret(optarg, p->secret, sizeof(p->secret), err); break;
		case OPT_SECRET_FILE: rc = read_secret_file(optarg, p->secret, sizeof(p->secret), err); break;
		case OPT_TIMEOUT: rc = parse_uint("--timeout", optarg, 100, 600000, &tmo, err); break;
		case 'h': return 1;
		default:
			rc = err_usage(err, EINVAL, "net client: unknown option '%s'",
				       argv[optind - 1]);
		}
	}
	if (rc)
		return rc;
	if (optind != argc - 1)
		return err_usage(err, EINVAL, "net client: give one server (HOST)");
	c->o.host = argv[optind];
	c->o.port = (uint16_t)port;
	c->o.timeout_ms = (int)tmo;
	return net_client_check(&c->o, err);
}

static int cmd_net_client(int argc, char **argv)
{
	struct client_cli c = {0};
	struct ioc_err err = {0};
	struct environment env = {0};
	struct net_result r;
	int rc = parse_client(argc, argv, &c, &err);

	if (rc == 1) {
		help_client(stdout);
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
	if (c.fmt == NET_FMT_JSON) {
		struct jw w;
		jw_init(&w, stdout, 2);
		net_result_json(&w, &r, &env);
		rc = jw_finish(&w);
	} else if (c.fmt == NET_FMT_CSV) {
		net_result_csv_header(stdout);
		net_result_csv_rows(stdout, &r);
		rc = fflush(stdout) || ferror(stdout) ? -EIO : 0;
	} else {
		net_result_text(stdout, &r);
	}
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

static int parse_server(int argc, char **argv, struct net_server_opts *o,
			char *secret, size_t slen, struct ioc_err *err)
{
	static const struct option lo[] = {
		{"bind", 1, 0, 'B'},      {"port", 1, 0, 'p'},
		{"one-off", 0, 0, '1'},   {"tests", 1, 0, OPT_TESTS},
		{"max-streams", 1, 0, OPT_MAX_STREAMS},
		{"max-duration", 1, 0, OPT_MAX_DURATION},
		{"max-tests", 1, 0, OPT_MAX_TESTS},
		{"max-len", 1, 0, OPT_MAX_LEN},
		{"max-window", 1, 0, OPT_MAX_WINDOW},
		{"max-json", 1, 0, OPT_MAX_JSON},
		{"idle-timeout", 1, 0, OPT_IDLE},
		{"max-peer-tests", 1, 0, OPT_MAX_PEER_TESTS},
		{"max-test-memory", 1, 0, OPT_MAX_TEST_MEM},
		{"handshake-timeout", 1, 0, OPT_HANDSHAKE},
		{"max-pending", 1, 0, OPT_MAX_PENDING},
		{"max-peer-pending", 1, 0, OPT_MAX_PEER_PENDING},
		{"secret", 1, 0, OPT_SECRET},
		{"secret-file", 1, 0, OPT_SECRET_FILE},
		{"threads", 1, 0, OPT_THREADS}, {"zerocopy", 0, 0, 'Z'},
		{"json", 0, 0, 'J'},      {"help", 0, 0, 'h'},
		{"output-format", 1, 0, OPT_FORMAT},
		{0, 0, 0, 0},
	};
	struct net_caps *c = &o->caps;
	enum net_format fmt = NET_FMT_TEXT;
	unsigned port = NET_DEFAULT_PORT;
	int ch, rc = 0;

	net_caps_default(c);
	optind = 1;
	opterr = 0;
	while (!rc && (ch = getopt_long(argc, argv, "B:p:1ZJh", lo, NULL)) != -1) {
		switch (ch) {
		case 'B': o->bind = optarg; break;
		case 'p': rc = parse_uint("--port", optarg, 0, 65535, &port, err); break;
		case '1': o->max_total = 1; break;
		case OPT_TESTS: rc = parse_uint("--tests", optarg, 1, 1u << 30, &o->max_total, err); break;
		case OPT_MAX_STREAMS: rc = parse_uint("--max-streams", optarg, 1, 4096, &c->max_streams, err); break;
		case OPT_MAX_DURATION: rc = parse_uint("--max-duration", optarg, 1, 86400 * 7, &c->max_duration, err); break;
		case OPT_MAX_TESTS: rc = parse_uint("--max-tests", optarg, 1, 1024, &c->max_tests, err); break;
		case OPT_MAX_LEN: rc = parse_u32_size("--max-len", optarg, 1, 1u << 30, &c->max_len, err); break;
		case OPT_MAX_WINDOW: rc = parse_u32_size("--max-window", optarg, 1, 1u << 30, &c->max_window, err); break;
		case OPT_MAX_JSON: rc = parse_u32_size("--max-json", optarg, 64, 64u << 20, &c->max_json, err); break;
		case OPT_IDLE: rc = parse_uint("--idle-timeout", optarg, 10, 3600000, &c->idle_ms, err); break;
		case OPT_MAX_PEER_TESTS: rc = parse_uint("--max-peer-tests", optarg, 1, 1024, &c->max_peer_tests, err); break;
		case OPT_MAX_TEST_MEM: rc = parse_u64_size("--max-test-memory", optarg, 1u << 20, 1ull << 40, &c->max_test_mem, err); break;
		case OPT_HANDSHAKE: rc = parse_uint("--handshake-timeout", optarg, 10, 600000, &c->handshake_ms, err); break;
		case OPT_MAX_PENDING: rc = parse_uint("--max-pending", optarg, 1, 65536, &c->max_pending, err); break;
		case OPT_MAX_PEER_PENDING: rc = parse_uint("--max-peer-pending", optarg, 1, 65536, &c->max_peer_pending, err); break;
		case OPT_SECRET: rc = set_secret(optarg, secret, slen, err); break;
		case OPT_SECRET_FILE: rc = read_secret_file(optarg, secret, slen, err); break;
		case OPT_THREADS: rc = parse_uint("--threads", optarg, 1, 1024, &o->threads, err); break;
		case 'Z': o->zerocopy = true; break;
		case 'J': fmt = NET_FMT_JSON; break;
		case OPT_FORMAT: rc = parse_format(optarg, &fmt, err); break;
		case 'h': return 1;
		default:
			rc = err_usage(err, EINVAL, "net server: unknown option '%s'",
				       argv[optind - 1]);
		}
	}
	if (rc)
		return rc;
	if (optind != argc)
		return err_usage(err, EINVAL, "net server: unexpected '%s'",
				 argv[optind]);
	o->json = fmt == NET_FMT_JSON ? stdout : NULL;
	o->csv = fmt == NET_FMT_CSV ? stdout : NULL;
	o->port = (uint16_t)port;
	if (secret[0])
		o->secret = secret;
	return 0;
}

static int cmd_net_server(int argc, char **argv)
{
	struct net_server_opts o = {0};
	struct ioc_err err = {0};
	char secret[NET_SECRET_MAX] = "";
	int rc = parse_server(argc, argv, &o, secret, sizeof(secret), &err);

	if (rc == 1) {
		help_server(stdout);
		return 0;
	}
	if (rc) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		return EXIT_USAGE;
	}
	o.stop = signals_catch();
	if (o.csv) {
		net_result_csv_header(o.csv);
		fflush(o.csv);
	}
	rc = net_server_run(&o, &err);
	if (rc) {
		fprintf(stderr, "iochar: net server: %s\n", err.msg);
		return err.usage ? EXIT_USAGE : 1;
	}
	return atomic_load(o.stop) ? EXIT_SIGNAL : 0;
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
