/* geom.c - VD address mapping (see geom.h for the layouts). */
#include "vd/geom.h"

void vd_geom_init(struct vd_geom *g, const struct vd_def *def,
		  uint64_t member_bytes)
{
	g->level = def->level;
	g->n = def->nr_members;
	g->k = vd_data_members(def);
	g->np = vd_parity_members(def);
	g->spans = def->spans ? def->spans : 1;
	g->strip = def->strip;
	g->strip_shift = (unsigned)__builtin_ctzll(def->strip);
	g->rows = member_bytes >> g->strip_shift;
	g->member_size = g->rows << g->strip_shift;
	if (vd_level_concat(def->level)) {
		g->capacity = g->member_size * g->n;
		g->rows = 0;
	} else {
		g->capacity = g->member_size * g->k;
	}
}

uint64_t vd_geom_member_bytes_for(const struct vd_def *def, uint64_t capacity)
{
	uint64_t per = vd_level_concat(def->level) ? def->nr_members : vd_data_members(def);
	uint64_t row_bytes = def->strip * per;
	uint64_t rows = (capacity + row_bytes - 1) / row_bytes;

	return rows * def->strip;
}

unsigned vd_geom_data_member(const struct vd_geom *g, uint64_t r, unsigned i)
{
	unsigned pd;

	switch (g->level) {
	case VD_RAID5:
		pd = g->n - 1 - (unsigned)(r % g->n);
		return (pd + 1 + i) % g->n;
	case VD_RAID6:
		pd = g->n - 1 - (unsigned)(r % g->n);
		return (pd + 2 + i) % g->n;
	case VD_RAID10: {
		unsigned per_span = g->k / g->spans;
		unsigned pair = (i % g->spans) * per_span + i / g->spans;
		return 2 * pair;
	}
	case VD_RAID1:
		return 0;
	default:
		return i;
	}
}

unsigned vd_geom_p_member(const struct vd_geom *g, uint64_t r)
{
	return g->n - 1 - (unsigned)(r % g->n);
}

unsigned vd_geom_q_member(const struct vd_geom *g, uint64_t r)
{
	return (vd_geom_p_member(g, r) + 1) % g->n;
}

void vd_geom_piece(const struct vd_geom *g, uint64_t off, uint64_t len,
		   struct vd_piece *p)
{
	if (vd_level_concat(g->level)) {
		p->row = 0;
		p->idx = (unsigned)(off / g->member_size);
		p->in_strip = off % g->member_size;
		p->len = g->member_size - p->in_strip;
	} else {
		uint64_t c = off >> g->strip_shift;
		p->row = c / g->k;
		p->idx = (unsigned)(c % g->k);
		p->in_strip = off & (g->strip - 1);
		p->len = g->strip - p->in_strip;
	}
	if (p->len > len)
		p->len = len;
}
