/* test_fio_verify.c - fio's verify methods against the real fio: for each
 * method, fio writes a small file and iochar checks it, iochar writes one
 * and fio checks it; then one byte of a block is flipped and both must
 * name the same failing offsets (none, for the methods that do not cover
 * the data: meta, null). One block's digest is held against OpenSSL's
 * command line, and fio's options iochar cannot honour are refused before
 * anything is written.
 *
 * Needs fio (Debian's, 3.33) and openssl; says SKIP without them. Files
 * live in a directory under /dev/shm made and removed here.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "verify/fio_sum.h"

#define BS    4096
#define NBLK  8
#define SIZE  (BS * NBLK)
#define FLIP_BLOCK 5

struct vcase {
	const char *method;
	const char *extra[3]; /* more --key=value for both tools */
	bool covers_data;     /* a flipped data byte must be found */
};

/* fio's sha512 compares only the first 128 and the last len % 128 data
 * bytes (fio_sum.h), so a flip in the middle passes in both tools. */
static const struct vcase cases[] = {
    {"md5", {NULL}, true},	     {"crc64", {NULL}, true},
    {"crc32c", {NULL}, true},	     {"crc32c-intel", {NULL}, true},
    {"crc32", {NULL}, true},	     {"crc16", {NULL}, true},
    {"crc7", {NULL}, true},	     {"xxhash", {NULL}, true},
    {"sha1", {NULL}, true},	     {"sha256", {NULL}, true},
    {"sha512", {NULL}, false},	     {"sha3-224", {NULL}, true},
    {"sha3-256", {NULL}, true},	     {"sha3-384", {NULL}, true},
    {"sha3-512", {NULL}, true},	     {"meta", {NULL}, false},
    {"null", {NULL}, false},
    {"pattern", {"verify_pattern=0xdeadbeef", NULL}, true},
    {"meta", {"verify_pattern=\"iochar\"%o0x0a", NULL}, true},
    {"crc32c", {"verify_interval=1024", "verify_offset=512", NULL}, true},
    {"md5", {"verify_interval=512", NULL}, true},
    /* fio makes an interval that does not divide bs the whole bs */
    {"crc16", {"verify_interval=1000", NULL}, true},
};

static char dir[64];

static bool have(const char *tool)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/dev/shm/iochar-fiov-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* Run argv (NULL-terminated), stdout and stderr into *out (owned).
 * Returns the exit status. */
static int run(const char *const *argv, char **out)
{
	char path[128];
	int st = -1;

	snprintf(path, sizeof(path), "%s/out.txt", dir);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0)
			_exit(126);
		dup2(fd, 1);
		dup2(fd, 2);
		/* fio leaves its verify state files in its directory */
		if (strcmp(argv[0], "fio") == 0 && chdir(dir) != 0)
			_exit(126);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	*out = calloc(1, 1 << 20);
	assert_non_null(*out);
	size_t n = fread(*out, 1, (1 << 20) - 1, f);
	(*out)[n] = 0;
	fclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* One job file for all cases, a section and a file each, read by both
 * tools: rw and the mode (do_verify=0 to write, verify_only=1 to check). */
static void job_file(const char *path, const char *rw, const char *mode)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f, "[global]\nbs=4k\nsize=32k\nioengine=psync\n%s\n", mode);
	for (size_t i = 0; i < NCASES; i++) {
		fprintf(f, "[c%zu]\nfilename=%s/c%zu.dat\nrw=%s\nverify=%s\n", i,
			dir, i, rw, cases[i].method);
		for (unsigned k = 0; k < 3 && cases[i].extra[k]; k++)
			fprintf(f, "%s\n", cases[i].extra[k]);
	}
	assert_int_equal(fclose(f), 0);
}

static int tool_run(bool fio, const char *jobs, char **out)
{
	const char *a[] = {fio ? "fio" : iochar_path(), fio ? jobs : "run",
			   fio ? NULL : jobs, NULL};
	return run(a, out);
}

static void tool_write(bool fio)
{
	char jobs[128], *out;

	for (size_t i = 0; i < NCASES; i++) {
		char f[128];
		snprintf(f, sizeof(f), "%s/c%zu.dat", dir, i);
		unlink(f);
	}
	snprintf(jobs, sizeof(jobs), "%s/write.fio", dir);
	job_file(jobs, "write", "do_verify=0");
	int rc = tool_run(fio, jobs, &out);
	if (rc)
		fail_msg("%s writing: rc=%d\n%s", fio ? "fio" : "iochar", rc, out);
	free(out);
}

/* A check of every case's file by one tool: the blocks it says failed
 * ("... at file F offset N, length", fio's form, iochar's too), a bit
 * per block and a word per case. fio checks as its users do, the write
 * jobs again with verify_only; iochar with read jobs. */
static int tool_check(bool fio, unsigned *bad, char **text)
{
	char jobs[128], *p;

	snprintf(jobs, sizeof(jobs), "%s/check-%d.fio", dir, fio);
	job_file(jobs, fio ? "write" : "read", "verify_only=1");
	int rc = tool_run(fio, jobs, text);
	memset(bad, 0, NCASES * sizeof(*bad));
	for (p = *text; (p = strstr(p, " at file ")); p++) {
		size_t c;
		unsigned long long off;
		char *o = strstr(p, " offset ");
		char *name = strstr(p, "/c");
		if (o && name && name < o && sscanf(name, "/c%zu.dat", &c) == 1 &&
		    c < NCASES && sscanf(o, " offset %llu, length", &off) == 1)
			bad[c] |= 1u << (off / BS);
	}
	return rc;
}

static void flip(const char *file, off_t at)
{
	int fd = open(file, O_RDWR);
	uint8_t b;

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &b, 1, at), 1);
	b ^= 0x5a;
	assert_int_equal(pwrite(fd, &b, 1, at), 1);
	close(fd);
}

/* Good as written, then one byte flipped at FLIP_BLOCK: both tools agree,
 * case by case. fio's exit status is not compared: with several
 * intervals a block's later good one hides an earlier failure from it. */
static void all_cases(bool fio_writes)
{
	char *tf, *ti;
	unsigned bf[NCASES], bi[NCASES];

	tool_write(fio_writes);
	int rf = tool_check(true, bf, &tf);
	int ri = tool_check(false, bi, &ti);
	bool clean = !rf && !ri;
	for (size_t i = 0; i < NCASES; i++)
		clean &= !bf[i] && !bi[i];
	if (!clean)
		fail_msg("good files: fio rc=%d iochar rc=%d\nfio:\n%s\niochar:\n%s",
			 rf, ri, tf, ti);
	/* every case but null counted its 8 blocks' intervals, none failed */
	assert_non_null(strstr(ti, " units checked, 0 failures"));
	free(tf);
	free(ti);

	for (size_t i = 0; i < NCASES; i++) {
		char f[128];
		snprintf(f, sizeof(f), "%s/c%zu.dat", dir, i);
		flip(f, FLIP_BLOCK * BS + 3000); /* in the data, past any header */
	}
	tool_check(true, bf, &tf);
	ri = tool_check(false, bi, &ti);
	bool agree = ri != 0;
	for (size_t i = 0; i < NCASES; i++) {
		unsigned want = cases[i].covers_data ? 1u << FLIP_BLOCK : 0;
		if (bf[i] != want || bi[i] != want) {
			print_message("verify=%s %s: fio blocks %#x, iochar %#x, "
				      "want %#x\n", cases[i].method,
				      cases[i].extra[0] ? cases[i].extra[0] : "",
				      bf[i], bi[i], want);
			agree = false;
		}
	}
	if (!agree)
		fail_msg("flipped byte (iochar rc=%d)\nfio:\n%s\niochar:\n%s", ri,
			 tf, ti);
	free(tf);
	free(ti);
}

static void skip_without_tools(void)
{
	if (!have("fio")) {
		printf("SKIP: fio is not installed (apt-get install fio)\n");
		skip();
	}
	if (!have("openssl")) {
		printf("SKIP: openssl is not installed (apt-get install openssl)\n");
		skip();
	}
}

static void test_fio_writes_iochar_checks(void **state)
{
	(void)state;
	skip_without_tools();
	all_cases(true);
}

static void test_iochar_writes_fio_checks(void **state)
{
	(void)state;
	skip_without_tools();
	all_cases(false);
}

/* One block iochar writes with verify=method, bs=4k, into blk. */
static void iochar_block(const char *method, uint8_t *blk)
{
	char fn[160], vm[64], file[128], *out;

	snprintf(file, sizeof(file), "%s/dgst.dat", dir);
	snprintf(fn, sizeof(fn), "--filename=%s", file);
	snprintf(vm, sizeof(vm), "--verify=%s", method);
	unlink(file);
	const char *a[] = {iochar_path(), "run", fn, "--rw=write", "--bs=4k",
			   "--size=4k", "--ioengine=psync", vm, "--do_verify=0",
			   NULL};
	if (run(a, &out))
		fail_msg("%s", out);
	free(out);
	int fd = open(file, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, blk, BS, 0), BS);
	close(fd);
}

/* The digest iochar stored in a block (after fio's 40-byte header) is
 * what `openssl dgst` computes over the rest of the block; fio's sha1
 * keeps its five words in host order. */
static void test_digest_is_openssl(void **state)
{
	static const struct {
		const char *method, *dgst;
		unsigned len;
		bool words;
	} d[] = {
	    {"md5", "-md5", 16, false},	       {"sha1", "-sha1", 20, true},
	    {"sha3-224", "-sha3-224", 28, false}, {"sha3-256", "-sha3-256", 32, false},
	    {"sha3-384", "-sha3-384", 48, false}, {"sha3-512", "-sha3-512", 64, false},
	};
	(void)state;
	skip_without_tools();
	for (size_t i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		char data[160], *out;
		uint8_t blk[BS];
		snprintf(data, sizeof(data), "%s/data.bin", dir);
		iochar_block(d[i].method, blk);
		unsigned hs = 40 + d[i].len;
		FILE *f = fopen(data, "w");
		assert_non_null(f);
		assert_int_equal(fwrite(blk + hs, 1, BS - hs, f), BS - hs);
		fclose(f);
		const char *a[] = {"openssl", "dgst", d[i].dgst, "-r", data, NULL};
		assert_int_equal(run(a, &out), 0);
		char want[2 * 64 + 1] = {0};
		for (unsigned k = 0; k < d[i].len; k++) {
			unsigned src = d[i].words ? (k & ~3u) + 3 - (k & 3) : k;
			sprintf(want + 2 * k, "%02x", blk[40 + src]);
		}
		if (strncmp(out, want, 2 * d[i].len) != 0)
			fail_msg("%s: openssl says %.*s, the block holds %s",
				 d[i].method, 2 * d[i].len, out, want);
		free(out);
	}
}

/* fio's verify phase: a write job with verify=M (do_verify=1, fio's
 * default) reads back every block it wrote. The same job through both
 * tools moves the same bytes each way; iochar checked every block. */
static void test_readback_as_fio(void **state)
{
	static const char *const rws[] = {"--rw=write", "--rw=randwrite"};
	(void)state;
	skip_without_tools();
	for (unsigned r = 0; r < 2; r++) {
		json_object *j[2];
		for (int fio = 0; fio < 2; fio++) {
			char fn[160], outp[160], res[128], *out;
			snprintf(fn, sizeof(fn), "--filename=%s/rb%d.dat", dir, fio);
			snprintf(res, sizeof(res), "%s/rb%d.json", dir, fio);
			snprintf(outp, sizeof(outp), "--output=%s", res);
			unlink(fn + strlen("--filename="));
			unlink(res);
			const char *a[] = {fio ? "fio" : iochar_path(), fio ? "--name=rb" : "run",
					   fn, rws[r], "--bs=4k", "--size=64k",
					   "--ioengine=psync", "--verify=md5",
					   "--output-format=json", outp, NULL};
			if (run(a, &out))
				fail_msg("%s: %s", a[0], out);
			free(out);
			j[fio] = json_object_from_file(res);
			assert_non_null(j[fio]);
		}
		static const char *const keys[] = {"read.io_bytes", "read.total_ios",
						   "write.io_bytes", "write.total_ios"};
		json_object *ji = json_object_array_get_idx(jget(j[0], "jobs"), 0);
		json_object *jf = json_object_array_get_idx(jget(j[1], "jobs"), 0);
		for (unsigned k = 0; k < 4; k++)
			if (jget_u64(ji, keys[k]) != jget_u64(jf, keys[k]))
				fail_msg("%s: %s: iochar %llu, fio %llu", rws[r], keys[k],
					 (unsigned long long)jget_u64(ji, keys[k]),
					 (unsigned long long)jget_u64(jf, keys[k]));
		assert_int_equal(jget_u64(jf, "error"), 0);
		assert_int_equal(jget_u64(ji, "read.io_bytes"), 65536);
		assert_int_equal(jget_u64(j[0], "verify.checked_units"), 16);
		assert_int_equal(jget_u64(j[0], "verify.failures"), 0);
		json_object_put(j[0]);
		json_object_put(j[1]);
	}
}

/* The small CRCs against the published check values of "123456789"
 * (the CRC catalogue's CRC-7/MMC, CRC-16/ARC, CRC-32/POSIX without its
 * final inversion, CRC-32C un-inverted): fio's parameters, independent of
 * fio's files. */
static void test_crc_check_values(void **state)
{
	static const struct {
		enum fio_vtype t;
		uint32_t want;
	} v[] = {
	    {FVT_CRC7, 0x75},
	    {FVT_CRC16, 0xBB3D},
	    {FVT_CRC32, ~0x765E7680u},
	    {FVT_CRC32C, ~0xE3069283u},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint8_t out[8] = {0};
		assert_int_equal(fio_sum(v[i].t, "123456789", 9, out), 0);
		uint32_t got = out[0] | out[1] << 8 | out[2] << 16 | (uint32_t)out[3] << 24;
		if (got != v[i].want)
			fail_msg("%s: %#x, want %#x", fio_sum_name(v[i].t), got, v[i].want);
	}
}

/* What iochar cannot do as fio does is refused, exit 2, one line naming
 * the option, the target untouched (here: never created). */
static void test_refusals(void **state)
{
	static const struct {
		const char *opt, *rw, *want;
	} r[] = {
	    {"--verify_state_load=1", "--rw=read", "verify_state_load=1"},
	    {"--verify_backlog=x", "--rw=write", "verify_backlog=x"},
	    {"--time_based=1", "--rw=randrw", "time_based"},
	    {"--verify_async_cpus=1", "--rw=read", "verify_async_cpus"},
	    {"--ioengine=null", "--rw=read", "ioengine=null"},
	    {"--verify_interval=48", "--rw=read", "verify_interval=48"},
	    {"--verify_offset=4090", "--rw=read", "verify_offset=4090"},
	};
	char fn[160];

	(void)state;
	snprintf(fn, sizeof(fn), "--filename=%s/refused.dat", dir);
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		const char *a[] = {iochar_path(), "run", fn, r[i].rw, "--bs=4k",
				   "--size=32k", "--verify=md5",
				   "--ioengine=psync", r[i].opt, NULL};
		char *out;
		int rc = run(a, &out);
		if (rc != 2 || !strstr(out, r[i].want) || count_lines(out) != 1)
			fail_msg("%s: rc=%d\n%s", r[i].opt, rc, out);
		free(out);
		assert_false(file_exists(fn + strlen("--filename=")));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fio_writes_iochar_checks),
	    cmocka_unit_test(test_iochar_writes_fio_checks),
	    cmocka_unit_test(test_digest_is_openssl),
	    cmocka_unit_test(test_readback_as_fio),
	    cmocka_unit_test(test_crc_check_values),
	    cmocka_unit_test(test_refusals),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
