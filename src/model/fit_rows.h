/* fit_rows.h - what the two halves of the figures fit share
 * (fit_figures.c: drives and links; fit_adapters.c: what sits above). */
#ifndef IOCHAR_MODEL_FIT_ROWS_H
#define IOCHAR_MODEL_FIT_ROWS_H

#include "model/fit.h"

struct fitter {
	struct mdl_fit *f;
	const struct mdl_figs *figs;
	bool (*skip)(void *arg, const struct mdl_figrow *r);
	void *arg;
};

/* Has r a value, and is it not skipped? */
bool mdl_fitter_usable(const struct fitter *ft, const struct mdl_figrow *r);

/* r's configuration with what ft's fit knows so far, and its workload at
 * read_pct. */
void mdl_fitter_setup(const struct fitter *ft, const struct mdl_figrow *r,
		      double read_pct, struct mdl_config *c, struct mdl_workload *w);

/* r's value as host I/Os per second under w. */
double mdl_figrow_iops(const struct mdl_figrow *r, const struct mdl_workload *w);

/* The controller, parity path, HBA and in-flight estimates. */
void mdl_fit_adapters(struct fitter *ft);

#endif
