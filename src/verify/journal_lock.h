/* journal_lock.h - one run per journal. A run takes its journal's lock
 * (flock, exclusive) in the checks before anything is written and holds
 * it until the process ends, so a second iochar given the same journal
 * is refused, naming the holder, before it writes anything: without it,
 * the second run truncated the first one's journal and both exited 0
 * (issue 37 H5). The lock is on the file, so every spelling of it and
 * every symlink to it meet the same lock. */
#ifndef IOCHAR_VERIFY_JOURNAL_LOCK_H
#define IOCHAR_VERIFY_JOURNAL_LOCK_H

#include "util/err.h"

/* Lock the journal at path; what names it in messages ("job J:
 * journal"). A missing journal is created empty to carry the lock (an
 * empty file is no journal to journal_probe and verify) and removed at
 * exit when still empty. 0 when this process holds the lock (now or
 * before); -EWOULDBLOCK with a usage message naming the holder's PID
 * (when /proc/locks tells it) if another process holds it; -errno with a
 * message otherwise. Thread-safe. */
int journal_lock(const char *what, const char *path, struct ioc_err *err);

/* For a reader of the journal at path (iochar verify --journal): a shared
 * lock, held until exit, so a run cannot start over the journal while it
 * is read; refused (-EWOULDBLOCK, a usage message naming the holder)
 * while a run holds the journal, since its records and blocks are still
 * moving (8 blocks read as "lost" mid-run). 0 when locked, or when the
 * file cannot be opened or locked at all (the reader then says why). */
int journal_lock_shared(const char *what, const char *path, struct ioc_err *err);

#endif
