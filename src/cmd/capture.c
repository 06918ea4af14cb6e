/* capture.c - `iochar capture DEVICE... --time=T -o FILE`: records the
 * block devices' I/O for T with blktrace, then merges the per-CPU files
 * into one binary dump as fio's read_iolog (and iochar's) reads it
 * (`blkparse -D DIR -i DEV... -d FILE -O`), removes the per-CPU files and
 * prints what was captured per direction (the dump read back by
 * base/blktrace.c). Capturing only reads the kernel's trace buffers: no
 * I/O to the devices. Every input is checked before blktrace starts
 * (exit 2); a missing blktrace, an unmounted debugfs or a refusing kernel
 * is exit 1 with the reason. SIGINT/SIGTERM end the capture early; what
 * was traced so far is still merged.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/blktrace.h"
#include "cli/args.h"
#include "cmd/capture_session.h"
#include "cmd/cmd.h"
#include "cmd/signals.h"

#define DEBUGFS_DIR "/sys/kernel/debug" /* where blktrace wants debugfs */

struct capture_args {
	const char *devs[CAP_MAX_DEVS];
	unsigned nr_devs;
	uint64_t time_ns;
	const char *output;
	bool force;
};

static int add_dev(void *obj, const struct option_def *o, const char *v,
		   struct ioc_err *err)
{
	struct capture_args *a = obj;

	(void)o;
	if (a->nr_devs >= CAP_MAX_DEVS)
		return err_usage(err, E2BIG, "%s: at most %d devices", v, CAP_MAX_DEVS);
	a->devs[a->nr_devs++] = v;
	return 0;
}

#define CROW(F, nm, ty) ARG_ROW(struct capture_args, F, nm, ty)

static const struct arg_def rows[] = {
	{.o.name = "device", .o.type = OPT_CUSTOM, .o.parse = add_dev,
	 .flags = ARG_POS | ARG_MANY, .o.arg = "DEVICE",
	 .o.help = "a block device to trace (several: one dump of all)"},
	{CROW(time_ns, "time", OPT_TIME), .letter = 'w', .o.arg = "T",
	 .o.min = 1000000, .o.max = 86400ull * 1000000000ull,
	 .o.help = "how long to trace (no suffix: seconds; e.g. 1500ms; 1ms to 24h)"},
	{ARG_STR(struct capture_args, output, "output"), .letter = 'o',
	 .label = "-o", .missing = "%s: needs a file name", .o.arg = "FILE",
	 .o.help = "the binary trace to write (fio's read_iolog=FILE replays it)"},
	{CROW(force, "force", OPT_BOOL),
	 .o.help = "write FILE over an existing file that is no block trace"},
};

static const struct args_spec spec = {
	.usage = "usage: iochar capture DEVICE... --time=T -o FILE [--force]\n",
	.about = "Records the block devices' I/O for T with blktrace (needs root, the\n"
		 "blktrace package and debugfs at " DEBUGFS_DIR "), merges it into\n"
		 "one binary trace as `blkparse -d` writes it, and prints the I/Os per\n"
		 "direction. Replay it with `iochar run --read_iolog=FILE` or fio's\n"
		 "read_iolog (replay_redirect= sends it to another device or file).\n"
		 "Only reads the kernel's trace: nothing is written to the devices.\n"
		 "FILE must be new or a block trace (else --force).\n",
	ARGS_TABLE(rows),
	.unknown = "capture: unknown option '%s'; accepted: --time, -o, --force",
	.extra = "capture: unexpected argument '%s'",
};

static const char *base_name(const char *dev)
{
	const char *b = strrchr(dev, '/');
	return b ? b + 1 : dev;
}

/* Every device a block device, names unique (blktrace names its files by
 * the base name), time and output given, output new or a trace. */
static int check_args(const struct capture_args *a, struct ioc_err *err)
{
	struct stat st;

	if (!a->nr_devs)
		return err_usage(err, EINVAL, "capture: needs a block device");
	for (unsigned i = 0; i < a->nr_devs; i++) {
		const char *d = a->devs[i];
		if (stat(d, &st))
			return err_usage(err, errno, "capture: %s: %s", d, strerror(errno));
		if (!S_ISBLK(st.st_mode))
			return err_usage(err, ENOTBLK, "capture: %s: not a block device", d);
		for (unsigned k = 0; k < i; k++) {
			if (!strcmp(base_name(a->devs[k]), base_name(d)))
				return err_usage(err, EINVAL, "capture: %s: given twice "
						 "(or two devices of one name)", d);
		}
	}
	if (!a->time_ns)
		return err_usage(err, EINVAL, "capture: needs --time=T (how long to trace)");
	if (!a->output || !a->output[0])
		return err_usage(err, EINVAL, "capture: needs -o FILE (the trace to write)");
	if (stat(a->output, &st) == 0 && !a->force) {
		FILE *f = S_ISREG(st.st_mode) ? fopen(a->output, "rb") : NULL;
		bool swap, ok = f && (st.st_size == 0 || blktrace_is(f, &swap));
		if (f)
			fclose(f);
		if (!ok)
			return err_usage(err, EEXIST, "-o %s: exists and is no block "
					 "trace (--force writes over it)", a->output);
	}
	return 0;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Trace a's devices for a->time_ns (less if stop is set) into a->output.
 * 0, or -errno with the reason. */
static int trace(const struct capture_args *a, atomic_bool *stop, struct ioc_err *err)
{
	struct capture_session *s;
	char prefix[1100];
	int ret;

	snprintf(prefix, sizeof(prefix), "%s.capture", a->output);
	if ((ret = capture_begin(&s, a->devs, a->nr_devs, prefix, err)))
		return ret;
	fprintf(stderr, "capture: tracing %u device(s) for %.3f s with %s\n", a->nr_devs,
		(double)a->time_ns / 1e9, capture_via(s));
	for (uint64_t end = now_ns() + a->time_ns; now_ns() < end && !atomic_load(stop);) {
		uint64_t left = (end - now_ns()) / 1000000;
		sleep_ms(left > 50 ? 50 : (unsigned)left + 1);
		if (capture_failed(s, err))
			break;
	}
	struct ioc_err end_err = {0};
	ret = capture_end(s, a->output, &end_err);
	if (err->msg[0])
		return -EIO; /* blktrace ended early: its reason */
	if (ret)
		*err = end_err;
	return ret;
}

/* Print the I/Os of the trace written, per direction, as a replay sees
 * them (its queue events). 0 or -errno. */
static int summarize(const struct capture_args *a, double secs, bool early,
		     struct ioc_err *err)
{
	static const char *names[] = {"reads", "writes", "trims", "syncs", "datasyncs"};
	struct iolog_replay_opts o = {.redirect = a->output, .time_scale = 100};
	struct iolog log;
	uint64_t nr[5] = {0}, bytes[5] = {0};
	struct stat st;
	bool swap;
	int ret = 0;

	if (stat(a->output, &st) == 0 && st.st_size == 0) {
		log = (struct iolog){0};
	} else {
		FILE *f = fopen(a->output, "rb");
		if (!f)
			return err_set(err, errno, "capture: %s: %s", a->output, strerror(errno));
		ret = blktrace_is(f, &swap) ? blktrace_read(&log, f, a->output, &o, swap, err)
					    : err_set(err, EIO, "capture: %s: no block trace", a->output);
		fclose(f);
		if (ret)
			return ret;
	}
	for (size_t i = 0; i < log.nr; i++) {
		nr[log.e[i].op]++;
		bytes[log.e[i].op] += log.e[i].len;
	}
	printf("capture: %s: %zu I/Os in %.3f s%s", a->output, log.nr, secs,
	       early ? " (stopped early)" : "");
	for (int k = 0; k < 5; k++)
		if (nr[k] || k < 2)
			printf(", %llu %s (%llu bytes)", (unsigned long long)nr[k], names[k],
			       (unsigned long long)bytes[k]);
	printf("\n");
	iolog_free(&log);
	return 0; /* the trace is written; a stdout failure is main's stdout_end */
}

int cmd_capture(int argc, char **argv)
{
	struct capture_args a = {0};
	struct ioc_err err = {0};
	int ret;

	ret = args_parse(&spec, argc, argv, &a, &err);
	if (ret == ARGS_HELP) {
		args_help(&spec, stdout);
		return 0;
	}
	if (ret || check_args(&a, &err)) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (capture_tools(&err)) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		return 1;
	}
	atomic_bool *stop = signals_catch();
	uint64_t t0 = now_ns();
	ret = trace(&a, stop, &err);
	double secs = (double)(now_ns() - t0) / 1e9;
	if (!ret)
		ret = summarize(&a, atomic_load(stop) ? secs : (double)a.time_ns / 1e9,
				atomic_load(stop), &err);
	if (ret) {
		fprintf(stderr, "iochar: %s\n", err.msg);
		return 1;
	}
	return atomic_load(stop) ? EXIT_SIGNAL : 0;
}
