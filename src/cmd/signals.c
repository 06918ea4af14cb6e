/* signals.c - see signals.h. */
#define _GNU_SOURCE
#include "cmd/signals.h"

#include <signal.h>
#include <string.h>

/* The one piece of state a signal handler may touch. */
static atomic_bool stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	atomic_store(&stop_requested, true);
}

atomic_bool *signals_catch(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL); /* the terminal went away: keep the results */
	signal(SIGPIPE, SIG_IGN);
	return &stop_requested;
}
