/* SPDX-License-Identifier: GPL-2.0 */
/*
 * disks.h - the disks a profile gives the guest: which to expect, how to
 * find them and how to ask a SCSI disk for its serial. Shared by
 * block/pattern, scsi/sg-inquiry and scsi/bsg-inquiry.
 *
 * A profile names its disks on the kernel command line,
 *
 *	bklfree.disks=SERIAL:MIB:KIND[,SERIAL:MIB:KIND...]
 *
 * with the serial= of the QEMU device, the size of its image= and the kind
 * of block device the guest must make of it: "vd" for virtio-blk, "sd" for
 * a SCSI disk (virtio-scsi, usb-storage, uas). A disk is known by its
 * serial, never by its name or probe order: /sys/class/block/vdX/serial
 * for virtio-blk, INQUIRY VPD page 0x80 sent through the node itself for
 * SCSI (the sysfs vpd_pg80 copy is absent behind usb-storage, which sets
 * skip_vpd_pages).
 *
 * Disks probe asynchronously and USB ones late under TCG, so the tests wait
 * for them with ktap_wait_dev(): an inotify watch on /dev (and the node
 * directory, /dev/bsg) is set before the first scan and every node
 * devtmpfs creates triggers a rescan, until every expected disk is found
 * or DISKS_WAIT_MS passes.
 * devtmpfs creates a node after the device's class link and sysfs files,
 * so a scan woken by it sees them (but see disks_scan for the short window
 * before a disk node can be opened). A disk that never shows up is a
 * failure, not a skip.
 */
#ifndef BKLFREE_DISKS_H
#define BKLFREE_DISKS_H

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <scsi/sg.h>

#include "ktap.h"

#define DISKS_MAX 8
/* USB disks come 1 s (usb-storage delay_use) after a slow enumeration. */
#define DISKS_WAIT_MS 10000

struct disk {
	char serial[64];
	unsigned long long bytes;	/* the image size */
	char kind[4];			/* "vd" or "sd" */
	char node[PATH_MAX];		/* once found: /dev/sda, /dev/sg1... */
};

/* The outcome of one SCSI command, whatever the transport. */
struct scsi_result {
	int done;			/* the ioctl itself succeeded */
	unsigned int status;		/* SAM: 0 GOOD, 2 CHECK CONDITION */
	unsigned int host, driver;	/* transport and driver status */
	unsigned char sense[32];
	unsigned int sense_len;
	int resid;
};

/* Sends cdb to fd, reading up to len bytes into buf. */
typedef void (*scsi_exec_fn)(int fd, const unsigned char *cdb,
			     unsigned int cdb_len, unsigned char *buf,
			     unsigned int len, struct scsi_result *r);

/* The disks named by bklfree.disks= on /proc/cmdline, of kind (NULL: any). */
static inline int disks_expected(struct disk *d, const char *kind)
{
	char line[4096], *word, *save, *item, *isave;
	FILE *f = fopen("/proc/cmdline", "r");
	int n = 0;

	if (!f || !fgets(line, sizeof(line), f)) {
		if (f)
			fclose(f);
		return ktap_perror("/proc/cmdline");
	}
	fclose(f);
	for (word = strtok_r(line, " \n", &save); word;
	     word = strtok_r(NULL, " \n", &save)) {
		if (strncmp(word, "bklfree.disks=", 14))
			continue;
		for (item = strtok_r(word + 14, ",", &isave); item;
		     item = strtok_r(NULL, ",", &isave)) {
			unsigned long long mib;
			char serial[64], k[4];

			if (sscanf(item, "%63[^:]:%llu:%3s", serial, &mib,
				   k) != 3 ||
			    (strcmp(k, "vd") && strcmp(k, "sd"))) {
				ktap_diag("bad bklfree.disks item '%s'", item);
				return -1;
			}
			if (kind && strcmp(kind, k))
				continue;
			if (n == DISKS_MAX) {
				ktap_diag("more than %d disks", DISKS_MAX);
				return -1;
			}
			memset(&d[n], 0, sizeof(d[n]));
			snprintf(d[n].serial, sizeof(d[n].serial), "%s",
				 serial);
			snprintf(d[n].kind, sizeof(d[n].kind), "%s", k);
			d[n].bytes = mib << 20;
			n++;
		}
	}
	return n;
}

/* SG_IO version 3: /dev/sgN and SCSI block devices. */
static inline void disks_sg_v3(int fd, const unsigned char *cdb,
			       unsigned int cdb_len, unsigned char *buf,
			       unsigned int len, struct scsi_result *r)
{
	struct sg_io_hdr h = {
		.interface_id = 'S',
		.dxfer_direction = len ? SG_DXFER_FROM_DEV : SG_DXFER_NONE,
		.cmd_len = (unsigned char)cdb_len,
		.mx_sb_len = sizeof(r->sense),
		.dxfer_len = len,
		.dxferp = buf,
		.cmdp = (unsigned char *)cdb,
		.sbp = r->sense,
		.timeout = 10000,
	};

	memset(r, 0, sizeof(*r));
	if (ioctl(fd, SG_IO, &h)) {
		ktap_perror("SG_IO v3");
		return;
	}
	r->done = 1;
	r->status = h.status;
	r->host = h.host_status;
	r->driver = h.driver_status;
	r->sense_len = h.sb_len_wr;
	r->resid = h.resid;
}

/* The unit serial number (VPD page 0x80) of a SCSI device, trimmed. */
static inline int disks_scsi_serial(int fd, scsi_exec_fn exec, char *out,
				    size_t size)
{
	const unsigned char cdb[6] = { 0x12, 0x01, 0x80, 0, 252, 0 };
	unsigned char buf[252] = { 0 };
	struct scsi_result r;
	unsigned int len, start = 4;

	exec(fd, cdb, sizeof(cdb), buf, sizeof(buf), &r);
	if (!r.done || r.status || buf[1] != 0x80)
		return -1;
	len = 4 + ((buf[2] << 8) | buf[3]);
	if (len > sizeof(buf))
		len = sizeof(buf);
	while (start < len && buf[start] == ' ')
		start++;
	while (len > start && (buf[len - 1] == ' ' || !buf[len - 1]))
		len--;
	snprintf(out, size, "%.*s", (int)(len - start), (char *)buf + start);
	return 0;
}

/*
 * The serial of a block device: sysfs for virtio-blk, VPD 0x80 for SCSI.
 * The node is opened either way, so a disk is only found once it can be
 * used; a failed open leaves its errno.
 */
static inline int disks_block_serial(const char *name, char *out, size_t size)
{
	char path[PATH_MAX];
	int fd, ret = -1;
	FILE *f;

	/* Whole disks only. */
	snprintf(path, sizeof(path), "/sys/class/block/%s/partition", name);
	if (!access(path, F_OK))
		return -1;
	snprintf(path, sizeof(path), "/dev/%s", name);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (strncmp(name, "vd", 2)) {
		ret = disks_scsi_serial(fd, disks_sg_v3, out, size);
		close(fd);
		return ret;
	}
	close(fd);
	snprintf(path, sizeof(path), "/sys/class/block/%s/serial", name);
	f = fopen(path, "r");
	if (f && fgets(out, (int)size, f)) {
		out[strcspn(out, "\n")] = '\0';
		ret = 0;
	}
	if (f)
		fclose(f);
	return ret;
}

/*
 * A place to look for disks: entries of dir whose names start with one of
 * prefixes (NULL: any) are nodes devdir/NAME; serial() asks one for its
 * serial by name. With by_kind, a disk's node name must start with its kind.
 */
struct disks_where {
	const char *dir;
	const char *devdir;
	const char *const *prefixes;
	int by_kind;
	int (*serial)(const char *name, char *out, size_t size);
};

static inline int disks_prefix(const struct disks_where *w, const char *name)
{
	const char *const *p;

	if (!w->prefixes)
		return name[0] != '.';
	for (p = w->prefixes; *p; p++)
		if (!strncmp(name, *p, strlen(*p)))
			return 1;
	return 0;
}

/*
 * One pass over w->dir; returns how many of the n disks have a node. *busy
 * is set when a node exists but cannot be opened yet (ENXIO): devtmpfs
 * creates a disk's node in device_add(), before bdev_add() makes it
 * openable, and nothing the guest can wait on happens in between. Scan a
 * class directory (/sys/class/block, not /sys/block): its links exist
 * before the node, while /sys/block's are made after device_add().
 */
static inline int disks_scan(struct disk *d, int n, const struct disks_where *w,
			     int *busy)
{
	struct dirent *de;
	int i, found = 0;
	DIR *dir = opendir(w->dir);

	*busy = 0;
	while (dir && (de = readdir(dir))) {
		char serial[64];

		if (!disks_prefix(w, de->d_name))
			continue;
		errno = 0;
		if (w->serial(de->d_name, serial, sizeof(serial))) {
			*busy |= errno == ENXIO;
			continue;
		}
		for (i = 0; i < n; i++)
			if (!d[i].node[0] && !strcmp(serial, d[i].serial) &&
			    (!w->by_kind || !strncmp(de->d_name, d[i].kind, 2)))
				snprintf(d[i].node, sizeof(d[i].node),
					 "%.64s/%s", w->devdir, de->d_name);
	}
	if (dir)
		closedir(dir);
	for (i = 0; i < n; i++)
		found += !!d[i].node[0];
	return found;
}

struct disks_search {
	struct disk *d;
	int n, found;
	const struct disks_where *w;
};

static inline int disks_ready(void *arg)
{
	struct disks_search *a = arg;
	int busy;

	a->found = disks_scan(a->d, a->n, a->w, &busy);
	if (a->found == a->n)
		return KTAP_READY;
	return busy ? KTAP_BUSY : KTAP_WAIT;
}

/*
 * Waits up to DISKS_WAIT_MS for every one of the n disks to have a node,
 * rescanning whenever devtmpfs creates a node in /dev or w->devdir, and at
 * once while a node is busy (see disks_scan and ktap_wait_dev). Returns
 * how many were found; each disk's node, or its absence, is a diagnostic.
 */
static inline int disks_wait(struct disk *d, int n, const struct disks_where *w)
{
	struct disks_search a = { .d = d, .n = n, .w = w };
	long long start = ktap_now_ms();
	unsigned int scans;
	int i;

	scans = ktap_wait_dev(w->devdir, disks_ready, &a, DISKS_WAIT_MS);
	ktap_diag("%d of %d disks after %u scans in %lld ms", a.found, n,
		  scans, ktap_now_ms() - start);
	for (i = 0; i < n; i++)
		ktap_diag("disk %s is %s", d[i].serial,
			  d[i].node[0] ? d[i].node : "missing");
	return a.found;
}

/* The serials of disks as one comma-separated list, for descriptions. */
static inline const char *disks_names(const struct disk *d, int n)
{
	static char names[DISKS_MAX * 64];
	size_t len = 0;
	int i;

	names[0] = '\0';
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(names + len, sizeof(names) - len,
					"%s%s", i ? "," : "", d[i].serial);
	return n ? names : "no disks";
}

#endif /* BKLFREE_DISKS_H */
