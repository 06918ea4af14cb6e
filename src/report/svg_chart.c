/* svg_chart.c - see svg_chart.h. */
#include "report/svg_chart.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/numfmt.h"

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

static void tick_label(const struct axis *a, double v, char *buf);

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
	return (n > CAT_LABEL_MAX ? CAT_LABEL_MAX : n) * CHAR_PX;
}

/* Width in px of the widest tick label of a (fitted) numeric axis. */
static double widest_tick(const struct axis *a)
{
	char buf[NUMFMT_MAX];
	double w = 0;

	for (unsigned i = 0; a && a->kind != AXIS_CATEGORY && i < a->nr_ticks; i++) {
		tick_label(a, a->ticks[i], buf);
		w = fmax(w, utf8_chars(buf) * CHAR_PX);
	}
	return w;
}

static bool tilted(const struct axis *x)
{
	return x->kind == AXIS_CATEGORY && x->nr_cats > 4;
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
	double band = (c->right - c->left) / c->x->nr_cats;
	double first = cat_label_px(c->x->cats[0]) * 0.866 + 4;
	if (first > band / 2 + c->left)
		c->left = first - band / 2;
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
	c->right = CHART_W - (y2 ? fmax(84, 14 + 9 + 4 + widest_tick(y2) + 6) : 24);
	c->top = 44;
	c->bottom = CHART_H - (tilted(x) ? 100 : 58);
	if (tilted(x))
		fit_tilted_labels(c);
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

/* "1.00 µs" -> "1 µs", "2.50M" -> "2.5M": ticks are round numbers. */
static void trim_zeros(char *buf)
{
	char *dot = strchr(buf, '.');
	if (!dot)
		return;
	char *end = dot + 1;
	while (*end >= '0' && *end <= '9')
		end++;
	char *z = end;
	while (z > dot + 1 && z[-1] == '0')
		z--;
	if (z == dot + 1)
		z = dot;
	memmove(z, end, strlen(end) + 1);
}

static void tick_label(const struct axis *a, double v, char *buf)
{
	if (a->fmt)
		a->fmt(buf, v);
	else
		snprintf(buf, NUMFMT_MAX, "%g", v);
	trim_zeros(buf);
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
		tick_label(a, a->ticks[i], buf);
		fprintf(c->f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
			right ? x + 6 : x - 6, y + 4, right ? "start" : "end");
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
			tick_label(a, a->ticks[i], buf);
			fprintf(c->f, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
				x, c->bottom + 18);
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

static double clampy(const struct chart *c, double y)
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
	double y = isfinite(v) ? clampy(c, chart_px_y(c, c->y, v)) : y0;

	y0 = clampy(c, y0);
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

static bool drawable(const struct axis *a, double v)
{
	return isfinite(v) && (a->kind != AXIS_LOG || v > 0);
}

/* The point markers of series s, each with its tooltip. */
static void markers(struct chart *c, unsigned s, const struct axis *ya,
		    const double *xs, const double *ys, unsigned n,
		    const char *const *tips)
{
	for (unsigned i = 0; i < n; i++) {
		if (!drawable(c->x, xs[i]) || !drawable(ya, ys[i]))
			continue;
		fprintf(c->f, "<circle class=\"dp pt s%u\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" fill=\"%s\" stroke=\"%s\" stroke-width=\"2\">",
			s, chart_px_x(c, xs[i]), clampy(c, chart_px_y(c, ya, ys[i])),
			c->halo ? "4.5" : "3.5", c->halo ? "#fff" : colour(s), colour(s));
		if (tips && tips[i]) {
			fputs("<title>", c->f);
			html_escape(c->f, tips[i]);
			fputs("</title>", c->f);
		}
		fputs("</circle>", c->f);
		c->points++;
	}
}

static void polyline(struct chart *c, const struct axis *ya, const double *xs,
		     const double *ys, unsigned n)
{
	for (unsigned i = 0, k = 0; i < n; i++)
		if (drawable(c->x, xs[i]) && drawable(ya, ys[i]))
			fprintf(c->f, "%s%.1f,%.1f", k++ ? " " : "", chart_px_x(c, xs[i]),
				clampy(c, chart_px_y(c, ya, ys[i])));
	fputs("\"/>", c->f);
}

void chart_line(struct chart *c, unsigned s, bool on_y2, const double *xs,
		const double *ys, unsigned n, const char *const *tips)
{
	const struct axis *ya = on_y2 && c->y2 ? c->y2 : c->y;

	if (c->halo) {
		/* a white outline keeps the line readable over bars */
		fputs("<polyline class=\"halo\" fill=\"none\" stroke=\"#fff\" stroke-width=\"5\" points=\"", c->f);
		polyline(c, ya, xs, ys, n);
	}
	fprintf(c->f, "<polyline class=\"line s%u\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\" points=\"",
		s, colour(s), dash(s));
	polyline(c, ya, xs, ys, n);
	markers(c, s, ya, xs, ys, n, tips);
}

void chart_path(struct chart *c, unsigned s, bool on_y2, const double *xs,
		const double *ys, unsigned n)
{
	fprintf(c->f, "<polyline class=\"line s%u\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\" points=\"",
		s, colour(s), dash(s));
	polyline(c, on_y2 && c->y2 ? c->y2 : c->y, xs, ys, n);
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
	if (!drawable(c->x, x) || !drawable(ya, y))
		return;
	bool tl = style & CHART_PT_TOOL_LIMITED;
	const char *tlc = tl ? " tool-limited" : "", *dash = tl ? " stroke-dasharray=\"2 1.5\"" : "";
	style &= ~CHART_PT_TOOL_LIMITED;
	double px = chart_px_x(c, x), py = clampy(c, chart_px_y(c, ya, y));
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
	c->points++;
}

/* Is the box free of every label placed so far, and inside the plot? */
static bool box_free(const struct chart *c, const double b[4])
{
	if (b[0] < c->left || b[2] > c->right || b[1] < c->top || b[3] > c->bottom)
		return false;
	for (unsigned i = 0; i < c->nr_taken; i++) {
		const double *t = c->taken[i];
		if (b[0] < t[2] && t[0] < b[2] && b[1] < t[3] && t[1] < b[3])
			return false;
	}
	return true;
}

static void take(struct chart *c, const double b[4])
{
	if (c->nr_taken < CHART_MAX_TAKEN)
		memcpy(c->taken[c->nr_taken++], b, 4 * sizeof(double));
}

bool chart_point_label(struct chart *c, bool on_y2, double x, double y,
		       const char *text)
{
	const struct axis *ya = on_y2 && c->y2 ? c->y2 : c->y;
	if (!drawable(c->x, x) || !drawable(ya, y) || c->nr_taken >= CHART_MAX_TAKEN)
		return false;
	double px = chart_px_x(c, x), py = clampy(c, chart_px_y(c, ya, y));
	double w = utf8_chars(text) * 6.0 + 2, h = 12; /* 10px label font */
	/* above right, below right, above left, below left of the point */
	static const double at[4][2] = {{7, -7}, {7, 15}, {-7, -7}, {-7, 15}};
	for (int k = 0; k < 4; k++) {
		double x0 = at[k][0] > 0 ? px + at[k][0] : px + at[k][0] - w;
		double base = py + at[k][1];
		double b[4] = {x0, base - h + 2, x0 + w, base + 2};
		if (!box_free(c, b))
			continue;
		take(c, b);
		fprintf(c->f, "<text class=\"pt-label\" x=\"%.1f\" y=\"%.1f\">", x0 + 1, base);
		html_escape(c->f, text);
		fputs("</text>", c->f);
		return true;
	}
	return false;
}

void chart_mark(struct chart *c, bool on_y2, double x, double y, const char *label)
{
	const struct axis *ya = on_y2 && c->y2 ? c->y2 : c->y;
	if (!drawable(c->x, x) || !drawable(ya, y))
		return;
	double px = chart_px_x(c, x), py = clampy(c, chart_px_y(c, ya, y));
	fprintf(c->f, "<circle class=\"chosen\" cx=\"%.1f\" cy=\"%.1f\" r=\"8\" fill=\"none\" stroke=\"#D55E00\" stroke-width=\"2.5\"/>",
		px, py);
	bool right_half = px > (c->left + c->right) / 2;
	double lx = px + (right_half ? -12 : 12), w = utf8_chars(label) * 7.2;
	/* above the point, or below it when above would reach the title */
	double base = py - 24 < c->top ? py + 22 : py - 10;
	double b[4] = {right_half ? lx - w : lx, base - 14, right_half ? lx : lx + w, base + 4};
	take(c, b); /* point labels keep clear of it */
	fprintf(c->f, "<text class=\"mark-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
		lx, base, right_half ? "end" : "start");
	html_escape(c->f, label);
	fputs("</text>", c->f);
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

/* Width of a legend entry: swatch and text (an estimate: no font metrics
 * without a browser). */
static double legend_width(const char *name)
{
	return 6.8 * (double)strlen(name) + 40;
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

	if (fclose(c->f) != 0)
		ret = -ENOMEM;
	c->f = NULL;
	if (!ret) {
		/* the legend goes below the x axis, as many rows as it needs */
		double h = c->h + legend_rows(c) * LEGEND_ROW + 6;
		fprintf(f, "<svg class=\"chart\" data-chart=\"%s\" data-points=\"%u\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"",
			c->kind, c->points, c->w, h);
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
