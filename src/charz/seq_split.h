/* seq_split.h - a sequential plan step with several jobs gives each job
 * its own part of the region, as fio's offset_increment does when set to
 * size / numjobs. fio's default, every job from the same offset, has the
 * jobs read what the others have just read, which controller and drive
 * caches serve: the figure is the cache's, not the media's. */
#ifndef IOCHAR_CHARZ_SEQ_SPLIT_H
#define IOCHAR_CHARZ_SEQ_SPLIT_H

#include <stdbool.h>

#include "base/job.h"

/* When job is sequential with numjobs > 1 and says nothing of
 * offset_increment (offset_increment=0 keeps fio's shared region): its
 * size becomes region / numjobs (aligned to the block size) and
 * offset_increment the same, the region being size or what the one
 * target holds after offset. Left as is: a region in percent or per-file
 * sizes, several files, a VD, a log replay, a target not yet made
 * without size. True when split. */
bool seq_split_apply(struct job_spec *job);

#endif
