/* mpi_harness.c - what the tests run under mpirun share (mpi_harness.h). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "mpi_harness.h"

char mpi_bin[4096];

char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return strdup("");
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, n, m);
	fclose(m);
	fclose(f);
	return buf;
}

/* mpirun usable and iochar built with MPI? Otherwise print why and skip. */
void need_mpi(void)
{
	if (system("command -v mpirun >/dev/null 2>&1") != 0) {
		printf("SKIP: mpirun not found (apt-get install openmpi-bin libopenmpi-dev)\n");
		skip();
	}
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "ldd '%s' | grep -q libmpi", mpi_bin);
	if (system(cmd) != 0) {
		printf("SKIP: %s was built without MPI\n", mpi_bin);
		skip();
	}
}

int mpi_setup(void **state)
{
	if (iochar_path()[0] != '/') {
		if (!realpath(iochar_path(), mpi_bin))
			return -1;
	} else {
		snprintf(mpi_bin, sizeof(mpi_bin), "%s", iochar_path());
	}
	/* tests run as root in CI; Open MPI refuses root without these */
	setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
	setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
	setenv("OMPI_MCA_btl", "self,vader,tcp", 1);
	setenv("OMPI_MCA_btl_tcp_if_include", "lo", 1);
	setenv("OMPI_MCA_oob_tcp_if_include", "lo", 1);
	setenv("IOCHAR_DIST_TIMEOUT_MS", "3000", 1);
	/* Under ASan: keep Open MPI's and PMIx's plugins loaded and unwind
	 * allocations fully, so that their leaks are attributed to them
	 * (tests/lsan-mpi.supp) instead of to "<unknown module>". */
	setenv("OMPI_MCA_mca_base_component_disable_dlclose", "1", 1);
	setenv("PMIX_MCA_mca_base_component_disable_dlclose", "1", 1);
	char asan[4096];
	snprintf(asan, sizeof(asan), "%s%sfast_unwind_on_malloc=0",
		 getenv("ASAN_OPTIONS") ? getenv("ASAN_OPTIONS") : "",
		 getenv("ASAN_OPTIONS") ? ":" : "");
	setenv("ASAN_OPTIONS", asan, 1);
	/* Open MPI's own allocations outlive MPI_Finalize by design */
	char supp[4400], file[4096];
	if (realpath("tests/lsan-mpi.supp", file)) {
		snprintf(supp, sizeof(supp), "suppressions=%s:print_suppressions=0", file);
		setenv("LSAN_OPTIONS", supp, 1);
	}
	*state = tmpdir_make();
	return 0;
}

int mpi_teardown(void **state)
{
	tmpdir_remove(*state);
	return 0;
}

/* Run a shell command line; returns its exit status. */
int sh(const char *fmt, ...)
{
	char cmd[16384];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

json_object *load_json(const char *path)
{
	json_object *o = json_object_from_file(path);
	if (!o)
		fail_msg("%s: not JSON", path);
	return o;
}

void mpi_write_plan(const char *dir, const char *size, bool curve,
		    unsigned max_qd, unsigned max_nj)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/p.ini", dir);
	FILE *f = fopen(path, "we");
	assert_non_null(f);
	fprintf(f, "[global]\nioengine=psync\nsize=%s\nbs=4k\nruntime=300ms\n"
		   "time_based=1\nfilename=%s/f-%%r\n[rr]\nrw=randread\n%s"
		   "[se]\nrw=randread\nmode=search\nlatency_limit=1s\nmax_iodepth=%u\n"
		   "max_numjobs=%u\n", size, dir,
		curve ? "[cv]\nrw=randread\nmode=curve\npoints=50,100\n" : "", max_qd,
		max_nj);
	assert_int_equal(fclose(f), 0);
}

void fail_with(const char *dir, const char *what)
{
	static char text[16384];
	char p[4200];
	snprintf(p, sizeof(p), "%s/err", dir);
	char *err = slurp(p);
	snprintf(text, sizeof(text), "%s", err);
	free(err);
	fail_msg("%s\nstderr:\n%s", what, text);
}


int mpi_spawn_victim(const char *dir, const char *args, const char *out0,
		     long *victim)
{
	char cmd[32768], path[4200];

	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && " RUN_TIMEOUT "mpirun --oversubscribe --enable-recovery "
		 "-np 1 sh -c \"'%s' %s >%s 2>err; echo \\$? >rc0\" : "
		 "-np 1 sh -c \"echo \\$\\$ >pid.1; exec '%s' %s\" : "
		 "-np 1 '%s' %s >mpirun.out 2>mpirun.err",
		 dir, mpi_bin, args, out0, mpi_bin, args, mpi_bin, args);
	pid_t pid = sh_spawn(cmd);
	snprintf(path, sizeof(path), "%s/pid.1", dir);
	*victim = 0;
	for (int i = 0; i < 300 && *victim <= 0; i++) {
		char *text = slurp(path);
		*victim = strtol(text, NULL, 10);
		free(text);
		if (*victim <= 0)
			usleep(100000);
	}
	assert_true(*victim > 0);
	return pid;
}

int mpi_rank0_status(const char *dir)
{
	return status_file(dir, "rc0");
}

int status_file(const char *dir, const char *name)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	char *text = slurp(path);
	int status = atoi(text);
	free(text);
	return status;
}

int sh_spawn(const char *cmd)
{
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	return pid;
}

void wait_file_size(const char *path, long size)
{
	struct stat st = {0};
	for (int i = 0; i < 600 && !(stat(path, &st) == 0 && st.st_size == size); i++)
		usleep(100000);
	assert_int_equal(st.st_size, size);
}

void wait_ended_early(int pid)
{
	time_t t0 = time(NULL);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(time(NULL) - t0 < 45);
}
