/* fuzz_fio_results.c - libFuzzer target for the reader of fio's own JSON
 * results (report/results_fio.h, reached through results_read_text).
 *
 * The input is one document, seeded with real fio 3.33 output (json and
 * json+, one job, two jobs, two groups). Besides the sanitizers the target
 * checks the reader's contract: a refusal is a usage error of one line
 * naming the file; an accepted fio document is a set of fixed steps, one
 * point each, whose totals hold its reads and writes, and it renders as a
 * whole HTML page.
 *
 *     make fuzz && build-fuzz/fuzz_fio_results tests/fuzz/corpus/fio_results
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/results_read.h"

#include "fuzz.h"

static void check_set(const struct rs_set *s)
{
	CHECK(s->nr_steps >= 1);
	for (unsigned i = 0; i < s->nr_steps; i++) {
		const struct rs_step *st = &s->steps[i];
		CHECK(st->mode == RS_FIXED && st->nr_sets == 1 && st->label && st->job.rw);
		const struct rs_point *p = &st->sets[0].points[0];
		CHECK(p->total.ios >= p->read.ios && p->total.ios - p->read.ios >= p->write.ios);
		CHECK(p->numjobs >= 1 || st->job.numjobs == 0);
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	CHECK(f);
	int ret = report_write_html(s, 1, f);
	CHECK(fclose(f) == 0);
	if (ret != -ENOMEM) {
		CHECK(ret == 0);
		CHECK(len > 15 && !strcmp(buf + len - 15, "</body></html>\n"));
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ioc_err err = {0};
	struct rs_set s;

	int ret = results_read_text((const char *)data, size, "fio.json", &s, &err);
	if (ret) {
		CHECK(ret < 0);
		if (ret != -ENOMEM) {
			CHECK(err.usage == 1);
			CHECK(!strncmp(err.msg, "fio.json: ", 10));
			CHECK(!strchr(err.msg, '\n'));
		}
	} else if (s.fio_version) {
		check_set(&s);
	}
	rs_set_free(&s);
	return 0;
}
