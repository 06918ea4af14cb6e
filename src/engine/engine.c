/* engine.c - the one table of engines. Add a new engine here. */
#include "engine/engine.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

extern const struct engine_ops engine_io_uring;
extern const struct engine_ops engine_libaio;
extern const struct engine_ops engine_psync;
extern const struct engine_ops engine_null;
extern const struct engine_ops engine_sync;
extern const struct engine_ops engine_vsync;
extern const struct engine_ops engine_pvsync;
extern const struct engine_ops engine_pvsync2;
extern const struct engine_ops engine_mmap;
extern const struct engine_ops engine_posixaio;
/* fio's file-operation engines (issue 14, fileng) */
extern const struct engine_ops engine_falloc;
extern const struct engine_ops engine_ftruncate;
extern const struct engine_ops engine_filecreate;
extern const struct engine_ops engine_filestat;
extern const struct engine_ops engine_filedelete;
extern const struct engine_ops engine_net;

const struct engine_ops *const engine_table[] = {
	&engine_io_uring,
	&engine_libaio,
	&engine_psync,
	&engine_sync,
	&engine_vsync,
	&engine_pvsync,
	&engine_pvsync2,
	&engine_mmap,
	&engine_posixaio,
	&engine_null,
	&engine_falloc,
	&engine_ftruncate,
	&engine_filecreate,
	&engine_filestat,
	&engine_filedelete,
	&engine_net,
	NULL,
};

const struct engine_ops *engine_find(const char *name)
{
	for (unsigned i = 0; engine_table[i]; i++)
		if (strcmp(engine_table[i]->name, name) == 0)
			return engine_table[i];
	return NULL;
}

static char engine_name_list[256];

static void list_engine_names(void)
{
	size_t n = 0;

	for (unsigned i = 0; engine_table[i] && n < sizeof(engine_name_list); i++)
		n += (size_t)snprintf(engine_name_list + n, sizeof(engine_name_list) - n,
				      "%s%s", i ? ", " : "", engine_table[i]->name);
}

/* From the table, so a new engine is named with the rest; built once. */
const char *engine_names(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, list_engine_names);
	return engine_name_list;
}

int engine_init(const struct engine_ops *e, const struct engine_params *p,
		const void *options, void **out, struct ioc_err *err)
{
	if (e->init_opts)
		return e->init_opts(p, options, out, err);
	return e->init(p, out, err);
}

const struct option_def *engine_option_find(const char *key,
					    const struct engine_ops **owner)
{
	for (unsigned i = 0; engine_table[i]; i++)
		for (const struct option_def *o = engine_table[i]->options;
		     o && o->name; o++)
			if (option_matches(o, key)) {
				if (owner)
					*owner = engine_table[i];
				return o;
			}
	return NULL;
}

/* Engine e's row that key names, or NULL. */
static const struct option_def *row_of(const struct engine_ops *e,
				       const char *key)
{
	for (const struct option_def *o = e ? e->options : NULL; o && o->name;
	     o++)
		if (option_matches(o, key))
			return o;
	return NULL;
}

const struct option_def *engine_option_resolve(const char *key,
					       const char *ioengine,
					       const struct engine_ops **owner)
{
	const struct engine_ops *e = ioengine ? engine_find(ioengine) : NULL;
	const struct option_def *o = row_of(e, key);

	if (!o)
		return engine_option_find(key, owner);
	if (owner)
		*owner = e;
	return o;
}

/* The first of the options given (engine_opts_set) of engine e. */
static const char *first_given(const struct engine_ops *e, uint32_t set)
{
	for (unsigned i = 0; e && e->options && e->options[i].name; i++)
		if (set & (1u << i))
			return e->options[i].name;
	return "?";
}

int engine_check_job(const struct job_spec *job, struct ioc_err *err)
{
	const struct engine_ops *mine = engine_find(job->engine_opts_of);
	const struct engine_ops *e = engine_find(job->ioengine);

	if (job->engine_opts_of[0] && strcmp(job->engine_opts_of, job->ioengine))
		return err_usage(err, EINVAL,
				 "job %s: option '%s' is an option of "
				 "ioengine=%s, not of ioengine=%s",
				 job->name, first_given(mine, job->engine_opts_set),
				 job->engine_opts_of, job->ioengine);
	return e && e->check ? e->check(job, err) : 0;
}
