/* randmap.c - see randmap.h. */
#include "core/randmap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int randmap_init(struct randmap *m, uint64_t nblocks)
{
	memset(m, 0, sizeof(*m));
	m->nblocks = nblocks ? nblocks : 1;
	uint64_t bits = m->nblocks;
	for (unsigned l = 0; l < RANDMAP_LEVELS; l++) {
		m->words[l] = (bits + 63) / 64;
		m->level[l] = calloc(m->words[l], sizeof(uint64_t));
		if (!m->level[l]) {
			randmap_free(m);
			return -ENOMEM;
		}
		m->nlevels = l + 1;
		if (m->words[l] == 1)
			break;
		bits = m->words[l];
	}
	return 0;
}

void randmap_free(struct randmap *m)
{
	if (!m)
		return;
	for (unsigned l = 0; l < RANDMAP_LEVELS; l++) {
		free(m->level[l]);
		m->level[l] = NULL;
	}
	m->nlevels = 0;
}

void randmap_reset(struct randmap *m)
{
	for (unsigned l = 0; l < m->nlevels; l++)
		memset(m->level[l], 0, m->words[l] * sizeof(uint64_t));
	m->used = 0;
}

bool randmap_free_at(const struct randmap *m, uint64_t b)
{
	return !(m->level[0][b / 64] >> (b % 64) & 1);
}

/* Set bit b of level 0 and the summary bits a full word makes full. */
static void set_bit(struct randmap *m, uint64_t b)
{
	for (unsigned l = 0; l < m->nlevels; l++) {
		uint64_t *w = &m->level[l][b / 64];
		*w |= 1ull << (b % 64);
		/* the last word of a level is full when its used bits are */
		uint64_t bits = l ? m->words[l - 1] : m->nblocks;
		uint64_t n = b / 64 == m->words[l] - 1 ? bits - b / 64 * 64 : 64;
		uint64_t full = n == 64 ? ~0ull : (1ull << n) - 1;
		if (*w != full)
			return;
		b /= 64;
	}
}

/* The first free bit of level l at or after bit b, below the level's
 * end; UINT64_MAX when none. A word with no free bit is left through the
 * level above, whose set bits are full words. */
static uint64_t find_free(const struct randmap *m, unsigned l, uint64_t b)
{
	uint64_t bits = l ? m->words[l - 1] : m->nblocks;

	for (unsigned steps = 0; b < bits && steps < 3; steps++) {
		uint64_t w = ~m->level[l][b / 64] & (~0ull << (b % 64));
		if (w) {
			uint64_t f = b / 64 * 64 + (uint64_t)__builtin_ctzll(w);
			return f < bits ? f : UINT64_MAX;
		}
		uint64_t next = b / 64 + 1;
		if (l + 1 >= m->nlevels)
			return UINT64_MAX; /* the top level is one word */
		next = find_free(m, l + 1, next);
		if (next == UINT64_MAX)
			return UINT64_MAX;
		b = next * 64; /* a word with a free bit: found on the next step */
	}
	return UINT64_MAX;
}

uint64_t randmap_next_free(const struct randmap *m, uint64_t b)
{
	if (m->used >= m->nblocks)
		return UINT64_MAX;
	uint64_t f = find_free(m, 0, b < m->nblocks ? b : 0);
	return f != UINT64_MAX ? f : find_free(m, 0, 0);
}

uint64_t randmap_set_nr(struct randmap *m, uint64_t b, uint64_t nr)
{
	uint64_t done = 0;

	while (done < nr && b + done < m->nblocks &&
	       randmap_free_at(m, b + done)) {
		set_bit(m, b + done);
		done++;
	}
	m->used += done;
	return done;
}
