// SPDX-License-Identifier: GPL-2.0
/*
 * bsg-inquiry - the same SCSI commands as scsi/sg-inquiry, through the
 * block layer's SCSI generic v4 interface: SG_IO with struct sg_io_v4
 * (guard 'Q', BSG_PROTOCOL_SCSI, BSG_SUB_PROTOCOL_SCSI_CMD) on
 * /dev/bsg/H:C:T:L for each of the profile's SCSI disks (bklfree.disks=
 * entries of kind sd, see disks.h).
 *
 * The disks are found by their INQUIRY VPD 0x80 serial sent through bsg
 * itself, waiting bounded for them under /sys/class/bsg; a missing one
 * fails. On each, the cases of scsi/scsi.h: TEST UNIT READY, INQUIRY (disk,
 * vendor QEMU), VPD pages and serial, READ CAPACITY(10) against the image
 * size, READ(10) against the image pattern, and ILLEGAL REQUEST sense for a
 * read past the end and an unassigned opcode, here returned in the v4
 * response buffer with device_status.
 *
 * block/bsg.c is one of the files whose .llseek is default_llseek, the
 * class the llseek series reclassifies; this test shows bsg still passes
 * commands, data and sense both ways after it.
 */
#include <linux/bsg.h>

#include "scsi/scsi.h"

static void bsg_v4(int fd, const unsigned char *cdb, unsigned int cdb_len,
		   unsigned char *buf, unsigned int len, struct scsi_result *r)
{
	struct sg_io_v4 h = {
		.guard = 'Q',
		.protocol = BSG_PROTOCOL_SCSI,
		.subprotocol = BSG_SUB_PROTOCOL_SCSI_CMD,
		.request_len = cdb_len,
		.request = (uintptr_t)cdb,
		.din_xfer_len = len,
		.din_xferp = (uintptr_t)buf,
		.max_response_len = sizeof(r->sense),
		.response = (uintptr_t)r->sense,
		.timeout = 10000,
	};

	memset(r, 0, sizeof(*r));
	if (ioctl(fd, SG_IO, &h)) {
		ktap_perror("SG_IO v4");
		return;
	}
	r->done = 1;
	r->status = h.device_status;
	r->host = h.transport_status;
	r->driver = h.driver_status;
	r->sense_len = h.response_len;
	r->resid = h.din_resid;
}

static int bsg_serial(const char *name, char *out, size_t size)
{
	return scsi_node_serial("/dev/bsg", name, bsg_v4, out, size);
}

static const struct disks_where where = {
	.dir = "/sys/class/bsg",
	.devdir = "/dev/bsg",
	.serial = bsg_serial,
};

static void run(void)
{
	scsi_run("bsg", &where, bsg_v4);
}

const struct ktap_test ktap_test = {
	.plan = SCSI_PLAN,
	.kconfig = (const char *const[]){ "CONFIG_BLK_DEV_BSG", NULL },
	.timeout = 60,
	.run = run,
};
