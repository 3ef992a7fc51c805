/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz-disk.h - the fuzz disk of the affs-fuzz profiles (serial
 * bklfree-fuzz, written by tools/affs/affs-fuzz): its BKLFUZZ1 header,
 * the description line of an image and a loop device bound to an image.
 * Shared by affs/fuzz-walk and affs/loop-walks.
 */
#ifndef BKLFREE_AFFS_FUZZ_DISK_H
#define BKLFREE_AFFS_FUZZ_DISK_H

#include <linux/loop.h>

#include "../disks.h"

struct header {
	unsigned int count, stride, size;
	unsigned long long offset, seed;
	char *desc;			/* the description lines */
};

static const char *const vd_prefixes[] = { "vd", NULL };

static const struct disks_where where = {
	.dir = "/sys/class/block",
	.devdir = "/dev",
	.prefixes = vd_prefixes,
	.by_kind = 1,
	.serial = disks_block_serial,
};

static int read_header(int fd, struct header *h)
{
	char head[129] = { 0 };

	if (pread(fd, head, 128, 0) != 128)
		return ktap_perror("read the fuzz header");
	if (sscanf(head, "BKLFUZZ1 count=%u stride=%u size=%u offset=%llu "
		   "seed=%llu", &h->count, &h->stride, &h->size, &h->offset,
		   &h->seed) != 5 || !h->count || !h->size ||
	    h->size > h->stride || h->offset > (64u << 20)) {
		ktap_diag("no BKLFUZZ1 header: '%.60s'", head);
		return -1;
	}
	h->desc = calloc(1, h->offset + 1);
	if (!h->desc || pread(fd, h->desc, h->offset, 0) != (ssize_t)h->offset)
		return ktap_perror("read the image descriptions");
	return 0;
}

/* Line N of the descriptions without its number, or "". */
static const char *describe(const struct header *h, unsigned int n,
			    char *buf, size_t size)
{
	char key[24];
	const char *p;
	size_t len;

	snprintf(key, sizeof(key), "\n%u ", n);
	p = strstr(h->desc, key);
	buf[0] = '\0';
	if (!p)
		return buf;
	p += strlen(key);
	len = strcspn(p, "\n");
	snprintf(buf, size, "%.*s", (int)(len < size ? len : size - 1), p);
	return buf;
}

static int loop_attach(int ctl, int disk, const struct header *h,
		       unsigned int n, char *node, size_t size)
{
	struct loop_config c;
	int nr, fd, i;

	nr = ioctl(ctl, LOOP_CTL_GET_FREE);
	if (nr < 0)
		return ktap_perror("LOOP_CTL_GET_FREE");
	snprintf(node, size, "/dev/loop%d", nr);
	/* devtmpfs makes the node as the device is added: a moment. */
	for (i = 0; (fd = open(node, O_RDWR | O_CLOEXEC)) < 0 && i < 2000; i++)
		usleep(1000);
	if (fd < 0)
		return ktap_perror(node);
	memset(&c, 0, sizeof(c));
	c.fd = (unsigned int)disk;
	c.info.lo_offset = h->offset + (unsigned long long)n * h->stride;
	c.info.lo_sizelimit = h->size;
	if (ioctl(fd, LOOP_CONFIGURE, &c)) {
		if (errno != EINVAL && errno != ENOTTY) {
			ktap_perror("LOOP_CONFIGURE");
			close(fd);
			return -1;
		}
		if (ioctl(fd, LOOP_SET_FD, disk) ||
		    ioctl(fd, LOOP_SET_STATUS64, &c.info)) {
			ktap_perror("LOOP_SET_FD/LOOP_SET_STATUS64");
			close(fd);
			return -1;
		}
	}
	return fd;
}

#endif /* BKLFREE_AFFS_FUZZ_DISK_H */
