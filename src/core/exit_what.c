/* exit_what.c - exitall's choice of the workers a worker's end stops. See
 * exit_what.h. */
#include "core/exit_what.h"

bool exit_what_armed(const struct job_spec *jobs, unsigned nr_jobs)
{
	for (unsigned j = 0; j < nr_jobs; j++)
		if (jobs[j].exitall)
			return true;
	return false;
}

void exit_what_pick(const struct job_spec *jobs, const unsigned *groups,
		    const struct sched_worker *w, unsigned nr, unsigned ended,
		    bool *stop)
{
	unsigned job = w[ended].job;
	enum exit_what what = jobs[job].exit_what;

	for (unsigned i = 0; i < nr; i++) {
		bool hit = what == EXIT_WHAT_ALL ||
			   (what == EXIT_WHAT_GROUP && groups[w[i].job] == groups[job]) ||
			   (what == EXIT_WHAT_STONEWALL && w[i].started && !w[i].finished);
		if (hit && i != ended)
			stop[i] = true;
	}
}
