// SPDX-License-Identifier: GPL-2.0
/*
 * changer - the SCSI medium changer driver (drivers/scsi/ch.c, a seed path
 * of the 2010 llseek patch: changer_fops keeps noop_llseek) on the
 * scsi-debug profile's scsi_debug target with ptype=8.
 *
 * scsi_debug answers INQUIRY as a medium changer but knows none of the
 * changer commands: MODE SENSE page 0x1d (element address assignment) is
 * "invalid field in CDB", and READ ELEMENT STATUS, INITIALIZE ELEMENT
 * STATUS, MOVE MEDIUM, EXCHANGE MEDIUM, POSITION TO ELEMENT and SEND
 * VOLUME TAG are "invalid command operation code" (opcode_ind_arr[] has
 * no entry for them). So ch_readconfig() finds no transport, storage,
 * portal or drive elements; the profile gives it two vendor element types
 * with ch's own module parameters (vendor_firsts=0x100,0x200
 * vendor_counts=2,3), and every command on those is answered by
 * ch_find_errno(): ILLEGAL REQUEST/0x20/0x00 is EBADRQC, anything else
 * EIO. The cases pin those answers, the ioctls that need no command
 * (parameters, range checks) and what the scsi_ioctl() fallback gives.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <scsi/sg.h>
#include <linux/chio.h>

#include "ktap.h"

/* glibc's <scsi/scsi.h>; -Itests/guest makes that name our scsi/scsi.h */
#define SCSI_IOCTL_GET_IDLUN 0x5382
#define SCSI_IOCTL_GET_BUS_NUMBER 0x5386

#define SCH "/dev/sch0"
#define V1_COUNT 2	/* vendor_counts=2,3 in scsi-debug.profile */
#define V2_COUNT 3

static int sch = -1;

static int changer_open(void)
{
	sch = open(SCH, O_RDWR | O_CLOEXEC);
	if (sch < 0)
		ktap_perror("open " SCH);
	return sch >= 0;
}

/*
 * The fallback to scsi_ioctl(): SG_IO INQUIRY says peripheral type 8
 * (medium changer) and vendor "Linux" (scsi_debug's inquiry_vendor_id);
 * SCSI_IOCTL_GET_IDLUN is target 0, LUN 0, channel 0 on the host
 * SCSI_IOCTL_GET_BUS_NUMBER names.
 */
static int changer_inquiry(void)
{
	unsigned char cdb[6] = { 0x12, 0, 0, 0, 96, 0 }, inq[96] = { 0 };
	unsigned char sense[32];
	struct sg_io_hdr io = {
		.interface_id = 'S',
		.dxfer_direction = SG_DXFER_FROM_DEV,
		.cmd_len = sizeof(cdb),
		.mx_sb_len = sizeof(sense),
		.dxfer_len = sizeof(inq),
		.dxferp = inq,
		.cmdp = cdb,
		.sbp = sense,
		.timeout = 10000,
	};
	int idlun[2] = { -1, -1 }, bus = -1;

	if (sch < 0 || ioctl(sch, SG_IO, &io) || io.status ||
	    ioctl(sch, SCSI_IOCTL_GET_IDLUN, idlun) ||
	    ioctl(sch, SCSI_IOCTL_GET_BUS_NUMBER, &bus))
		return 0;
	ktap_diag("INQUIRY type %u, %.8s %.16s; idlun 0x%08x, host %d",
		  inq[0] & 0x1f, inq + 8, inq + 16, idlun[0], bus);
	return (inq[0] & 0x1f) == 8 && !memcmp(inq + 8, "Linux   ", 8) &&
	       (idlun[0] & 0xffffff) == 0 &&
	       (unsigned int)idlun[0] >> 24 == (unsigned int)bus;
}

/* CHIOGPARAMS: the element address page failed, every count stays 0. */
static int changer_params(void)
{
	struct changer_params p;

	memset(&p, 0xff, sizeof(p));
	if (sch < 0 || ioctl(sch, CHIOGPARAMS, &p))
		return 0;
	ktap_diag("pickers %d slots %d portals %d drives %d", p.cp_npickers,
		  p.cp_nslots, p.cp_nportals, p.cp_ndrives);
	return !p.cp_curpicker && !p.cp_npickers && !p.cp_nslots &&
	       !p.cp_nportals && !p.cp_ndrives;
}

/* CHIOGVPARAMS: the module parameters, labels "v0" and "v1" (built in). */
static int changer_vparams(void)
{
	struct changer_vendor_params v;

	memset(&v, 0xff, sizeof(v));
	if (sch < 0 || ioctl(sch, CHIOGVPARAMS, &v))
		return 0;
	ktap_diag("vendor types: %d %.16s, %d %.16s, %d, %d", v.cvp_n1,
		  v.cvp_label1, v.cvp_n2, v.cvp_label2, v.cvp_n3, v.cvp_n4);
	return v.cvp_n1 == V1_COUNT && !strcmp(v.cvp_label1, "v0") &&
	       v.cvp_n2 == V2_COUNT && !strcmp(v.cvp_label2, "v1") &&
	       !v.cvp_n3 && !v.cvp_label3[0] && !v.cvp_n4 && !v.cvp_label4[0];
}

/*
 * CHIOGSTATUS: a type with no elements reads nothing and succeeds; a type
 * past CH_TYPES is EINVAL; on CHET_V1 ch_gstatus() turns the failed READ
 * ELEMENT STATUS into EIO and leaves the buffer alone.
 */
static int changer_gstatus(void)
{
	unsigned char st[8];
	struct changer_element_status ces = { .ces_data = st };
	int ok;

	memset(st, 0xa5, sizeof(st));
	ces.ces_type = CHET_ST;
	ok = sch >= 0 && !ioctl(sch, CHIOGSTATUS, &ces);
	ces.ces_type = 8;	/* CH_TYPES */
	ok = ok && ioctl(sch, CHIOGSTATUS, &ces) < 0 && errno == EINVAL;
	ces.ces_type = -1;
	ok = ok && ioctl(sch, CHIOGSTATUS, &ces) < 0 && errno == EINVAL;
	ces.ces_type = CHET_V1;
	ok = ok && ioctl(sch, CHIOGSTATUS, &ces) < 0 && errno == EIO;
	return ok && st[0] == 0xa5;
}

/*
 * CHIOGELEM: ch_checkrange() refuses an empty type and a unit past the
 * count with EINVAL; on a vendor element the READ ELEMENT STATUS (with
 * and then, after ch's "no volume tag support" retry, without VolTag) is
 * answered "invalid command operation code": EBADRQC.
 */
static int changer_gelem(void)
{
	struct changer_get_element ge;
	int ok;

	memset(&ge, 0, sizeof(ge));
	ge.cge_type = CHET_ST;
	ok = sch >= 0 && ioctl(sch, CHIOGELEM, &ge) < 0 && errno == EINVAL;
	ge.cge_type = CHET_V1;
	ge.cge_unit = V1_COUNT;
	ok = ok && ioctl(sch, CHIOGELEM, &ge) < 0 && errno == EINVAL;
	ge.cge_unit = V1_COUNT - 1;
	ok = ok && ioctl(sch, CHIOGELEM, &ge) < 0 && errno == EBADRQC;
	ge.cge_type = CHET_V2;
	ge.cge_unit = 0;
	return ok && ioctl(sch, CHIOGELEM, &ge) < 0 && errno == EBADRQC;
}

/*
 * CHIOPOSITION and CHIOMOVE out of range: EBADSLT before any command;
 * in range, POSITION TO ELEMENT and MOVE MEDIUM are EBADRQC.
 */
static int changer_move(void)
{
	struct changer_position pos = { .cp_type = CHET_MT };
	struct changer_move mv = {
		.cm_fromtype = CHET_V1, .cm_fromunit = 0,
		.cm_totype = CHET_V2, .cm_tounit = V2_COUNT,
	};
	int ok = sch >= 0 && ioctl(sch, CHIOPOSITION, &pos) < 0 &&
		 errno == EBADSLT &&
		 ioctl(sch, CHIOMOVE, &mv) < 0 && errno == EBADSLT;

	pos.cp_type = CHET_V2;
	pos.cp_unit = 1;
	ok = ok && ioctl(sch, CHIOPOSITION, &pos) < 0 && errno == EBADRQC;
	mv.cm_tounit = V2_COUNT - 1;
	return ok && ioctl(sch, CHIOMOVE, &mv) < 0 && errno == EBADRQC;
}

/* CHIOEXCHANGE, CHIOINITELEM, CHIOSVOLTAG: the commands, EBADRQC. */
static int changer_other_commands(void)
{
	struct changer_exchange ex = {
		.ce_srctype = CHET_V1, .ce_srcunit = 0,
		.ce_fdsttype = CHET_V1, .ce_fdstunit = 1,
		.ce_sdsttype = CHET_V2, .ce_sdstunit = 0,
	};
	struct changer_set_voltag tag = { .csv_type = CHET_V2, .csv_unit = 2 };
	int ok = sch >= 0 && ioctl(sch, CHIOEXCHANGE, &ex) < 0 &&
		 errno == EBADRQC;

	ok = ok && ioctl(sch, CHIOINITELEM) < 0 && errno == EBADRQC;
	memcpy(tag.csv_voltag, "BKLFREE", 7);
	tag.csv_flags = CSV_AVOLTAG;
	ok = ok && ioctl(sch, CHIOSVOLTAG, &tag) < 0 && errno == EBADRQC;
	tag.csv_unit = V2_COUNT;
	return ok && ioctl(sch, CHIOSVOLTAG, &tag) < 0 && errno == EBADSLT;
}

/*
 * Not a changer ioctl: scsi_ioctl() hands it to the host template,
 * scsi_debug_ioctl() says EINVAL. No read or write method: EINVAL.
 */
static int changer_not_ioctl(void)
{
	char c = 0;
	int v;

	return sch >= 0 && ioctl(sch, _IOR('c', 99, int), &v) < 0 &&
	       errno == EINVAL && read(sch, &c, 1) < 0 && errno == EINVAL &&
	       write(sch, &c, 1) < 0 && errno == EINVAL;
}

/*
 * changer_fops.llseek is noop_llseek: every seek succeeds and returns the
 * position, which stays 0.
 */
static int changer_seek(void)
{
	int ok = sch >= 0 && lseek(sch, 4096, SEEK_SET) == 0 &&
		 lseek(sch, 0, SEEK_END) == 0 && lseek(sch, 7, SEEK_CUR) == 0;

	close(sch);
	sch = -1;
	return ok;
}

static const struct ktap_case cases[] = {
	{ "ch: open /dev/sch0", changer_open },
	{ "ch: SG_IO INQUIRY type 8 vendor Linux, GET_IDLUN, GET_BUS_NUMBER", changer_inquiry },
	{ "ch: CHIOGPARAMS, no element address page, all counts 0", changer_params },
	{ "ch: CHIOGVPARAMS, the vendor types of the module parameters", changer_vparams },
	{ "ch: CHIOGSTATUS empty type 0, bad type EINVAL, vendor type EIO", changer_gstatus },
	{ "ch: CHIOGELEM out of range EINVAL, READ ELEMENT STATUS EBADRQC", changer_gelem },
	{ "ch: CHIOPOSITION and CHIOMOVE, EBADSLT out of range, else EBADRQC", changer_move },
	{ "ch: CHIOEXCHANGE, CHIOINITELEM, CHIOSVOLTAG EBADRQC, CHIOSVOLTAG range EBADSLT", changer_other_commands },
	{ "ch: an unknown ioctl, read and write are EINVAL", changer_not_ioctl },
	{ "ch: lseek succeeds and stays at 0 (noop_llseek)", changer_seek },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ SCH, NULL },
	.kconfig = (const char *const[]){
		"CONFIG_SCSI_DEBUG", "CONFIG_CHR_DEV_SCH", NULL },
	.timeout = 30,
	.upstream = "seed patch: drivers/scsi/ch.c (noop_llseek kept)",
	.cases = cases,
};
