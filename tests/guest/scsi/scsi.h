/* SPDX-License-Identifier: GPL-2.0 */
/*
 * scsi.h - the SCSI commands sent to every profile disk of kind "sd", and
 * what each must answer, whatever the pass-through: scsi/sg-inquiry sends
 * them with SG_IO v3 on /dev/sgN, scsi/bsg-inquiry with SG_IO v4 on
 * /dev/bsg/H:C:T:L. A test gives a transport name, the place its nodes
 * appear (disks.h) and its exec function, and calls scsi_run().
 *
 * Each case runs on every disk and passes when all of them answer right;
 * a wrong answer is printed as a diagnostic naming the disk. The expected
 * values are QEMU's scsi-hd (vendor "QEMU", 512-byte blocks, fixed-format
 * sense) and the profile's bklfree.disks= (serial, size).
 */
#ifndef BKLFREE_SCSI_H
#define BKLFREE_SCSI_H

#include "disks.h"
#include "pattern.h"

#define SCSI_GOOD 0x00
#define SCSI_CHECK_CONDITION 0x02
#define SENSE_ILLEGAL_REQUEST 0x5
#define ASC_INVALID_OPCODE 0x20
#define ASC_LBA_OUT_OF_RANGE 0x21
/* Group 0, unassigned in SPC/SBC: no device should implement it. */
#define UNASSIGNED_OPCODE 0x02

/*
 * The unit serial of the node devdir/name, asked through exec: what a
 * transport's disks_where.serial does.
 */
static inline int scsi_node_serial(const char *devdir, const char *name,
				   scsi_exec_fn exec, char *out, size_t size)
{
	char path[PATH_MAX];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", devdir, name);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ret = disks_scsi_serial(fd, exec, out, size);
	close(fd);
	return ret;
}

struct scsi_case {
	const char *desc;
	int (*fn)(const struct disk *d, int fd, scsi_exec_fn exec);
};

/* The sense key and additional sense code, fixed or descriptor format. */
static inline int scsi_sense(const struct scsi_result *r, unsigned int *key,
		      unsigned int *asc)
{
	const unsigned char *s = r->sense;
	unsigned int code = s[0] & 0x7f;

	if (r->sense_len < 8)
		return -1;
	if (code == 0x70 || code == 0x71) {
		if (r->sense_len < 13)
			return -1;
		*key = s[2] & 0xf;
		*asc = s[12];
		return 0;
	}
	if (code == 0x72 || code == 0x73) {
		*key = s[1] & 0xf;
		*asc = s[2];
		return 0;
	}
	return -1;
}

static inline int scsi_status(const struct disk *d, const char *cmd,
		       const struct scsi_result *r, unsigned int want)
{
	if (!r->done)
		return 0;
	if (r->status == want && !r->host)
		return 1;
	ktap_diag("%s: %s: status 0x%02x host 0x%x driver 0x%x, want 0x%02x",
		  d->serial, cmd, r->status, r->host, r->driver, want);
	return 0;
}

/* CHECK CONDITION with ILLEGAL REQUEST and the given sense code. */
static inline int scsi_illegal(const struct disk *d, const char *cmd,
			const struct scsi_result *r, unsigned int want_asc)
{
	unsigned int key = 0, asc = 0;

	if (!scsi_status(d, cmd, r, SCSI_CHECK_CONDITION))
		return 0;
	if (scsi_sense(r, &key, &asc)) {
		ktap_diag("%s: %s: %u bytes of sense in no known format",
			  d->serial, cmd, r->sense_len);
		return 0;
	}
	if (key == SENSE_ILLEGAL_REQUEST && asc == want_asc)
		return 1;
	ktap_diag("%s: %s: sense key 0x%x asc 0x%02x, want 0x%x/0x%02x",
		  d->serial, cmd, key, asc, SENSE_ILLEGAL_REQUEST, want_asc);
	return 0;
}

static inline unsigned long long scsi_be32(const unsigned char *p)
{
	return (unsigned long long)p[0] << 24 | (unsigned int)p[1] << 16 |
	       (unsigned int)p[2] << 8 | p[3];
}

static inline int scsi_tur(const struct disk *d, int fd, scsi_exec_fn exec)
{
	const unsigned char cdb[6] = { 0x00 };
	struct scsi_result r;

	exec(fd, cdb, sizeof(cdb), NULL, 0, &r);
	return scsi_status(d, "TEST UNIT READY", &r, SCSI_GOOD);
}

static inline int scsi_inquiry(const struct disk *d, int fd, scsi_exec_fn exec)
{
	const unsigned char cdb[6] = { 0x12, 0, 0, 0, 96, 0 };
	unsigned char buf[96] = { 0 };
	struct scsi_result r;

	exec(fd, cdb, sizeof(cdb), buf, sizeof(buf), &r);
	if (!scsi_status(d, "INQUIRY", &r, SCSI_GOOD))
		return 0;
	/* Peripheral qualifier 0, type 0 (disk); at least 36 bytes; vendor. */
	if (!buf[0] && buf[4] + 5 >= 36 && !memcmp(buf + 8, "QEMU    ", 8))
		return 1;
	ktap_diag("%s: INQUIRY: peripheral 0x%02x length %u vendor '%.8s'",
		  d->serial, buf[0], buf[4] + 5, (char *)buf + 8);
	return 0;
}

static inline int scsi_vpd_pages(const struct disk *d, int fd,
				 scsi_exec_fn exec)
{
	const unsigned char cdb[6] = { 0x12, 0x01, 0x00, 0, 252, 0 };
	unsigned char buf[252] = { 0 };
	struct scsi_result r;
	unsigned int i, n;

	exec(fd, cdb, sizeof(cdb), buf, sizeof(buf), &r);
	if (!scsi_status(d, "INQUIRY VPD 0x00", &r, SCSI_GOOD))
		return 0;
	n = buf[3];
	for (i = 0; buf[1] == 0x00 && i < n && 4 + i < sizeof(buf); i++)
		if (buf[4 + i] == 0x80)
			return 1;
	ktap_diag("%s: INQUIRY VPD 0x00: page 0x%02x with %u pages, no 0x80",
		  d->serial, buf[1], n);
	return 0;
}

static inline int scsi_vpd_serial(const struct disk *d, int fd,
				  scsi_exec_fn exec)
{
	char serial[64] = "";

	if (!disks_scsi_serial(fd, exec, serial, sizeof(serial)) &&
	    !strcmp(serial, d->serial))
		return 1;
	ktap_diag("%s: INQUIRY VPD 0x80 says '%s'", d->serial, serial);
	return 0;
}

static inline int scsi_capacity(const struct disk *d, int fd, scsi_exec_fn exec)
{
	const unsigned char cdb[10] = { 0x25 };
	unsigned char buf[8] = { 0 };
	unsigned long long last, block;
	struct scsi_result r;

	exec(fd, cdb, sizeof(cdb), buf, sizeof(buf), &r);
	if (!scsi_status(d, "READ CAPACITY(10)", &r, SCSI_GOOD))
		return 0;
	last = scsi_be32(buf);
	block = scsi_be32(buf + 4);
	if (block == PATTERN_SECTOR && (last + 1) * block == d->bytes)
		return 1;
	ktap_diag("%s: READ CAPACITY(10): last lba %llu block %llu, image %llu",
		  d->serial, last, block, d->bytes);
	return 0;
}

static inline void scsi_read10_cdb(unsigned char *cdb, unsigned long long lba)
{
	memset(cdb, 0, 10);
	cdb[0] = 0x28;
	cdb[2] = (unsigned char)(lba >> 24);
	cdb[3] = (unsigned char)(lba >> 16);
	cdb[4] = (unsigned char)(lba >> 8);
	cdb[5] = (unsigned char)lba;
	cdb[8] = 1;
}

/* READ(10) of the first and the last block: the image pattern, seed 0. */
static inline int scsi_read(const struct disk *d, int fd, scsi_exec_fn exec)
{
	const unsigned long long lbas[] = { 0, d->bytes / PATTERN_SECTOR - 1 };
	unsigned char cdb[10], buf[PATTERN_SECTOR];
	struct scsi_result r;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lbas); i++) {
		memset(buf, 0, sizeof(buf));
		scsi_read10_cdb(cdb, lbas[i]);
		exec(fd, cdb, sizeof(cdb), buf, sizeof(buf), &r);
		if (!scsi_status(d, "READ(10)", &r, SCSI_GOOD))
			return 0;
		if (r.resid || !pattern_check(buf, lbas[i], 0)) {
			ktap_diag("%s: READ(10) lba %llu: resid %d, not seed 0",
				  d->serial, lbas[i], r.resid);
			return 0;
		}
	}
	return 1;
}

static inline int scsi_read_past_end(const struct disk *d, int fd,
				     scsi_exec_fn exec)
{
	unsigned char cdb[10], buf[PATTERN_SECTOR];
	struct scsi_result r;

	scsi_read10_cdb(cdb, d->bytes / PATTERN_SECTOR);
	exec(fd, cdb, sizeof(cdb), buf, sizeof(buf), &r);
	return scsi_illegal(d, "READ(10) past the end", &r,
			    ASC_LBA_OUT_OF_RANGE);
}

static inline int scsi_bad_opcode(const struct disk *d, int fd,
				  scsi_exec_fn exec)
{
	const unsigned char cdb[6] = { UNASSIGNED_OPCODE };
	struct scsi_result r;

	exec(fd, cdb, sizeof(cdb), NULL, 0, &r);
	return scsi_illegal(d, "opcode 0x02", &r, ASC_INVALID_OPCODE);
}

static const struct scsi_case scsi_cases[] = {
	{ "TEST UNIT READY is GOOD", scsi_tur },
	{ "INQUIRY is a disk with vendor QEMU", scsi_inquiry },
	{ "INQUIRY VPD 0x00 lists page 0x80", scsi_vpd_pages },
	{ "INQUIRY VPD 0x80 is the profile serial", scsi_vpd_serial },
	{ "READ CAPACITY(10) is the image size", scsi_capacity },
	{ "READ(10) of the first and last block holds the pattern", scsi_read },
	{ "READ(10) past the end is ILLEGAL REQUEST, LBA out of range",
	  scsi_read_past_end },
	{ "unassigned opcode 0x02 is ILLEGAL REQUEST, invalid opcode",
	  scsi_bad_opcode },
};

#define SCSI_PLAN (1 + ARRAY_SIZE(scsi_cases))

/*
 * Finds the profile's SCSI disks in w (waiting for them) and runs every
 * case on each through exec; transport names the pass-through.
 */
static inline void scsi_run(const char *transport, const struct disks_where *w,
		     scsi_exec_fn exec)
{
	struct disk d[DISKS_MAX];
	int fds[DISKS_MAX];
	int n, found, i;
	size_t c;

	n = disks_expected(d, "sd");
	if (n < 0)
		n = 0;
	found = disks_wait(d, n, w);
	ktap_ok(n > 0 && found == n, "%d of %d SCSI disks found in %s: %s",
		found, n, w->dir, disks_names(d, n));
	for (i = 0; i < n; i++) {
		fds[i] = -1;
		if (d[i].node[0]) {
			fds[i] = open(d[i].node, O_RDWR | O_CLOEXEC);
			if (fds[i] < 0)
				ktap_perror(d[i].node);
		}
	}
	for (c = 0; c < ARRAY_SIZE(scsi_cases); c++) {
		int ok = found > 0;

		/* A missing disk fails the first case only. */
		for (i = 0; i < n; i++)
			if (d[i].node[0])
				ok &= fds[i] >= 0 &&
				      scsi_cases[c].fn(&d[i], fds[i], exec);
		ktap_ok(ok, "%s via %s: %s", scsi_cases[c].desc, transport,
			disks_names(d, n));
	}
	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

#endif /* BKLFREE_SCSI_H */
