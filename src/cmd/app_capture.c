/* app_capture.c - see app_capture.h. */
#include "cmd/app_capture.h"

#include <stdio.h>

#include "cmd/capture_session.h"

static int begin(void **session, const char *device, const char *workdir,
		 struct ioc_err *err)
{
	const char *devs[] = {device};
	char prefix[1100];

	snprintf(prefix, sizeof(prefix), "%s/.capture", workdir);
	return capture_begin((struct capture_session **)session, devs, 1, prefix, err);
}

static int end(void *session, const char *file, struct ioc_err *err)
{
	return capture_end(session, file, err);
}

static const struct app_capture_ops ops = {.begin = begin, .end = end};

const struct app_capture_ops *app_capture_ops(void)
{
	return &ops;
}
