/* svg_chart.c - see svg_chart.h. */
#include "report/svg_chart.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/numfmt.h"
#include "report/svg_chart_int.h"

#define CHART_W 760.0
#define CHART_H 380.0

/* Okabe & Ito, "Color Universal Design": distinguishable with every common
 * colour-vision deficiency (the yellow is left out: too pale on white). */
static const char *const palette[] = {"#0072B2", "#E69F00", "#009E73", "#D55E00",
				      "#CC79A7", "#56B4E9", "#000000"};
#define NR_COLOURS (sizeof(palette) / sizeof(palette[0]))
static const char *const dashes[] = {"", "6 3", "2 3", "8 3 2 3"};

static const char *colour(unsigned s)
{
	return palette[s % NR_COLOURS];
}

static const char *dash(unsigned s)
{
	return dashes[(s / NR_COLOURS + s) % 4];
}

void html_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

/* Heckbert's nice numbers: 1, 2, 5 or 10 times a power of ten. */
static double nice_num(double x, bool round)
{
	double e = floor(log10(x)), f = x / pow(10, e), nf;
	if (round)
		nf = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
	else
		nf = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
	return nf * pow(10, e);
}

static void fit_log(struct axis *a, double lo, double hi)
{
	if (!(hi > 0) || !isfinite(hi))
		hi = 1;
	if (!(lo > 0) || !isfinite(lo) || lo > hi)
		lo = hi / 10;
	double e0 = floor(log10(lo)), e1 = ceil(log10(hi));
	if (e1 <= e0)
		e1 = e0 + 1;
	double step = ceil((e1 - e0) / 15);
	a->min = pow(10, e0);
	a->max = pow(10, e1);
	a->nr_ticks = 0;
	for (double e = e0; e <= e1 + 1e-9 && a->nr_ticks < 16; e += step)
		a->ticks[a->nr_ticks++] = pow(10, e);
}

void axis_fit(struct axis *a, double lo, double hi, bool from_zero)
{
	if (a->kind == AXIS_CATEGORY) {
		a->min = -0.5;
		a->max = a->nr_cats ? a->nr_cats - 0.5 : 0.5;
		a->nr_ticks = 0;
		return;
	}
	if (a->kind == AXIS_LOG) {
		fit_log(a, lo, hi);
		return;
	}
	if (!isfinite(lo))
		lo = 0;
	if (!isfinite(hi))
		hi = lo + 1;
	if (from_zero && lo > 0)
		lo = 0;
	if (hi <= lo)
		hi = lo + (lo != 0 ? fabs(lo) * 0.1 : 1);
	double step = nice_num(nice_num(hi - lo, false) / 4, true);
	if (!(step > 0) || !isfinite(step))
		step = 1;
	a->min = floor(lo / step) * step;
	a->max = ceil(hi / step) * step;
	if (a->max <= a->min)
		a->max = a->min + step;
	a->nr_ticks = 0;
	for (double t = a->min; t <= a->max + step * 1e-6 && a->nr_ticks < 16; t += step)
		a->ticks[a->nr_ticks++] = fabs(t) < step * 1e-9 ? 0 : t;
}

/* Category labels are drawn up to this many characters; a longer one ends
 * in an ellipsis and carries the whole name as its tooltip. */
#define CAT_LABEL_MAX 30
#define CHAR_PX 6.6 /* an 11px sans character, a bound for digits and letters */

static unsigned utf8_chars(const char *s)
{
	unsigned n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80; /* not a continuation byte */
	return n;
}

static double cat_label_px(const char *s)
{
	unsigned n = utf8_chars(s);
	return n > CAT_LABEL_MAX ? (CAT_LABEL_MAX + 1) * CHAR_PX : text_px(s, 11, false);
}

/* Width in px of the widest tick label of a (fitted) numeric axis. */
static double widest_tick(const struct axis *a)
{
	char buf[NUMFMT_MAX];
	double w = 0;

	for (unsigned i = 0; a && a->kind != AXIS_CATEGORY && i < a->nr_ticks; i++) {
		axis_tick_label(a, a->ticks[i], buf);
		w = fmax(w, text_px(buf, 11, false));
	}
	return w;
}

/* Category labels are tilted when there are many, or when the longest
 * would not fit its band upright (the narrowest plot: both y axes). */
static bool tilted(const struct axis *x)
{
	if (x->kind != AXIS_CATEGORY || !x->nr_cats)
		return false;
	double longest = 0, band = (CHART_W - 2 * 84) / x->nr_cats;
	for (unsigned i = 0; i < x->nr_cats; i++)
		longest = fmax(longest, cat_label_px(x->cats[i]));
	return x->nr_cats > 4 || longest > band - 8;
}

/* Margins that fit tilted category labels (-30 degrees, anchored at their
 * end under their category): the longest must clear the axis title below
 * (~22 px tall at the bottom), the first must not leave the chart on the
 * left (it was clipped). */
static void fit_tilted_labels(struct chart *c)
{
	double longest = 0;
	for (unsigned i = 0; i < c->x->nr_cats; i++)
		longest = fmax(longest, cat_label_px(c->x->cats[i]));
	c->bottom = fmin(c->bottom, c->h - (18 + longest * 0.5 + 8 + 24));
	/* the first band's middle, left + (right - left) / 2n, at least
	 * first: solved for left, as moving left narrows the bands too */
	double half = 0.5 / c->x->nr_cats;
	double first = cat_label_px(c->x->cats[0]) * 0.866 + 9; /* + its height * sin 30 */
	if (first > c->left + (c->right - c->left) * half)
		c->left = (first - c->right * half) / (1 - half);
}

int chart_begin(struct chart *c, FILE *out, const char *kind, const char *title,
		struct axis *x, struct axis *y, struct axis *y2)
{
	memset(c, 0, sizeof(*c));
	c->out = out;
	c->kind = kind;
	c->title = title;
	c->x = x;
	c->y = y;
	c->y2 = y2;
	c->w = CHART_W;
	c->h = CHART_H;
	/* Room for the tick labels between the plot and the axis title (a
	 * rotated line centred 16 px from the edge, ~9 px either side): long
	 * labels such as "10000 GB/s" once sat under the title. */
	c->left = fmax(84, 16 + 9 + 4 + widest_tick(y) + 6);
	/* without a right axis, room for half the last x tick label, centred
	 * on the frame's edge ("40,000 GB/s" once left the chart) */
	c->right = CHART_W - (y2 ? fmax(84, 14 + 9 + 4 + widest_tick(y2) + 6)
				 : fmax(24, widest_tick(x) / 2 + 6));
	c->top = 44;
	c->bottom = CHART_H - (tilted(x) ? 100 : 58);
	if (tilted(x))
		fit_tilted_labels(c);
	placer_init(&c->pl, c->left, c->top, c->right, c->bottom);
	c->f = open_memstream(&c->body, &c->body_len);
	return c->f ? 0 : -ENOMEM;
}

static double frac(const struct axis *a, double v)
{
	if (a->kind == AXIS_LOG) {
		if (!(v > 0))
			return -1;
		return (log10(v) - log10(a->min)) / (log10(a->max) - log10(a->min));
	}
	return (v - a->min) / (a->max - a->min);
}

double chart_px_x(const struct chart *c, double v)
{
	return c->left + frac(c->x, v) * (c->right - c->left);
}

double chart_px_y(const struct chart *c, const struct axis *a, double v)
{
	return c->bottom - frac(a, v) * (c->bottom - c->top);
}

static void y_axis(struct chart *c, const struct axis *a, bool right)
{
	char buf[NUMFMT_MAX];
	double x = right ? c->right : c->left;

	for (unsigned i = 0; i < a->nr_ticks; i++) {
		double y = chart_px_y(c, a, a->ticks[i]);
		if (!right)
			fprintf(c->f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
				c->left, y, c->right, y);
		axis_tick_label(a, a->ticks[i], buf);
		/* data-axis: which axis a tick is of, for the browser test's
		 * one-format-per-axis check (log: one unit per decade; own: the
		 * caller's format) */
		fprintf(c->f, "<text class=\"tick\" data-axis=\"%s%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
			right ? "y2" : "y", a->fmt ? " own" : a->kind == AXIS_LOG ? " log" : "", right ? x + 6 : x - 6,
			y + 4, right ? "start" : "end");
		html_escape(c->f, buf);
		fputs("</text>", c->f);
	}
	double mid = (c->top + c->bottom) / 2, lx = right ? c->w - 14 : 16;
	fprintf(c->f, "<text class=\"axis-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(%d %.1f %.1f)\">",
		lx, mid, right ? 90 : -90, lx, mid);
	html_escape(c->f, a->label);
	fputs("</text>", c->f);
}

/* A category's label, cut at CAT_LABEL_MAX characters with its whole
 * name as the tooltip. */
static void cat_label(FILE *f, const char *name)
{
	if (utf8_chars(name) <= CAT_LABEL_MAX) {
		html_escape(f, name);
		return;
	}
	char cut[CAT_LABEL_MAX * 4 + 1];
	size_t n = 0;
	for (unsigned chars = 0; name[n] && n + 4 < sizeof(cut); n++) {
		if (((unsigned char)name[n] & 0xc0) != 0x80 && ++chars == CAT_LABEL_MAX)
			break;
		cut[n] = name[n];
	}
	cut[n] = '\0';
	fputs("<title>", f);
	html_escape(f, name);
	fputs("</title>", f);
	html_escape(f, cut);
	fputs("\u2026", f);
}

static void x_axis(struct chart *c)
{
	char buf[NUMFMT_MAX];
	const struct axis *a = c->x;
	bool tilt = tilted(a);

	if (a->kind == AXIS_CATEGORY) {
		for (unsigned i = 0; i < a->nr_cats; i++) {
			double x = chart_px_x(c, i), y = c->bottom + 18;
			if (tilt)
				fprintf(c->f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" transform=\"rotate(-30 %.1f %.1f)\">",
					x, y, x, y);
			else
				fprintf(c->f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
					x, y);
			cat_label(c->f, a->cats[i]);
			fputs("</text>", c->f);
		}
	} else {
		for (unsigned i = 0; i < a->nr_ticks; i++) {
			double x = chart_px_x(c, a->ticks[i]);
			fprintf(c->f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
				x, c->top, x, c->bottom);
			axis_tick_label(a, a->ticks[i], buf);
			fprintf(c->f, "<text class=\"tick\" data-axis=\"x%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
				a->fmt ? " own" : a->kind == AXIS_LOG ? " log" : "", x, c->bottom + 18);
			html_escape(c->f, buf);
			fputs("</text>", c->f);
		}
	}
	fprintf(c->f, "<text class=\"axis-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		(c->left + c->right) / 2, c->h - 10);
	html_escape(c->f, a->label);
	fputs("</text>", c->f);
}

void chart_axes(struct chart *c)
{
	y_axis(c, c->y, false);
	if (c->y2)
		y_axis(c, c->y2, true);
	x_axis(c);
	fprintf(c->f, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>",
		c->left, c->top, c->right - c->left, c->bottom - c->top);
}

double chart_clampy(const struct chart *c, double y)
{
	return y < c->top ? c->top : y > c->bottom ? c->bottom : y;
}

void chart_bar(struct chart *c, unsigned cat, unsigned s, unsigned nr, double v,
	       const char *tip)
{
	double band = (c->right - c->left) / (c->x->max - c->x->min);
	double group = band * 0.8, bw = group / (nr ? nr : 1);
	double x = chart_px_x(c, cat) - group / 2 + s * bw;
	double y0 = chart_px_y(c, c->y, c->y->kind == AXIS_LOG ? c->y->min : 0);
	double y = isfinite(v) ? chart_clampy(c, chart_px_y(c, c->y, v)) : y0;

	y0 = chart_clampy(c, y0);
	fprintf(c->f, "<rect class=\"dp bar s%u\" fill=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">",
		s, colour(s), x + 1, fmin(y, y0), bw > 2 ? bw - 2 : bw, fabs(y0 - y));
	if (tip) {
		fputs("<title>", c->f);
		html_escape(c->f, tip);
		fputs("</title>", c->f);
	}
	fputs("</rect>", c->f);
	c->points++;
}

void chart_mark_box(struct chart *c, double px, double py, double r)
{
	placer_add(&c->pl, PLACE_MARK, px - r, py - r, px + r, py + r);
}

bool chart_drawable(const struct axis *a, double v)
{
	return isfinite(v) && (a->kind != AXIS_LOG || v > 0);
}

/* The point markers of series s, each with its tooltip. */
static void markers(struct chart *c, unsigned s, const struct axis *ya,
		    const double *xs, const double *ys, unsigned n,
		    const char *const *tips)
{
	for (unsigned i = 0; i < n; i++) {
		if (!chart_drawable(c->x, xs[i]) || !chart_drawable(ya, ys[i]))
			continue;
		double px = chart_px_x(c, xs[i]), py = chart_clampy(c, chart_px_y(c, ya, ys[i]));
		fprintf(c->f, "<circle class=\"dp pt s%u\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\" stroke=\"%s\" stroke-width=\"2\">",
			s, px, py, c->halo ? "4.5" : "3.5", c->halo ? "#fff" : colour(s), colour(s));
		chart_mark_box(c, px, py, c->halo ? 5.5 : 4.5);
		if (tips && tips[i]) {
			fputs("<title>", c->f);
			html_escape(c->f, tips[i]);
			fputs("</title>", c->f);
		}
		fputs("</circle>", c->f);
		c->points++;
	}
}

/* The points of a polyline; each segment a soft obstacle for labels
 * when record (the halo under a line is the same line). */
static void polyline(struct chart *c, const struct axis *ya, const double *xs,
		     const double *ys, unsigned n, bool record)
{
	double lx = 0, ly = 0;
	for (unsigned i = 0, k = 0; i < n; i++) {
		if (!chart_drawable(c->x, xs[i]) || !chart_drawable(ya, ys[i]))
			continue;
		double px = chart_px_x(c, xs[i]), py = chart_clampy(c, chart_px_y(c, ya, ys[i]));
		fprintf(c->f, "%s%.1f,%.1f", k ? " " : "", px, py);
		if (k++ && record)
			placer_add(&c->pl, PLACE_LINE, lx, ly, px, py);
		lx = px;
		ly = py;
	}
	fputs("\"/>", c->f);
}

void chart_line(struct chart *c, unsigned s, bool on_y2, const double *xs,
		const double *ys, unsigned n, const char *const *tips)
{
	const struct axis *ya = on_y2 && c->y2 ? c->y2 : c->y;

	if (c->halo) {
		/* a white outline keeps the line readable over bars */
		fputs("<polyline class=\"halo\" fill=\"none\" stroke=\"#fff\" stroke-width=\"5\" points=\"", c->f);
		polyline(c, ya, xs, ys, n, false);
	}
	fprintf(c->f, "<polyline class=\"line s%u\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\" points=\"",
		s, colour(s), dash(s));
	polyline(c, ya, xs, ys, n, true);
	markers(c, s, ya, xs, ys, n, tips);
}

void chart_path(struct chart *c, unsigned s, bool on_y2, const double *xs,
		const double *ys, unsigned n)
{
	fprintf(c->f, "<polyline class=\"line s%u\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\" points=\"",
		s, colour(s), dash(s));
	polyline(c, on_y2 && c->y2 ? c->y2 : c->y, xs, ys, n, true);
}

void chart_points(struct chart *c, unsigned s, bool on_y2, const double *xs,
		  const double *ys, unsigned n, const char *const *tips)
{
	markers(c, s, on_y2 && c->y2 ? c->y2 : c->y, xs, ys, n, tips);
}

/* An X of half-width d at (px, py), in series s's colour: the mark of a
 * tool-limited point, over its shape (not a data mark itself). */
static void cross(FILE *f, unsigned s, double px, double py, double d)
{
	fprintf(f, "<path class=\"tl-cross\" d=\"M%.1f %.1fl%.1f %.1fM%.1f %.1fl%.1f %.1f\" stroke=\"%s\" stroke-width=\"1.5\"/>",
		px - d, py - d, 2 * d, 2 * d, px - d, py + d, 2 * d, -2 * d, colour(s));
}

void chart_point(struct chart *c, unsigned s, bool on_y2, double x, double y,
		 int style, const char *tip)
{
	const struct axis *ya = on_y2 && c->y2 ? c->y2 : c->y;
	if (!chart_drawable(c->x, x) || !chart_drawable(ya, y))
		return;
	bool tl = style & CHART_PT_TOOL_LIMITED;
	const char *tlc = tl ? " tool-limited" : "", *dash = tl ? " stroke-dasharray=\"2 1.5\"" : "";
	style &= ~CHART_PT_TOOL_LIMITED;
	double px = chart_px_x(c, x), py = chart_clampy(c, chart_px_y(c, ya, y));
	if (style == CHART_PT_SQUARE)
		fprintf(c->f, "<rect class=\"dp pt square%s s%u\" x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"%s\" stroke=\"#1a1a1a\" stroke-width=\"1.5\"%s>",
			tlc, s, px - 4.5, py - 4.5, tl ? "#fff" : colour(s), dash);
	else
		fprintf(c->f, "<circle class=\"dp pt%s%s s%u\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\" stroke=\"%s\" stroke-width=\"2\"%s>",
			style == CHART_PT_HOLLOW ? " hollow" : "", tlc, s, px, py,
			style == CHART_PT_HOLLOW || tl ? "#fff" : colour(s), colour(s), dash);
	if (tip) {
		fputs("<title>", c->f);
		html_escape(c->f, tip);
		fputs("</title>", c->f);
	}
	fputs(style == CHART_PT_SQUARE ? "</rect>" : "</circle>", c->f);
	if (tl)
		cross(c->f, s, px, py, 3);
	chart_mark_box(c, px, py, 6);
	c->points++;
}

void chart_legend_add(struct chart *c, unsigned s, int style, const char *name)
{
	if (c->nr_legend >= CHART_MAX_LEGEND)
		return;
	snprintf(c->legend[c->nr_legend], sizeof(c->legend[c->nr_legend]), "%s", name);
	c->legend_style[c->nr_legend] = style;
	c->legend_series[c->nr_legend] = (int)s;
	c->nr_legend++;
}

#define LEGEND_ROW 18.0

/* Width of a legend entry: swatch (27 px to the text), the text at the
 * legend's 12 px (an estimate: no font metrics without a browser), and
 * 16 px before the next entry. */
static double legend_width(const char *name)
{
	return 27 + text_px(name, 12, false) + 16;
}

/* Rows the legend needs below the chart, laid out left to right. */
static unsigned legend_rows(const struct chart *c)
{
	double x = c->left;
	unsigned rows = c->nr_legend ? 1 : 0;
	for (unsigned i = 0; i < c->nr_legend; i++) {
		double tw = legend_width(c->legend[i]);
		if (x + tw > c->w - 10 && x > c->left) {
			rows++;
			x = c->left;
		}
		x += tw;
	}
	return rows;
}

static void legend(struct chart *c, FILE *f)
{
	double x = c->left, y = c->h + LEGEND_ROW - 4;
	for (unsigned i = 0; i < c->nr_legend; i++) {
		unsigned s = (unsigned)c->legend_series[i];
		double tw = legend_width(c->legend[i]);
		if (x + tw > c->w - 10 && x > c->left) {
			y += LEGEND_ROW;
			x = c->left;
		}
		fputs("<g class=\"legend-item\">", f);
		if (c->legend_style[i] == CHART_LEGEND_POINT || c->legend_style[i] == CHART_LEGEND_HOLLOW)
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\" stroke=\"%s\" stroke-width=\"2\"/>",
				x + 11, y - 4,
				c->legend_style[i] == CHART_LEGEND_HOLLOW || c->halo ? "#fff" : colour(s),
				colour(s));
		else if (c->legend_style[i] == CHART_LEGEND_TOOL_LIMITED) {
			fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"#fff\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"2 1.5\"/>",
				x + 11, y - 4, colour(s));
			cross(f, s, x + 11, y - 4, 3);
		} else if (c->legend_style[i] == CHART_LEGEND_SQUARE)
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"%s\" stroke=\"#1a1a1a\" stroke-width=\"1.5\"/>",
				x + 6.5, y - 8.5, colour(s));
		else if (c->legend_style[i] == CHART_LEGEND_LINE)
			fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2.5\" stroke-dasharray=\"%s\"/>",
				x, y - 4, x + 22, y - 4, colour(s), dash(s));
		else
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\"/>",
				x + 4, y - 9, colour(s));
		fprintf(f, "<text class=\"legend\" x=\"%.1f\" y=\"%.1f\">", x + 27, y);
		html_escape(f, c->legend[i]);
		fputs("</text></g>", f);
		x += tw;
	}
}

int chart_end(struct chart *c)
{
	FILE *f = c->out;
	int ret = 0;

	chart_labels_place(c); /* last: over every mark, knowing them all */
	chart_labels_free(c);
	if (fclose(c->f) != 0)
		ret = -ENOMEM;
	c->f = NULL;
	if (!ret) {
		/* the legend goes below the x axis, as many rows as it needs */
		double h = c->h + legend_rows(c) * LEGEND_ROW + 6;
		fprintf(f, "<svg class=\"chart\" data-chart=\"%s\" data-points=\"%u\"", c->kind,
			c->points);
		if (c->dropped) /* labels with no free place: their points' tooltips say it */
			fprintf(f, " data-dropped=\"%u\"", c->dropped);
		fprintf(f, " viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"", c->w, h);
		html_escape(f, c->title);
		fputs("\"><title>", f);
		html_escape(f, c->title);
		fprintf(f, "</title><text class=\"chart-title\" x=\"%.1f\" y=\"22\" text-anchor=\"middle\">",
			c->w / 2);
		html_escape(f, c->title);
		fputs("</text>", f);
		fwrite(c->body, 1, c->body_len, f);
		legend(c, f);
		fputs("</svg>\n", f);
	}
	free(c->body);
	c->body = NULL;
	return ret ? ret : ferror(f) ? -EIO : 0;
}
