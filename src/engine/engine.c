/* engine.c - the one table of engines. Add a new engine here. */
#include "engine/engine.h"

#include <string.h>

extern const struct engine_ops engine_io_uring;
extern const struct engine_ops engine_libaio;
extern const struct engine_ops engine_psync;
extern const struct engine_ops engine_null;

const struct engine_ops *const engine_table[] = {
	&engine_io_uring,
	&engine_libaio,
	&engine_psync,
	&engine_null,
	NULL,
};

const struct engine_ops *engine_find(const char *name)
{
	for (unsigned i = 0; engine_table[i]; i++)
		if (strcmp(engine_table[i]->name, name) == 0)
			return engine_table[i];
	return NULL;
}

const char *engine_names(void)
{
	return "io_uring, libaio, psync, null";
}
