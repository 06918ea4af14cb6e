/* signals.h - Ctrl-C and SIGTERM ask a run to stop; nothing else. */
#ifndef IOCHAR_CMD_SIGNALS_H
#define IOCHAR_CMD_SIGNALS_H

#include <stdatomic.h>
#include <stdbool.h>

/* Install handlers for SIGINT and SIGTERM that set the returned flag
 * (static storage; the same flag on every call). */
atomic_bool *signals_catch(void);

#endif
