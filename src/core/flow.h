/* flow.h - fio's flow control (flow=, flow_id=, flow_sleep=): the jobs of
 * one flow_id issue I/O in the ratio of their weights. Each flow holds a
 * counter of the I/Os its members issued (starting at 1, as fio's) and
 * the sum of the members' weights; a member is held back while its share
 * of the counter is above its share of the weight. A member leaves when
 * its worker ends, taking its I/Os and weight out, so the others run
 * free of it (fio's flow_exit_job). */
#ifndef IOCHAR_CORE_FLOW_H
#define IOCHAR_CORE_FLOW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct flow {
	unsigned id;
	_Atomic uint64_t counter; /* I/Os of the members, + 1 */
	_Atomic uint64_t weight;  /* sum of the members' weights */
	_Atomic uint32_t turn;	  /* the futex a held member sleeps on */
	_Atomic uint32_t sleepers; /* members asleep on it: wake only then */
};

/* One run's flows; cap is the most that can be joined (one a worker). */
struct flow_table {
	struct flow *f;
	unsigned nr, cap;
};

/* A worker's place in its flow: NULL flow when its job has flow=0. */
struct flow_member {
	struct flow *flow;
	uint64_t counter;
	uint64_t seen; /* the flow's counter when m was last held back */
	unsigned weight;
};

/* Room for cap flows. 0 or -ENOMEM; flow_table_free after. */
int flow_table_init(struct flow_table *t, unsigned cap);
void flow_table_free(struct flow_table *t);

/* Join flow id with weight (0: m is left out of every flow). All members
 * join before any worker starts, as fio's jobs do when they are parsed,
 * so the first I/Os already see every weight. At most cap distinct ids. */
void flow_join(struct flow_table *t, unsigned id, unsigned weight,
	       struct flow_member *m);

/* May m issue one more I/O? true counts it (in m and its flow); false:
 * m is ahead of its share and must wait. Thread-safe between members. */
bool flow_admit(struct flow_member *m);

/* m was held back (flow_admit false) and has nothing in flight: wait
 * for another member to issue (the flow's counter to move), at most
 * max_ns. It spins spin_ns first, as fio's held jobs spin, for a member
 * running on another CPU; then it sleeps on a futex the issuing member
 * wakes. Yielding instead made each turn between two members cost a
 * scheduler tick once each shared its CPU with another busy thread. */
void flow_wait_turn(struct flow_member *m, uint64_t spin_ns, uint64_t max_ns);

/* m's worker is done: its I/Os and weight leave the flow. */
void flow_leave(struct flow_member *m);

#endif
