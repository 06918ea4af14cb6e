/* plan.c - plan files into steps: INI sections, [global] inheritance,
 * plan keys and command-line overrides. See plan.h; the plan keys are in
 * plan_keys.c, the expansion of sections into steps in plan_expand.c, the
 * built-in plans in plan_builtin.c.
 *
 * Parsing keeps every key=value as an entry (validated when it is read, so
 * a bad value is reported at its own line) and each section as an ordered
 * map from key to entry. Steps are built only once the whole file and the
 * overrides are in, since a list anywhere multiplies the section's steps.
 */
#include "charz/plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/ini.h"
#include "cli/options.h"
#include "charz/plan_parse.h"

/* Same setting? Rows that store into one field (rwmixread and rwmixwrite,
 * direct and buffered) are one setting: the later one replaces the other. */
static bool entry_same_key(const struct entry *a, const struct entry *b)
{
	if (a->pk || b->pk)
		return a->pk == b->pk;
	if (a->row == b->row)
		return true;
	return a->row->scope == OPT_SCOPE_JOB && b->row->scope == OPT_SCOPE_JOB &&
	       a->row->type != OPT_IGNORED && b->row->type != OPT_IGNORED &&
	       a->row->off == b->row->off;
}

const char *plan_entry_key(const struct entry *e)
{
	return e->pk ? e->pk->name : e->row->name;
}

/* Set e in m: it replaces the entry for the same key in place, or comes
 * last. 0 or -ENOMEM. */
static int keymap_set(struct keymap *m, struct entry *e)
{
	for (unsigned i = 0; i < m->nr; i++) {
		if (entry_same_key(m->e[i], e)) {
			m->e[i] = e;
			return 0;
		}
	}
	if (m->nr == m->cap) {
		unsigned cap = m->cap ? 2 * m->cap : 16;
		struct entry **grown = realloc(m->e, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		m->e = grown;
		m->cap = cap;
	}
	m->e[m->nr++] = e;
	return 0;
}

static int keymap_copy(struct keymap *dst, const struct keymap *src)
{
	memset(dst, 0, sizeof(*dst));
	for (unsigned i = 0; i < src->nr; i++)
		if (keymap_set(dst, src->e[i]))
			return -ENOMEM;
	return 0;
}

static void parser_free(struct parser *p)
{
	for (unsigned i = 0; i < p->nr_secs; i++)
		free(p->secs[i].keys.e);
	free(p->secs);
	free(p->global.e);
	for (unsigned i = 0; i < p->nr_all; i++) {
		plan_list_free(&p->all[i]->vals);
		free(p->all[i]);
	}
	free(p->all);
	job_spec_free(&p->defaults.job);
}

/* Prefix err with where entry e was written. */
void plan_prefix_origin(const struct parser *p, unsigned line,
			  struct ioc_err *err)
{
	if (line)
		err_prefix(err, "%s:%u", p->origin, line);
	else
		err_prefix(err, "command line");
}


/* The workload option row for key; an unknown key, a fio option iochar
 * lacks or a command-only option is an error. */
static int find_option(const char *key, const struct option_def **row,
		       struct ioc_err *err)
{
	struct ioc_err why = {0};
	int ret;

	ret = options_lookup(key, row, &why);
	if (ret == 0 && ((*row)->scope == OPT_SCOPE_JOB ||
			 (*row)->scope == OPT_SCOPE_ENGINE))
		return 0;
	if (ret == 0)
		return err_usage(err, EINVAL,
				 "%s: an option of the command itself, not "
				 "of a plan step",
				 key);
	if (strncmp(why.msg, "unknown option", 14) == 0)
		return plan_unknown_key(key, err);
	return err_usage(err, -ret, "%s",
			 why.msg); /* fio option not supported */
}

/* How a key's value may hold ',': a list, part of the value, or never. */
enum comma_rule {
	COMMA_LIST,
	COMMA_WHOLE,
	COMMA_REFUSE,
};

/* The row says (OPT_F_COMMAS, OPT_F_ONE_VALUE); plan keys take one value
 * unless their row says otherwise. */
static enum comma_rule comma_rule(const struct entry *e)
{
	const struct option_def *o = e->pk ? e->pk : e->row;

	if (o->flags & OPT_F_COMMAS)
		return COMMA_WHOLE;
	if ((e->pk && !(o->flags & OPT_F_LIST)) || (o->flags & OPT_F_ONE_VALUE))
		return COMMA_REFUSE;
	return COMMA_LIST;
}

/* Apply value v of e (NULL: a bare key) to st. */
int plan_entry_apply(struct plan_step *st, const struct entry *e,
		       const char *v, struct ioc_err *err)
{
	if (e->row)
		return options_apply(&st->job, e->row->name, v, err);
	if (!v)
		return err_usage(err, EINVAL, "%s: needs a value, e.g. %s=%s",
				 e->pk->name, e->pk->name, e->pk->example);
	return option_parse(e->pk, st, v, err);
}

/* Check every value of e on a scratch step, so a bad one is reported at
 * its own line even when no step would use it. */
static int entry_check(const struct parser *p, const struct entry *e,
		       struct ioc_err *err)
{
	struct plan_step scratch = p->defaults;
	int ret = 0;

	for (unsigned i = 0; i < e->vals.nr && !ret; i++)
		ret = plan_entry_apply(&scratch, e, e->vals.v[i], err);
	job_spec_free(&scratch.job);
	return ret;
}

static int entry_split(struct entry *e, const char *key, const char *value,
		       struct ioc_err *err)
{
	const char *name = plan_entry_key(e);

	switch (comma_rule(e)) {
	case COMMA_REFUSE:
		if (value && strchr(value, ','))
			return err_usage(err, EINVAL,
					 "%s=%s: a list where one value is "
					 "required%s",
					 name, value,
					 e->row && strcmp(name, "filename") == 0
					     ? " (separate files with ':')"
					     : "");
		return plan_list_make(&e->vals, key, value, false, err);
	case COMMA_WHOLE:
		return plan_list_make(&e->vals, key, value, false, err);
	case COMMA_LIST:
		break;
	}
	return plan_list_make(&e->vals, name, value, true, err);
}

/* Make a checked entry for key=value (value NULL: a bare key) written at
 * line (0: the command line). The parser owns it. */
static int entry_make(struct parser *p, const char *key, const char *value,
		      unsigned line, struct entry **out, struct ioc_err *err)
{
	struct entry *e;
	int ret;

	if (p->nr_all == p->cap_all) {
		unsigned cap = p->cap_all ? 2 * p->cap_all : 32;
		struct entry **grown = realloc(p->all, cap * sizeof(*grown));

		if (!grown)
			return err_set(err, ENOMEM, "%s: out of memory", key);
		p->all = grown;
		p->cap_all = cap;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return err_set(err, ENOMEM, "%s: out of memory", key);
	p->all[p->nr_all++] = e;
	e->line = line;
	e->pk = plan_key_find(key);
	if (!e->pk) {
		ret = find_option(key, &e->row, err);
		if (ret)
			return ret;
	}
	ret = entry_split(e, key, value, err);
	if (ret)
		return ret;
	ret = entry_check(p, e, err);
	if (ret)
		return ret;
	*out = e;
	return 0;
}

/* ---- ini callbacks ---- */

static int on_section(void *arg, const char *name, unsigned line,
		      struct ioc_err *err)
{
	struct parser *p = arg;
	struct section *s;
	struct job_spec scratch = p->defaults.job;
	int ret;

	if (strcmp(name, "global") == 0) {
		p->where = IN_GLOBAL;
		return 0;
	}
	/* the section names the step's job: it must be a valid name */
	ret = options_apply(&scratch, "name", name, err);
	if (ret)
		return ret;
	if (p->nr_secs == p->cap_secs) {
		unsigned cap = p->cap_secs ? 2 * p->cap_secs : 8;
		struct section *grown = realloc(p->secs, cap * sizeof(*grown));

		if (!grown)
			return err_set(err, ENOMEM, "out of memory");
		p->secs = grown;
		p->cap_secs = cap;
	}
	s = &p->secs[p->nr_secs];
	if (keymap_copy(&s->keys, &p->global)) {
		free(s->keys.e);
		return err_set(err, ENOMEM, "out of memory");
	}
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->line = line;
	s->is_wl = false;
	p->nr_secs++;
	p->where = IN_STEP;
	return 0;
}

static int on_key(void *arg, const char *key, const char *value, unsigned line,
		  struct ioc_err *err)
{
	struct parser *p = arg;
	struct keymap *m;
	struct entry *e;
	int ret;

	if (p->where == IN_NOTHING)
		return err_usage(err, EINVAL,
				 "%s: outside a section (start one with "
				 "[global] or [stepname])",
				 key);
	ret = entry_make(p, key, value, line, &e, err);
	if (ret)
		return ret;
	m = p->where == IN_GLOBAL ? &p->global : &p->secs[p->nr_secs - 1].keys;
	if (keymap_set(m, e))
		return err_set(err, ENOMEM, "out of memory");
	return 0;
}

static const struct ini_ops plan_ini = {
    .section = on_section,
    .key = on_key,
};

/* One override, "key=value", "--key=value" or a bare "key", into every
 * section after the file's own values. */
static int add_override(struct parser *p, const char *arg, struct ioc_err *err)
{
	char *copy = strdup(arg[0] == '-' && arg[1] == '-' ? arg + 2 : arg);
	char *key, *value = NULL, *eq;
	struct entry *e;
	int ret = 0;

	if (!copy)
		return err_set(err, ENOMEM, "out of memory");
	eq = strchr(copy, '=');
	if (eq) {
		*eq = '\0';
		value = ini_trim(eq + 1);
	}
	key = ini_trim(copy);
	if (key[0] == '\0') {
		ret = err_usage(err, EINVAL, "missing key in '%s'", arg);
		goto out;
	}
	ret = entry_make(p, key, value, 0, &e, err);
	for (unsigned i = 0; i < p->nr_secs && !ret; i++)
		if (keymap_set(&p->secs[i].keys, e))
			ret = err_set(err, ENOMEM, "out of memory");
out:
	free(copy);
	return ret;
}

int plan_parse(const char *text, const char *origin,
	       const char *const *overrides, unsigned nr_overrides,
	       struct plan *out, struct ioc_err *err)
{
	return plan_parse_n(text, strlen(text), origin, overrides,
			    nr_overrides, out, err);
}

int plan_parse_n(const char *text, size_t len, const char *origin,
		 const char *const *overrides, unsigned nr_overrides,
		 struct plan *out, struct ioc_err *err)
{
	struct parser p = {.origin = origin, .where = IN_NOTHING};
	int ret;

	memset(out, 0, sizeof(*out));
	plan_step_defaults(&p.defaults);
	/* by length: a NUL byte is refused at its line, as a job file's,
	 * not taken as the text's end */
	ret = ini_parse_n(text, len, origin, &plan_ini, &p, err);
	for (unsigned i = 0; i < nr_overrides && !ret; i++) {
		ret = add_override(&p, overrides[i], err);
		if (ret)
			plan_prefix_origin(&p, 0, err);
	}
	if (!ret)
		ret = plan_build(&p, text, out, err);
	if (ret)
		plan_free(out);
	parser_free(&p);
	return ret;
}

void plan_free(struct plan *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->nr_steps; i++)
		plan_step_free(&p->steps[i]);
	free(p->steps);
	free(p->source);
	memset(p, 0, sizeof(*p));
}

/* ---- loading: a file, else a built-in ---- */

static const struct plan_builtin *builtin_find(const char *name)
{
	for (const struct plan_builtin *b = plan_builtins; b->name; b++)
		if (strcmp(b->name, name) == 0)
			return b;
	return NULL;
}

static int no_such_plan(const char *path, struct ioc_err *err)
{
	char names[256] = "";
	size_t used = 0;

	for (const struct plan_builtin *b = plan_builtins;
	     b->name && used < sizeof(names); b++)
		used += (size_t)snprintf(names + used, sizeof(names) - used,
					 "%s%s", used ? ", " : "", b->name);
	return err_usage(err, ENOENT,
			 "%s: no such plan file or built-in plan (built-ins: "
			 "%s)",
			 path, names);
}

int plan_load(const char *path, const char *const *overrides,
	      unsigned nr_overrides, struct plan *out, struct ioc_err *err)
{
	const struct plan_builtin *b;
	char origin[96];
	char *text = NULL;
	size_t len = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = ini_read_file_n(path, &text, &len);
	if (ret == 0) {
		ret = plan_parse_n(text, len, path, overrides, nr_overrides,
				   out, err);
		free(text);
		return ret;
	}
	b = ret == -ENOENT ? builtin_find(path) : NULL;
	if (!b && ret == -ENOENT)
		return no_such_plan(path, err);
	if (!b)
		return err_usage(err, -ret, "%s: cannot read plan file: %s",
				 path, strerror(-ret));
	snprintf(origin, sizeof(origin), "plan %s", b->name);
	ret = plan_parse(b->text, origin, overrides, nr_overrides, out, err);
	if (ret == 0)
		plan_set_name(out->name, sizeof(out->name), b->name);
	return ret;
}
