// SPDX-License-Identifier: GPL-2.0
/*
 * sg-inquiry - SCSI commands through the SCSI generic driver: SG_IO
 * (struct sg_io_hdr, interface 'S') on /dev/sgN for each of the profile's
 * SCSI disks (bklfree.disks= entries of kind sd, see disks.h).
 *
 * The disks are found by the unit serial they report in INQUIRY VPD page
 * 0x80, waiting bounded for them to appear under /sys/class/scsi_generic;
 * a missing one fails. On each, the cases of scsi/scsi.h: TEST UNIT READY,
 * standard INQUIRY (a disk, vendor QEMU), the VPD page list and serial,
 * READ CAPACITY(10) against the image size, READ(10) of the first and last
 * block against the image pattern, and the sense data (ILLEGAL REQUEST with
 * the right additional sense code) for a read past the end and for an
 * unassigned opcode.
 *
 * The sg file_operations (drivers/scsi/sg.c) use no_llseek, which upstream
 * cb787f4ac0c2 takes out tree-wide; the lab's llseek series must keep sg's
 * ioctl, open and release paths working on virtio-scsi, usb-storage and uas.
 */
#include "scsi/scsi.h"

static int sg_serial(const char *name, char *out, size_t size)
{
	return scsi_node_serial("/dev", name, disks_sg_v3, out, size);
}

static const char *const sg_prefixes[] = { "sg", NULL };

static const struct disks_where where = {
	.dir = "/sys/class/scsi_generic",
	.devdir = "/dev",
	.prefixes = sg_prefixes,
	.serial = sg_serial,
};

static void run(void)
{
	scsi_run("sg", &where, disks_sg_v3);
}

const struct ktap_test ktap_test = {
	.plan = SCSI_PLAN,
	.kconfig = (const char *const[]){ "CONFIG_CHR_DEV_SG", NULL },
	.timeout = 60,
	.upstream = "cb787f4ac0c2",
	.run = run,
};
