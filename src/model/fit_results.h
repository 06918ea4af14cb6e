/* fit_results.h - the model fitted on iochar's own results: single-target
 * steps give a drive's rates and low-load latency, scaling steps (one
 * step on growing target sets) the ceiling above the drives. */
#ifndef IOCHAR_MODEL_FIT_RESULTS_H
#define IOCHAR_MODEL_FIT_RESULTS_H

#include "model/fit.h"
#include "util/err.h"

/* Add what the result sets at paths[0..n) (plan directories or run JSON
 * files, report/results_read.h) measure to f. 0 or -errno with a usage
 * message naming the set that cannot be read. */
int mdl_fit_results(struct mdl_fit *f, const char *const *paths, unsigned n,
		    struct ioc_err *err);

#endif
