/* drive_class.h - generic figures for a class of drive no measurement in
 * the fit covers: rotating disks by spindle speed, so that a row for a
 * hard disk is never answered with an SSD's rates. Order-of-magnitude
 * datasheet figures (docs/model.md); a configuration INI or a fit on the
 * drive's own results replaces them. */
#ifndef IOCHAR_MODEL_DRIVE_CLASS_H
#define IOCHAR_MODEL_DRIVE_CLASS_H

#include <stdbool.h>

#include "model/model.h"

/* Does type name a hard disk ("HDD", "7.2K", "10K", "15K", "rpm")? */
bool mdl_type_is_hdd(const char *type);

/* The class figures for hard disk type into *out (its type and iface
 * kept). */
void mdl_hdd_class(const char *type, struct mdl_drive *out);

#endif
