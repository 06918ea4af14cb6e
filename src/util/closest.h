/* closest.h - "did you mean" for a misspelled name, as fio says it: the
 * known name nearest by edit distance (Levenshtein: insertions,
 * deletions, substitutions), the first of equals, and only when the
 * distance is at most half the typed name's length (fio's
 * string_distance_ok), so a wild guess is never offered. */
#ifndef IOCHAR_UTIL_CLOSEST_H
#define IOCHAR_UTIL_CLOSEST_H

#include <stddef.h>

struct closest {
	const char *typed; /* borrowed */
	const char *best;  /* borrowed from the names offered; NULL: none */
	size_t dist;
};

/* Start looking for typed's nearest name (leading dashes skipped). */
void closest_init(struct closest *c, const char *typed);

/* Offer a known name (NULL or "" ignored; kept while c is used). */
void closest_offer(struct closest *c, const char *name);

/* The nearest name offered, or NULL when none is near enough. */
const char *closest_name(const struct closest *c);

/* Edit distance between a and b (at most 64 characters of each count;
 * option names are shorter). */
size_t closest_distance(const char *a, const char *b);

#endif
