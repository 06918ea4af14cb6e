/* config_ini.h - a configuration to predict, as INI (docs/model.md). */
#ifndef IOCHAR_MODEL_CONFIG_INI_H
#define IOCHAR_MODEL_CONFIG_INI_H

#include <stdio.h>

#include "model/fit.h"
#include "util/err.h"

int mdl_config_predict(const char *path, const struct mdl_fit *f, const char *format,
		       FILE *out, struct ioc_err *err);

#endif
