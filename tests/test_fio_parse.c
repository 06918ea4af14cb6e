/* test_fio_parse.c - job files and fio-style command lines read as fio
 * 3.33 reads them, checked against the real fio in the same test: the
 * same job file or command line goes through `fio` and `iochar run`, and
 * the jobs (names, order, count), each job's options (fio's "job options"
 * over its "global options", compared through iochar's typed parse),
 * --showcmd's text, the errors and the files made are compared. Jobs use
 * the null engine (nothing written) except the defaults check, which
 * reads a small file in a temporary directory. SKIP without fio.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <dirent.h>

#include "base/job.h"
#include "base/job_options.h"
#include "cli/fio_names.h"
#include "cli/jobfile_expand.h"
#include "cli/options.h"
#include "harness.h"

/* dir/name in one of a few static buffers (a call's arguments may hold
 * several). */
static const char *strjoin_dir(const char *dir, const char *name)
{
	static char bufs[4][8400];
	static unsigned next;
	char *b = bufs[next++ % 4];
	snprintf(b, sizeof(bufs[0]), "%s/%s", dir, name);
	return b;
}

/* Each test's own directory in /dev/shm (small files, no disk). */
static int shm_setup(void **state)
{
	char tmpl[] = "/dev/shm/iochar-fio-parse-XXXXXX";
	char *d = mkdtemp(tmpl);
	if (!d)
		return -1;
	*state = strdup(d);
	return *state ? 0 : -1;
}

static int shm_teardown(void **state)
{
	char cmd[256];
	const char *d = *state;
	if (d && !strncmp(d, "/dev/shm/iochar-fio-parse-", 26)) {
		snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", d);
		if (system(cmd))
			fprintf(stderr, "warning: could not remove %s\n", d);
	}
	free(*state);
	return 0;
}

/* iochar's absolute path: the commands run in the test's directory. */
static const char *ioc(void)
{
	static char path[4096];
	if (!path[0] && !realpath(iochar_path(), path))
		fail_msg("%s: %s", iochar_path(), strerror(errno));
	return path;
}

static bool have_fio(void)
{
	if (system("fio --version 2>/dev/null | grep -q '^fio-3'") == 0)
		return true;
	printf("SKIP: fio 3.x is not installed (scripts/deps.sh)\n");
	return false;
}

/* Run a shell command; its stdout (stderr too when merge) as a malloc'd
 * string, its exit status in *rc. */
static char *sh(int *rc, bool merge, const char *fmt, ...)
{
	char cmd[8192], *buf = NULL;
	size_t len = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (merge)
		strncat(cmd, " 2>&1", sizeof(cmd) - strlen(cmd) - 1);
	else
		strncat(cmd, " 2>/dev/null", sizeof(cmd) - strlen(cmd) - 1);
	FILE *out = open_memstream(&buf, &len);
	FILE *p = popen(cmd, "r");
	assert_non_null(out);
	assert_non_null(p);
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
		fwrite(chunk, 1, n, out);
	int st = pclose(p);
	fclose(out);
	*rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	return buf;
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "we");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* The JSON document a command prints (fio's or iochar's). */
static json_object *run_json(const char *cwd, const char *prog,
			     const char *args)
{
	int rc;
	char *out = sh(&rc, false, "cd '%s' && %s --output-format=json %s",
		       cwd, prog, args);
	if (rc != 0)
		fail_msg("'%s %s' exit %d:\n%s", prog, args, rc, out);
	json_object *o = json_tokener_parse(out);
	if (!o)
		fail_msg("'%s %s': not JSON:\n%s", prog, args, out);
	free(out);
	return o;
}

/* The value of fio option key as the row shows it after parsing value:
 * two spellings of one value ("1m", "1048576") compare equal. */
static char *shown(const char *key, const char *value)
{
	struct job_spec spec;
	struct ioc_err err = {0};
	const struct option_def *o = options_find(key);
	char *buf = NULL;
	size_t len = 0;

	if (!o)
		fail_msg("fio reports option '%s', which iochar does not have",
			 key);
	job_spec_init(&spec);
	options_set_defaults(&spec);
	if (options_apply(&spec, key, value, &err))
		fail_msg("%s=%s: %s", key, value, err.msg);
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	if (o->scope == OPT_SCOPE_JOB)
		assert_int_equal(option_show(o, &spec, f), 0);
	else
		fputs(value, f);
	fclose(f);
	job_spec_free(&spec);
	return buf;
}

/* The --name values of the command line being compared: those jobs carry
 * their global options themselves (fio copies them at --name); the
 * document's "global options" are the job file's. */
static char cli_names[8][64];
static unsigned nr_cli_names;

static void note_cli_names(const char *args)
{
	nr_cli_names = 0;
	for (const char *p = args; (p = strstr(p, "--name=")) && nr_cli_names < 8;) {
		p += strlen("--name=");
		snprintf(cli_names[nr_cli_names++], 64, "%.*s",
			 (int)strcspn(p, " "), p);
	}
}

static bool is_cli_job(json_object *job)
{
	const char *name = json_object_get_string(jget(job, "jobname"));
	for (unsigned i = 0; i < nr_cli_names; i++)
		if (!strcmp(cli_names[i], name))
			return true;
	return false;
}

/* fio's options for job j: its "job options" over the "global options"
 * (a command-line job's: its own only). */
static const char *fio_value(json_object *doc, json_object *job,
			     const char *key)
{
	json_object *v, *jo;
	if (json_object_object_get_ex(job, "job options", &jo) &&
	    json_object_object_get_ex(jo, key, &v))
		return json_object_get_string(v);
	if (is_cli_job(job))
		return NULL;
	if (json_object_object_get_ex(doc, "global options", &v) &&
	    json_object_object_get_ex(v, key, &v))
		return json_object_get_string(v);
	return NULL;
}

/* fio's value of key for job fj, read the same way from iochar's
 * document (its "job options" over its "global options"). */
static void compare_option(json_object *fdoc, json_object *fj, json_object *idoc,
			   json_object *ij, const char *key)
{
	const char *fv = fio_value(fdoc, fj, key);
	const char *iv = fio_value(idoc, ij, key);

	if (!fv || !strcmp(key, "name"))
		return;
	if (!iv)
		fail_msg("job %s: fio has %s=%s, iochar reports no %s",
			 json_object_get_string(jget(fj, "jobname")), key, fv,
			 key);
	char *a = shown(key, fv), *b = shown(key, iv);
	if (strcmp(a, b))
		fail_msg("job %s: %s is '%s' in fio, '%s' in iochar",
			 json_object_get_string(jget(fj, "jobname")), key, fv, iv);
	free(a);
	free(b);
}

static void compare_keys(json_object *fdoc, json_object *fj, json_object *idoc,
			 json_object *ij, json_object *opts)
{
	json_object_object_foreach(opts, key, v)
	{
		(void)v;
		compare_option(fdoc, fj, idoc, ij, key);
	}
}

/* Same jobs in the same order, and every option fio reports for a job
 * (its own or global) has the same value in iochar's job. */
static void compare_jobs(json_object *f, json_object *i)
{
	json_object *fjobs = jget(f, "jobs"), *ijobs = jget(i, "jobs");
	size_t n = json_object_array_length(fjobs);

	assert_int_equal(json_object_array_length(ijobs), n);
	for (size_t k = 0; k < n; k++) {
		json_object *fj = json_object_array_get_idx(fjobs, k);
		json_object *ij = json_object_array_get_idx(ijobs, k);
		json_object *g, *jo;

		assert_string_equal(json_object_get_string(jget(ij, "jobname")),
				    json_object_get_string(jget(fj, "jobname")));
		if (json_object_object_get_ex(f, "global options", &g))
			compare_keys(f, fj, i, ij, g); /* skipped where not fj's */
		if (json_object_object_get_ex(fj, "job options", &jo))
			compare_keys(f, fj, i, ij, jo);
	}
}

static void compare_runs(const char *dir, const char *args)
{
	note_cli_names(args);
	json_object *f = run_json(dir, "fio", args);
	char prog[4200];
	snprintf(prog, sizeof(prog), "'%s' run", ioc());
	json_object *i = run_json(dir, prog, args);
	compare_jobs(f, i);
	json_object_put(f);
	json_object_put(i);
}

/* include (nested, relative to the including file), ${VAR} (set and
 * unset), $pagesize arithmetic, [global] overridden by a job, aliases
 * (timeout, readwrite, blocksize), description: fio's jobs, iochar's. */
static void test_syntax_as_fio(void **state)
{
	const char *dir = *state;

	if (!have_fio())
		return;
	setenv("IOCHAR_T_BS", "8k", 1);
	unsetenv("IOCHAR_T_UNSET");
	assert_int_equal(mkdir(strjoin_dir(dir, "inc"), 0700), 0);
	write_file(dir, "inc/one.fio", "iodepth=2\ninclude two.fio\n");
	write_file(dir, "inc/two.fio", "rwmixread=70\n");
	write_file(dir, "job.fio",
		   "; comment\n[global]\nioengine=null\nsize=$pagesize*64\n"
		   "timeout=3\n"
		   "[first]\ninclude inc/one.fio\nreadwrite=randrw\n"
		   "blocksize=${IOCHAR_T_BS}\ndescription=a first job\n"
		   "[second]\nbs=4k${IOCHAR_T_UNSET}\nsize=128k\n"
		   "[third]\nnumjobs=2\nrw=write\n[fourth]\nname=renamed\n");
	compare_runs(dir, "job.fio");
}

/* Each --name starts a job; options before the first are global; a job
 * file's jobs come after the command line's and start from its global
 * options, which the file overrides; options after the file belong to
 * the last --name job (fio's getopt permutes argv). */
static void test_command_line_as_fio(void **state)
{
	const char *dir = *state;

	if (!have_fio())
		return;
	write_file(dir, "f.fio", "[global]\nbs=16k\n[a]\nrw=randread\n[b]\n");
	compare_runs(dir, "--ioengine=null --size=1m --name=x --bs=8k "
			  "--name=y --iodepth=4 f.fio --numjobs=2");
	compare_runs(dir, "--ioengine=null --size=1m --bs=2k f.fio "
			  "--iodepth=3");
	compare_runs(dir, "--ioengine=null --size=1m --name=p --name=q "
			  "--rw=write");
}

/* --section picks jobs (repeatable; [global] always read). */
static void test_section_as_fio(void **state)
{
	const char *dir = *state;

	if (!have_fio())
		return;
	write_file(dir, "s.fio",
		   "[global]\nioengine=null\nsize=256k\n[a]\n[b]\nbs=8k\n"
		   "[c]\nbogus_only_in_c=1\n[d]\nrw=randread\n");
	compare_runs(dir, "--section=b s.fio");
	compare_runs(dir, "--section=d --section=b s.fio");
}

/* --showcmd prints what fio prints, byte for byte (filename after the
 * others: fio's parse order). */
static void test_showcmd_as_fio(void **state)
{
	const char *dir = *state;
	int frc, irc;

	if (!have_fio())
		return;
	setenv("IOCHAR_T_DEPTH", "4", 1);
	write_file(dir, "inc.fio", "rw=randread\n");
	write_file(dir, "sc.fio",
		   "[global]\nioengine=null\nsize=1m\ntimeout=5\n"
		   "[a]\nbs=16k\ntime_based\nreadwrite=randread\n"
		   "iodepth=${IOCHAR_T_DEPTH}\ndescription=two words\n"
		   "[b]\nfilename=sc.dat\ninclude inc.fio\nbs=8k\n");
	char *f = sh(&frc, false, "cd '%s' && fio --showcmd sc.fio", dir);
	char *i = sh(&irc, false, "cd '%s' && '%s' run --showcmd sc.fio", dir,
		     ioc());
	assert_int_equal(frc, 0);
	assert_int_equal(irc, 0);
	assert_string_equal(i, f);
	free(f);
	free(i);
}

/* Is name an option fio knows, as fio itself says (--cmdhelp)? */
static bool fio_knows(const char *name)
{
	int rc;
	char *out = sh(&rc, true, "fio --cmdhelp=%s", name);
	bool known = !strstr(out, "No such command");
	free(out);
	return known;
}

/* Several bad options: fio refuses the file; iochar names every culprit,
 * each at its FILE:LINE, tells fio's options (as fio --cmdhelp knows
 * them) from names fio does not know, exits 2 and writes nothing. */
static void test_every_culprit_named(void **state)
{
	const char *dir = *state;
	struct proc_out po;
	int frc;

	if (!have_fio())
		return;
	write_file(dir, "bad.fio",
		   "[global]\nfilename=out.dat\nsize=1m\nrw=write\n"
		   "[j]\ngtod_cpu=1\nnot_an_option=1\nbs=zz\n"
		   "[k]\nkb_base=1000\nalso_bogus\n");
	free(sh(&frc, true, "cd '%s' && fio --parse-only bad.fio", dir));
	assert_int_not_equal(frc, 0);
	char path[4200];
	snprintf(path, sizeof(path), "%s/bad.fio", dir);
	run_iochar(&po, dir, 0, ARGS("run", path));
	expect_exit(&po, 2);
	static const struct {
		unsigned line;
		const char *name;
	} culprits[] = {{6, "gtod_cpu"}, {7, "not_an_option"}, {8, "bs"},
			{10, "kb_base"},  {11, "also_bogus"}};
	for (size_t k = 0; k < sizeof(culprits) / sizeof(culprits[0]); k++) {
		char want[4300];
		const char *name = culprits[k].name;
		snprintf(want, sizeof(want), "%s:%u: ", path, culprits[k].line);
		const char *at = strstr(po.err, want);
		if (!at)
			fail_msg("no '%s' in:\n%s", want, po.err);
		const char *eol = strchr(at, '\n');
		size_t len = eol ? (size_t)(eol - at) : strlen(at);
		char line[1024];
		snprintf(line, sizeof(line), "%.*s", (int)len, at);
		if (!strstr(line, name))
			fail_msg("'%s' does not name %s", line, name);
		if (!strcmp(name, "bs"))
			continue; /* a bad value, not a bad name */
		bool says_fio = strstr(line, "is not supported by iochar");
		if (says_fio != fio_knows(name))
			fail_msg("'%s': fio %s '%s'", line,
				 fio_knows(name) ? "knows" : "does not know",
				 name);
	}
	assert_int_equal(count_lines(po.err), 5);
	assert_false(file_exists(strjoin_dir(dir, "out.dat")));
	proc_out_free(&po);
}

/* --parse-only: exit 0 on a good file and non-zero on a bad one, as fio;
 * nothing runs (no file made). */
static void test_parse_only_as_fio(void **state)
{
	const char *dir = *state;
	int frc, irc;

	if (!have_fio())
		return;
	write_file(dir, "ok.fio", "[w]\nfilename=made.dat\nsize=64k\n"
				  "rw=write\n");
	write_file(dir, "no.fio", "[w]\nfilename=made.dat\nsize=64k\n"
				  "nosuchoption=1\n");
	/* fio's parenthesized arithmetic: Debian's fio 3.33 is built
	 * without it (CONFIG_ARITHMETIC) and refuses it; so does iochar */
	write_file(dir, "ar.fio", "[w]\nfilename=made.dat\nsize=(64k*2)\n");
	const char *files[] = {"ok.fio", "no.fio", "ar.fio"};
	for (int k = 0; k < 3; k++) {
		free(sh(&frc, true, "cd '%s' && fio --parse-only %s", dir,
			files[k]));
		free(sh(&irc, true, "cd '%s' && '%s' run --parse-only %s", dir,
			ioc(), files[k]));
		assert_int_equal(irc == 0, frc == 0);
		assert_int_equal(irc, k == 0 ? 0 : 2);
	}
	assert_false(file_exists(strjoin_dir(dir, "made.dat")));
}

/* --readonly refuses a job that writes, or a read that would lay its
 * file out, before anything runs, as fio; it reads an existing file. */
static void test_readonly_as_fio(void **state)
{
	const char *dir = *state;
	int frc, irc;

	if (!have_fio())
		return;
	write_file(dir, "w.fio", "[r]\nfilename=r.dat\nsize=64k\n"
				 "ioengine=null\n[w]\nfilename=w.dat\n"
				 "size=64k\nrw=randwrite\n");
	free(sh(&frc, true, "cd '%s' && fio --readonly w.fio", dir));
	char *msg = sh(&irc, true, "cd '%s' && '%s' run --readonly w.fio",
		       dir, ioc());
	assert_int_not_equal(frc, 0);
	assert_int_equal(irc, 2);
	expect_has(msg, "job 'w'");
	assert_false(file_exists(strjoin_dir(dir, "w.dat")));
	free(msg);
	/* a read job would lay its new file out: fio refuses, so must we */
	free(sh(&frc, true, "cd '%s' && fio --readonly --name=r "
			    "--filename=new.dat --size=64k", dir));
	msg = sh(&irc, true, "cd '%s' && '%s' run --readonly --name=r "
			     "--filename=new.dat --size=64k", dir, ioc());
	assert_int_not_equal(frc, 0);
	assert_int_equal(irc, 2);
	expect_has(msg, "new.dat");
	assert_false(file_exists(strjoin_dir(dir, "new.dat")));
	free(msg);
	/* an existing file that holds the region is read, as by fio */
	make_file(strjoin_dir(dir, "old.dat"), 64 << 10);
	free(sh(&frc, true, "cd '%s' && fio --readonly --name=r "
			    "--filename=old.dat --size=64k", dir));
	free(sh(&irc, true, "cd '%s' && '%s' run --readonly --name=r "
			    "--filename=old.dat --size=64k", dir, ioc()));
	assert_int_equal(frc, 0);
	assert_int_equal(irc, 0);
}

/* fio's default of option key, as `fio --cmdhelp=KEY` states it. */
static char *fio_default(const char *key)
{
	int rc;
	char *out = sh(&rc, true, "fio --cmdhelp=%s", key);
	const char *d = strstr(out, "default: ");
	assert_non_null(d);
	d += strlen("default: ");
	char *v = strndup(d, strcspn(d, "\n"));
	free(out);
	return v;
}

static size_t dir_files(const char *dir, char names[][64], size_t max)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;
	assert_non_null(d);
	while ((e = readdir(d)) && n < max)
		if (e->d_name[0] != '.' && !strstr(e->d_name, ".fio"))
			snprintf(names[n++], 64, "%.63s", e->d_name);
	closedir(d);
	return n;
}

/* A job file without ioengine, iodepth, direct or filename: iochar takes
 * fio's defaults (as fio --cmdhelp gives them), makes the file fio makes
 * (same name, same size) and issues fio's number of reads. */
static void test_defaults_as_fio(void **state)
{
	const char *dir = *state;
	char fdir[256], idir[256], fn[4][64], in[4][64];

	if (!have_fio())
		return;
	snprintf(fdir, sizeof(fdir), "%s/fio", dir);
	snprintf(idir, sizeof(idir), "%s/iochar", dir);
	assert_int_equal(mkdir(fdir, 0700), 0);
	assert_int_equal(mkdir(idir, 0700), 0);
	const char *job = "[plain]\nsize=256k\n";
	write_file(fdir, "d.fio", job);
	write_file(idir, "d.fio", job);
	json_object *f = run_json(fdir, "fio", "d.fio");
	char prog[4200];
	snprintf(prog, sizeof(prog), "'%s' run", ioc());
	json_object *i = run_json(idir, prog, "d.fio");
	json_object *ij = json_object_array_get_idx(jget(i, "jobs"), 0);
	json_object *fj = json_object_array_get_idx(jget(f, "jobs"), 0);
	const char *keys[] = {"ioengine", "iodepth", "direct", "rw", "bs"};
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		char *d = fio_default(keys[k]);
		char *a = shown(keys[k], d);
		/* not given, so not in "job options": iochar's own options */
		json_object *own = jget(json_object_array_get_idx(jget(i, "options"), 0), keys[k]);
		assert_non_null(own);
		const char *ov = json_object_get_type(own) == json_type_boolean
				     ? (json_object_get_boolean(own) ? "1" : "0")
				     : json_object_get_string(own);
		char *b = shown(keys[k], ov);
		if (strcmp(a, b))
			fail_msg("%s: fio's default is %s, iochar's %s",
				 keys[k], a, b);
		free(a), free(b), free(d);
	}
	assert_int_equal(jget_u64(ij, "read.total_ios"),
			 jget_u64(fj, "read.total_ios"));
	size_t nf = dir_files(fdir, fn, 4), ni = dir_files(idir, in, 4);
	assert_int_equal(ni, nf);
	for (size_t k = 0; k < nf; k++) {
		struct stat a, b;
		assert_string_equal(in[k], fn[k]);
		assert_int_equal(stat(strjoin_dir(fdir, fn[k]), &a), 0);
		assert_int_equal(stat(strjoin_dir(idir, in[k]), &b), 0);
		assert_int_equal(b.st_size, a.st_size);
	}
	json_object_put(f);
	json_object_put(i);
}

/* The generated list holds every option `fio --cmdhelp=all` lists, and
 * every alias fio has for an option iochar has is iochar's too. */
static void test_fio_names_are_fios(void **state)
{
	int rc;

	(void)state;
	if (!have_fio())
		return;
	char *all = sh(&rc, true, "fio --cmdhelp=all | sed 's/ *:.*//; s/^ *//'");
	assert_int_equal(rc, 0);
	unsigned n = 0;
	for (char *line = strtok(all, "\n"); line; line = strtok(NULL, "\n")) {
		if (!fio_name_find(line))
			fail_msg("fio lists '%s', fio_names.c does not: "
				 "regenerate it (scripts/gen_fio_options.sh)",
				 line);
		n++;
	}
	assert_true(n > 150);
	free(all);
	for (const struct fio_name *f = fio_names; f->name; f++)
		if (f->alias[0] && options_find(f->name) &&
		    options_find(f->alias) != options_find(f->name))
			fail_msg("fio's %s is also '%s'; iochar's row lacks the "
				 "alias", f->name, f->alias);
}

/* bc computes what fio has it compute: iochar's arithmetic agrees. */
static void test_arith_as_bc(void **state)
{
	static const char *const exprs[] = {"8*4096", "4096/3", "7-10",
					    "2+3*4", "(2+3)*4", "-5/2",
					    "17%5", "100 / 7 * 7"};
	int rc;

	(void)state;
	if (system("command -v bc >/dev/null 2>&1")) {
		printf("SKIP: bc is not installed\n");
		return;
	}
	for (size_t k = 0; k < sizeof(exprs) / sizeof(exprs[0]); k++) {
		long long v;
		char *out = sh(&rc, true, "echo '%s' | bc", exprs[k]);
		assert_int_equal(jobfile_arith(exprs[k], &v), 0);
		if (v != atoll(out))
			fail_msg("%s: bc says %s, iochar %lld", exprs[k], out,
				 v);
		free(out);
	}
	long long v;
	assert_int_equal(jobfile_arith("4096*", &v), -EINVAL);
	assert_int_equal(jobfile_arith("1/0", &v), -EINVAL);
	assert_int_equal(jobfile_arith("9999999999*9999999999", &v), -ERANGE);
}

/* An include loop, a missing include and a section in an included file
 * are refused with the file named (fio would recurse or fail late). */
static void test_include_refusals(void **state)
{
	const char *dir = *state;
	struct proc_out po;
	char path[4200];

	write_file(dir, "loop.fio", "[a]\nioengine=null\ninclude loop2.fio\n");
	write_file(dir, "loop2.fio", "size=1m\ninclude loop.fio\n");
	write_file(dir, "miss.fio", "[a]\ninclude nowhere.fio\n");
	write_file(dir, "sect.fio", "[a]\ninclude sect2.fio\n");
	write_file(dir, "sect2.fio", "[b]\n");
	snprintf(path, sizeof(path), "%s/loop.fio", dir);
	run_iochar(&po, dir, 0, ARGS("run", path));
	expect_exit(&po, 2);
	expect_has(po.err, "include loop");
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("run", "miss.fio"));
	expect_exit(&po, 2);
	expect_has(po.err, "nowhere.fio: cannot read included file");
	proc_out_free(&po);
	run_iochar(&po, dir, 0, ARGS("run", "sect.fio"));
	expect_exit(&po, 2);
	expect_has(po.err, "an included file holds no sections");
	proc_out_free(&po);
}

/* docs/fio-compat.md is what `iochar run --fio-compat` prints. */
static void test_compat_doc_current(void **state)
{
	struct proc_out po;
	(void)state;
	run_iochar(&po, NULL, 0, ARGS("run", "--fio-compat"));
	expect_exit(&po, 0);
	FILE *f = fopen("docs/fio-compat.md", "re");
	if (!f)
		fail_msg("docs/fio-compat.md: %s (run from the tree's top)",
			 strerror(errno));
	char *doc = NULL;
	size_t len = 0;
	assert_true(getdelim(&doc, &len, '\0', f) >= 0);
	fclose(f);
	if (strcmp(doc, po.out))
		fail_msg("docs/fio-compat.md is stale: regenerate it with "
			 "'build/iochar run --fio-compat > docs/fio-compat.md'");
	free(doc);
	proc_out_free(&po);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_syntax_as_fio, shm_setup,
					    shm_teardown),
	    cmocka_unit_test_setup_teardown(test_command_line_as_fio,
					    shm_setup, shm_teardown),
	    cmocka_unit_test_setup_teardown(test_section_as_fio, shm_setup,
					    shm_teardown),
	    cmocka_unit_test_setup_teardown(test_showcmd_as_fio, shm_setup,
					    shm_teardown),
	    cmocka_unit_test_setup_teardown(test_every_culprit_named,
					    shm_setup, shm_teardown),
	    cmocka_unit_test_setup_teardown(test_parse_only_as_fio,
					    shm_setup, shm_teardown),
	    cmocka_unit_test_setup_teardown(test_readonly_as_fio, shm_setup,
					    shm_teardown),
	    cmocka_unit_test_setup_teardown(test_defaults_as_fio, shm_setup,
					    shm_teardown),
	    cmocka_unit_test(test_fio_names_are_fios),
	    cmocka_unit_test(test_arith_as_bc),
	    cmocka_unit_test_setup_teardown(test_include_refusals,
					    shm_setup, shm_teardown),
	    cmocka_unit_test(test_compat_doc_current),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
