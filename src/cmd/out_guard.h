/* out_guard.h - a live line (the status line, cmd/status.h) stands on
 * the terminal's last row; anything else written to stdout or stderr,
 * by any thread, first erases it, so no message or table is glued onto
 * it and no fragment of it is left behind. stdout's stream
 * (cmd/stdout_end.c) and stderr's (made here) call out_guard_erase
 * before each write. */
#ifndef IOCHAR_CMD_OUT_GUARD_H
#define IOCHAR_CMD_OUT_GUARD_H

#include <stddef.h>

/* Make stderr an unbuffered stream over fd 2 whose writes first call
 * out_guard_erase (glibc lets stderr be assigned). Before anything is
 * written; main calls it. */
void out_guard_begin(void);

/* Who erases the live line: erase(arg) before each write to stdout or
 * stderr, called under the guard's lock. NULL: nobody (the line is
 * gone). Set while no other thread writes (before a run, after it). */
void out_guard_set(void (*erase)(void *arg), void *arg);

/* Erase the live line, if any (the stdout and stderr streams call it). */
void out_guard_erase(void);

/* Held while the live line is drawn, so no write slips between the
 * erase and the line; the draw writes to fd 2 itself (out_guard_raw). */
void out_guard_lock(void);
void out_guard_unlock(void);

/* len bytes to fd 2 directly (EINTR and short writes retried). */
void out_guard_raw(const char *buf, size_t len);

#endif
