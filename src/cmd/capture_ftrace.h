/* capture_ftrace.h - `iochar capture` without blktrace's relay files:
 * where the kernel refuses them (lockdown forbids debugfs files that can
 * be mmapped), the same blk_io_trace records come through tracefs's "blk"
 * tracer in binary mode (options/bin): each is preceded by ftrace's
 * 16-byte header (pid, cpu, timestamp), which is dropped. The records
 * are written as blktrace writes them, DIR/NAME.blktrace.CPU, so one
 * `blkparse -d` merges either. */
#ifndef IOCHAR_CMD_CAPTURE_FTRACE_H
#define IOCHAR_CMD_CAPTURE_FTRACE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/err.h"

/* Trace devs[0..nr) (block device paths, checked) for time_ns, or until
 * *stop, into dir. Needs tracefs at /sys/kernel/tracing (mounted there
 * when the directory is bare, as trace-cmd does) with no other tracer
 * running; the tracer, its bin option and the devices' trace/enable
 * are put back as found, also on failure. 0, or -errno with the reason. */
int capture_ftrace(const char *dir, const char *const *devs, unsigned nr,
		   uint64_t time_ns, atomic_bool *stop, struct ioc_err *err);

#endif
