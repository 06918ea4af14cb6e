/* test_fio_net.c - the net engine against fio 3.33 on loopback: pairs of
 * jobs, one end fio and the other iochar, and the same pair through fio
 * alone, on 127.0.0.1 and ::1 (tcp, udp, tcpv6, udpv6, unix):
 *   - iochar sending to fio and fio sending to iochar, each with a
 *     fio-to-fio pair beside it: both exit 0 with nothing on stderr; the
 *     senders' write io_bytes and total_ios are size= and the same as
 *     fio's sender's; an iochar receiver books exactly what was sent; a
 *     fio receiver books what fio books (each short receive an I/O of its
 *     own, only the last piece's bytes counted: at most its short_ios
 *     blocks less);
 *   - pingpong: every block comes back; both ends book size= bytes;
 *   - a receiver asked for more than is sent ends at the sender's close
 *     (tcp's end of stream, fio's udp close message) without an error;
 *   - udp blocks of 1 KiB, 32 of them, all fit the receiver's socket
 *     buffer, so none is lost on a loaded machine;
 *   - fio's udp wire written by hand (blocks numbered 0, 1, 5, 6, 9):
 *     fio's receiver and iochar's book 5 blocks and 5 lost (drop_ios);
 *   - refused inputs (port=0, port=70000, no port, no hostname for a
 *     sender, listen with udp, a random rw, a mixed udp job, unix with a
 *     port, hostname= on a listener, a name that does not resolve): fio
 *     refuses each (exit 1), iochar with one line naming the option, exit
 *     2, and connects to nothing; verify, which fio runs over a stream,
 *     iochar refuses so too (docs/fio-compat.md);
 *   - the normal output's rates are in bits, fio's and iochar's (fio's
 *     net engine is bit-based), amounts in bytes;
 *   - fio's examples/netio.fio (a receiver and a sender in one run) runs
 *     with runtime=1: both jobs move data, the receiver no more than the
 *     sender sent.
 * Ports come from the test's pid; each run is bounded by `timeout 30`, a
 * receiver is waited for by its port in /proc/net (a unix socket's
 * path), and only the processes the test starts are waited for. SKIP
 * without fio. */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fio_side.h"
#include "harness.h"

static unsigned next_port(void)
{
	static unsigned n;

	return 20000 + (unsigned)(getpid() * 7) % 20000 + 2 * n++;
}

/* One end of a pair: its tool, its JSON, its exit status, its stderr. */
struct end {
	const char *tool; /* "fio" or "iochar" */
	json_object *doc;
	int rc;
	char *err;
};

struct pair {
	const char *proto, *host; /* host: the sender's hostname= */
	const char *recv_opts, *send_opts;
	struct end r, s;
};

static void tool_cmd(char *buf, size_t len, const char *tool)
{
	if (strcmp(tool, "fio") == 0) {
		snprintf(buf, len, "fio");
		return;
	}
	char *bin = realpath(iochar_path(), NULL);
	assert_non_null(bin);
	snprintf(buf, len, "%s run", bin);
	free(bin);
}

/* The shell lines that wait until the receiver is bound (tcp: listening,
 * not only bound: fio binds, then listens). */
static void wait_cmd(char *buf, size_t len, const struct pair *p,
		     unsigned port)
{
	if (strcmp(p->proto, "unix") == 0)
		snprintf(buf, len,
			 "for i in $(seq 200); do [ -S '%s' ] && break; "
			 "sleep 0.05; done", p->host);
	else
		snprintf(buf, len,
			 "for i in $(seq 200); do awk '$4 == \"0A\" || "
			 "FILENAME ~ /udp/ {print $2}' "
			 "/proc/net/tcp /proc/net/tcp6 /proc/net/udp "
			 "/proc/net/udp6 | grep -q ':%04X$' && break; "
			 "sleep 0.05; done", port);
}

/* A JSON document after whatever fio writes before it ("fio: waiting
 * for connection"). */
static json_object *load_doc(const char *path)
{
	char *text = file_slurp(path, NULL);

	if (!text)
		return NULL;
	char *open = strchr(text, '{');
	json_object *o = open ? json_tokener_parse(open) : NULL;
	free(text);
	return o;
}

static void end_read(struct end *e, const char *dir, const char *name)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s.rc", dir, name);
	FILE *f = fopen(path, "re");
	e->rc = -1;
	if (f) {
		if (fscanf(f, "%d", &e->rc) != 1)
			e->rc = -1;
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/%s.json", dir, name);
	e->doc = load_doc(path);
	snprintf(path, sizeof(path), "%s/%s.err", dir, name);
	e->err = file_slurp(path, NULL);
	assert_non_null(e->err);
}

/* Run p: its receiver in the background, then its sender once the
 * receiver is bound, both in dir. A unix pair's host is its socket's
 * path (filename= of both ends); an inet pair's is the sender's
 * hostname=. */
static void pair_run(const char *dir, struct pair *p)
{
	char rt[4200], st[4200], wait[4400], cmd[32768];
	char where[4200], host[4200] = "";
	unsigned port = next_port();

	tool_cmd(rt, sizeof(rt), p->r.tool);
	tool_cmd(st, sizeof(st), p->s.tool);
	wait_cmd(wait, sizeof(wait), p, port);
	if (strcmp(p->proto, "unix") == 0) {
		unlink(p->host);
		snprintf(where, sizeof(where), "--filename=%s", p->host);
	} else {
		snprintf(where, sizeof(where), "--port=%u", port);
		snprintf(host, sizeof(host), "--hostname=%s", p->host);
	}
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && (timeout 30 %s --name=r --ioengine=net "
		 "--output-format=json --protocol=%s %s --rw=read %s "
		 "> r.json 2> r.err; echo $? > r.rc) & %s; "
		 "cd '%s' && timeout 30 %s --name=s --ioengine=net "
		 "--output-format=json --protocol=%s %s %s --rw=write %s "
		 "> s.json 2> s.err; echo $? > s.rc; wait",
		 dir, rt, p->proto, where, p->recv_opts, wait, dir, st,
		 p->proto, where, host, p->send_opts);
	assert_int_not_equal(system(cmd), -1);
	end_read(&p->r, dir, "r");
	end_read(&p->s, dir, "s");
}

static void pair_free(struct pair *p)
{
	json_object_put(p->r.doc);
	json_object_put(p->s.doc);
	free(p->r.err);
	free(p->s.err);
}

static uint64_t job_u64(const struct end *e, const char *path)
{
	assert_non_null(e->doc);
	json_object *j = json_object_array_get_idx(jget(e->doc, "jobs"), 0);
	return jget_u64(j, path);
}

static bool clean(const struct pair *p)
{
	return p->r.rc == 0 && p->s.rc == 0 && !p->r.err[0] && !p->s.err[0];
}

static void expect_clean(const struct pair *p, const char *what)
{
	if (p->r.rc != 0 || p->s.rc != 0 || p->r.err[0] || p->s.err[0])
		fail_msg("%s: receiver (%s) exit %d, stderr '%s'; sender (%s) "
			 "exit %d, stderr '%s'", what, p->r.tool, p->r.rc,
			 p->r.err, p->s.tool, p->s.rc, p->s.err);
	assert_int_equal(job_u64(&p->r, "error"), 0);
	assert_int_equal(job_u64(&p->s, "error"), 0);
}

/* What a receiver booked of sent bytes, by its tool's rules. */
static void expect_received(const struct end *r, uint64_t sent, uint64_t bs,
			    const char *what)
{
	uint64_t got = job_u64(r, "read.io_bytes");

	if (strcmp(r->tool, "iochar") == 0) {
		if (got != sent)
			fail_msg("%s: iochar received %llu of %llu", what,
				 (unsigned long long)got,
				 (unsigned long long)sent);
		assert_int_equal(job_u64(r, "read.total_ios"), sent / bs);
		return;
	}
	/* fio books a short receive as an I/O and only the last piece of
	 * a block: less by under a block per short I/O */
	uint64_t shorts = job_u64(r, "read.short_ios");
	if (got > sent || sent - got >= (shorts + 1) * bs ||
	    (shorts == 0 && got != sent))
		fail_msg("%s: fio received %llu of %llu with %llu short", what,
			 (unsigned long long)got, (unsigned long long)sent,
			 (unsigned long long)shorts);
}

/* One pair of each kind (fio to iochar, iochar to fio) and fio's own
 * pair, the same job: senders move size=, receivers what was sent. */
static void both_ways(const char *proto, const char *host, const char *ropts,
		      const char *sopts, uint64_t size, uint64_t bs)
{
	static const char *const tools[3][2] = {
		{ "fio", "fio" }, { "iochar", "fio" }, { "fio", "iochar" } };
	char *dir = tmpdir_make();
	uint64_t fio_ios = 0;

	for (unsigned k = 0; k < 3; k++) {
		struct pair p = { .proto = proto, .host = host,
				  .recv_opts = ropts, .send_opts = sopts,
				  .r.tool = tools[k][0], .s.tool = tools[k][1] };
		char what[512];
		snprintf(what, sizeof(what), "%s %s -> %s (%s | %s)", proto,
			 p.s.tool, p.r.tool, ropts, sopts);
		pair_run(dir, &p);
		/* fio's own pair is the reference: fio's sender sometimes ends
		 * with exit 1 (a reset as the receiver closes) or a crash in
		 * its own free() under load; it gets up to 3 tries, and says
		 * which one held */
		for (unsigned t = 2; k == 0 && t <= 3 && !clean(&p); t++) {
			print_message("%s: fio's own pair failed (sender exit %d, receiver exit %d); "
				      "try %u\n", what, p.s.rc, p.r.rc, t);
			pair_free(&p);
			p = (struct pair){ .proto = proto, .host = host, .recv_opts = ropts,
					   .send_opts = sopts, .r.tool = "fio", .s.tool = "fio" };
			pair_run(dir, &p);
		}
		expect_clean(&p, what);
		uint64_t sent = job_u64(&p.s, "write.io_bytes");
		assert_int_equal(sent, size);
		if (k == 0)
			fio_ios = job_u64(&p.s, "write.total_ios");
		assert_int_equal(job_u64(&p.s, "write.total_ios"), fio_ios);
		expect_received(&p.r, sent, bs, what);
		pair_free(&p);
	}
	tmpdir_remove(dir);
}

static void test_tcp(void **state)
{
	(void)state;
	side_need_fio();
	both_ways("tcp", "127.0.0.1", "--listen --bs=4k --size=1m",
		  "--bs=4k --size=1m", 1 << 20, 4096);
}

/* 32 datagrams of 1 KiB fit a receiver's default socket buffer: none is
 * lost however late the receiver runs. */
static void test_udp(void **state)
{
	(void)state;
	side_need_fio();
	both_ways("udp", "127.0.0.1", "--bs=1k --size=32k",
		  "--bs=1k --size=32k", 32 << 10, 1024);
}

static bool have_ipv6_loopback(void)
{
	char *s = file_slurp("/proc/net/if_inet6", NULL);
	bool yes = s && strstr(s, "00000000000000000000000000000001");

	free(s);
	return yes;
}

static void test_ipv6(void **state)
{
	(void)state;
	side_need_fio();
	if (!have_ipv6_loopback()) {
		print_message("SKIP: no ::1 on this machine\n");
		skip();
	}
	both_ways("tcpv6", "::1", "--listen --bs=4k --size=512k",
		  "--bs=4k --size=512k", 512 << 10, 4096);
	both_ways("udpv6", "::1", "--bs=1k --size=16k", "--bs=1k --size=16k",
		  16 << 10, 1024);
}

/* Each block sent comes back before the next: both ends move size=. */
static void test_pingpong(void **state)
{
	(void)state;
	side_need_fio();
	both_ways("tcp", "127.0.0.1", "--listen --pingpong --bs=4k --size=64k",
		  "--pingpong --bs=4k --size=64k", 64 << 10, 4096);
	both_ways("udp", "127.0.0.1", "--pingpong --bs=1k --size=16k",
		  "--pingpong --bs=1k --size=16k", 16 << 10, 1024);
}

/* A receiver asked for more than comes ends at the sender's close, as
 * fio's, without an error. */
static void test_end_of_stream(void **state)
{
	static const char *const protos[][3] = {
		{ "tcp", "--listen --bs=4k --size=100m", "--bs=4k --size=256k" },
		{ "udp", "--bs=1k --size=100m", "--bs=1k --size=16k" },
	};
	char *dir = tmpdir_make();

	(void)state;
	side_need_fio();
	for (unsigned k = 0; k < 2; k++) {
		struct pair p = { .proto = protos[k][0], .host = "127.0.0.1",
				  .recv_opts = protos[k][1],
				  .send_opts = protos[k][2], .r.tool = "iochar",
				  .s.tool = "fio" };
		pair_run(dir, &p);
		expect_clean(&p, protos[k][0]);
		uint64_t sent = job_u64(&p.s, "write.io_bytes");
		expect_received(&p.r, sent, k ? 1024 : 4096, protos[k][0]);
		pair_free(&p);
	}
	tmpdir_remove(dir);
}

/* unix: fio 3.33's ends report EISCONN (106) from their close message
 * on a connected socket, so only iochar's receiver is looked at with a
 * fio sender; iochar to iochar is clean. */
static void test_unix(void **state)
{
	char *dir = tmpdir_make();
	char sock[4200];
	const char *opts = "--bs=4k --size=256k";

	(void)state;
	side_need_fio();
	snprintf(sock, sizeof(sock), "%s/s.sock", dir);
	for (unsigned k = 0; k < 2; k++) {
		struct pair p = { .proto = "unix", .host = sock,
				  .recv_opts = opts, .send_opts = opts,
				  .r.tool = "iochar",
				  .s.tool = k ? "fio" : "iochar" };
		pair_run(dir, &p);
		if (k == 0)
			expect_clean(&p, "unix iochar -> iochar");
		else
			assert_int_equal(p.r.rc, 0);
		assert_int_equal(job_u64(&p.s, "write.io_bytes"), 256 << 10);
		expect_received(&p.r, 256 << 10, 4096, "unix");
		pair_free(&p);
	}
	tmpdir_remove(dir);
}

/* fio refuses each (exit 1, the job never runs); iochar with one line
 * naming the culprit, exit 2. */
static void test_refused(void **state)
{
	static const char *const bad[][2] = {
		{ "--port=0 --hostname=127.0.0.1 --rw=write", "port=0" },
		{ "--port=70000 --hostname=127.0.0.1 --rw=write", "port=70000" },
		{ "--hostname=127.0.0.1 --rw=write", "port=" },
		{ "--port=9 --rw=write", "no hostname=" },
		{ "--port=9 --rw=read", "did you forget to set 'listen'" },
		{ "--port=9 --protocol=udp --listen --rw=read", "listen" },
		{ "--port=9 --listen --rw=randread", "rw=randread" },
		{ "--port=9 --protocol=udp --hostname=127.0.0.1 --rw=rw", "rw=rw" },
		{ "--port=9 --protocol=unix --filename=/tmp/x.sock --rw=write",
		  "port=9" },
		{ "--protocol=unix --rw=write", "filename=" },
		{ "--port=9 --listen --hostname=127.0.0.1 --rw=read",
		  "hostname=127.0.0.1" },
		{ "--port=9 --hostname=no.such.host.invalid --rw=write",
		  "no.such.host.invalid" },
		{ "--port=9 --protocol=bogus --hostname=127.0.0.1 --rw=write",
		  "protocol=bogus" },
	};
	char *dir = tmpdir_make();

	(void)state;
	side_need_fio();
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		char opts[512];
		snprintf(opts, sizeof(opts),
			 "--name=x --ioengine=net --size=1m %s", bad[k][0]);
		int rf = side_run("fio", dir, "fio", opts);
		if (rf != 1)
			fail_msg("%s: fio exit %d, not 1", bad[k][0], rf);
		char *args[32];
		char copy[600];
		unsigned n = 0;
		snprintf(copy, sizeof(copy), "run %s", opts);
		for (char *t = strtok(copy, " "); t && n < 31; t = strtok(NULL, " "))
			args[n++] = t;
		args[n] = NULL;
		expect_usage_line((const char *const *)args, bad[k][1]);
	}
	/* fio runs verify over a stream; iochar refuses it, saying why */
	const char *verify[] = { "run", "--name=x", "--ioengine=net",
				 "--port=9", "--hostname=127.0.0.1",
				 "--rw=write", "--size=1m", "--verify=md5",
				 NULL };
	expect_usage_line(verify, "verify with ioengine=net");
	tmpdir_remove(dir);
}

/* fio's udp wire, written by hand: the open message, five blocks of
 * 1 KiB whose trailers number them 0, 1, 5, 6, 9, the close message. */
static const char crafted[] =
	"python3 -c \"import socket, struct\n"
	"s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\n"
	"a = ('127.0.0.1', %u)\n"
	"s.sendto(struct.pack('>II', 0x6c696e6b, 0x98), a)\n"
	"for q in (0, 1, 5, 6, 9):\n"
	"    s.sendto(bytes(1000) + struct.pack('<QQQ', 0x657375716e556563, q, 1024), a)\n"
	"s.sendto(struct.pack('<II', 0x6c696e6b, 0x89), a)\"";

/* A udp receiver counts the blocks the senders' numbers say were lost
 * (fio's drop_ios): fio's and iochar's the same, 5 of 10. */
static void test_udp_drops(void **state)
{
	static const char *const tools[] = { "fio", "iochar" };
	char *dir = tmpdir_make();

	(void)state;
	side_need_fio();
	for (unsigned k = 0; k < 2; k++) {
		char rt[4200], send[1024], wait[512], cmd[8192];
		struct pair p = { .proto = "udp", .host = "127.0.0.1",
				  .r.tool = tools[k] };
		unsigned port = next_port();
		tool_cmd(rt, sizeof(rt), tools[k]);
		wait_cmd(wait, sizeof(wait), &p, port);
		snprintf(send, sizeof(send), crafted, port);
		snprintf(cmd, sizeof(cmd),
			 "cd '%s' && (timeout 30 %s --name=r --ioengine=net "
			 "--protocol=udp --port=%u --rw=read --bs=1k "
			 "--size=1m --output-format=json > r.json 2> r.err; "
			 "echo $? > r.rc) & %s; %s; wait",
			 dir, rt, port, wait, send);
		assert_int_not_equal(system(cmd), -1);
		end_read(&p.r, dir, "r");
		if (p.r.rc != 0 || p.r.err[0])
			fail_msg("%s receiver: exit %d, stderr '%s'", tools[k],
				 p.r.rc, p.r.err);
		assert_int_equal(job_u64(&p.r, "read.total_ios"), 5);
		assert_int_equal(job_u64(&p.r, "read.io_bytes"), 5 << 10);
		assert_int_equal(job_u64(&p.r, "read.drop_ios"), 5);
		json_object_put(p.r.doc);
		free(p.r.err);
	}
	tmpdir_remove(dir);
}

/* The rate line of a text output: "BW=" to the end of its line. */
static char *rate_of(const char *dir, const char *name)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s.json", dir, name);
	char *text = file_slurp(path, NULL);
	assert_non_null(text);
	char *bw = strstr(text, "BW=");
	if (!bw)
		fail_msg("%s: no BW= line in:\n%s", path, text);
	char *line = strndup(bw, strcspn(bw, "\n"));
	free(text);
	return line;
}

/* fio's net engine is bit-based: the normal output's rates in bits,
 * "BW=8000Mibit/s (8389Mbit/s)", in fio's and in iochar's. */
static void test_bits_in_text(void **state)
{
	static const char *const tools[][2] = { { "iochar", "fio" },
						{ "fio", "iochar" } };
	char *dir = tmpdir_make();

	(void)state;
	side_need_fio();
	for (unsigned k = 0; k < 2; k++) {
		struct pair p = { .proto = "tcp", .host = "127.0.0.1",
				  .recv_opts = "--listen --size=1m "
					       "--output-format=normal",
				  .send_opts = "--size=1m --output-format=normal",
				  .r.tool = tools[k][0], .s.tool = tools[k][1] };
		pair_run(dir, &p);
		/* fio's end sometimes exits 1 at the close (as in fio's own
		 * pair, both_ways): up to 3 tries when it is fio's end that
		 * failed, none when it is iochar's */
		for (unsigned t = 2; t <= 3 && !clean(&p) &&
				     !strcmp(p.r.rc ? p.r.tool : p.s.tool, "fio"); t++) {
			print_message("fio's end failed (receiver %s exit %d, sender %s exit %d); "
				      "try %u\n", p.r.tool, p.r.rc, p.s.tool, p.s.rc, t);
			pair_free(&p);
			p = (struct pair){ .proto = "tcp", .host = "127.0.0.1",
					   .recv_opts = "--listen --size=1m --output-format=normal",
					   .send_opts = "--size=1m --output-format=normal",
					   .r.tool = tools[k][0], .s.tool = tools[k][1] };
			pair_run(dir, &p);
		}
		if (p.r.rc || p.s.rc)
			fail_msg("receiver (%s) exit %d, stderr '%s'; sender (%s) exit %d, "
				 "stderr '%s'", p.r.tool, p.r.rc, p.r.err, p.s.tool, p.s.rc,
				 p.s.err);
		for (unsigned e = 0; e < 2; e++) {
			char *line = rate_of(dir, e ? "s" : "r");
			const char *tool = e ? p.s.tool : p.r.tool;
			if (!strstr(line, "bit/s (") || strstr(line, "B/s"))
				fail_msg("%s: not in bits: %s", tool, line);
			free(line);
		}
		pair_free(&p);
	}
	tmpdir_remove(dir);
}

/* fio's examples/netio.fio: its receiver and sender in one run. */
static void test_netio_example(void **state)
{
	static const char job[] =
		"[global]\nioengine=net\nport=%u\nprotocol=tcp\nbs=4k\n"
		"size=100g\n\n[receiver]\nlisten\nrw=read\n\n[sender]\n"
		"hostname=localhost\nstartdelay=1\nrw=write\n";
	char *dir = tmpdir_make();
	char path[4200], text[512];

	(void)state;
	snprintf(path, sizeof(path), "%s/netio.fio", dir);
	FILE *f = fopen(path, "we");
	assert_non_null(f);
	snprintf(text, sizeof(text), job, next_port());
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	const char *args[] = { "run", path, "--runtime=1",
			       "--output-format=json", NULL };
	struct proc_out po;
	run_iochar(&po, dir, 0, args);
	expect_exit(&po, 0);
	assert_string_equal(po.err, "");
	json_object *doc = parse_json(&po);
	json_object *jobs = jget(doc, "jobs");
	assert_int_equal(json_object_array_length(jobs), 2);
	uint64_t got = jget_u64(json_object_array_get_idx(jobs, 0), "read.io_bytes");
	uint64_t sent = jget_u64(json_object_array_get_idx(jobs, 1), "write.io_bytes");
	assert_true(sent > 0 && got > 0 && got <= sent);
	json_object_put(doc);
	proc_out_free(&po);
	tmpdir_remove(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tcp),
		cmocka_unit_test(test_udp),
		cmocka_unit_test(test_udp_drops),
		cmocka_unit_test(test_ipv6),
		cmocka_unit_test(test_pingpong),
		cmocka_unit_test(test_end_of_stream),
		cmocka_unit_test(test_unix),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_bits_in_text),
		cmocka_unit_test(test_netio_example),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
