/* harness.h - helpers for tests that run the iochar binary end to end:
 * spawn it, capture stdout, stderr and exit status, parse its JSON, make
 * scratch files and loop devices (root only). */
#ifndef IOCHAR_TESTS_HARNESS_H
#define IOCHAR_TESTS_HARNESS_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

/* Run iochar ARGS (NULL-terminated) in the current directory and expect
 * a usage error: exit 2 and one line on stderr that contains want. */
void expect_usage_line(const char *const *args, const char *want);

/* Parse po->out as JSON, failing the test if it is not an object. */
json_object *parse_json(const struct proc_out *po);

/* Fail the test unless a string of the run's "notes" (iochar's notes:
 * off a terminal they are in the JSON, not on stderr) contains want. */
void expect_note(json_object *run, const char *want);

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

/* The same on /dev/shm (tmpfs: fast, no disk), removed by tmpdir_remove
 * and tmpdir_teardown too: shmdir_setup with tmpdir_teardown. */
char *shmdir_make(void);
int shmdir_setup(void **state);

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

/* Attach the existing file backing as it is, with extra losetup options
 * (e.g. "--partscan", may be ""); false (dev "", why printed) if
 * impossible here. */
bool loop_attach_file(const char *backing, const char *opts, char *dev,
		      size_t devlen);
void loop_detach(const char *dev);

/* The repository's src/ into out (len bytes): from the current
 * directory, else beside the test binary (build/tests/../../src). false
 * when neither holds main.c. */
bool test_src_dir(char *out, size_t len);

/* Does path exist (stat succeeds)? */
bool file_exists(const char *path);

/* The whole of path, NUL-terminated, in a malloc'd buffer the caller
 * frees; its length in *len when len is not NULL. NULL when path cannot
 * be opened. */
char *file_slurp(const char *path, size_t *len);

/* The part of a test's fixture the harness makes and undoes, even when the
 * test failed: a tmpdir_make() directory, at most one filesystem mounted
 * in it and one loop device. A fixture struct embeds it as its FIRST
 * member, so scratch_setup and scratch_teardown serve any such fixture. */
struct scratch {
	char *dir;
	char mnt[4200]; /* where something is mounted, "" if nothing */
	char dev[64];	/* an attached loop device, "" if none */
};

/* Allocate a zeroed fixture of size bytes (>= sizeof(struct scratch),
 * struct scratch first) with its directory made, into *state. */
int scratch_setup(void **state, size_t size);

/* cmocka tear-down for scratch_setup: unmount, then detach, then remove the
 * directory and free the fixture. */
int scratch_teardown(void **state);

/* Mount src (of type, with data opts or NULL) on dir/sub, made here and
 * recorded in s for teardown; false (nothing recorded) when this machine
 * cannot. */
bool scratch_mount(struct scratch *s, const char *sub, const char *src,
		   const char *type, const char *opts);

/* What write(f, arg) writes to f, as a malloc'd NUL-terminated string
 * (fails the test if no memory stream can be had). */
char *capture_text(void (*write)(FILE *f, const void *arg), const void *arg);

#endif
