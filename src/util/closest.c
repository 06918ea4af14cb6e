/* closest.c - see closest.h. */
#include "util/closest.h"

#include <string.h>

#define CLOSEST_MAX 64

size_t closest_distance(const char *a, const char *b)
{
	size_t la = strnlen(a, CLOSEST_MAX), lb = strnlen(b, CLOSEST_MAX);
	size_t row[CLOSEST_MAX + 1];

	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0]; /* row[i-1][j-1] */
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

void closest_init(struct closest *c, const char *typed)
{
	while (*typed == '-')
		typed++;
	c->typed = typed;
	c->best = NULL;
	c->dist = (size_t)-1;
}

void closest_offer(struct closest *c, const char *name)
{
	if (!name || !*name)
		return;
	size_t d = closest_distance(c->typed, name);
	if (d < c->dist) {
		c->dist = d;
		c->best = name;
	}
}

const char *closest_name(const struct closest *c)
{
	size_t half = (strlen(c->typed) + 1) / 2;
	return c->best && c->dist <= half && c->dist ? c->best : NULL;
}
