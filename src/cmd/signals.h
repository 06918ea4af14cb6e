/* signals.h - SIGINT, SIGTERM and SIGHUP ask a run to stop in order (the
 * results measured so far are written, labelled partial); SIGPIPE is
 * ignored, so a closed pipe on stdout is a write error (EPIPE) to report,
 * not the end of a run whose results go to --output. */
#ifndef IOCHAR_CMD_SIGNALS_H
#define IOCHAR_CMD_SIGNALS_H

#include <stdatomic.h>
#include <stdbool.h>

/* Install handlers for SIGINT, SIGTERM and SIGHUP that set the returned
 * flag (static storage; the same flag on every call), and ignore SIGPIPE. */
atomic_bool *signals_catch(void);

#endif
