/* note.h - a note on stderr said once per process.
 *
 * A plan runs the same job many times (precondition rounds, search points,
 * curve points), and each run would repeat the same "note:" about it.
 * note_once() prints "note: <message>\n" the first time a message is
 * given and drops the same text after that. Thread-safe: workers call it.
 */
#ifndef IOCHAR_UTIL_NOTE_H
#define IOCHAR_UTIL_NOTE_H

#include <stdbool.h>

/* Print "note: " and the formatted message on stderr unless this exact
 * message was printed before. Returns true when it was printed. When the
 * table of printed messages is full, every message is printed: a note
 * is never lost, at worst repeated. */
bool note_once(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
