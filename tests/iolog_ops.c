/* iolog_ops.c - see iolog_ops.h. */
#define _GNU_SOURCE
#include "iolog_ops.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void iolog_ops_read(const char *dir, const char *sub, struct iolog_ops *out)
{
	char path[4200], line[512];

	snprintf(path, sizeof(path), "%s/%s/log.txt", dir, sub);
	FILE *f = fopen(path, "r");
	if (!f)
		fail_msg("%s: no iolog", path);
	out->n = 0;
	while (fgets(line, sizeof(line), f) && out->n < IOLOG_MAX_OPS) {
		struct iolog_op *o = &out->o[out->n];
		char act[16];
		unsigned long long t;
		if (sscanf(line, "%llu %63s %15s %llu %llu", &t, o->file, act,
			   &o->off, &o->len) != 5)
			continue;
		if (strcmp(act, "read") && strcmp(act, "write"))
			continue;
		o->dir = act[0];
		o->seq = out->n++;
	}
	fclose(f);
}

void iolog_ops_fresh(const char *dir)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/fio' '%s/iochar'", dir, dir);
	assert_int_equal(system(cmd), 0);
}
