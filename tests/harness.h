/* harness.h - helpers for tests that run the iochar binary end to end:
 * spawn it, capture stdout, stderr and exit status, parse its JSON, make
 * scratch files and loop devices (root only). */
#ifndef IOCHAR_TESTS_HARNESS_H
#define IOCHAR_TESTS_HARNESS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stdint.h>

struct proc_out {
	int status;      /* exit status, or 128 + signal */
	char *out;       /* stdout, NUL-terminated, owned */
	char *err;       /* stderr, NUL-terminated, owned */
};

/* The binary under test: $IOCHAR, else build/iochar. */
const char *iochar_path(void);

/* Run iochar with the NULL-terminated argv (without argv[0]), in directory
 * cwd (NULL = current). If sigint_after_ms > 0, send SIGINT that long after
 * start. Fails the test on a spawn error; always returns. */
void run_iochar(struct proc_out *po, const char *cwd, int sigint_after_ms,
		const char *const *args);

/* The same with signal sig sent after_ms after start (if after_ms > 0). */
void run_iochar_signal(struct proc_out *po, const char *cwd, int sig,
		       int after_ms, const char *const *args);

void proc_out_free(struct proc_out *po);

/* Fail the test, showing its output, unless po exited with want. */
void expect_exit(const struct proc_out *po, int want);

/* Fail the test unless want occurs in s. */
void expect_has(const char *s, const char *want);

/* Number of lines in s (a final line without '\n' counts). */
unsigned count_lines(const char *s);

/* Parse po->out as JSON, failing the test if it is not an object. */
json_object *parse_json(const struct proc_out *po);

/* Look up a '.'-separated path ("read.lat_ns.p99"); fails if missing. */
json_object *jget(json_object *o, const char *path);
uint64_t jget_u64(json_object *o, const char *path);
double jget_double(json_object *o, const char *path);

/* A fresh directory under /var/tmp (a real disk, O_DIRECT works); removed
 * with everything in it by tmpdir_remove. */
char *tmpdir_make(void);
void tmpdir_remove(char *dir);

/* cmocka set-up and tear-down giving each test its own tmpdir_make()
 * directory in *state. */
int tmpdir_setup(void **state);
int tmpdir_teardown(void **state);

/* A NULL-terminated argv for run_iochar and friends: ARGS("run", "-x"). */
#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Create path holding size bytes of non-zero data. */
void make_file(const char *path, uint64_t size);

/* FNV-1a of a file's bytes, to prove it was not changed. */
uint64_t file_hash(const char *path);

/* Is the process root? Tests needing it print SKIP otherwise. */
bool is_root(void);

/* Attach a loop device over backing (created with size bytes) with the
 * given logical sector size; writes the device path into dev. Returns false
 * (and prints why) if that is impossible here. */
bool loop_attach(const char *backing, uint64_t size, unsigned sector,
		 char *dev, size_t devlen);
void loop_detach(const char *dev);

#endif
