/* svg_chart_int.h - what svg_chart.c and svg_labels.c share; internal
 * to the chart code. */
#ifndef IOCHAR_REPORT_SVG_CHART_INT_H
#define IOCHAR_REPORT_SVG_CHART_INT_H

#include <stdbool.h>

#include "report/svg_chart.h"

/* Can v be drawn on a (finite; > 0 on a log axis)? */
bool chart_drawable(const struct axis *a, double v);
/* y kept inside the plot. */
double chart_clampy(const struct chart *c, double y);
/* A marker of radius r (stroke included) at (px, py): labels keep off it. */
void chart_mark_box(struct chart *c, double px, double py, double r);
/* Place and write every label kept (svg_labels.c), then release them
 * and the placer. */
void chart_labels_place(struct chart *c);
void chart_labels_free(struct chart *c);

#endif
