/* chart_place.c - see chart_place.h. */
#include "report/chart_place.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#define PAD 1.5 /* px kept between a label and anything else */

void placer_init(struct placer *p, double x0, double y0, double x1, double y1)
{
	*p = (struct placer){.area = {x0, y0, x1, y1}};
}

void placer_free(struct placer *p)
{
	if (!p)
		return;
	free(p->obs);
	p->obs = NULL;
	p->nr = p->cap = 0;
}

int placer_add(struct placer *p, enum place_kind kind, double x0, double y0,
	       double x1, double y1)
{
	if (p->nr == p->cap) {
		unsigned cap = p->cap ? 2 * p->cap : 64;
		struct place_obstacle *o = realloc(p->obs, cap * sizeof(*o));
		if (!o)
			return -ENOMEM;
		p->obs = o;
		p->cap = cap;
	}
	if (kind == PLACE_TEXT || kind == PLACE_MARK) /* boxes: ordered corners */
		p->obs[p->nr++] = (struct place_obstacle){
			kind, {fmin(x0, x1), fmin(y0, y1), fmax(x0, x1), fmax(y0, y1)}};
	else
		p->obs[p->nr++] = (struct place_obstacle){kind, {x0, y0, x1, y1}};
	return 0;
}

static bool boxes_meet(const struct place_box *a, const struct place_box *b)
{
	return a->x0 < b->x1 + PAD && b->x0 < a->x1 + PAD && a->y0 < b->y1 + PAD &&
	       b->y0 < a->y1 + PAD;
}

/* Liang-Barsky: does segment s cross box b (grown by PAD)? */
static bool segment_meets(const struct place_box *s, const struct place_box *b)
{
	double dx = s->x1 - s->x0, dy = s->y1 - s->y0, t0 = 0, t1 = 1;
	double p[4] = {-dx, dx, -dy, dy};
	double q[4] = {s->x0 - (b->x0 - PAD), (b->x1 + PAD) - s->x0, s->y0 - (b->y0 - PAD),
		       (b->y1 + PAD) - s->y0};
	for (int i = 0; i < 4; i++) {
		if (p[i] == 0) {
			if (q[i] < 0)
				return false;
			continue;
		}
		double t = q[i] / p[i];
		if (p[i] < 0)
			t0 = fmax(t0, t);
		else
			t1 = fmin(t1, t);
		if (t0 > t1)
			return false;
	}
	return true;
}

/* Is box b inside the area and clear of every obstacle (data lines too
 * unless soft_ok)? */
static bool box_free(const struct placer *p, const struct place_box *b, bool soft_ok)
{
	if (b->x0 < p->area.x0 || b->x1 > p->area.x1 || b->y0 < p->area.y0 ||
	    b->y1 > p->area.y1)
		return false;
	for (unsigned i = 0; i < p->nr; i++) {
		const struct place_obstacle *o = &p->obs[i];
		bool hit = o->kind == PLACE_TEXT || o->kind == PLACE_MARK
				   ? boxes_meet(&o->b, b)
				   : (o->kind == PLACE_RULE || !soft_ok) && segment_meets(&o->b, b);
		if (hit)
			return false;
	}
	return true;
}

/* The candidate box in direction (dx, dy) at distance g from the anchor:
 * diagonals first (a label beside a point reads as its own), then above,
 * below, right, left. */
static const int dirs[8][2] = {{1, -1}, {1, 1}, {-1, -1}, {-1, 1},
			       {0, -1}, {0, 1}, {1, 0}, {-1, 0}};

static struct place_box candidate(double ax, double ay, double g, int dx, int dy,
				  double w, double h)
{
	double x0 = dx > 0 ? ax + g : dx < 0 ? ax - g - w : ax - w / 2;
	double y0 = dy > 0 ? ay + g : dy < 0 ? ay - g - h : ay - h / 2;
	return (struct place_box){x0, y0, x0 + w, y0 + h};
}

/* The leader rings: this far beyond the near ring. */
static const double rings[] = {0, 14, 28, 46, 70};
#define NR_RINGS (sizeof(rings) / sizeof(rings[0]))

enum place_result placer_place(struct placer *p, double ax, double ay, double r,
			       double w, double h, struct place_box *out)
{
	for (unsigned ring = 0; ring < NR_RINGS; ring++)
		for (int soft_ok = 0; soft_ok < 2; soft_ok++)
			for (int k = 0; k < 8; k++) {
				/* clear of its own mark's box by PAD */
				struct place_box b = candidate(ax, ay, r + PAD + 0.5 + rings[ring],
							       dirs[k][0], dirs[k][1], w, h);
				if (!box_free(p, &b, soft_ok))
					continue;
				*out = b;
				placer_add(p, PLACE_TEXT, b.x0, b.y0, b.x1, b.y1);
				return ring ? PLACED_LEADER : PLACED_NEAR;
			}
	return PLACED_NONE;
}

bool placer_take(struct placer *p, const struct place_box *b)
{
	if (!box_free(p, b, true))
		return false;
	placer_add(p, PLACE_TEXT, b->x0, b->y0, b->x1, b->y1);
	return true;
}

/* DejaVu Sans advance widths, thousandths of an em, for ' ' to '~'. */
static const unsigned short ascii_w[95] = {
	318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337,
	636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531,
	1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,
	603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500,
	500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612,
	635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838};

double text_px(const char *s, double px, bool bold)
{
	double em = 0;
	for (const unsigned char *c = (const unsigned char *)s; c && *c; c++) {
		if (*c >= 0x20 && *c < 0x7f)
			em += ascii_w[*c - 0x20];
		else if ((*c & 0xc0) != 0x80) /* a character beyond ASCII: wide */
			em += 838;
	}
	/* the bold face (600) is up to 12 % wider */
	return em / 1000 * px * (bold ? 1.12 : 1.0);
}
