/* pending.c - connections that have not yet presented their cookie (and,
 * for a new test, their parameters). They get no thread: the main loop
 * polls them and reads what they send as it comes. A real client sends
 * both at once after connecting, so the limits here cost it nothing:
 * each connection has --handshake-timeout in all, a peer address holds at
 * most --max-peer-pending of them (room for a client's whole burst of
 * streams) and all peers --max-pending. When a limit is reached the
 * newcomer is still taken and the oldest handshake of the peer holding
 * the most makes way: a flood of idle connections then only ever
 * displaces itself, never locks a real client out. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "net/io.h"
#include "net/server_int.h"
#include "util/clock.h"

/* The address a limit counts by: an IPv4 address, or an IPv6 /64 (one
 * host may hold a whole /64, so counting single addresses would let it
 * take every handshake slot). */
static void host_of(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	const struct sockaddr_in6 *s6 = (const void *)ss;
	char a[INET6_ADDRSTRLEN] = "?";

	if (ss->ss_family == AF_INET6 && !IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr)) {
		struct in6_addr net = s6->sin6_addr;
		memset(net.s6_addr + 8, 0, 8);
		inet_ntop(AF_INET6, &net, a, sizeof(a));
		snprintf(buf, len, "%s/64", a);
		return;
	}
	if (ss->ss_family == AF_INET6)
		inet_ntop(AF_INET, s6->sin6_addr.s6_addr + 12, a, sizeof(a));
	else if (ss->ss_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)ss)->sin_addr,
			  a, sizeof(a));
	snprintf(buf, len, "%s", a);
}

static unsigned count_host(const struct pending *pd, const char *host)
{
	unsigned n = 0;

	for (unsigned i = 0; i < pd->n; i++)
		n += !strcmp(pd->v[i].host, host);
	return n;
}

static void drop_at(struct pending *pd, unsigned i)
{
	close(pd->v[i].fd);
	net_hs_free(&pd->v[i].hs);
	pd->v[i] = pd->v[--pd->n];
}

/* Index of the oldest handshake of host. */
static unsigned oldest_of(const struct pending *pd, const char *host)
{
	unsigned best = UINT32_MAX;

	for (unsigned i = 0; i < pd->n; i++)
		if (!strcmp(pd->v[i].host, host) &&
		    (best == UINT32_MAX || pd->v[i].seq < pd->v[best].seq))
			best = i;
	return best;
}

static int by_host(const void *a, const void *b)
{
	const struct pend *x = *(const struct pend *const *)a;
	const struct pend *y = *(const struct pend *const *)b;

	return strcmp(x->host, y->host);
}

/* Index of the oldest handshake of the address holding the most (sorted
 * by address, so a flood costs O(n log n) per newcomer, not O(n^2)). */
static unsigned oldest_of_busiest(struct pending *pd)
{
	const char *host = pd->v[0].host;
	unsigned most = 0;

	for (unsigned i = 0; i < pd->n; i++)
		pd->by[i] = &pd->v[i];
	qsort(pd->by, pd->n, sizeof(*pd->by), by_host);
	for (unsigned i = 0, run = 0; i < pd->n; i++) {
		run = i && !strcmp(pd->by[i]->host, pd->by[i - 1]->host)
			      ? run + 1 : 1;
		if (run > most) {
			most = run;
			host = pd->by[i]->host;
		}
	}
	return oldest_of(pd, host);
}

static void make_room(struct server *srv, struct pending *pd,
		      const char *host)
{
	const struct net_caps *c = &srv->caps;
	unsigned mine = count_host(pd, host);
	unsigned i;

	if (mine >= c->max_peer_pending) {
		i = oldest_of(pd, host);
		server_log(srv, pd->v[i].peer,
			   "dropped: still handshaking, making way for a newer "
			   "connection of its peer (%u handshaking, "
			   "--max-peer-pending %u)", mine, c->max_peer_pending);
	} else if (pd->n >= c->max_pending) {
		i = oldest_of_busiest(pd);
		server_log(srv, pd->v[i].peer,
			   "dropped: still handshaking, making way for a newer "
			   "connection (%u handshaking, --max-pending %u)", pd->n,
			   c->max_pending);
	} else {
		return;
	}
	drop_at(pd, i);
}

/* The connection ended (how) before its handshake was complete. */
static void log_cut(struct server *srv, const struct pend *pc, const char *how)
{
	const struct net_hs *h = &pc->hs;

	if (h->step == NET_HS_BODY)
		server_log(srv, pc->peer, "dropped: %s with its parameters "
			   "truncated, %u of %u bytes", how, h->got, h->len);
	else if (h->got)
		server_log(srv, pc->peer, "dropped: %s with its %s truncated, "
			   "%u of %u bytes", how,
			   h->step == NET_HS_LEN ? "parameters' length" : "cookie",
			   h->got, h->step == NET_HS_LEN ? 4 : NET_COOKIE_SIZE);
	else
		server_log(srv, pc->peer, "dropped: %s before sending %s", how,
			   pc->control ? "its parameters" : "a cookie");
}

int pending_shed(struct server *srv, struct pending *pd, const char *why)
{
	if (!pd->n)
		return -ENOENT;
	unsigned i = oldest_of_busiest(pd);
	server_log(srv, pd->v[i].peer, "dropped: still handshaking, making way "
		   "for a newer connection (%s)", why);
	drop_at(pd, i);
	return 0;
}

/* Read what pc sent so far and act on it: 1 keep, 0 handed over (not
 * ours any more), -1 drop (logged). */
static int pend_read(struct server *srv, struct pend *pc)
{
	struct ioc_err err = {0};

	for (;;) {
		size_t want;
		void *at = net_hs_want(&pc->hs, &want);
		ssize_t n = recv(pc->fd, at, want, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return 1;
		if (n <= 0) {
			log_cut(srv, pc, n == 0 ? "closed" : strerror(errno));
			return -1;
		}
		uint32_t max = srv->caps.max_json < NET_PARAMS_MAX
				       ? srv->caps.max_json : NET_PARAMS_MAX;
		int ev = net_hs_got(&pc->hs, (size_t)n, max, &err);
		if (ev < 0) {
			server_log(srv, pc->peer, "dropped: %s", err.msg);
			return -1;
		}
		if (ev == NET_HS_HAVE_COOKIE) {
			int r = admit_cookie(srv, pc);
			if (r)
				return r > 0 ? 0 : -1;
		} else if (ev == NET_HS_HAVE_PARAMS) {
			return admit_params(srv, pc) > 0 ? 0 : -1;
		}
	}
}

/* Done with v[i]: close it unless it was handed over. */
static void settle(struct pending *pd, unsigned i, int r)
{
	if (r > 0)
		return;
	if (r == 0) {
		net_hs_free(&pd->v[i].hs);
		pd->v[i] = pd->v[--pd->n];
		return;
	}
	drop_at(pd, i);
}

void pending_add(struct server *srv, struct pending *pd, int fd,
		 const struct sockaddr_storage *ss, uint64_t seq)
{
	struct pend *pc;
	char host[NET_HOST_MAX];

	host_of(ss, host, sizeof(host));
	make_room(srv, pd, host);
	if (pd->n == pd->cap) {
		unsigned cap = pd->cap ? pd->cap * 2 : 64;
		struct pend *v = realloc(pd->v, cap * sizeof(*v));
		struct pend **by = v ? realloc(pd->by, cap * sizeof(*by)) : NULL;
		if (v)
			pd->v = v;
		if (!by) {
			char peer[64];
			net_addr_str(ss, peer, sizeof(peer));
			server_log(srv, peer, "dropped: out of memory");
			close(fd);
			return;
		}
		pd->by = by;
		pd->cap = cap;
	}
	pc = &pd->v[pd->n++];
	memset(pc, 0, sizeof(*pc));
	pc->fd = fd;
	pc->seq = seq;
	pc->deadline_ns = clock_ns() + srv->caps.handshake_ms * 1000000ull;
	net_hs_init(&pc->hs);
	net_addr_str(ss, pc->peer, sizeof(pc->peer));
	memcpy(pc->host, host, sizeof(host));
	/* a client sends its cookie right after connecting: often here */
	settle(pd, pd->n - 1, pend_read(srv, pc));
}

unsigned pending_pollfds(const struct pending *pd, struct pollfd *pf,
			 unsigned max)
{
	unsigned n = pd->n < max ? pd->n : max;

	for (unsigned i = 0; i < n; i++)
		pf[i] = (struct pollfd){pd->v[i].fd, POLLIN, 0};
	return n;
}

void pending_service(struct server *srv, struct pending *pd,
		     const struct pollfd *pf, unsigned n)
{
	uint64_t now = clock_ns();

	/* backwards: settle() moves the last entry into the freed place */
	for (unsigned i = n; i-- > 0;) {
		struct pend *pc = &pd->v[i];
		if (pf[i].revents) {
			settle(pd, i, pend_read(srv, pc));
			continue;
		}
		if (now >= pc->deadline_ns) {
			server_log(srv, pc->peer,
				   "dropped: idle, no %s within %u ms "
				   "(--handshake-timeout)",
				   pc->control ? "parameters" : "cookie",
				   srv->caps.handshake_ms);
			drop_at(pd, i);
		}
	}
}

int pending_next_ms(const struct pending *pd, int cap_ms)
{
	int ms = cap_ms;

	for (unsigned i = 0; i < pd->n; i++) {
		int left = net_ms_left(pd->v[i].deadline_ns);
		if (left < ms)
			ms = left;
	}
	return ms;
}

void pending_free(struct pending *pd)
{
	if (!pd)
		return;
	while (pd->n)
		drop_at(pd, pd->n - 1);
	free(pd->v);
	free(pd->by);
	pd->v = NULL;
	pd->by = NULL;
	pd->cap = 0;
}
