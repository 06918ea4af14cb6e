/* seq_split.c - see seq_split.h. */
#include "charz/seq_split.h"

#include "cli/options.h"
#include "core/blocksize.h"
#include "target/target.h"
#include "util/note.h"

/* The region the job's jobs would share: size, or the target's room
 * after offset; 0 when not known or not one plain region. */
static uint64_t shared_region(const struct job_spec *j)
{
	struct target_info ti;

	if (j->size_pct || j->offset_pct || j->filesize || j->vd[0] || j->read_iolog[0] ||
	    j->nr_files > 1)
		return 0;
	if (j->size)
		return j->size;
	if (j->nr_files != 1 || target_inspect(j->files[0], &ti, NULL) || !ti.exists ||
	    ti.size <= j->offset)
		return 0;
	return ti.size - j->offset;
}

bool seq_split_apply(struct job_spec *j)
{
	uint64_t region, per, align = gen_bs_min(j, DIR_READ);

	if (rw_is_random(j->rw) || j->numjobs < 2 || options_is_set(j, "offset_increment"))
		return false;
	if (gen_bs_min(j, DIR_WRITE) > align)
		align = gen_bs_min(j, DIR_WRITE);
	region = shared_region(j);
	per = region / j->numjobs;
	per -= align ? per % align : 0;
	if (!per)
		return false;
	j->size = per;
	j->offset_increment = per;
	note_once("%s: sequential with several jobs: each job has its own 1/N of the region "
		  "(offset_increment=size/numjobs); offset_increment=0 shares it, as fio",
		  j->name);
	return true;
}
