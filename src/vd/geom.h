/* geom.h - where a VD's bytes live on its members.
 *
 * Striped levels cut the VD address space into strips of def->strip bytes.
 * Strip c belongs to stripe row r = c / k (k data members per row) as data
 * index i = c % k, and sits at byte r * strip of its member. Which member
 * holds data index i (and the parity of the row) depends on the level:
 *
 *   raid0   member i.
 *   raid5   Linux md's default, left-symmetric: parity on member
 *           n-1 - (r mod n), data index i on (parity + 1 + i) mod n, so
 *           data runs on round the members and every member takes parity
 *           once every n rows.
 *   raid6   md's left-symmetric for raid6: P on n-1 - (r mod n), Q on the
 *           member after P, data index i on (P + 2 + i) mod n.
 *   raid10  data index i is a mirrored pair (members 2p and 2p+1); the
 *           pairs are grouped into `spans` equal spans and consecutive
 *           strips alternate spans: i -> span i mod spans, pair
 *           span * (pairs/spans) + i / spans.
 *   raid1   one data index; every member holds all of it.
 *   jbod    no strips: member m holds VD bytes [m * size, (m+1) * size).
 */
#ifndef IOCHAR_VD_GEOM_H
#define IOCHAR_VD_GEOM_H

#include <stdint.h>

#include "vd/def.h"

struct vd_geom {
	enum vd_level level;
	unsigned n;            /* members */
	unsigned k;            /* data strips per row */
	unsigned np;           /* parity strips per row: 0, 1 or 2 */
	unsigned spans;
	uint64_t strip;
	unsigned strip_shift;
	uint64_t member_size;  /* bytes used on every member: whole strips */
	uint64_t rows;         /* stripe rows (jbod: 0) */
	uint64_t capacity;     /* VD bytes */
};

/* Geometry of def over members of (at least) member_bytes each. */
void vd_geom_init(struct vd_geom *g, const struct vd_def *def,
		  uint64_t member_bytes);

/* Member bytes needed for a VD of at least capacity bytes (whole rows). */
uint64_t vd_geom_member_bytes_for(const struct vd_def *def, uint64_t capacity);

/* Member holding data index i of row r (raid10: the first of its pair). */
unsigned vd_geom_data_member(const struct vd_geom *g, uint64_t r, unsigned i);

/* P and Q members of row r (raid5: q is unused). */
unsigned vd_geom_p_member(const struct vd_geom *g, uint64_t r);
unsigned vd_geom_q_member(const struct vd_geom *g, uint64_t r);

/* One contiguous piece of a VD range that lies inside one strip (or, for
 * jbod, one member). */
struct vd_piece {
	uint64_t row;          /* stripe row (jbod: 0) */
	unsigned idx;          /* data index in the row (jbod: member) */
	uint64_t in_strip;     /* byte offset inside the strip (jbod: member offset) */
	uint64_t len;
	uint64_t host_off;     /* byte offset inside the host range */
};

/* The first piece of [off, off+len) (len > 0); the next piece
 * starts at off + p->len. */
void vd_geom_piece(const struct vd_geom *g, uint64_t off, uint64_t len,
		   struct vd_piece *p);

#endif
