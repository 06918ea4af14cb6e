/* chart_place.h - where a chart's labels go: every text, marker and rule
 * drawn is an obstacle; a label is tried at candidate positions around its
 * anchor, nearest first, and takes the first that overlaps no text, no
 * marker and no rule and stays inside the plot. Failing that, farther
 * positions joined to the anchor by a leader line; failing those, it is
 * left out (the caller gives it a tooltip instead). Data lines are soft
 * obstacles: avoided when a position allows, crossed when none does.
 *
 * Also the text widths the layout needs without a browser: an estimate
 * from DejaVu Sans' advance widths (the sans-serif a Debian system falls
 * back to, wider than Helvetica or Arial, so an upper bound for them).
 */
#ifndef IOCHAR_REPORT_CHART_PLACE_H
#define IOCHAR_REPORT_CHART_PLACE_H

#include <stdbool.h>

struct place_box {
	double x0, y0, x1, y1; /* px, y down */
};

enum place_kind {
	PLACE_TEXT,  /* a box no label may touch */
	PLACE_MARK,  /* a data marker's box: the same */
	PLACE_RULE,  /* a segment no label may cross (a limit line) */
	PLACE_LINE,  /* a data line's segment: crossed only when nothing else fits */
};

struct place_obstacle {
	enum place_kind kind;
	struct place_box b; /* a segment: (x0, y0) to (x1, y1) */
};

struct placer {
	struct place_box area; /* labels stay inside */
	struct place_obstacle *obs;
	unsigned nr, cap;
};

/* How a label was placed. */
enum place_result {
	PLACED_NEAR,   /* beside its anchor */
	PLACED_LEADER, /* farther, needs a leader line from the anchor */
	PLACED_NONE,   /* nowhere free: leave it out */
};

void placer_init(struct placer *p, double x0, double y0, double x1, double y1);
void placer_free(struct placer *p);

/* Record an obstacle (a box, or a segment for RULE and LINE). 0 or -ENOMEM. */
int placer_add(struct placer *p, enum place_kind kind, double x0, double y0,
	       double x1, double y1);

/* Find a w x h box for a label anchored at (ax, ay) whose own mark
 * reaches r px from it; the box found is recorded as a TEXT obstacle. */
enum place_result placer_place(struct placer *p, double ax, double ay, double r,
			       double w, double h, struct place_box *out);

/* Take box b when it is inside the area and clear (data lines may be
 * crossed): recorded as a TEXT obstacle; false when it is not free. */
bool placer_take(struct placer *p, const struct place_box *b);

/* Estimated width in px of text s in a sans-serif font of size px. */
double text_px(const char *s, double px, bool bold);

#endif
