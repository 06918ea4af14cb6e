/* server.c - listening, and routing each new connection by its cookie:
 * to a waiting test as a data stream, or to a new test of its own. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "net/io.h"
#include "net/server_int.h"

struct conn {
	struct conn *next;
	struct server *srv;
	pthread_t thread;
	int fd;
	uint64_t seq;           /* accept order: the order the client opened
				 * its streams in, which sets their roles and
				 * ids; threads may hand them over in any order */
	bool done;              /* under srv->lock */
	char peer[64];
};

void net_caps_default(struct net_caps *c)
{
	c->max_streams = 128;
	c->max_duration = 3600;
	c->max_tests = 4;
	c->max_len = 8u << 20;
	c->max_window = 64u << 20;
	c->max_json = 256u << 10;
	c->idle_ms = 10000;
	c->max_pending = 64;
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

static struct session *find_session(struct server *srv, const char *cookie)
{
	for (struct session *s = srv->sessions; s; s = s->next)
		if (!memcmp(s->cookie, cookie, NET_COOKIE_SIZE))
			return s;
	return NULL;
}

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

static void run_new_test(struct conn *c, const char *cookie)
{
	struct server *srv = c->srv;
	struct session *ss = calloc(1, sizeof(*ss));
	pthread_condattr_t ca;

	if (!ss) {
		server_log(srv, c->peer, "dropped: out of memory");
		return;
	}
	memcpy(ss->cookie, cookie, NET_COOKIE_SIZE);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&ss->cond, &ca);
	pthread_condattr_destroy(&ca);
	ss->next = srv->sessions;
	srv->sessions = ss;
	srv->active_tests++;
	pthread_mutex_unlock(&srv->lock);

	session_run(srv, ss, c->fd, c->peer);
	session_release(srv, ss);

	pthread_mutex_lock(&srv->lock);
	unlink_session(srv, ss);
	for (unsigned i = 0; i < ss->nr_fds; i++)
		if (ss->fds[i] >= 0)
			close(ss->fds[i]);
	free(ss->fds);
	free(ss->seqs);
	pthread_cond_destroy(&ss->cond);
	free(ss);
}

static void *conn_main(void *arg)
{
	struct conn *c = arg;
	struct server *srv = c->srv;
	char cookie[NET_COOKIE_SIZE];
	int rc = net_read_full(c->fd, cookie, NET_COOKIE_SIZE,
			       (int)srv->caps.idle_ms);
	bool keep_fd = false;

	pthread_mutex_lock(&srv->lock);
	srv->pending--;
	pthread_mutex_unlock(&srv->lock);
	if (rc) {
		server_log(srv, c->peer, "dropped: %s",
			   rc == -ETIMEDOUT ? "idle, no cookie in time"
			   : rc == -ECONNRESET ? "closed before sending a cookie"
					       : strerror(-rc));
		goto out;
	}
	if (!net_cookie_valid(cookie)) {
		server_log(srv, c->peer, "dropped: garbage instead of a cookie");
		goto out;
	}
	pthread_mutex_lock(&srv->lock);
	struct session *ss = find_session(srv, cookie);
	if (ss && ss->accepting && ss->nr_fds < ss->want) {
		ss->seqs[ss->nr_fds] = c->seq;
		ss->fds[ss->nr_fds++] = c->fd;
		keep_fd = true;
		pthread_cond_signal(&ss->cond);
		pthread_mutex_unlock(&srv->lock);
		goto out;
	}
	if (ss) {
		pthread_mutex_unlock(&srv->lock);
		server_log(srv, c->peer,
			   "dropped: connection for a test not taking streams");
		goto out;
	}
	if (srv->active_tests >= srv->caps.max_tests ||
	    (srv->o->max_total &&
	     srv->tests_done + srv->active_tests >= srv->o->max_total)) {
		pthread_mutex_unlock(&srv->lock);
		net_send_state(c->fd, NET_ACCESS_DENIED, 1000);
		server_log(srv, c->peer, "denied: %u tests running already",
			   srv->active_tests);
		goto out;
	}
	run_new_test(c, cookie); /* unlocks and relocks srv->lock */
	pthread_mutex_unlock(&srv->lock);
out:
	if (!keep_fd)
		close(c->fd);
	pthread_mutex_lock(&srv->lock);
	c->done = true;
	pthread_mutex_unlock(&srv->lock);
	return NULL;
}

/* Join finished connection threads; with all, wait for every one. */
static void reap(struct server *srv, struct conn **list, bool all)
{
	for (struct conn **pp = list; *pp;) {
		struct conn *c = *pp;
		pthread_mutex_lock(&srv->lock);
		bool done = c->done;
		pthread_mutex_unlock(&srv->lock);
		if (!done && !all) {
			pp = &c->next;
			continue;
		}
		pthread_join(c->thread, NULL);
		*pp = c->next;
		free(c);
	}
}

static void accept_one(struct server *srv, int lfd, struct conn **list,
		       uint64_t *seq)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	struct conn *c;
	char peer[64];
	int fd = accept4(lfd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC);

	if (fd < 0)
		return;
	net_addr_str(&ss, peer, sizeof(peer));
	pthread_mutex_lock(&srv->lock);
	bool full = srv->pending >= srv->caps.max_pending;
	if (!full)
		srv->pending++;
	pthread_mutex_unlock(&srv->lock);
	if (full) {
		server_log(srv, peer, "dropped: %u connections still handshaking",
			   srv->caps.max_pending);
		close(fd);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		goto fail;
	c->srv = srv;
	c->fd = fd;
	c->seq = (*seq)++;
	memcpy(c->peer, peer, sizeof(peer));
	if (pthread_create(&c->thread, NULL, conn_main, c)) {
		free(c);
		goto fail;
	}
	c->next = *list;
	*list = c;
	return;
fail:
	pthread_mutex_lock(&srv->lock);
	srv->pending--;
	pthread_mutex_unlock(&srv->lock);
	server_log(srv, peer, "dropped: cannot start a thread");
	close(fd);
}

int net_server_run(const struct net_server_opts *o, struct ioc_err *err)
{
	struct server srv = {.o = o, .caps = o->caps,
			     .log = o->log ? o->log : stderr};
	const char *bind = o->bind ? o->bind : "127.0.0.1";
	struct conn *conns = NULL;
	uint64_t seq = 0;
	uint16_t port;
	int lfd, rc;

	rc = net_listen(bind, o->port, 128, &lfd, &port, err);
	if (rc)
		return rc;
	pthread_mutex_init(&srv.lock, NULL);
	{
		char where[80];
		snprintf(where, sizeof(where), "%s%s%s port %u",
			 strchr(bind, ':') ? "[" : "", bind,
			 strchr(bind, ':') ? "]" : "", port);
		server_log(&srv, where, "listening%s",
			   o->secret ? ", a secret is required" : "");
	}
	if (o->on_listen)
		o->on_listen(o->listen_arg, port);
	for (;;) {
		struct pollfd pf = {lfd, POLLIN, 0};

		if (o->stop && atomic_load(o->stop))
			break;
		pthread_mutex_lock(&srv.lock);
		bool all_done = o->max_total && srv.tests_done >= o->max_total;
		pthread_mutex_unlock(&srv.lock);
		if (all_done)
			break;
		if (poll(&pf, 1, 200) > 0)
			accept_one(&srv, lfd, &conns, &seq);
		reap(&srv, &conns, false);
	}
	close(lfd);
	reap(&srv, &conns, true);
	pthread_mutex_destroy(&srv.lock);
	return 0;
}
