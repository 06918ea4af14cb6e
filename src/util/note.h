/* note.h - iochar's notes: what a run says beside its results (how it
 * differs from fio, files laid out, a depth capped), said once per
 * process, kept for the results and shown on stderr only when wanted.
 *
 * A plan runs the same job many times (precondition rounds, search points,
 * curve points), and each run would repeat the same "note:" about it:
 * a message given again is dropped. fio's harnesses run iochar as fio and
 * take anything on stderr for a failure, where fio is silent: so notes
 * are printed only while note_show(true) (`iochar run` sets it on a
 * terminal or with --verbose; other commands leave the default, shown),
 * and every note is kept, in order, for the run's JSON (note_copy).
 * Thread-safe: workers call it.
 */
#ifndef IOCHAR_UTIL_NOTE_H
#define IOCHAR_UTIL_NOTE_H

#include <stdbool.h>

/* Notes kept at most; past it a note is still printed when shown, but
 * neither kept nor checked for repeats: counted, and note_copy ends with
 * how many (a flood of per-file notes must not grow without bound). */
#define NOTE_KEEP_MAX 4096

/* Keep the formatted message and, when notes are shown, print "note: "
 * and it on stderr, unless this exact message was given before. Returns
 * true when it was new. */
bool note_once(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The same with prefix on stderr instead of "note: " (kept without it):
 * note_once_as("iochar: ", "differs from fio here: %s", ...). */
bool note_once_as(const char *prefix, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Keep the message, never print it: what was already shown another way
 * (a progress line redrawn in place) or is shown only then. */
bool note_keep(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print notes on stderr (true, the default) or only keep them. */
void note_show(bool on);
bool note_shown(void);

/* The notes kept so far, in the order given, as malloc'd copies in a
 * malloc'd array (*nr of them; NULL and 0 when none); past
 * NOTE_KEEP_MAX, a last entry says how many more there were. Returns 0
 * or -ENOMEM (then *notes is NULL). Free with note_free. */
int note_copy(char ***notes, unsigned *nr);
void note_free(char **notes, unsigned nr);

/* Forget every note (tests; a process that starts over). */
void note_reset(void);

#endif
