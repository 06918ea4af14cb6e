/* fio_log_gz.h - a fio log kept compressed (log_store_compressed): the
 * samples in fio 3.33's binary form (its struct io_sample: u64 time in
 * ms, u64 value, u32 direction with flags, u16 priority, 2 bytes of
 * padding, u64 bs, and with log_offset a u64 offset), little-endian,
 * deflated as zlib streams of at most chunk bytes of samples each, back
 * to back, into PATH.fz: what fio writes and fio --inflate-log (and
 * iochar's) reads. */
#ifndef IOCHAR_STATS_FIO_LOG_GZ_H
#define IOCHAR_STATS_FIO_LOG_GZ_H

#include <stdbool.h>
#include <stdint.h>

#include "stats/fio_log.h"

/* Write g's samples to g->path + ".fz" (appended to with append), with
 * fio's offset and priority flags as l says, in streams of chunk bytes
 * (0: one). 0, or -errno with a message naming the file. */
int fio_log_write_gz(const struct fio_logs *l, const struct fio_log *g, uint64_t chunk,
		     struct ioc_err *err);

#endif
