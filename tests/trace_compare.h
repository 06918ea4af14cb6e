/* trace_compare.h - tests that run the same tiny job through fio 3.33
 * and iochar under `strace -f` and compare the calls each made on the
 * job's file (tests/test_fio_engines.c, tests/test_fio_flush.c).
 *
 * Each tool gets its own file holding the same FILE_BYTES bytes in the
 * test's directory; the calls made on the descriptors openat returned for
 * that path (until closed) are normalized (descriptor -> F, addresses ->
 * A, blanks squeezed) and kept in the order made. */
#ifndef IOCHAR_TESTS_TRACE_COMPARE_H
#define IOCHAR_TESTS_TRACE_COMPARE_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>

#define FILE_BYTES 65536
#define MAX_CALLS 256
#define CALL_LEN 256
#define TRACED                                                                 \
	"openat,close,read,write,pread64,pwrite64,lseek,readv,writev,"         \
	"preadv,pwritev,preadv2,pwritev2,fsync,fdatasync,mmap,msync,"       \
	"fallocate,ftruncate"

struct calls {
	unsigned n;
	char c[MAX_CALLS][CALL_LEN];
};

/* Shell words before a traced iochar: LeakSanitizer cannot run under
 * ptrace (an ASan build would die at exit), the rest of ASan can. */
#define TC_UNDER_STRACE                                                        \
	"ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "

/* The iochar binary, absolute (tc_setup fills it in). */
extern char tc_iochar[4096];

/* Run the shell command made from fmt; its exit status (-1: not run). */
int tc_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* SKIP (cmocka) unless fio and strace are installed and strace can
 * trace here. */
void tc_skip_without_tools(void);

/* cmocka set-up/tear-down: a mkdtemp directory under /tmp in *state,
 * removed with everything in it. */
int tc_setup(void **state);
int tc_teardown(void **state);

/* The calls named in names (space-separated, each with its '(') that the
 * strace -f trace at path shows on the descriptors of file, in order. */
void tc_read_calls(const char *path, const char *file, const char *names,
		   struct calls *out);

/* Run job (fio's options) through fio and `iochar run --force` under
 * strace, each on its own file (dir/fio.dat, dir/ioc.dat) holding the same
 * bytes, JSON in dir/fio.json and dir/ioc.json; their calls in *fio, *ioc.
 * Both must succeed, or (may_fail) both may fail alike. */
void tc_trace_both_rc(const char *dir, const char *job, const char *names,
		      struct calls *fio, struct calls *ioc, bool may_fail);
void tc_trace_both(const char *dir, const char *job, const char *names,
		   struct calls *fio, struct calls *ioc);

/* Fail, naming the first call that differs, unless both made the same. */
void tc_expect_same(const char *what, const struct calls *fio,
		    const struct calls *ioc);

/* How many calls of c start with prefix. */
unsigned tc_count_prefix(const struct calls *c, const char *prefix);

/* dir/name parsed (the caller puts it); fails the test if not JSON. */
json_object *tc_load_json(const char *dir, const char *name);

/* The last openat of file for writing in the trace at path, into out. */
void tc_open_line(const char *path, const char *file, char *out, size_t cap);

#endif
