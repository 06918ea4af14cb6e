/* mpi_harness.h - helpers for the tests that run iochar under mpirun
 * (test_mpi.c, test_mpi_pairs.c): the environment Open MPI needs here
 * (root allowed, loopback only, Open MPI's leaks attributed to it under
 * ASan), a SKIP when mpirun or the MPI build is missing, shell commands
 * and their output files. */
#ifndef IOCHAR_TESTS_MPI_HARNESS_H
#define IOCHAR_TESTS_MPI_HARNESS_H

#include <json-c/json.h>
#include <stdbool.h>

#define RUN_TIMEOUT "timeout -k 5 90 "

/* The iochar binary under test, absolute (set by mpi_setup). */
extern char mpi_bin[4096];

/* cmocka setup/teardown: the environment above and a fresh temporary
 * directory in *state. */
int mpi_setup(void **state);
int mpi_teardown(void **state);

/* SKIP (cmocka) unless mpirun exists and mpi_bin links libmpi. */
void need_mpi(void);

/* The whole file (malloc'd; "" when missing). */
char *slurp(const char *path);

/* Run a shell command line (printf-style); its exit status. */
int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parse a JSON file, failing the test if it is not JSON. */
json_object *load_json(const char *path);

/* Start `mpirun --enable-recovery -np 3 iochar ARGS` in dir in the
 * background, for a test that kills rank 1: rank 0's stdout goes to
 * dir/OUT0, its stderr to dir/err and its exit status to dir/rc0; rank 1
 * writes its PID to dir/pid.1 before it execs iochar. Returns the PID of
 * the shell running mpirun (to waitpid) and rank 1's PID in *victim once
 * it is there (the test fails after 30 s). */
int mpi_spawn_victim(const char *dir, const char *args, const char *out0,
		     long *victim);

/* Rank 0's exit status from dir/rc0 (written by mpi_spawn_victim's run). */
int mpi_rank0_status(const char *dir);

/* Start the shell command line cmd in the background; its PID (to
 * waitpid). */
int sh_spawn(const char *cmd);

/* Wait (up to 60 s, else fail the test) until path is size bytes long:
 * a rank's file is whole once its run began. */
void wait_file_size(const char *path, long size);

/* waitpid(pid), failing the test unless it ended within 45 s: long before
 * a 60 s runtime, loosely (sanitizer builds take seconds to exit). */
void wait_ended_early(int pid);

/* The number written in dir/name (an `echo $? >name`); 0 when missing. */
int status_file(const char *dir, const char *name);

/* Write dir/p.ini: a randread step, a curve (points 50 and 100 %) when
 * curve, and a search up to max_qd x max_nj, each rank on its own file
 * dir/f-<rank> of size (psync, 4k, 300 ms steps). */
void mpi_write_plan(const char *dir, const char *size, bool curve,
		    unsigned max_qd, unsigned max_nj);

/* Fail the test with what, showing dir/err. */
void fail_with(const char *dir, const char *what);

#endif
