/* test_model.c - the I/O-path model (src/model/): the RAID closed forms,
 * the caps of each component and which one binds, Little's law, the
 * saturation drive count, and a fit that recovers the parameters a
 * figures table was made from. */
/* clang-format off */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
/* clang-format on */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/fit.h"
#include "model/raid.h"
#include "model/validate.h"

#define assert_near(a, b, rel) near_at((a), (b), (rel), __FILE__, __LINE__)

static void near_at(double a, double b, double rel, const char *file, int line)
{
	if (!(fabs(a - b) <= rel * fabs(b)))
		fail_msg("%s:%d: %.9g is not %.9g within %g", file, line, a, b, rel);
}

static double member_ios(enum mdl_level l, unsigned n, double bs, bool seq, bool write)
{
	struct mdl_io_cost rd, wr;
	mdl_raid_cost(l, n, bs, 64, seq, &rd, &wr);
	return write ? wr.reads + wr.writes : rd.reads + rd.writes;
}

static void test_small_write_costs(void **state)
{
	(void)state;
	assert_int_equal(member_ios(MDL_R0, 8, 4, false, true), 1);
	assert_int_equal(member_ios(MDL_R1, 2, 4, false, true), 2);
	assert_int_equal(member_ios(MDL_R10, 4, 4, false, true), 2);
	assert_int_equal(member_ios(MDL_R5, 8, 4, false, true), 4);
	assert_int_equal(member_ios(MDL_R6, 8, 4, false, true), 6);
	assert_int_equal(member_ios(MDL_R50, 4, 4, false, true), 4);
	assert_int_equal(member_ios(MDL_R60, 8, 4, false, true), 6);
	/* 4 disks of RAID 6: reading the one other data strip (reconstruct-
	 * write) beats reading old data and both parities */
	assert_int_equal(member_ios(MDL_R6, 4, 4, false, true), 4);
	/* a read is one member read at every level */
	for (enum mdl_level l = MDL_JBOD; l <= MDL_R60; l++)
		assert_int_equal(member_ios(l, 8, 4, false, false), 1);
	struct mdl_io_cost rd, wr;
	mdl_raid_cost(MDL_R5, 8, 4, 64, false, &rd, &wr);
	assert_int_equal(wr.reads, 2);
	assert_int_equal(wr.writes, 2);
	assert_near(wr.parity, 1, 1e-12);
	mdl_raid_cost(MDL_R6, 8, 4, 64, false, &rd, &wr);
	assert_near(wr.parity, 1.5, 1e-12);
}

static void test_full_stripe_and_reconstruct(void **state)
{
	struct mdl_io_cost rd, wr;
	(void)state;
	/* 7 data strips of 64k on an 8-disk RAID 5: the whole stripe */
	mdl_raid_cost(MDL_R5, 8, 7 * 64, 64, false, &rd, &wr);
	assert_int_equal(wr.reads, 0);
	assert_int_equal(wr.writes, 8);
	assert_int_equal(wr.parity, 0);
	/* sequential writes are full stripes: n/d of their bytes, no reads */
	mdl_raid_cost(MDL_R5, 8, 256, 64, true, &rd, &wr);
	assert_int_equal(wr.reads, 0);
	assert_near(wr.wbytes, 8.0 / 7, 1e-12);
	mdl_raid_cost(MDL_R6, 8, 256, 64, true, &rd, &wr);
	assert_near(wr.wbytes, 8.0 / 6, 1e-12);
	mdl_raid_cost(MDL_R10, 4, 256, 64, true, &rd, &wr);
	assert_near(wr.wbytes, 2, 1e-12);
	/* 6 of 7 strips: reading the 1 other strip beats reading 6 + parity */
	mdl_raid_cost(MDL_R5, 8, 6 * 64, 64, false, &rd, &wr);
	assert_int_equal(wr.reads, 1);
	assert_int_equal(wr.writes, 7);
	/* too few disks for the level are raised to its minimum, no crash */
	mdl_raid_cost(MDL_R6, 1, 4, 0, false, &rd, &wr);
	assert_int_equal(wr.reads + wr.writes, 4);
}

static struct mdl_config sas_raid(unsigned n, enum mdl_level l, unsigned vds, unsigned per)
{
	struct mdl_config c = {0};
	snprintf(c.drive.type, sizeof(c.drive.type), "t");
	c.drive.iface = MDL_IF_SAS;
	c.drive.rr_iops = 190000;
	c.drive.rw_iops = 70000;
	c.drive.sr_mbps = 1000;
	c.drive.sw_mbps = 1000;
	c.drive_count = n;
	c.path = MDL_PATH_RAID;
	c.ctrl = (struct mdl_ctrl){.iops = 3e6, .read_mbps = 15000, .write_mbps = 14000,
				  .parity_writes = 240000};
	c.layout = (struct mdl_layout){l, vds, per, 2, 64};
	return c;
}

static struct mdl_workload wl(bool random, double bs, double read)
{
	return (struct mdl_workload){random, bs, read, 2, 32};
}

static void test_bounds(void **state)
{
	struct mdl_answer a;
	(void)state;
	struct mdl_config c = sas_raid(24, MDL_R0, 24, 1);
	struct mdl_workload w = wl(true, 4, 100);
	mdl_eval(&c, &w, &a);
	assert_int_equal(a.bound, MDL_B_CONTROLLER);
	assert_near(a.iops, 3e6, 1e-9);
	assert_near(a.utilization, 1, 1e-9);
	assert_near(a.util[MDL_B_DRIVES], 3e6 / (24 * 190000.0), 1e-9);
	/* 3 M / 190 k = 15.8: the controller binds from 16 drives on */
	assert_int_equal(a.saturation_drives, 16);
	/* random writes: 24 x 70 k, the drives */
	w = wl(true, 4, 0);
	mdl_eval(&c, &w, &a);
	assert_int_equal(a.bound, MDL_B_DRIVES);
	assert_near(a.iops, 24 * 70000.0, 1e-9);
	/* RAID 10 halves sequential writes at the controller's member cap */
	c = sas_raid(24, MDL_R10, 6, 4);
	w = wl(false, 256, 0);
	mdl_eval(&c, &w, &a);
	assert_int_equal(a.bound, MDL_B_CONTROLLER);
	assert_near(a.mbps, 7000, 1e-9);
	/* RAID 5 pays for parity: 240 k small writes/s is 800 k at 70:30 */
	c = sas_raid(24, MDL_R5, 3, 8);
	w = wl(true, 4, 70);
	mdl_eval(&c, &w, &a);
	assert_int_equal(a.bound, MDL_B_PARITY);
	assert_near(a.iops, 240000 / 0.3, 1e-9);
	/* RAID 6 costs 6/4 of that */
	c.layout.level = MDL_R6;
	mdl_eval(&c, &w, &a);
	assert_near(a.iops, 240000 / 1.5 / 0.3, 1e-9);
}

static void test_link_caps(void **state)
{
	struct mdl_answer a;
	(void)state;
	struct mdl_config c = {0};
	c.drive.iface = MDL_IF_NVME;
	c.drive.sr_mbps = 7000;
	c.drive.rr_iops = 1e6;
	c.drive_count = 10;
	c.path = MDL_PATH_DIRECT;
	c.links = (struct mdl_links){0.9, 0, 4, 2, 0};
	struct mdl_workload w = wl(false, 256, 100);
	mdl_eval(&c, &w, &a);
	/* PCIe 4.0 x2: 2 x 1969.2 MB/s raw x 0.9 per drive, under 7000 */
	assert_int_equal(a.bound, MDL_B_DRIVE_LINK);
	assert_near(a.mbps, 10 * 2 * 1969.2 * 0.9, 1e-4);
	c.links.lanes_per_drive = 4;
	mdl_eval(&c, &w, &a);
	assert_int_equal(a.bound, MDL_B_DRIVES);
	assert_near(a.mbps, 70000, 1e-9);
	/* a shared x8 upstream port caps all ten */
	c.links.upstream_lanes = 8;
	mdl_eval(&c, &w, &a);
	assert_int_equal(a.bound, MDL_B_PCIE);
	assert_near(a.mbps, 8 * 1969.2 * 0.9, 1e-4);
	/* SAS 12G: 1200 MB/s a lane; SATA 6G: 600 */
	c = sas_raid(4, MDL_JBOD, 0, 0);
	c.path = MDL_PATH_HBA;
	c.drive.sr_mbps = 5000;
	c.links.eff_serial = 0.9;
	mdl_eval(&c, &w, &a);
	assert_int_equal(a.bound, MDL_B_DRIVE_LINK);
	assert_near(a.mbps, 4 * 1200 * 0.9, 1e-9);
	c.drive.iface = MDL_IF_SATA;
	mdl_eval(&c, &w, &a);
	assert_near(a.mbps, 4 * 600 * 0.9, 1e-9);
}

static void test_littles_law(void **state)
{
	struct mdl_answer a;
	(void)state;
	struct mdl_config c = sas_raid(24, MDL_R0, 24, 1);
	struct mdl_workload w = wl(true, 4, 100);
	w.outstanding_per_drive = 40;
	w.latency_limit_ms = 0;
	mdl_eval(&c, &w, &a);
	assert_near(a.latency_ms, 40 * 24 / 3e6 * 1e3, 1e-9);
	/* past the latency limit the queue is shortened to it */
	w.latency_limit_ms = 0.2;
	mdl_eval(&c, &w, &a);
	assert_near(a.latency_ms, 0.2, 1e-9);
	/* never under the drives' low-load latency */
	c.drive.lat_r_ms = 0.5;
	mdl_eval(&c, &w, &a);
	assert_near(a.latency_ms, 0.5, 1e-9);
	/* a mixed drive: the media read rate above the front end overlaps
	 * reads with writes: 1 / max(1/190k, 0.7/600k + 0.3/70k) */
	c.drive.lat_r_ms = 0;
	c.ctrl = (struct mdl_ctrl){0};
	c.drive.rr_media_iops = 600000;
	w = wl(true, 4, 70);
	mdl_eval(&c, &w, &a);
	assert_near(a.iops, 24 / (0.7 / 600000 + 0.3 / 70000), 1e-9);
	c.drive.rr_media_iops = 0;
	mdl_eval(&c, &w, &a);
	assert_near(a.iops, 24 / (0.7 / 190000 + 0.3 / 70000), 1e-9);
}

/* A model is shown with its error on points it was not fitted on: the
 * median of the held-out errors, a missing prediction counts 100 %, over
 * 25 % or on one point it is not validated and states no bound. */
static void test_validation(void **state)
{
	(void)state;
	struct mdl_validation v;
	char out[400];

	assert_true(fabs(mdl_rel_error(75, 100) - 0.25) < 1e-12);
	assert_true(mdl_rel_error(0, 100) == 1);      /* predicted nothing */
	assert_true(isnan(mdl_rel_error(50, NAN)));  /* nothing measured */
	double one[] = {0.0};
	mdl_validation_of(one, 1, true, NULL, &v);
	assert_false(v.validated);
	assert_string_equal(v.text, "not validated: one step");
	mdl_validated_why(&v, "bound by the drives (100 %): 10 k IOPS", "10 k IOPS", 1, out,
			  sizeof(out));
	assert_string_equal(out, "not validated: one step; it predicts 10 k IOPS on 1 target, "
				 "no bound stated");
	/* the four-corners case: 4 points, the 1-file ones right, the others
	 * predicted as the files' sum on one device: 100 %, 200 %, 300 % */
	double corners[] = {0.0, 1.0, 2.0, 3.0, NAN};
	mdl_validation_of(corners, 5, true, NULL, &v);
	assert_int_equal(v.points, 4);
	assert_true(fabs(v.median - 1.5) < 1e-9);
	assert_false(v.validated);
	assert_string_equal(v.text, "unvalidated: held-out error 150.0 % over 4 points, above 25 %");
	mdl_validated_why(&v, "bound by the host CPU (100 %): 10 k IOPS", "10 k IOPS", 4, out,
			  sizeof(out));
	assert_null(strstr(out, "bound by"));
	double good[] = {0.02, 0.25, 0.01};
	mdl_validation_of(good, 3, true, NULL, &v);
	assert_true(v.validated); /* 25 % itself passes */
	assert_true(fabs(v.median - 0.02) < 1e-9);
	mdl_validated_why(&v, "bound by the drives (100 %): 3000 IOPS", "3000 IOPS", 2, out,
			  sizeof(out));
	assert_string_equal(out, "bound by the drives (100 %): 3000 IOPS (held-out error 2.0 %)");
	mdl_validation_of(good, 3, false, "fit.json", &v);
	assert_string_equal(v.text, "error 2.0 % (median over 3 points, fit.json)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_small_write_costs),
		cmocka_unit_test(test_full_stripe_and_reconstruct),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_link_caps),
		cmocka_unit_test(test_littles_law),
		cmocka_unit_test(test_validation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
