/* fio_doc.c - fio's JSON layout inside iochar's run JSON, so the scripts
 * fio users have (jq '.jobs[0].read.iops', fio-plot, KDiskMark,
 * fio_jsonplus_clat2csv) read iochar's results unchanged: "fio version",
 * "timestamp", "timestamp_ms", "time", the global options, "jobs" (one
 * entry per worker, or per group with group_reporting, as fio:
 * fio_groups.h; each written by json_fio.c), "client_stats" over many
 * hosts and "disk_util". */
#include "output/fio_doc.h"

#include <time.h>

#include "output/fio_clients.h"
#include "output/fio_disk.h"
#include "output/fio_groups.h"
#include "output/fio_options.h"
#include "output/json_fio.h"

void json_fio_emit(struct jw *w, const struct run_result *r, bool plus)
{
	char when[64] = "";
	time_t t = (time_t)(r->start_unix_ms / 1000);
	struct tm tm;

	if (localtime_r(&t, &tm))
		strftime(when, sizeof(when), "%a %b %e %H:%M:%S %Y", &tm);
	jw_kv_string(w, "fio version", "fio-3.33 (iochar " IOCHAR_VERSION ")");
	jw_kv_int(w, "timestamp", r->start_unix_ms / 1000);
	jw_kv_int(w, "timestamp_ms", r->start_unix_ms);
	jw_kv_string(w, "time", when);
	fio_global_options_json(w, r);
	jw_key(w, "jobs");
	jw_array_begin(w);
	struct fio_entry *e;
	unsigned n;
	if (fio_entries_make(r, &e, &n) == 0) {
		for (unsigned i = 0; i < n; i++)
			json_fio_entry(w, r, &e[i], plus, NULL, NULL);
		fio_entries_free(e, n);
	} else { /* out of memory: each worker unmerged, still fio's layout */
		for (unsigned i = 0; i < r->nr_workers; i++) {
			struct fio_entry one = {
				.wr = r->workers[i], .members = 1,
				.runtime_sum_ns = r->workers[i].elapsed_ns, .first = i,
			};
			json_fio_entry(w, r, &one, plus, NULL, NULL);
		}
	}
	jw_array_end(w);
	fio_clients_json(w, r, plus);
	fio_disk_json(w, r);
}
