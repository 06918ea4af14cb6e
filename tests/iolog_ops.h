/* iolog_ops.h - the I/Os a tool logged with write_iolog= (fio's iolog
 * v3: "TIME FILE read|write OFFSET LENGTH"), for tests that run the same
 * job through fio and iochar (fio_side.h) and compare what each did. */
#ifndef IOCHAR_TESTS_IOLOG_OPS_H
#define IOCHAR_TESTS_IOLOG_OPS_H

#define IOLOG_MAX_OPS 4096

struct iolog_op {
	char file[64];
	char dir; /* 'r' or 'w' */
	unsigned long long off, len;
	unsigned long long seq; /* order in the log */
};

struct iolog_ops {
	unsigned n;
	struct iolog_op o[IOLOG_MAX_OPS];
};

/* The reads and writes of dir/sub/log.txt (fails the test without it). */
void iolog_ops_read(const char *dir, const char *sub, struct iolog_ops *out);

/* Remove dir/fio and dir/iochar: each run on files of its own making. */
void iolog_ops_fresh(const char *dir);

#endif
