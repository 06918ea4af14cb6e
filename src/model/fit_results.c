/* fit_results.c - see fit_results.h. */
#include "model/fit_results.h"

int mdl_fit_results(struct mdl_fit *f, const char *const *paths, unsigned n,
		    struct ioc_err *err)
{
	return err_usage(err, 95, "--results: not yet");
}
