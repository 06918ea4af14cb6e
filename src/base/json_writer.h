/* json_writer.h - a tiny streaming JSON writer.
 *
 * Writes straight to a FILE as the caller walks its data: no tree is built.
 * The writer inserts commas, colons and (optionally) indentation; strings
 * are escaped fully (quotes, backslash, every control character) and bytes
 * that are not valid UTF-8 are written as \uFFFD, so the output is always
 * valid JSON text. Doubles that are NaN or infinite are written as null.
 *
 * Errors are sticky: calls return nothing, the first failure (a write error,
 * nesting deeper than JW_MAX_DEPTH, a key outside an object) is remembered
 * and later calls do nothing; jw_finish reports it. No global state.
 */
#ifndef IOCHAR_BASE_JSON_WRITER_H
#define IOCHAR_BASE_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH 32

struct jw {
	FILE *f;	 /* not owned */
	unsigned indent; /* spaces per level; 0 = one line */
	unsigned depth;
	bool in_object[JW_MAX_DEPTH]; /* per open level: object (else array) */
	bool has_items[JW_MAX_DEPTH]; /* per open level: a member was written */
	bool after_key;		      /* a key was written, its value is due */
	bool root_done;		      /* the one top-level value was written */
	int err;		      /* first error, -errno; 0 if none */
};

/* Start writing one JSON value to f (which stays the caller's). indent is
 * the number of spaces per nesting level, 0 for compact output. */
void jw_init(struct jw *w, FILE *f, unsigned indent);

/* Check that every object and array was closed, end the text with a
 * newline, and return 0 or the first error (-EIO for a failed write,
 * -EINVAL for misuse). Does not flush or close f. */
int jw_finish(struct jw *w);

void jw_object_begin(struct jw *w);
void jw_object_end(struct jw *w);
void jw_array_begin(struct jw *w);
void jw_array_end(struct jw *w);

/* Member name inside an object; the next call writes its value. */
void jw_key(struct jw *w, const char *key);

/* Values. s may be NULL for jw_string (written as null). jw_string_n writes
 * at most len bytes and stops early at a NUL byte, for fixed-size buffers. */
void jw_string(struct jw *w, const char *s);
void jw_string_n(struct jw *w, const char *s, size_t len);
void jw_uint(struct jw *w, uint64_t v);
void jw_int(struct jw *w, int64_t v);
void jw_double(struct jw *w, double v); /* 3 decimals; NaN/Inf -> null */
void jw_bool(struct jw *w, bool v);
void jw_null(struct jw *w);

/* A value that is already JSON text: the contents of the file at path
 * (one complete value, e.g. written earlier by another jw). Returns 0 or
 * the writer's error (-errno if the file cannot be read). */
int jw_raw_file(struct jw *w, const char *path);

/* A value that is already JSON text: len bytes at text (one complete
 * value, e.g. written by another jw into a memory stream), copied as they
 * are, except that each line after the first is indented to the current
 * level. The caller vouches for the text. */
void jw_raw(struct jw *w, const char *text, size_t len);

/* Key and value in one call. */
void jw_kv_string(struct jw *w, const char *key, const char *s);
void jw_kv_uint(struct jw *w, const char *key, uint64_t v);
void jw_kv_int(struct jw *w, const char *key, int64_t v);
void jw_kv_double(struct jw *w, const char *key, double v);
void jw_kv_bool(struct jw *w, const char *key, bool v);

#endif
