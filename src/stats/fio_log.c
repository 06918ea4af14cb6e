/* fio_log.c - see fio_log.h. */
#include "stats/fio_log.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[FLOG_COUNT] = {
	[FLOG_LAT] = "lat", [FLOG_CLAT] = "clat", [FLOG_SLAT] = "slat",
	[FLOG_BW] = "bw", [FLOG_IOPS] = "iops",
};

bool fio_logs_wanted(const struct job_spec *j)
{
	return j->write_bw_log[0] || j->write_iops_log[0] ||
	       j->write_lat_log[0] || j->write_hist_log[0];
}

unsigned fio_plat_index(uint64_t v)
{
	unsigned msb = v ? 63u - (unsigned)__builtin_clzll(v) : 0;

	if (msb <= FIO_PLAT_BITS) /* small values are their own bin */
		return (unsigned)v;
	unsigned err_bits = msb - FIO_PLAT_BITS;
	unsigned idx = ((err_bits + 1) << FIO_PLAT_BITS) +
		       (unsigned)((v >> err_bits) & ((1u << FIO_PLAT_BITS) - 1));
	return idx < FIO_PLAT_NR - 1 ? idx : FIO_PLAT_NR - 1;
}

static int hist_init(struct fio_logs *l, const struct job_spec *j,
		     unsigned n, struct ioc_err *err)
{
	struct fio_hist_log *h = calloc(1, sizeof(*h));
	if (!h)
		return err_set(err, ENOMEM, "out of memory");
	l->hist = h;
	h->every_ms = j->log_hist_ns / 1000000ull;
	h->coarse = j->log_hist_coarseness;
	for (int d = 0; d < DIR_ALL; d++) {
		h->plat[d] = calloc(FIO_PLAT_NR, sizeof(uint64_t));
		h->prev[d] = calloc(FIO_PLAT_NR, sizeof(uint64_t));
		if (!h->plat[d] || !h->prev[d])
			return err_set(err, ENOMEM, "out of memory");
	}
	/* the bare key's value: the job's name */
	const char *pre = strcmp(j->write_hist_log, "$jobname") ? j->write_hist_log : j->name;
	int len = j->per_job_logs
			  ? snprintf(h->path, sizeof(h->path), "%s_clat_hist.%u.log%s",
				     pre, n, j->log_suffix)
			  : snprintf(h->path, sizeof(h->path), "%s_clat_hist.log%s",
				     pre, j->log_suffix);
	if (len < 0 || (size_t)len >= sizeof(h->path))
		return err_usage(err, ENAMETOOLONG, "log file name %s_clat_hist"
				 "...: too long", pre);
	return 0;
}

/* fio's add_clat_sample: the bin, then a line once the window passed
 * (the window starts at the direction's first completion). */
static void hist_io(struct fio_logs *l, uint64_t t_ms, enum io_dir d,
		    uint64_t bs, uint64_t clat)
{
	struct fio_hist_log *h = l->hist;
	h->plat[d][fio_plat_index(clat)]++;
	if (!h->every_ms)
		return;
	if (!h->started[d]) {
		h->started[d] = true;
		h->last_ms[d] = t_ms;
	}
	uint64_t window = t_ms - h->last_ms[d];
	if (window < h->every_ms)
		return;
	if (h->nr == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 64;
		void *p = realloc(h->l, cap * sizeof(*h->l));
		if (!p) {
			l->oom = true;
			return;
		}
		h->l = p;
		h->cap = cap;
	}
	unsigned stride = 1u << h->coarse;
	uint64_t *bins = calloc(FIO_PLAT_NR / stride, sizeof(uint64_t));
	if (!bins) {
		l->oom = true;
		return;
	}
	for (unsigned i = 0; i < FIO_PLAT_NR; i++) {
		bins[i / stride] += h->plat[d][i] - h->prev[d][i];
		h->prev[d][i] = h->plat[d][i];
	}
	h->l[h->nr++] = (struct fio_hist_line){
		.t_ms = t_ms, .bs = bs, .dir = (uint8_t)d, .bins = bins,
	};
	h->last_ms[d] = t_ms - (window - h->every_ms); /* fio keeps the drift out */
}

static int hist_write(const struct fio_logs *l, struct ioc_err *err)
{
	const struct fio_hist_log *h = l->hist;
	FILE *f = fopen(h->path, l->append ? "a" : "w");
	unsigned n = FIO_PLAT_NR >> h->coarse;

	if (!f)
		return err_set(err, errno, "%s: %s", h->path, strerror(errno));
	for (size_t i = 0; i < h->nr; i++) {
		fprintf(f, "%" PRIu64 ", %u, %" PRIu64 ", ", h->l[i].t_ms,
			h->l[i].dir, h->l[i].bs);
		for (unsigned b = 0; b < n; b++)
			fprintf(f, "%" PRIu64 "%s", h->l[i].bins[b],
				b + 1 < n ? ", " : "\n");
	}
	bool bad = ferror(f);
	if (fclose(f) || bad)
		return err_set(err, EIO, "%s: write failed", h->path);
	return 0;
}

static void hist_free(struct fio_hist_log *h)
{
	if (!h)
		return;
	for (int d = 0; d < DIR_ALL; d++) {
		free(h->plat[d]);
		free(h->prev[d]);
	}
	for (size_t i = 0; i < h->nr; i++)
		free(h->l[i].bins);
	free(h->l);
	free(h);
}

/* fio's make_log_name and gen_log_name: PREFIX_KIND.N.log, or
 * PREFIX_KIND.log with per_job_logs=0; then the rank's suffix. */
static int name_log(struct fio_log *g, const char *prefix, const char *kind,
		    unsigned n, bool per_job, const char *suffix, struct ioc_err *err)
{
	int len = per_job ? snprintf(g->path, sizeof(g->path), "%s_%s.%u.log%s",
				     prefix, kind, n, suffix)
			  : snprintf(g->path, sizeof(g->path), "%s_%s.log%s",
				     prefix, kind, suffix);
	if (len < 0 || (size_t)len >= sizeof(g->path))
		return err_usage(err, ENAMETOOLONG, "log file name %s_%s...: "
				 "too long", prefix, kind);
	return 0;
}

int fio_logs_init(struct fio_logs *l, const struct job_spec *j,
		  unsigned thread_number, struct ioc_err *err)
{
	const char *pre[FLOG_COUNT] = {
		j->write_lat_log, j->write_lat_log, j->write_lat_log,
		j->write_bw_log, j->write_iops_log,
	};
	int ret;

	*l = (struct fio_logs){
		.avg_ms = j->log_avg_ns / 1000000ull, .bs = j->bs,
		.log_max = j->log_max_value, .log_offset = j->log_offset,
		.log_prio = j->log_prio, .append = !j->per_job_logs,
		.gz_store = j->log_gz_store, .gz_chunk = j->log_gz,
	};
	for (int k = 0; k < FLOG_COUNT; k++) {
		if (!pre[k][0])
			continue;
		if (!strcmp(pre[k], "$jobname")) /* the bare key's value */
			pre[k] = j->name;
		l->on[k] = true;
		if ((ret = name_log(&l->log[k], pre[k], kind_names[k],
				    thread_number, j->per_job_logs, j->log_suffix, err)))
			return ret;
	}
	return j->write_hist_log[0] ? hist_init(l, j, thread_number, err) : 0;
}

static void add_sample(struct fio_logs *l, struct fio_log *g, uint64_t t_ms,
		       enum io_dir d, uint64_t val, uint64_t bs, uint64_t off)
{
	if (g->nr == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 4096;
		void *p = realloc(g->s, cap * sizeof(*g->s));
		if (!p) {
			l->oom = true; /* the log is cut short; fio_logs_write says */
			return;
		}
		g->s = p;
		g->cap = cap;
	}
	g->s[g->nr++] = (struct fio_log_sample){
		.t_ms = t_ms, .val = val, .bs = bs, .off = off, .dir = (uint8_t)d,
		.prio = (uint16_t)(l->avg_ms ? 0 : l->cur_prio),
	};
}

/* Emit direction d's open window at t_ms (when it holds samples). */
static void window_flush(struct fio_logs *l, struct fio_log *g, uint64_t t_ms,
			 enum io_dir d)
{
	if (g->win_n[d])
		add_sample(l, g, t_ms, d,
			   l->log_max ? g->win_max[d]
				      : (uint64_t)(g->win_mean[d] + 0.5),
			   0, 0);
	g->win_n[d] = 0;
	g->win_max[d] = 0;
	g->win_mean[d] = 0;
}

/* fio's add_log_sample: the sample itself, or into the window of its
 * direction, which is emitted once log_avg_msec has passed. */
static void log_value(struct fio_logs *l, struct fio_log *g, uint64_t t_ms,
		      enum io_dir d, uint64_t val, uint64_t bs, uint64_t off)
{
	if (!l->avg_ms) {
		add_sample(l, g, t_ms, d, val, bs, off);
		return;
	}
	g->win_n[d]++;
	g->win_mean[d] += ((double)val - g->win_mean[d]) / (double)g->win_n[d];
	if (val > g->win_max[d])
		g->win_max[d] = val;
	if (t_ms < g->avg_last[d] + l->avg_ms)
		return;
	window_flush(l, g, t_ms, d);
	g->avg_last[d] = t_ms - t_ms % l->avg_ms;
}

void fio_logs_io(struct fio_logs *l, uint64_t t_ns, enum io_dir d,
		 uint64_t bs, uint64_t off, uint64_t lat, uint64_t clat,
		 uint64_t slat, unsigned prio)
{
	uint64_t t = t_ns / 1000000ull;

	l->cur_prio = prio;
	if (l->on[FLOG_LAT])
		log_value(l, &l->log[FLOG_LAT], t, d, lat, bs, off);
	if (l->on[FLOG_CLAT])
		log_value(l, &l->log[FLOG_CLAT], t, d, clat, bs, off);
	if (l->hist)
		hist_io(l, t, d, bs, clat);
	if (l->on[FLOG_SLAT] && slat != UINT64_MAX)
		log_value(l, &l->log[FLOG_SLAT], t, d, slat, bs, off);
	if (l->avg_ms) /* averaged bw/iops: fio_logs_tick */
		return;
	if (l->on[FLOG_BW])
		add_sample(l, &l->log[FLOG_BW], t, d,
			   clat ? bs * 1000000ull / clat : 0, bs, off);
	if (l->on[FLOG_IOPS])
		add_sample(l, &l->log[FLOG_IOPS], t, d, 1, bs, off);
}

void fio_logs_tick(struct fio_logs *l, uint64_t t_ns,
		   const uint64_t bytes[DIR_ALL], const uint64_t ios[DIR_ALL])
{
	uint64_t t = t_ns / 1000000ull;

	if (!l->avg_ms || (!l->on[FLOG_BW] && !l->on[FLOG_IOPS]) ||
	    t < l->tick_ms + l->avg_ms)
		return;
	uint64_t spent = t - l->tick_ms;
	for (int d = 0; d < DIR_ALL; d++) {
		uint64_t db = bytes[d] - l->bytes[d], dn = ios[d] - l->ios[d];
		if (l->on[FLOG_BW] && db) /* fio: no line for an idle direction */
			log_value(l, &l->log[FLOG_BW], t, (enum io_dir)d,
				  db * 1000 / spent / 1024, l->bs, 0);
		if (l->on[FLOG_IOPS] && dn)
			log_value(l, &l->log[FLOG_IOPS], t, (enum io_dir)d,
				  dn * 1000 / spent, l->bs, 0);
		l->bytes[d] = bytes[d];
		l->ios[d] = ios[d];
	}
	l->tick_ms = t;
}

static int write_all(struct fio_logs *l, uint64_t t, struct ioc_err *err);

/* per_job_logs=0: the workers of a job append to one file, one at a time */
static pthread_mutex_t append_mu = PTHREAD_MUTEX_INITIALIZER;

static int write_one(const struct fio_logs *l, const struct fio_log *g,
		     struct ioc_err *err)
{
	if (l->gz_store)
		return fio_log_write_gz(l, g, l->gz_chunk, err);
	/* fio's flush_log: without per_job_logs it appends (even to an older
	 * run's file) */
	FILE *f = fopen(g->path, l->append ? "a" : "w");

	if (!f)
		return err_set(err, errno, "%s: %s", g->path, strerror(errno));
	for (size_t i = 0; i < g->nr; i++) {
		const struct fio_log_sample *s = &g->s[i];
		fprintf(f, "%" PRIu64 ", %" PRIu64 ", %u, %" PRIu64, s->t_ms,
			s->val, s->dir, s->bs);
		if (l->log_offset)
			fprintf(f, ", %" PRIu64, s->off);
		/* fio: an I/O's line has its priority (prio, prioclass,
		 * cmdprio), a window's none; log_prio=0: is it real-time */
		if (l->log_prio)
			fprintf(f, ", 0x%04x\n", s->prio);
		else
			fprintf(f, ", %u\n", s->prio >> 13 == 1);
	}
	bool bad = ferror(f);
	if (fclose(f) || bad)
		return err_set(err, EIO, "%s: write failed", g->path);
	return 0;
}

int fio_logs_write(struct fio_logs *l, uint64_t t_ns, struct ioc_err *err)
{
	uint64_t t = t_ns / 1000000ull;
	int ret = 0;

	if (l->append)
		pthread_mutex_lock(&append_mu);
	ret = write_all(l, t, err);
	if (l->append)
		pthread_mutex_unlock(&append_mu);
	return ret;
}

static int write_all(struct fio_logs *l, uint64_t t, struct ioc_err *err)
{
	int ret;

	for (int k = 0; k < FLOG_COUNT; k++) {
		if (!l->on[k])
			continue;
		/* fio's finalize_logs: the averaged latencies' open windows */
		if (l->avg_ms && k <= FLOG_SLAT)
			for (int d = 0; d < DIR_ALL; d++)
				window_flush(l, &l->log[k], t, (enum io_dir)d);
		if ((ret = write_one(l, &l->log[k], err)))
			return ret;
	}
	if (l->hist && (ret = hist_write(l, err)))
		return ret;
	if (l->oom)
		return err_set(err, ENOMEM, "fio logs: out of memory, cut short");
	return 0;
}

void fio_logs_free(struct fio_logs *l)
{
	if (!l)
		return;
	hist_free(l->hist);
	l->hist = NULL;
	for (int k = 0; k < FLOG_COUNT; k++) {
		free(l->log[k].s);
		l->log[k].s = NULL;
		l->log[k].nr = l->log[k].cap = 0;
	}
}
