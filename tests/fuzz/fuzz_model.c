/* fuzz_model.c - libFuzzer target for the readers of `iochar model`: the
 * CSV table reader (util/csv_read.h), the figures table on it
 * (model/figures.h) and the configuration INI (model/config_ini.h). The
 * first byte picks the reader. Any text either fails with a message or
 * gives a table whose rows keep the reader's promises, and predicting a
 * read row or configuration yields finite figures and a bound. Touches no
 * file.
 *
 *     make fuzz && build-fuzz/fuzz_model tests/fuzz/corpus/model
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/config_ini.h"
#include "model/figures.h"
#include "model/fit.h"
#include "util/csv_read.h"

#include "fuzz.h"

static void check_answer(const struct mdl_answer *a)
{
	CHECK(isfinite(a->iops) && a->iops >= 0);
	CHECK(isfinite(a->latency_ms) && a->latency_ms >= 0);
	CHECK(a->bound < MDL_B_NR);
}

static void fuzz_figures(const char *text, struct mdl_fit *f)
{
	struct mdl_figs figs;
	struct ioc_err err = {0};

	if (mdl_figs_parse(text, "fuzz.csv", &figs, &err)) {
		CHECK(err.msg[0] != '\0');
		mdl_figs_free(&figs);
		return;
	}
	mdl_fit_figures(f, &figs, NULL, NULL);
	for (unsigned i = 0; i < figs.nr; i++) {
		const struct mdl_figrow *r = &figs.rows[i];
		struct mdl_answer a;
		double v;
		CHECK(r->id[0] != '\0');
		CHECK(isnan(r->read_pct) || (r->read_pct >= 0 && r->read_pct <= 100));
		mdl_fit_predict_row(f, r, &a, &v);
		check_answer(&a);
	}
	mdl_figs_free(&figs);
}

static void fuzz_config(const char *text, const struct mdl_fit *f)
{
	struct mdl_cfg_file *cf = malloc(sizeof(*cf));
	struct ioc_err err = {0};

	if (!cf)
		return;
	if (mdl_config_parse(text, "fuzz.ini", cf, &err)) {
		CHECK(err.msg[0] != '\0');
	} else {
		CHECK(cf->nr >= 1 && cf->nr <= MDL_CFG_MAX_WORKLOADS);
		mdl_fit_apply(f, &cf->c);
		for (unsigned i = 0; i < cf->nr; i++) {
			struct mdl_answer a;
			CHECK(cf->w[i].read_pct >= 0 && cf->w[i].read_pct <= 100);
			mdl_eval(&cf->c, &cf->w[i], &a);
			check_answer(&a);
		}
	}
	free(cf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	char *text = malloc(size);
	struct mdl_fit *f = calloc(1, sizeof(*f));
	struct csv_doc d;
	struct ioc_err err = {0};

	if (!text || !f)
		goto out;
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	switch (data[0] % 3) {
	case 0:
		if (csv_doc_parse(text, "fuzz.csv", &d, &err))
			CHECK(err.msg[0] != '\0');
		else
			for (unsigned i = 0; i < d.nr_rows; i++)
				for (unsigned k = 0; k < d.nr_cols; k++)
					CHECK(d.rows[i][k] != NULL);
		csv_doc_free(&d);
		break;
	case 1:
		fuzz_figures(text, f);
		break;
	default:
		fuzz_config(text, f);
	}
out:
	free(text);
	free(f);
	return 0;
}
