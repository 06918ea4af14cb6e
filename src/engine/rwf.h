/* rwf.h - what engines with per-I/O RWF_ flags (pvsync2, io_uring) share:
 * the refusal of fio's "uncached". */
#ifndef IOCHAR_ENGINE_RWF_H
#define IOCHAR_ENGINE_RWF_H

#include "util/err.h"

/* fio 3.33's uncached=N sets RWF_UNCACHED, its own value 0x40 for a flag
 * of a kernel patch set that was never merged: in Linux (6.11+) 0x40 is
 * RWF_ATOMIC, and fio's buffered writes with it fail with EOPNOTSUPP.
 * 0 when uncached is 0; else -EINVAL with a usage message saying so for
 * job job_name of engine engine. */
int rwf_check_uncached(const char *job_name, const char *engine,
		       unsigned uncached, struct ioc_err *err);

#endif
