/* fuzz_run_config.c - libFuzzer target for the command line of `iochar run`
 * (cli/run_config.h, with the option table and the value parsers).
 *
 * The input is argv after "run": NUL-separated words (a trailing NUL ends
 * the last word; "a\0\0b" has an empty word in the middle).
 *
 * run_config_parse reads one file: a positional argument, the job file.
 * So that the fuzzer reads nothing of the machine, each call runs with its
 * working directory in a private temporary directory that holds only two
 * small job files of its own (jobs.fio, scratch.fio, so that job files
 * meet command-line options; in $TMPDIR, else /tmp; removed at exit, but
 * not after a crash), and inputs with a word that could name a
 * path outside it (one starting with '/' or holding "..") are skipped.
 * The working directory is restored after each call, so libFuzzer's
 * relative corpus paths keep working; crash artifacts go to the directory
 * the fuzzer was started in unless -artifact_prefix or
 * -exact_artifact_path says otherwise.
 *
 * Besides the sanitizers, the target checks run_config.h's contract:
 * a failure says why in err and leaves cfg empty; a success gives jobs
 * that each name a file or use an engine without targets.
 *
 *     make fuzz && build-fuzz/fuzz_run_config tests/fuzz/corpus/run_config
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/run_config.h"

#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
#define MAX_WORDS 64

static const struct {
	const char *name, *text;
} job_files[] = {
    {"jobs.fio", "[global]\n"
		 "ioengine=psync\n"
		 "filename=/nonexistent/a:/nonexistent/b\n"
		 "bs=8k\n"
		 "[reader]\n"
		 "rw=randread\n"
		 "size=64m\n"
		 "[writer]\n"
		 "rw=write\n"
		 "numjobs=2\n"},
    {"scratch.fio", "; no filename: scratch mode, and a job of null\n"
		    "[fast]\n"
		    "ioengine=null\n"
		    "[disk]\n"
		    "rw=randrw\n"
		    "rwmixread=70\n"
		    "time_based\n"},
};

static char tmpdir[4096];
static int tmp_fd = -1, home_fd = -1;

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void cleanup(void)
{
	for (size_t i = 0; i < sizeof(job_files) / sizeof(job_files[0]); i++)
		unlinkat(tmp_fd, job_files[i].name, 0);
	rmdir(tmpdir);
}

static bool has_flag(int argc, char **argv, const char *flag)
{
	size_t len = strlen(flag);

	for (int i = 1; i < argc; i++)
		if (strncmp(argv[i], flag, len) == 0)
			return true;
	return false;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static char prefix[4096 + 32];
	const char *base = getenv("TMPDIR");
	char cwd[4096];

	snprintf(tmpdir, sizeof(tmpdir), "%s/iochar-fuzz-XXXXXX",
		 base && base[0] ? base : "/tmp");
	if (!mkdtemp(tmpdir))
		die("mkdtemp");
	tmp_fd = open(tmpdir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	home_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (tmp_fd < 0 || home_fd < 0)
		die("open");
	atexit(cleanup);
	for (size_t i = 0; i < sizeof(job_files) / sizeof(job_files[0]); i++) {
		int fd = openat(tmp_fd, job_files[i].name,
				O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		size_t len = strlen(job_files[i].text);

		if (fd < 0 || write(fd, job_files[i].text, len) != (ssize_t)len)
			die(job_files[i].name);
		close(fd);
	}
	/* A crash inside a call is written while the working directory is
	 * tmpdir: make libFuzzer's default "./" absolute. */
	if (!has_flag(*argc, *argv, "-artifact_prefix=") &&
	    !has_flag(*argc, *argv, "-exact_artifact_path=")) {
		char **v = calloc((size_t)*argc + 2, sizeof(*v));

		if (!v || !getcwd(cwd, sizeof(cwd)))
			die("artifact_prefix");
		snprintf(prefix, sizeof(prefix), "-artifact_prefix=%s/", cwd);
		memcpy(v, *argv, (size_t)*argc * sizeof(*v));
		v[(*argc)++] = prefix;
		*argv = v; /* lives as long as the process, as argv does */
	}
	return 0;
}

/* Could word name something outside tmpdir? */
static bool escapes(const char *word)
{
	return word[0] == '/' || strstr(word, "..") != NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *argv[MAX_WORDS + 2];
	int argc = 0;
	struct run_config cfg;
	struct ioc_err err = {0};
	char *buf = malloc(size + 1);
	int ret;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = "run";
	for (char *w = buf; w < buf + size; w += strlen(w) + 1) {
		if (argc == MAX_WORDS + 1 || escapes(w))
			goto out;
		argv[argc++] = w;
	}
	argv[argc] = NULL;

	memset(&cfg, 0x5a, sizeof(cfg));
	if (fchdir(tmp_fd))
		die("fchdir");
	ret = run_config_parse(argc, argv, &cfg, &err);
	if (fchdir(home_fd))
		die("fchdir");

	if (ret == RUN_CONFIG_HELP) {
		CHECK(cfg.jobs == NULL && cfg.nr_jobs == 0 && !cfg.output);
	} else if (ret) {
		CHECK(ret < 0);
		CHECK(err.msg[0] != '\0');
		CHECK(cfg.jobs == NULL && cfg.nr_jobs == 0 && !cfg.output);
	} else {
		CHECK(cfg.jobs != NULL && cfg.nr_jobs >= 1);
		for (unsigned i = 0; i < cfg.nr_jobs; i++) {
			const struct job_spec *job = &cfg.jobs[i];

			CHECK(job->name[0] != '\0');
			CHECK(memchr(job->name, '\0', sizeof(job->name)));
			CHECK(job->nr_files <= JOB_MAX_FILES);
			CHECK(job->bs >= 1);
			CHECK(job->size == 0 || job->size >= job->bs);
			CHECK(!cfg.scratch || job->nr_files == 1);
		}
	}
	run_config_free(&cfg);
out:
	free(buf);
	return 0;
}
