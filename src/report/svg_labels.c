/* svg_labels.c - a chart's labels (svg_chart.h: chart_point_label,
 * chart_mark, chart_hrule): kept until chart_end, then placed by
 * chart_place.h around their anchors, clear of every marker, rule and
 * label, and written over everything else. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/chart_place.h"
#include "report/svg_chart.h"
#include "report/svg_chart_int.h"

/* A label waiting for its place: drawn at chart_end, in order of kind
 * (rules' labels, then marks', then points'), once every marker and line
 * it must keep clear of is known. */
enum label_kind { LABEL_RULE, LABEL_MARK, LABEL_POINT };

struct chart_label {
	enum label_kind kind;
	double ax, ay, r; /* anchor px, and how far its own mark reaches */
	char *text;
};

#define PT_LABEL_PX 10.0   /* svg .pt-label */
#define MARK_LABEL_PX 12.0 /* svg .mark-label, bold */
#define LABEL_H 1.2        /* a text's box is 1.18 em high */

static bool queue_label(struct chart *c, enum label_kind kind, double ax, double ay,
			double r, const char *text)
{
	if (c->nr_labels == c->cap_labels) {
		unsigned cap = c->cap_labels ? 2 * c->cap_labels : 16;
		struct chart_label *l = realloc(c->labels, cap * sizeof(*l));
		if (!l)
			return false;
		c->labels = l;
		c->cap_labels = cap;
	}
	char *t = strdup(text);
	if (!t)
		return false;
	c->labels[c->nr_labels++] = (struct chart_label){kind, ax, ay, r, t};
	return true;
}

bool chart_point_label(struct chart *c, bool on_y2, double x, double y,
		       const char *text)
{
	const struct axis *ya = on_y2 && c->y2 ? c->y2 : c->y;
	if (!chart_drawable(c->x, x) || !chart_drawable(ya, y))
		return false;
	/* r: the largest marker's box (chart_point's, 6 px) */
	return queue_label(c, LABEL_POINT, chart_px_x(c, x), chart_clampy(c, chart_px_y(c, ya, y)),
			   6, text);
}

void chart_mark(struct chart *c, bool on_y2, double x, double y, const char *label)
{
	const struct axis *ya = on_y2 && c->y2 ? c->y2 : c->y;
	if (!chart_drawable(c->x, x) || !chart_drawable(ya, y))
		return;
	double px = chart_px_x(c, x), py = chart_clampy(c, chart_px_y(c, ya, y));
	fprintf(c->f, "<circle class=\"chosen\" cx=\"%.1f\" cy=\"%.1f\" r=\"8\" fill=\"none\" stroke=\"#D55E00\" stroke-width=\"2.5\"><title>",
		px, py);
	html_escape(c->f, label);
	fputs("</title></circle>", c->f);
	chart_mark_box(c, px, py, 9.5);
	queue_label(c, LABEL_MARK, px, py, 9.5, label);
}

void chart_hrule(struct chart *c, bool on_y2, double v, const char *cls,
		 const char *label)
{
	const struct axis *ya = on_y2 && c->y2 ? c->y2 : c->y;
	if (!chart_drawable(ya, v))
		return;
	double py = chart_px_y(c, ya, v);
	if (py < c->top || py > c->bottom)
		return;
	/* its label as its tooltip too, should the label find no room */
	fprintf(c->f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\">",
		cls, c->left, py, c->right, py);
	if (label) {
		fputs("<title>", c->f);
		html_escape(c->f, label);
		fputs("</title>", c->f);
	}
	fputs("</line>", c->f);
	placer_add(&c->pl, PLACE_RULE, c->left, py, c->right, py);
	if (label)
		queue_label(c, LABEL_RULE, c->right, py, 0, label);
}

/* Text of a label at box b in class cls (font px high), with a leader
 * line from its anchor when it sits away from it. */
static void emit_label(struct chart *c, const struct chart_label *l, const char *cls,
		       double px, const struct place_box *b, bool leader)
{
	if (leader) {
		/* from the anchor's edge to the nearest point of the box */
		double nx = fmax(b->x0, fmin(l->ax, b->x1)), ny = fmax(b->y0, fmin(l->ay, b->y1));
		double d = hypot(nx - l->ax, ny - l->ay);
		if (d > l->r)
			fprintf(c->f, "<line class=\"leader\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#777\" stroke-width=\"0.8\"/>",
				l->ax + (nx - l->ax) * l->r / d, l->ay + (ny - l->ay) * l->r / d, nx, ny);
	}
	/* the font's box (DejaVu Sans, as measured in Chromium): 0.91 em
	 * above the baseline, 0.27 below */
	fprintf(c->f, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\">", cls, b->x0, b->y0 + 0.92 * px);
	html_escape(c->f, l->text);
	fputs("</text>", c->f);
}

/* A rule's label: at the right end above the rule, below it, then at the
 * left end, then the middle. */
static bool place_rule_label(struct chart *c, const struct chart_label *l,
			     struct place_box *b)
{
	double w = text_px(l->text, MARK_LABEL_PX, true), h = LABEL_H * MARK_LABEL_PX;
	double xs[3] = {c->right - 6 - w, c->left + 6, (c->left + c->right - w) / 2};
	for (int i = 0; i < 3; i++)
		for (int below = 0; below < 2; below++) {
			*b = (struct place_box){xs[i], below ? l->ay + 3 : l->ay - 3 - h,
						xs[i] + w, below ? l->ay + 3 + h : l->ay - 3};
			if (placer_take(&c->pl, b))
				return true;
		}
	return false;
}

void chart_labels_place(struct chart *c)
{
	for (int kind = LABEL_RULE; kind <= LABEL_POINT; kind++)
		for (unsigned i = 0; i < c->nr_labels; i++) {
			const struct chart_label *l = &c->labels[i];
			if ((int)l->kind != kind)
				continue;
			bool pt = kind == LABEL_POINT;
			double px = pt ? PT_LABEL_PX : MARK_LABEL_PX;
			struct place_box b;
			enum place_result res = PLACED_NEAR;
			if (kind == LABEL_RULE)
				res = place_rule_label(c, l, &b) ? PLACED_NEAR : PLACED_NONE;
			else
				res = placer_place(&c->pl, l->ax, l->ay, l->r,
						   text_px(l->text, px, !pt), LABEL_H * px, &b);
			if (res == PLACED_NONE)
				c->dropped++;
			else
				emit_label(c, l, pt ? "pt-label" : "mark-label", px, &b,
					   res == PLACED_LEADER);
		}
}

void chart_labels_free(struct chart *c)
{
	if (!c)
		return;
	for (unsigned i = 0; i < c->nr_labels; i++)
		free(c->labels[i].text);
	free(c->labels);
	c->labels = NULL;
	c->nr_labels = c->cap_labels = 0;
	placer_free(&c->pl);
}
