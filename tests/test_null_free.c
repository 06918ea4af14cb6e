/* test_null_free.c - every destroy, free, close and release function of
 * src/ (outside the engines and the worker, whose own tests cover them)
 * takes NULL as a no-op, as free() does: error paths free what they may
 * not have made. Those taking a count take NULL with one too. Run under
 * SAN=1 a dereference is reported; plain, it crashes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/iolog.h"
#include "base/job.h"
#include "charz/curve.h"
#include "charz/outcome.h"
#include "charz/plan.h"
#include "charz/plan_keys.h"
#include "charz/plan_parse.h"
#include "charz/precondition.h"
#include "charz/search.h"
#include "cli/run_config.h"
#include "cmd/verify_vd.h"
#include "core/flow.h"
#include "core/generator.h"
#include "core/layout.h"
#include "core/randmap.h"
#include "core/replay.h"
#include "core/run_status.h"
#include "core/steady_job.h"
#include "core/steady_run.h"
#include "dist/dist.h"
#include "inventory/environment.h"
#include "inventory/inventory.h"
#include "inventory/sysfs.h"
#include "model/figures.h"
#include "net/exchange.h"
#include "net/handshake.h"
#include "net/mesh_run.h"
#include "net/result.h"
#include "net/server_int.h"
#include "net/streams.h"
#include "output/fio_groups.h"
#include "output/fio_mixed.h"
#include "report/chart_place.h"
#include "report/compare.h"
#include "report/net_model.h"
#include "report/report_preds.h"
#include "report/results_fio.h"
#include "report/results_model.h"
#include "report/svg_chart_int.h"
#include "stats/disk_util.h"
#include "stats/fio_log.h"
#include "stats/result.h"
#include "stats/stats.h"
#include "util/autogroup.h"
#include "util/csv_read.h"
#include "util/note.h"
#include "vd/io.h"
#include "vd/op.h"
#include "vd/sync.h"
#include "vd/vd.h"
#include "verify/backlog.h"
#include "verify/fio_session.h"
#include "verify/fio_state.h"
#include "verify/journal.h"
#include "verify/session.h"
#include "verify/vmap.h"

static void test_destroy_accepts_null(void **state)
{
	(void)state;
	autogroup_release(NULL);
	chart_labels_free(NULL);
	compare_free(NULL);
	csv_doc_free(NULL);
	curve_result_free(NULL);
	disk_watch_free(NULL);
	dist_env_free(NULL, 3);
	environment_destroy(NULL);
	environment_free(NULL);
	fio_dir_free(NULL);
	fio_entries_free(NULL, 3);
	fio_logs_free(NULL);
	fio_mixed_free(NULL);
	fio_vsession_free(NULL);
	fio_vstate_free(NULL);
	fio_vstate_rec_free(NULL);
	flow_table_free(NULL);
	gen_free(NULL);
	inventory_free(NULL);
	iolog_free(NULL);
	iolog_reader_close(NULL);
	job_spec_free(NULL);
	journal_info_free(NULL);
	journal_replay_free(NULL);
	layout_release(NULL);
	mdl_figs_free(NULL);
	net_exchange_free(NULL);
	net_hs_free(NULL);
	net_mesh_run_free(NULL);
	net_pool_free(NULL);
	net_result_free(NULL);
	note_free(NULL, 3);
	pending_free(NULL);
	placer_free(NULL);
	plan_free(NULL);
	plan_list_free(NULL);
	plan_step_free(NULL);
	precond_result_free(NULL);
	randmap_free(NULL);
	replay_free(NULL);
	report_preds_free(NULL);
	rs_job_free(NULL);
	rs_mesh_free(NULL);
	rs_net_free(NULL);
	rs_point_free(NULL);
	rs_set_free(NULL);
	run_config_free(NULL);
	run_result_free(NULL);
	run_status_free(NULL);
	search_result_free(NULL);
	stats_free(NULL);
	steady_job_free(NULL);
	steady_run_free(NULL);
	step_outcome_free(NULL);
	sysfs_list_free(NULL, 3);
	vbacklog_free(NULL);
	vd_destroy(NULL);
	vd_op_free(NULL);
	vd_policy_free(NULL);
	vd_ra_free(NULL);
	vd_sync_close(NULL);
	vd_wb_destroy(NULL);
	verify_session_free(NULL);
	verify_vd_close(NULL);
	vmap_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_destroy_accepts_null),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
