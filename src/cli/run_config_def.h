/* run_config_def.h - struct run_config, the command line of `iochar run`
 * as its rows (cli/options.c, scope CLI) store it. Apart from
 * run_config.h, whose parser uses the option rows, so the rows need not
 * include their parser. */
#ifndef IOCHAR_CLI_RUN_CONFIG_DEF_H
#define IOCHAR_CLI_RUN_CONFIG_DEF_H

#include <stdbool.h>
#include <stdint.h>

#include "base/job.h"
#include "output/output.h"

/* Where scratch mode puts its file, relative to the working directory. */
#define RUN_SCRATCH_FILE "iochar-data/scratch.dat"

/* --eta: the live status line, as fio's option. */
enum run_eta {
	RUN_ETA_AUTO,	/* on a terminal, else periodic progress lines */
	RUN_ETA_ALWAYS, /* the live line even without a terminal */
	RUN_ETA_NEVER,	/* neither */
};

struct run_config {
	struct job_spec *jobs; /* nr_jobs specs; owned */
	unsigned nr_jobs;
	enum output_format format;
	bool minimal; /* --minimal: fio's alias of --output-format=terse */
	char *output; /* --output file, or NULL for stdout; owned */
	uint64_t progress_interval_ns; /* no terminal: progress line this often */
	uint64_t status_interval_ns;   /* --status-interval: a full report this often; 0 none */
	bool scratch; /* jobs run on RUN_SCRATCH_FILE, which the
		       * runner creates (parent directory too) */
	/* fio's command line (jobfile area) */
	char **sections;    /* --section values, owned; nr_sections of them */
	unsigned nr_sections;
	bool parse_only;    /* --parse-only: parse, check, run nothing */
	bool showcmd;       /* --showcmd: print the job file as fio's
			     * command line (showcmd_text), run nothing */
	char *showcmd_text; /* owned; "fio --name=... \n" */
	enum run_eta eta;   /* --eta */
	bool readonly;      /* --readonly: every write job was refused */
	bool version;       /* --version: print it, run nothing */
	bool verbose;       /* --verbose: iochar's notes on stderr without a
			     * terminal too (util/note.h) */
	bool fio_compat;    /* --fio-compat: print docs/fio-compat.md */
	bool fio_defaults;  /* the jobs got fio's defaults, not scratch's */
	/* fio's command-line options (options.c says what each does here) */
	unsigned max_jobs;      /* --max-jobs: accepted, caps nothing (as fio 3.33) */
	unsigned terse_version; /* --terse-version: 3, the one iochar writes */
	uint64_t eta_newline_ns; /* --eta-newline: accepted, no effect */
	bool warnings_fatal;    /* --warnings-fatal: iochar refuses, never warns */
	uint64_t alloc_size_kb; /* --alloc-size: fio's smalloc pool; none here */
	char *aux_path;         /* --aux-path: owned; iochar writes no state files */
	char *debug;            /* --debug: owned; "help" prints the categories */
	char *cmdhelp;          /* --cmdhelp[=OPTION]: owned; "" = all */
	char *enghelp;          /* --enghelp[=ENGINE[,OPTION]]: owned; "" = list */
	bool bandwidth_log;     /* --bandwidth-log: agg-*_bw.log, as fio's */
	char *inflate_log;      /* --inflate-log=FILE: owned; print it inflated */
	char *trigger_cmd;      /* --trigger: owned */
	char *trigger_file;     /* --trigger-file: owned */
	uint64_t trigger_timeout_ns; /* --trigger-timeout */
	char *crctest;          /* --crctest[=TYPE]: owned; "" = every digest */
};

#endif
