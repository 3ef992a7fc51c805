// SPDX-License-Identifier: GPL-2.0
/*
 * pattern - read and write the profile's disks through the block layer and
 * check every byte against the image pattern (tests/guest/pattern.h).
 *
 * The runner writes each image= with seed 0 of the pattern; the profile
 * lists the disks on the kernel command line (bklfree.disks=, see disks.h)
 * and the test waits, bounded, for each serial to appear among the whole
 * disks of /sys/class/block as the expected kind (vd or sd). A disk that
 * never shows up fails the first case. Then, on every disk, with O_DIRECT
 * so the data comes from the device and not the page cache:
 *
 *   - BLKGETSIZE64 equals the image size and BLKSSZGET is 512;
 *   - sectors at the start, in the middle, at three quarters and the very
 *     last one hold their own lba's pattern (a misplaced, short or stale
 *     read shows the wrong tag);
 *   - a read at the end of the disk returns 0 bytes;
 *   - 64 sectors at a quarter are written with another seed, fsync'd and
 *     read back, and the sectors on either side still hold seed 0.
 *
 * This covers the submit and completion paths of virtio-blk, virtio-scsi,
 * usb-storage and uas under the block device file (def_blk_fops in
 * block/fops.c: blkdev_llseek, direct I/O, fsync), which the llseek series
 * must leave as it is; a driver fix in patches/drivers for one of these
 * disks is proven by this test.
 */
#include <linux/fs.h>

#include "disks.h"
#include "pattern.h"

#define SCRATCH_SEED 90
#define SCRATCH_SECTORS 64
#define MAX_SECTORS 128

static const char *const block_prefixes[] = { "sd", "vd", NULL };

static const struct disks_where where = {
	.dir = "/sys/class/block",
	.devdir = "/dev",
	.prefixes = block_prefixes,
	.by_kind = 1,
	.serial = disks_block_serial,
};

/* A check run on every disk; reads use count sectors at num/den of it. */
struct tcase {
	const char *what;
	int (*fn)(const struct tcase *t, const struct disk *d, int fd,
		  unsigned char *buf);
	unsigned int num, den, count;
};

static int size(const struct tcase *t, const struct disk *d, int fd,
		unsigned char *buf);
static int block_size(const struct tcase *t, const struct disk *d, int fd,
		      unsigned char *buf);
static int pattern(const struct tcase *t, const struct disk *d, int fd,
		   unsigned char *buf);
static int end_of_disk(const struct tcase *t, const struct disk *d, int fd,
		       unsigned char *buf);
static int scratch(const struct tcase *t, const struct disk *d, int fd,
		   unsigned char *buf);
static int neighbours(const struct tcase *t, const struct disk *d, int fd,
		      unsigned char *buf);

static const struct tcase tcases[] = {
	{ "BLKGETSIZE64 equals the image size", size, 0, 0, 0 },
	{ "BLKSSZGET is 512", block_size, 0, 0, 0 },
	{ "seed 0 pattern", pattern, 0, 1, 8 },
	{ "seed 0 pattern", pattern, 1, 2, MAX_SECTORS },
	{ "seed 0 pattern", pattern, 3, 4, 1 },
	{ "seed 0 pattern", pattern, 1, 1, 1 },
	{ "read at the end returns 0 bytes", end_of_disk, 0, 0, 0 },
	{ "O_DIRECT write, fsync, read back seed 90", scratch, 1, 4,
	  SCRATCH_SECTORS },
	{ "seed 0 kept around the written range", neighbours, 1, 4,
	  SCRATCH_SECTORS },
};

static unsigned long long first_lba(const struct tcase *t,
				    const struct disk *d)
{
	unsigned long long sectors = d->bytes / PATTERN_SECTOR;
	unsigned long long lba = sectors * t->num / t->den;

	return lba + t->count > sectors ? sectors - t->count : lba;
}

static int size(const struct tcase *t, const struct disk *d, int fd,
		unsigned char *buf)
{
	uint64_t bytes = 0;

	(void)t;
	(void)buf;
	if (ioctl(fd, BLKGETSIZE64, &bytes))
		return ktap_perror("BLKGETSIZE64") + 1;
	if (bytes != d->bytes)
		ktap_diag("%s: %llu bytes, image has %llu", d->serial,
			  (unsigned long long)bytes, d->bytes);
	return bytes == d->bytes;
}

static int block_size(const struct tcase *t, const struct disk *d, int fd,
		      unsigned char *buf)
{
	int ssz = 0;

	(void)t;
	(void)buf;
	if (ioctl(fd, BLKSSZGET, &ssz))
		return ktap_perror("BLKSSZGET") + 1;
	if (ssz != PATTERN_SECTOR)
		ktap_diag("%s: logical block size %d", d->serial, ssz);
	return ssz == PATTERN_SECTOR;
}

/* The start of a sector as printable text, for a diagnostic. */
static const char *tag(const unsigned char *s)
{
	static char out[33];
	size_t i;

	for (i = 0; i < sizeof(out) - 1 && s[i] != '\n'; i++)
		out[i] = s[i] >= ' ' && s[i] < 127 ? (char)s[i] : '.';
	out[i] = '\0';
	return out;
}

/* Reads count sectors at lba and checks them against seed. */
static int check_range(const struct disk *d, int fd, unsigned char *buf,
		       unsigned long long lba, unsigned int count,
		       unsigned int seed)
{
	size_t len = (size_t)count * PATTERN_SECTOR;
	ssize_t got;
	unsigned int i;

	memset(buf, 0, len);
	got = pread(fd, buf, len, (off_t)(lba * PATTERN_SECTOR));
	if (got != (ssize_t)len) {
		ktap_diag("%s: read %u sectors at lba %llu: %zd bytes (%s)",
			  d->serial, count, lba, got,
			  got < 0 ? strerror(errno) : "short");
		return 0;
	}
	for (i = 0; i < count; i++) {
		const unsigned char *s = buf + (size_t)i * PATTERN_SECTOR;

		if (!pattern_check(s, lba + i, seed)) {
			ktap_diag("%s: lba %llu is not seed %u: starts '%s'",
				  d->serial, lba + i, seed, tag(s));
			return 0;
		}
	}
	return 1;
}

static int pattern(const struct tcase *t, const struct disk *d, int fd,
		   unsigned char *buf)
{
	return check_range(d, fd, buf, first_lba(t, d), t->count, 0);
}

static int end_of_disk(const struct tcase *t, const struct disk *d, int fd,
		       unsigned char *buf)
{
	ssize_t got = pread(fd, buf, PATTERN_SECTOR, (off_t)d->bytes);

	(void)t;
	if (got)
		ktap_diag("%s: read at %llu returned %zd", d->serial, d->bytes,
			  got);
	return got == 0;
}

static int scratch(const struct tcase *t, const struct disk *d, int fd,
		   unsigned char *buf)
{
	unsigned long long lba = first_lba(t, d);
	size_t len = (size_t)t->count * PATTERN_SECTOR;
	unsigned int i;

	for (i = 0; i < t->count; i++)
		pattern_fill(buf + (size_t)i * PATTERN_SECTOR, lba + i,
			     SCRATCH_SEED);
	if (pwrite(fd, buf, len, (off_t)(lba * PATTERN_SECTOR)) !=
	    (ssize_t)len) {
		ktap_diag("%s: write %u sectors at lba %llu: %s", d->serial,
			  t->count, lba, strerror(errno));
		return 0;
	}
	if (fsync(fd))
		return ktap_perror("fsync") + 1;
	return check_range(d, fd, buf, lba, t->count, SCRATCH_SEED);
}

static int neighbours(const struct tcase *t, const struct disk *d, int fd,
		      unsigned char *buf)
{
	unsigned long long lba = first_lba(t, d);

	return check_range(d, fd, buf, lba - 1, 1, 0) &&
	       check_range(d, fd, buf, lba + t->count, 1, 0);
}

static void run(void)
{
	struct disk d[DISKS_MAX];
	int fds[DISKS_MAX];
	unsigned char *buf;
	int n, found, i;
	size_t c;

	n = disks_expected(d, NULL);
	if (n < 0)
		n = 0;
	found = disks_wait(d, n, &where);
	ktap_ok(n > 0 && found == n, "%d of %d disks found: %s",
		found, n, disks_names(d, n));
	if (posix_memalign((void **)&buf, 4096, MAX_SECTORS * PATTERN_SECTOR))
		ktap_bail("no memory for the I/O buffer");
	for (i = 0; i < n; i++) {
		fds[i] = -1;
		if (d[i].node[0]) {
			fds[i] = open(d[i].node, O_RDWR | O_DIRECT | O_CLOEXEC);
			if (fds[i] < 0)
				ktap_perror(d[i].node);
		}
	}
	for (c = 0; c < ARRAY_SIZE(tcases); c++) {
		const struct tcase *t = &tcases[c];
		int ok = found > 0;

		/* A missing disk fails the first case only. */
		for (i = 0; i < n; i++)
			if (d[i].node[0])
				ok &= fds[i] >= 0 &&
				      t->fn(t, &d[i], fds[i], buf);
		if (t->den && t->fn == pattern)
			ktap_ok(ok, "%s at %u/%u of the disk, %u sectors: %s",
				t->what, t->num, t->den, t->count,
				disks_names(d, n));
		else
			ktap_ok(ok, "%s: %s", t->what, disks_names(d, n));
	}
	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(buf);
}

const struct ktap_test ktap_test = {
	.plan = 1 + ARRAY_SIZE(tcases),
	.kconfig = (const char *const[]){ "CONFIG_BLK_DEV_SD", NULL },
	.timeout = 60,
	.run = run,
};
