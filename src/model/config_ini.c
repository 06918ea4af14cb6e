#include "model/config_ini.h"

int mdl_config_predict(const char *path, const struct mdl_fit *f, const char *format,
		       FILE *out, struct ioc_err *err)
{
	return err_usage(err, 95, "--config: not yet");
}
