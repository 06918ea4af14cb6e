/* capture_ftrace.c - the blk tracer of tracefs as blktrace's source
 * (capture_ftrace.h says when and how). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "cmd/capture_ftrace.h"

#define TRACEFS "/sys/kernel/tracing"
#define FT_HDR 16   /* ftrace's binary entry header: pid, cpu, ts */
#define REC 48      /* struct blk_io_trace */
#define MAX_DEVS 16
#define MAX_CPUS 64

struct ft {
	const char *dir;
	const char *const *devs;
	unsigned nr;
	uint32_t devno[MAX_DEVS];      /* as the records name them: maj << 20 | min */
	char enable[MAX_DEVS][128];    /* /sys/dev/block/M:m/trace/enable */
	FILE *out[MAX_DEVS][MAX_CPUS];
	unsigned char buf[1 << 16];
	size_t have;
};

static int put(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	ssize_t n = fd < 0 ? -1 : write(fd, v, strlen(v));
	int e = errno;

	if (fd >= 0)
		close(fd);
	return n == (ssize_t)strlen(v) ? 0 : -(e ? e : EIO);
}

/* tracefs mounted at TRACEFS, as trace-cmd does when it is not: a fresh
 * system (or a container's /sys) has the directory but nothing on it. */
static void mount_tracefs(void)
{
	struct stat st;

	if (!stat(TRACEFS "/current_tracer", &st) || stat(TRACEFS, &st))
		return;
	if (!mount("tracefs", TRACEFS, "tracefs", 0, NULL))
		fprintf(stderr, "capture: mounted tracefs at " TRACEFS "\n");
}

static int setup(struct ft *t, struct ioc_err *err)
{
	char cur[64] = "";
	FILE *f;

	mount_tracefs();
	f = fopen(TRACEFS "/current_tracer", "r");
	if (!f)
		return err_set(err, ENODEV, "capture: no tracefs at " TRACEFS);
	if (!fgets(cur, sizeof(cur), f))
		cur[0] = '\0';
	fclose(f);
	cur[strcspn(cur, "\n")] = '\0';
	if (strcmp(cur, "nop"))
		return err_set(err, EBUSY, "capture: tracefs's tracer is in use (%s)", cur);
	for (unsigned i = 0; i < t->nr; i++) {
		struct stat st;
		stat(t->devs[i], &st);
		t->devno[i] = major(st.st_rdev) << 20 | minor(st.st_rdev);
		snprintf(t->enable[i], sizeof(t->enable[i]), "/sys/dev/block/%u:%u/trace/enable",
			 major(st.st_rdev), minor(st.st_rdev));
		if (put(t->enable[i], "1"))
			return err_set(err, errno, "capture: %s: %s", t->enable[i], strerror(errno));
	}
	put(TRACEFS "/trace", "");
	if (put(TRACEFS "/options/bin", "1") || put(TRACEFS "/current_tracer", "blk"))
		return err_set(err, EPERM, "capture: tracefs refuses the blk tracer");
	return 0;
}

static void teardown(struct ft *t)
{
	for (unsigned i = 0; i < t->nr; i++)
		if (t->enable[i][0])
			put(t->enable[i], "0");
	put(TRACEFS "/current_tracer", "nop");
	put(TRACEFS "/options/bin", "0");
}

/* The per-CPU file of record r's device and CPU, opened when first due. */
static FILE *out_of(struct ft *t, const unsigned char *r)
{
	uint32_t dev, cpu;

	memcpy(&dev, r + 36, 4); /* after magic, sequence, time, sector, bytes, action, pid */
	memcpy(&cpu, r + 40, 4);
	for (unsigned i = 0; i < t->nr; i++) {
		if (t->devno[i] != dev)
			continue;
		cpu %= MAX_CPUS;
		if (!t->out[i][cpu]) {
			const char *b = strrchr(t->devs[i], '/');
			char p[1200];
			snprintf(p, sizeof(p), "%s/%s.blktrace.%u", t->dir, b ? b + 1 : t->devs[i], cpu);
			t->out[i][cpu] = fopen(p, "wb");
		}
		return t->out[i][cpu];
	}
	return NULL;
}

/* Write out the whole entries in the buffer; keep a partial one. */
static int drain(struct ft *t)
{
	size_t at = 0;

	while (t->have - at >= FT_HDR + REC) {
		const unsigned char *r = t->buf + at + FT_HDR;
		uint16_t pdu;
		memcpy(&pdu, r + 46, 2);
		if (t->have - at < FT_HDR + REC + (size_t)pdu)
			break;
		FILE *f = out_of(t, r);
		if (f && fwrite(r, 1, REC + pdu, f) != REC + (size_t)pdu)
			return -EIO;
		at += FT_HDR + REC + pdu;
	}
	memmove(t->buf, t->buf + at, t->have - at);
	t->have -= at;
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Read trace_pipe until end (then until it is empty). */
static int pump(struct ft *t, int fd, uint64_t end, atomic_bool *stop)
{
	bool last = false;

	for (unsigned idle = 0; idle < 20;) {
		struct pollfd p = {.fd = fd, .events = POLLIN};
		ssize_t n = -1;
		errno = EAGAIN;
		if (poll(&p, 1, 5) > 0)
			n = read(fd, t->buf + t->have, sizeof(t->buf) - t->have);
		if (n > 0) {
			t->have += (size_t)n;
			if (drain(t))
				return -EIO;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
		if (!last && (now_ns() >= end || atomic_load(stop))) {
			last = true;
			for (unsigned i = 0; i < t->nr; i++)
				put(t->enable[i], "0");
		}
		idle += last;
	}
	return 0;
}

/* blkparse reads a device's per-CPU files from CPU 0 up and stops at the
 * first missing one (blktrace makes one for every CPU): the CPUs below a
 * device's highest that saw none of its I/O get an empty file. */
static void fill_cpu_gaps(const struct ft *t)
{
	for (unsigned i = 0; i < t->nr; i++) {
		int top = -1;
		for (int c = 0; c < MAX_CPUS; c++)
			top = t->out[i][c] ? c : top;
		for (int c = 0; c < top; c++) {
			const char *b = strrchr(t->devs[i], '/');
			char p[1200];
			snprintf(p, sizeof(p), "%s/%s.blktrace.%d", t->dir, b ? b + 1 : t->devs[i], c);
			int fd = t->out[i][c] ? -1 : open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);
			if (fd >= 0)
				close(fd);
		}
	}
}

int capture_ftrace(const char *dir, const char *const *devs, unsigned nr,
		   uint64_t time_ns, atomic_bool *stop, struct ioc_err *err)
{
	static struct ft t;
	int fd, ret;

	memset(&t, 0, sizeof(t));
	t.dir = dir;
	t.devs = devs;
	t.nr = nr > MAX_DEVS ? MAX_DEVS : nr;
	ret = setup(&t, err);
	if (!ret) /* the tracer switches under RCU: a pipe opened at once reads nothing */
		nanosleep(&(struct timespec){0, 100000000}, NULL);
	fd = ret ? -1 : open(TRACEFS "/trace_pipe", O_RDONLY);
	if (!ret && fd < 0)
		ret = err_set(err, errno, "capture: " TRACEFS "/trace_pipe: %s", strerror(errno));
	if (!ret) {
		ret = pump(&t, fd, now_ns() + time_ns, stop);
		if (ret)
			err_set(err, ret, "capture: writing the trace: %s", strerror(-ret));
	}
	if (fd >= 0)
		close(fd);
	teardown(&t);
	for (unsigned i = 0; i < MAX_DEVS; i++)
		for (unsigned c = 0; c < MAX_CPUS; c++)
			if (t.out[i][c] && fclose(t.out[i][c]) && !ret)
				ret = err_set(err, EIO, "capture: writing the trace: %s", strerror(errno));
	fill_cpu_gaps(&t);
	return ret;
}
