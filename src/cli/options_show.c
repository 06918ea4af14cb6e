/* options_show.c - a job's every option value as text, driven by the
 * job's rows: what MPI ranks compare before they run (options.h). */
#include <errno.h>
#include <string.h>

#include "cli/options.h"
#include "base/job_options.h"
#include "engine/engine.h"

/* "name=value\n" for row o of obj. */
static int write_row(const struct option_def *o, const void *obj, FILE *f)
{
	int ret;

	if (fprintf(f, "%s=", o->name) < 0)
		return -EIO;
	ret = option_show(o, obj, f);
	if (!ret && fputc('\n', f) == EOF)
		ret = -EIO;
	return ret;
}

/* The options of the engine they were given for, then its name: the
 * engine-options area holds that engine's struct only (all zero when none
 * was given), so its rows cover it; another engine's rows would read its
 * bytes as their own types (a 2 loaded as a bool). */
static int write_engine_opts(const struct job_spec *spec, FILE *f)
{
	const struct engine_ops *e =
	    spec->engine_opts_of[0] ? engine_find(spec->engine_opts_of) : NULL;
	int ret = 0;

	for (const struct option_def *o = e ? e->options : NULL;
	     o && o->name && !ret; o++)
		ret = write_row(o, spec->engine_opts, f);
	if (!ret && (fprintf(f, "engine_opts_of=") < 0 ||
		     options_show_str(f, spec->engine_opts_of,
				      sizeof(spec->engine_opts_of)) ||
		     fprintf(f, ":%x\n", (unsigned)spec->engine_opts_set) < 0))
		ret = -EIO;
	return ret;
}

int options_write_job(const struct job_spec *spec, FILE *f)
{
	size_t nr;
	const struct option_def *rows = job_option_rows(&nr);
	int ret = 0;

	for (size_t i = 0; i < nr && !ret; i++) {
		const struct option_def *o = &rows[i];
		if (o->type == OPT_IGNORED ||
		    ((o->flags & OPT_F_INVERT) && !(o->flags & OPT_F_OWN_FIELD)))
			continue;
		ret = write_row(o, spec, f);
	}
	return ret ? ret : write_engine_opts(spec, f);
}
