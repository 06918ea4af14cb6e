/* comm_mpi.c - the transport over MPI (Open MPI); see comm.h. Errors
 * return instead of aborting (MPI_ERRORS_RETURN), so a lost peer is
 * reported by the protocol above, not by MPI killing the job. */
#ifdef IOCHAR_MPI
#include "dist/comm.h"

#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

/* A posted send: its own copy of the bytes, kept until MPI is done. */
struct sent {
	MPI_Request req;
	void *buf;
	struct sent *next;
};

static struct sent *in_flight;

int comm_init(int *rank, int *size, struct ioc_err *err)
{
	int provided = 0;
	if (MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
		return err_set(err, EIO, "MPI_Init_thread failed");
	if (provided < MPI_THREAD_SERIALIZED)
		return err_set(err, ENOTSUP,
			       "this MPI library offers no MPI_THREAD_SERIALIZED");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, rank);
	MPI_Comm_size(MPI_COMM_WORLD, size);
	return 0;
}

void comm_finalize(bool clean)
{
	if (clean) {
		while (comm_progress())
			;
		MPI_Finalize();
	}
	/* otherwise the sends still in flight die with the process */
}

int comm_post(int to, int tag, const void *buf, size_t len)
{
	if (len > INT_MAX)
		return -E2BIG;
	struct sent *s = calloc(1, sizeof(*s));
	if (!s || !(s->buf = malloc(len ? len : 1))) {
		free(s);
		return -ENOMEM;
	}
	memcpy(s->buf, buf, len);
	if (MPI_Isend(s->buf, (int)len, MPI_BYTE, to, tag, MPI_COMM_WORLD,
		      &s->req) != MPI_SUCCESS) {
		free(s->buf);
		free(s);
		return -EIO;
	}
	s->next = in_flight;
	in_flight = s;
	comm_progress();
	return 0;
}

unsigned comm_progress(void)
{
	unsigned left = 0;
	for (struct sent **p = &in_flight; *p;) {
		struct sent *s = *p;
		int done = 0;
		if (MPI_Test(&s->req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			done = 1; /* a failed send is as finished as it will get */
		if (done) {
			*p = s->next;
			free(s->buf);
			free(s);
		} else {
			left++;
			p = &s->next;
		}
	}
	return left;
}

bool comm_probe(int from, int tag, int *src, size_t *len)
{
	int flag = 0, count = 0;
	MPI_Status st;
	if (MPI_Iprobe(from == COMM_ANY ? MPI_ANY_SOURCE : from, tag,
		       MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS || !flag)
		return false;
	MPI_Get_count(&st, MPI_BYTE, &count);
	*src = st.MPI_SOURCE;
	*len = (size_t)count;
	return true;
}

int comm_take(int src, int tag, void *buf, size_t len)
{
	if (len > INT_MAX)
		return -E2BIG;
	if (MPI_Recv(buf, (int)len, MPI_BYTE, src, tag, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return -EIO;
	return 0;
}
#endif
