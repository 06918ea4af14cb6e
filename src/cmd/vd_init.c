/* vd_init.c - `iochar vd init`: initialize a RAID virtual drive as a
 * controller does before it is measured.
 *
 *   --mode=full  (default) parity computed from the data and written for
 *                every stripe row (mirror copies made equal), row by row,
 *                timed, with progress and ETA on stderr; the
 *                initialization map is removed: every row initialized.
 *   --mode=fast  nothing but the map (vd/initmap.h): every row marked
 *                uninitialized, so a write to a row pays the
 *                reconstruct-write of the whole row that initializes it,
 *                as writes to a fast-initialized array do.
 *
 * Members that do not exist are created with --size (as `iochar run`
 * does). Exit 0, 1 on an I/O error, 2 on bad input.
 */
#define _GNU_SOURCE
#include "cmd/vd_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/run_config.h"
#include "cmd/cmd.h"
#include "cmd/signals.h"
#include "base/json_writer.h"
#include "util/clock.h"
#include "util/fmt.h"
#include "vd/initmap.h"
#include "vd/members.h"
#include "vd/sync.h"

struct init_run {
	bool fast;
	uint64_t rows, bytes, elapsed_ns;
};

static void progress(uint64_t done, uint64_t total, uint64_t bytes_done, uint64_t ns)
{
	char a[32], b[32];
	double sec = (double)ns / 1e9, rate = sec > 0 ? (double)bytes_done / sec : 0;
	double eta = rate > 0 ? (double)(total - done) / (double)done * sec : 0;
	fprintf(stderr, "vd init: row %llu of %llu (%.0f%%), %s of VD in %.1f s, %.1f MB/s, ETA %.0f s (%s left)\n",
		(unsigned long long)done, (unsigned long long)total,
		100.0 * (double)done / (double)total, fmt_bytes(a, sizeof(a), bytes_done), sec,
		rate / 1e6, eta, fmt_bytes(b, sizeof(b), (uint64_t)(eta * rate)));
}

/* Every row, a chunk at a time, progress about once a second. */
static int init_full(const struct vd_members *m, struct init_run *r, struct ioc_err *err)
{
	struct vd_sync s;
	int ret = vd_sync_open(&s, &m->def, m->member_bytes, true, err);
	if (ret)
		return ret;
	uint64_t rows = vd_sync_rows(&s), row_bytes = m->geom.capacity / (rows ? rows : 1);
	uint64_t t0 = clock_ns(), last = t0;
	for (uint64_t at = 0; at < rows && !ret;) {
		uint64_t to = at + 64 < rows ? at + 64 : rows;
		ret = vd_sync_init_rows(&s, at, to, err);
		at = to;
		uint64_t now = clock_ns();
		if (now - last >= 1000000000ull && at < rows) {
			progress(at, rows, at * row_bytes, now - t0);
			last = now;
		}
	}
	for (unsigned i = 0; !ret && i < m->def.nr_members; i++)
		if (s.fds[i] >= 0 && fdatasync(s.fds[i]) < 0)
			ret = err_set(err, errno, "%s: fdatasync: %s", m->def.members[i], strerror(errno));
	r->elapsed_ns = clock_ns() - t0;
	r->rows = rows;
	r->bytes = m->geom.capacity;
	vd_sync_close(&s);
	if (!ret)
		vd_init_clear(&m->def);
	return ret;
}

static void report(const struct vd_members *m, const struct init_run *r, bool json)
{
	double sec = (double)r->elapsed_ns / 1e9;
	double bw = sec > 0 ? (double)r->bytes / sec : 0;
	if (!json) {
		if (r->fast)
			printf("vd init (fast): %llu stripe rows of %s marked uninitialized: each row's first write reads the whole row (reconstruct-write) until it is written or a full vd init runs\n",
			       (unsigned long long)r->rows, vd_level_name(m->def.level));
		else
			printf("vd init (full): %llu stripe rows, %llu bytes of VD in %.2f s, %.1f MB/s\n",
			       (unsigned long long)r->rows, (unsigned long long)r->bytes, sec, bw / 1e6);
		return;
	}
	struct jw w;
	jw_init(&w, stdout, 2);
	jw_object_begin(&w);
	jw_key(&w, "init");
	jw_object_begin(&w);
	jw_kv_string(&w, "mode", r->fast ? "fast" : "full");
	jw_kv_string(&w, "level", vd_level_name(m->def.level));
	jw_kv_uint(&w, "rows", r->rows);
	jw_kv_uint(&w, "bytes", r->fast ? 0 : r->bytes);
	jw_kv_uint(&w, "elapsed_ns", r->elapsed_ns);
	jw_kv_double(&w, "bw_bytes", r->fast ? 0 : bw);
	jw_object_end(&w);
	jw_object_end(&w);
	jw_finish(&w);
}

static int check(const struct job_spec *job, const char *mode, bool *fast,
		 struct vd_members *m, struct ioc_err *err)
{
	if (!job->vd[0])
		return err_usage(err, EINVAL, "vd init: give --vd=DEF");
	if (mode && strcmp(mode, "full") && strcmp(mode, "fast"))
		return err_usage(err, EINVAL, "vd init: --mode=%s: accepted: full, fast", mode);
	*fast = mode && strcmp(mode, "fast") == 0;
	struct vd_members_params p = {
		.text = job->vd, .size = job->size, .offset = job->offset, .writes = true,
		.force = job->force, .maintenance = true,
	};
	int ret = vd_members_inspect(&p, m, err);
	if (ret)
		return ret;
	if (m->def.level == VD_RAID0 || vd_level_concat(m->def.level))
		return err_usage(err, EINVAL, "vd init: %s has no redundancy to initialize",
				 vd_level_name(m->def.level));
	if (*fast && !m->geom.np)
		return err_usage(err, EINVAL,
				 "vd init: --mode=fast models parity left unwritten: raid5 and raid6 only");
	if (m->def.failed_mask)
		return err_usage(err, EINVAL, "vd init: initialize a VD with all its members (no failed=)");
	return 0;
}

/* init's own option; the rest are `iochar run`'s. */
struct init_args {
	const char *mode;
};

static const struct arg_def init_rows[] = {
	{ARG_STR(struct init_args, mode, "mode"), .o.arg = "full|fast",
	 .o.help = "full (default): parity written for every row, timed; "
		   "fast: every row marked uninitialized"},
};

static const struct args_spec init_spec = {
	.usage = "usage: iochar vd init --vd=DEF [--mode=full|fast] "
		 "[--size=SIZE] [--force] [--output-format=normal|json]\n",
	.about = "Initializes a RAID virtual drive as a controller does "
		 "before it is measured;\nmembers that do not exist are "
		 "created with --size. docs/vd.md.\n",
	ARGS_TABLE(init_rows),
};

int vd_init_cmd(int argc, char **argv)
{
	struct run_config cfg = {0};
	struct ioc_err err = {0};
	struct vd_members *m = calloc(1, sizeof(*m));
	struct init_run r = {0};
	int ret, status = 1;

	if (!m)
		return 1;
	struct init_args a = {0};
	ret = args_take(&init_spec, &argc, argv, &a, &err);
	const char *mode = a.mode;
	if (!ret)
		ret = run_config_parse(argc, argv, &cfg, &err);
	if (ret == RUN_CONFIG_HELP) {
		args_help(&init_spec, stdout);
		free(m);
		return 0;
	}
	if (!ret && cfg.nr_jobs != 1)
		ret = err_usage(&err, EINVAL, "vd init: one job only");
	if (!ret)
		ret = check(&cfg.jobs[0], mode, &r.fast, m, &err);
	if (ret)
		goto fail;
	/* validated: from here on members are written */
	struct target_fill_ctl ctl = {NULL, NULL, signals_catch(), NULL};
	if ((ret = vd_prepare(m, &ctl, &err)))
		goto fail;
	if (r.fast) {
		r.rows = m->geom.rows;
		ret = vd_init_mark_fast(&m->def, r.rows, &err);
	} else {
		ret = init_full(m, &r, &err);
	}
	if (ret)
		goto fail;
	report(m, &r, cfg.format == OUTPUT_JSON);
	status = 0;
	goto out;
fail:
	fprintf(stderr, "iochar: %s\n", err.msg);
	status = err.usage ? EXIT_USAGE : 1;
out:
	run_config_free(&cfg);
	free(m);
	return status;
}
