/* fuzz_plan.c - libFuzzer target for plan files (charz/plan.h).
 *
 * The input is the plan text up to its first NUL byte; every further
 * NUL-terminated piece is a command-line override ("key=value", as
 * `iochar plan FILE --bs=8k` passes them), at most 8. Besides the
 * sanitizers, the target checks plan.h's contract: a failure says why in
 * err and leaves the plan empty; a success gives 1..PLAN_MAX_STEPS steps
 * with NUL-terminated labels, and search steps with a latency limit.
 *
 *     make fuzz && build-fuzz/fuzz_plan tests/fuzz/corpus/plan
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charz/plan.h"

#include "fuzz.h"

#define MAX_OVERRIDES 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *over[MAX_OVERRIDES];
	unsigned nr_over = 0;
	struct ioc_err err = {0};
	struct plan p;
	char *buf = malloc(size + 1), *end;
	int ret;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	end = buf + size;
	/* text, then NUL-separated overrides */
	for (char *s = buf + strlen(buf); s < end; s += strlen(s)) {
		s++; /* past the NUL that ended the previous piece */
		if (s >= end)
			break;
		if (nr_over == MAX_OVERRIDES)
			goto out; /* too many: not an interesting input */
		over[nr_over++] = s;
	}
	memset(&p, 0x5a, sizeof(p));
	ret = plan_parse(buf, "fuzz.plan", over, nr_over, &p, &err);
	if (ret) {
		CHECK(ret < 0);
		CHECK(err.msg[0] != '\0');
		CHECK(p.steps == NULL && p.nr_steps == 0 && p.source == NULL);
	} else {
		CHECK(p.nr_steps >= 1 && p.nr_steps <= PLAN_MAX_STEPS);
		CHECK(p.steps != NULL && p.source != NULL);
		CHECK(strcmp(p.source, buf) == 0);
		CHECK(memchr(p.name, '\0', sizeof(p.name)) != NULL);
		for (unsigned i = 0; i < p.nr_steps; i++) {
			const struct plan_step *st = &p.steps[i];

			CHECK(memchr(st->label, '\0', sizeof(st->label)));
			CHECK(memchr(st->section, '\0', sizeof(st->section)));
			CHECK(st->job.name[0] != '\0');
			CHECK(st->nr_points <= PLAN_MAX_POINTS);
			CHECK(st->mode != STEP_SEARCH ||
			      st->latency_limit_ns > 0);
			for (unsigned j = 1; j < st->nr_points; j++)
				CHECK(st->points[j - 1] < st->points[j]);
		}
	}
	plan_free(&p);
out:
	free(buf);
	return 0;
}
