/* proc.h - the child processes of `iochar app` (database servers, their
 * set-up tools, the benchmarks): started in a process group of their own
 * (a terminal's Ctrl-C reaches iochar, which stops them in order), their
 * output into a log file, killed with iochar if iochar itself dies
 * (PR_SET_PDEATHSIG), optionally as another user (PostgreSQL refuses
 * root). */
#ifndef IOCHAR_APP_PROC_H
#define IOCHAR_APP_PROC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Who a child runs as; uid (uid_t)-1: as iochar. */
struct app_user {
	uid_t uid;
	gid_t gid;
};

#define APP_AS_SELF ((struct app_user){(uid_t)-1, (gid_t)-1})

/* Start argv (argv[0] a path) with stdout and stderr appended to log;
 * its pid, or -errno. */
pid_t app_spawn(char *const argv[], const char *log, struct app_user as);

/* app_spawn, the child first moved into the memory cgroup cap (may be
 * NULL or off: none), before it becomes as. */
struct app_memcap;
pid_t app_spawn_in(char *const argv[], const char *log, struct app_user as,
		   const struct app_memcap *cap);

/* Wait for pid at most ms: its exit status, APP_RUNNING if it still runs,
 * or 128 + the signal that killed it. */
#define APP_RUNNING (-1)
int app_wait(pid_t pid, unsigned ms);

/* Run argv to its end (at most timeout_ms; killed then, or when *stop is
 * set): its exit status, 128 + signal, or -errno when it could not start
 * or was cut short (-ETIMEDOUT, -EINTR). */
int app_run(char *const argv[], const char *log, struct app_user as,
	    unsigned timeout_ms, atomic_bool *stop);

/* app_run, and with label non-NULL a line on stderr that counts the
 * seconds ("app: LABEL: 12 s", rewritten in place each second). */
int app_run_ticking(char *const argv[], const char *log, struct app_user as,
		    unsigned timeout_ms, atomic_bool *stop, const char *label);

/* End pid's process group: sig, then SIGKILL after grace_ms; reaped. */
void app_kill(pid_t pid, int sig, unsigned grace_ms);

/* The last lines of file path (at most size-1 bytes, whole lines,
 * newlines kept as "; ") into out; "" when there are none. */
void app_log_tail(const char *path, char *out, size_t size);

/* The path of tool name in $PATH, the sbin directories or dirs (a
 * ':'-list, may be NULL) into out; false if none. */
bool app_find_tool(const char *name, const char *dirs, char *out, size_t size);

void app_sleep_ms(unsigned ms);
double app_now_s(void); /* CLOCK_MONOTONIC, seconds */



/* Run argv to its end (at most 30 s) and put what it printed (stdout and
 * stderr, at most size-1 bytes) into out; its exit status or -errno. */
int app_output(char *const argv[], struct app_user as, char *out, size_t size);
#endif
