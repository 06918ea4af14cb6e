/* app_capture.h - `iochar app`'s capture seam (app/app.h) made of
 * `iochar capture`'s session (cmd/capture_session.h). */
#ifndef IOCHAR_CMD_APP_CAPTURE_H
#define IOCHAR_CMD_APP_CAPTURE_H

#include "app/app.h"

const struct app_capture_ops *app_capture_ops(void);

#endif
