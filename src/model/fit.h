/* fit.h - a fitted model: what measurements (iochar results, a figures
 * table) say about each drive type, the RAID controller, the HBAs, the
 * links and the host, and how to apply it to a configuration.
 *
 * Fitting assigns every figure to the component that bounds it: per-drive
 * rates come from configurations without a controller (JBOD on HBAs, NVMe
 * on CPU lanes), each drive type at its best; a figure well below what
 * the drives and their links allow (MDL_FIT_SLACK) is a ceiling of what
 * sits above them, taken in member traffic (the controller sees both
 * copies of a mirrored write); several estimates of one parameter are
 * combined by their median. docs/model.md states each rule.
 */
#ifndef IOCHAR_MODEL_FIT_H
#define IOCHAR_MODEL_FIT_H

#include "model/figures.h"
#include "model/model.h"

/* A figure is "well below" a bound under 0.95 of it. */
#define MDL_FIT_SLACK 0.95
#define MDL_FIT_MAX_DRIVES 64

enum { MDL_Q_SEQ, MDL_Q_RAND, MDL_Q_NR };

struct mdl_fit {
	struct mdl_drive drives[MDL_FIT_MAX_DRIVES];
	unsigned nr_drives;
	struct mdl_ctrl ctrl;       /* the RAID controller */
	struct mdl_hba hba;         /* caps per HBA */
	struct mdl_links links;     /* efficiencies */
	struct mdl_host host;
	/* CPU time per I/O results measured (their "cpu" figures): what a
	 * host whose cores a configuration gives pays per I/O; 0: none, then
	 * MDL_IOCHAR_CPU_US_PER_IO */
	double measured_cpu_us_per_io;
	/* I/Os in flight per drive the measurements ran with (Little's law
	 * on their latency), by interface and sequential/random; 0: none */
	double outstanding[MDL_IF_NVME + 1][MDL_Q_NR];
	double latency_limit_ms;    /* the figures' limit; 0: none */
	unsigned nr_rows;           /* figures the fit used */
};

/* Fit f (zeroed first) on the rows of figs with a value, skipping those
 * for which skip(arg, row) says so (NULL: none): leave-one-out uses it.
 * Never fails; a parameter nothing measured stays 0 (never binds). */
void mdl_fit_figures(struct mdl_fit *f, const struct mdl_figs *figs,
		     bool (*skip)(void *arg, const struct mdl_figrow *r), void *arg);

/* The figures of f for drive type into *out (iface a hint for an unknown
 * type): the same type; else, when two of its family (the name without
 * the capacity: "1.6TB NVMe P5600" and "6.4TB NVMe P5600") bracket its
 * capacity, each rate interpolated between them in log capacity; else,
 * for a hard disk f has none of, its class (drive_class.h); else the
 * nearest of the same interface by capacity; else the nearest of any.
 * false when f has no drive. */
bool mdl_fit_drive(const struct mdl_fit *f, const char *type, enum mdl_iface iface,
		   struct mdl_drive *out);

/* Fill c's drive rates, caps and efficiencies from f where c leaves them
 * 0 (figures entered in a configuration win). */
void mdl_fit_apply(const struct mdl_fit *f, struct mdl_config *c);

/* The workload's in-flight I/Os per drive from f when w leaves it 0. */
void mdl_fit_apply_workload(const struct mdl_fit *f, const struct mdl_config *c,
			    struct mdl_workload *w);

/* Predict figures row r with f: its configuration and workload (a blank
 * read_pct: the lower of the read and the write figure; a limit row: the
 * ceiling), into a; *value is a's throughput in r's unit. */
void mdl_fit_predict_row(const struct mdl_fit *f, const struct mdl_figrow *r,
			 struct mdl_answer *a, double *value);

#endif
