/* server.c - listening, the main loop, and a thread for each admitted
 * test. Connections not yet admitted have no thread (pending.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/io.h"
#include "net/server_int.h"
#include "util/clock.h"

/* A client opens its streams in one burst; the kernel holds them here
 * until the main loop takes them (capped by net.core.somaxconn). */
#define NET_BACKLOG 1024
#define NET_ACCEPT_BURST 64  /* accepts per loop turn */

struct test_thread {
	struct test_thread *next;
	struct server *srv;
	struct session *ss;
	pthread_t thread;
	int fd;
	bool done;              /* under srv->lock */
	char peer[64];
};

void net_caps_default(struct net_caps *c)
{
	c->max_streams = 128;
	c->max_duration = 3600;
	c->max_tests = 4;
	c->max_peer_tests = 2;
	c->max_len = 8u << 20;
	c->max_window = 64u << 20;
	c->max_json = 256u << 10;
	c->max_test_mem = 256u << 20;
	c->idle_ms = 10000;
	c->handshake_ms = 3000;
	c->max_pending = 512;
	c->max_peer_pending = 256;
}

void server_log(struct server *srv, const char *peer, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&srv->lock);
	fprintf(srv->log, "iochar net server: %s: ", peer);
	va_start(ap, fmt);
	vfprintf(srv->log, fmt, ap);
	va_end(ap);
	fputc('\n', srv->log);
	fflush(srv->log);
	pthread_mutex_unlock(&srv->lock);
}

struct session *server_find_session(struct server *srv, const char *cookie)
{
	for (struct session *s = srv->sessions; s; s = s->next)
		if (!memcmp(s->cookie, cookie, NET_COOKIE_SIZE))
			return s;
	return NULL;
}

/* Under srv->lock. */
static void unlink_session(struct server *srv, struct session *ss)
{
	for (struct session **pp = &srv->sessions; *pp; pp = &(*pp)->next)
		if (*pp == ss) {
			*pp = ss->next;
			break;
		}
}

void session_release(struct server *srv, struct session *ss)
{
	pthread_mutex_lock(&srv->lock);
	if (!ss->released) {
		ss->released = true;
		srv->active_tests--;
		srv->tests_done++;
	}
	pthread_mutex_unlock(&srv->lock);
}

/* Under srv->lock: forget ss and free it with its streams. */
static void session_free(struct server *srv, struct session *ss)
{
	unlink_session(srv, ss);
	for (unsigned i = 0; i < ss->nr_fds; i++)
		if (ss->fds[i] >= 0)
			close(ss->fds[i]);
	free(ss->fds);
	free(ss->seqs);
	pthread_cond_destroy(&ss->cond);
	free(ss);
}

static void *test_main(void *arg)
{
	struct test_thread *t = arg;
	struct server *srv = t->srv;

	session_run(srv, t->ss, t->fd, t->peer);
	session_release(srv, t->ss);
	close(t->fd);
	pthread_mutex_lock(&srv->lock);
	session_free(srv, t->ss);
	t->done = true;
	pthread_mutex_unlock(&srv->lock);
	return NULL;
}

int server_start_test(struct server *srv, struct session *ss, int ctrl,
		      const char *peer)
{
	struct test_thread *t = calloc(1, sizeof(*t));

	if (t) {
		t->srv = srv;
		t->ss = ss;
		t->fd = ctrl;
		snprintf(t->peer, sizeof(t->peer), "%s", peer);
		if (pthread_create(&t->thread, NULL, test_main, t) == 0) {
			t->next = srv->threads; /* main loop only */
			srv->threads = t;
			return 0;
		}
		free(t);
	}
	pthread_mutex_lock(&srv->lock);
	srv->active_tests--;
	session_free(srv, ss);
	pthread_mutex_unlock(&srv->lock);
	server_log(srv, peer, "dropped: cannot start a thread for the test");
	return -EAGAIN;
}

/* Join finished test threads; with all, wait for every one. */
static void reap(struct server *srv, bool all)
{
	for (struct test_thread **pp = &srv->threads; *pp;) {
		struct test_thread *t = *pp;
		pthread_mutex_lock(&srv->lock);
		bool done = t->done;
		pthread_mutex_unlock(&srv->lock);
		if (!done && !all) {
			pp = &t->next;
			continue;
		}
		pthread_join(t->thread, NULL);
		*pp = t->next;
		free(t);
	}
}

/* Take the connections waiting in the backlog. Out of descriptors, the
 * oldest handshake of the busiest peer makes way; with none to drop, the
 * listener is left alone for a moment (*pause_ns) rather than spun on. */
static void accept_some(struct server *srv, int lfd, struct pending *pd,
			uint64_t *seq, uint64_t *pause_ns)
{
	for (int k = 0; k < NET_ACCEPT_BURST; k++) {
		struct sockaddr_storage ss;
		socklen_t sl = sizeof(ss);
		int fd = accept4(lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC);

		if (fd >= 0) {
			/* fds are numbered lowest free first, so fd + 1 are
			 * open: past the mark, handshakes make way until the
			 * count is back under it (one more than the excess,
			 * as the next accept reuses a number freed here) */
			for (unsigned m = srv->fd_high; m <= (unsigned)fd + 1; m++)
				if (pending_shed(srv, pd, "few file descriptors left"))
					break;
			pending_add(srv, pd, fd, &ss, (*seq)++);
			continue;
		}
		if (errno == EINTR || errno == ECONNABORTED)
			continue;
		if (errno != EMFILE && errno != ENFILE && errno != ENOBUFS &&
		    errno != ENOMEM)
			return;
		if (pending_shed(srv, pd, strerror(errno)) == 0)
			continue;
		server_log(srv, "listener", "cannot accept: %s; pausing 100 ms",
			   strerror(errno));
		*pause_ns = clock_ns() + 100000000ull;
		return;
	}
}

static void log_listening(struct server *srv, const char *bind,
			  uint16_t port)
{
	char where[80];
	bool v6 = strchr(bind, ':') != NULL;

	snprintf(where, sizeof(where), "%s%s%s port %u", v6 ? "[" : "", bind,
		 v6 ? "]" : "", port);
	bool loopback = !strncmp(bind, "127.", 4) || !strcmp(bind, "::1");
	server_log(srv, where, "listening%s",
		   srv->o->secret ? ", a secret is required"
		   : loopback     ? ""
				  : ", no secret: anyone who can reach it may "
				    "run tests (within the limits, docs/net.md)");
}

static bool finished(struct server *srv)
{
	const struct net_server_opts *o = srv->o;

	if (o->stop && atomic_load(o->stop))
		return true;
	pthread_mutex_lock(&srv->lock);
	bool all_done = o->max_total && srv->tests_done >= o->max_total;
	pthread_mutex_unlock(&srv->lock);
	return all_done;
}

/* The descriptor number from which handshakes make way for newcomers:
 * the last quarter of RLIMIT_NOFILE, at most 64, stays for what admitted
 * tests open (their streams' epoll sets and eventfds). */
static unsigned fd_high_mark(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur > UINT32_MAX)
		return UINT32_MAX;
	unsigned n = (unsigned)rl.rlim_cur;
	return n - (n / 4 < 64 ? n / 4 : 64);
}

/* Until stopped or done: poll the listener and the pending connections. */
static void serve(struct server *srv, int lfd)
{
	struct pending pd = {0};
	struct pollfd *pf = NULL;
	unsigned cap = 0;
	uint64_t seq = 0, pause_ns = 0;

	while (!finished(srv)) {
		if (cap < pd.n + 1) {
			struct pollfd *g = realloc(pf, (pd.n + 1) * sizeof(*pf));
			if (g) {
				pf = g;
				cap = pd.n + 1;
			}
		}
		unsigned n = pf ? pending_pollfds(&pd, pf + 1, cap - 1) : 0;
		bool listen_on = clock_ns() >= pause_ns;
		if (pf)
			pf[0] = (struct pollfd){listen_on ? lfd : -1, POLLIN, 0};
		int r = poll(pf, pf ? n + 1 : 0, pending_next_ms(&pd, 200));
		if (r < 0 && errno != EINTR)
			break;
		if (pf)
			pending_service(srv, &pd, pf + 1, n);
		if (pf && (pf[0].revents & POLLIN))
			accept_some(srv, lfd, &pd, &seq, &pause_ns);
		reap(srv, false);
	}
	pending_free(&pd);
	free(pf);
}

int net_server_run(const struct net_server_opts *o, struct ioc_err *err)
{
	struct server srv = {.o = o, .caps = o->caps,
			     .log = o->log ? o->log : stderr,
			     .fd_high = fd_high_mark()};
	const char *bind = o->bind ? o->bind : "127.0.0.1";
	uint16_t port;
	int lfd, rc;

	rc = net_listen(bind, o->port, NET_BACKLOG, &lfd, &port, err);
	if (rc)
		return rc;
	if (fcntl(lfd, F_SETFL, fcntl(lfd, F_GETFL) | O_NONBLOCK) < 0) {
		rc = -errno;
		close(lfd);
		return err_set(err, -rc, "listening socket: %s", strerror(-rc));
	}
	pthread_mutex_init(&srv.lock, NULL);
	log_listening(&srv, bind, port);
	if (o->on_listen)
		o->on_listen(o->listen_arg, port);
	serve(&srv, lfd);
	close(lfd);
	reap(&srv, true);
	pthread_mutex_destroy(&srv.lock);
	return 0;
}
