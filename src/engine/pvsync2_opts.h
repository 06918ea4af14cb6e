/* pvsync2_opts.h - the pvsync2 engine's own options (fio's names), kept
 * in the job's engine_opts area as struct pvsync2_opts. */
#ifndef IOCHAR_ENGINE_PVSYNC2_OPTS_H
#define IOCHAR_ENGINE_PVSYNC2_OPTS_H

#include <stdbool.h>

#include "engine/engine.h"

/* All zero is every default, fio's: no flags, hipri_percentage 100. */
struct pvsync2_opts {
	bool hipri;		/* RWF_HIPRI ... */
	unsigned hipri_pct_off; /* ... on 100 - this % of the I/Os */
	bool nowait;		/* RWF_NOWAIT */
	unsigned uncached;	/* fio's RWF_UNCACHED: refused unless 0 */
};

/* The rows, {NULL}-terminated: engine_pvsync2.options. */
extern const struct option_def pvsync2_options[];

/* engine_pvsync2.check: uncached is refused (engine/rwf.h). */
int pvsync2_check(const struct job_spec *job, struct ioc_err *err);

#endif
