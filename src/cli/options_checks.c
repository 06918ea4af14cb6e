/* options_checks.c - the parse-time checks of job values that need layers
 * above base/: the job's rows (base/job_rows.c) store ioengine and vd as
 * plain strings, and the command line and job files check here, before
 * the row parses, what they must name. See options.h. Jobs made without
 * parsing are checked when they run (core/validate.c: the engine; the VD
 * target: the definition).
 */
#include "cli/options.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "vd/def.h"

/* An engine of the engine table (a name too long for the field is none). */
static int check_ioengine(const struct option_def *o, const char *v,
			  struct ioc_err *err)
{
	if (!engine_find(v))
		return err_usage(err, EINVAL,
				 "%s=%s: unknown engine; accepted: %s", o->name,
				 v, engine_names());
	return 0;
}

/* Syntax and arithmetic of every definition in the list now (one line,
 * exit 2); the members are looked at when the job is validated. */
static int check_vd(const struct option_def *o, const char *v,
		    struct ioc_err *err)
{
	struct vd_def *def = malloc(sizeof(*def));
	char *one = malloc(strlen(v) + 1);
	int ret = def && one ? 0 : err_set(err, ENOMEM, "out of memory");

	(void)o;
	for (unsigned i = 0; !ret && i < vd_list_count(v); i++)
		if (!(ret = vd_list_item(v, i, one, strlen(v) + 1)))
			ret = vd_def_parse(one, def, err);
	free(one);
	free(def);
	return ret;
}

static const struct {
	const char *row;
	int (*fn)(const struct option_def *o, const char *v,
		  struct ioc_err *err);
} value_checks[] = {
	{"ioengine", check_ioengine},
	{"vd", check_vd},
};

int options_check_value(const struct option_def *o, const char *value,
			struct ioc_err *err)
{
	if (!value || o->scope != OPT_SCOPE_JOB)
		return 0;
	for (size_t i = 0; i < sizeof(value_checks) / sizeof(value_checks[0]);
	     i++)
		if (!strcmp(o->name, value_checks[i].row))
			return value_checks[i].fn(o, value, err);
	return 0;
}
