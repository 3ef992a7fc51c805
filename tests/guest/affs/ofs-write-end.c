// SPDX-License-Identifier: GPL-2.0
/*
 * ofs-write-end - what fs/affs's OFS write_end leaves on the disk, on the
 * affs profile's OFS volume (volume.h: OFS international on usb-storage),
 * after affs/short-copy: the file header and every data block header of
 * three files, read from the block device after umount.
 *
 * An OFS data block starts with a 24-byte header (type T_DATA, the file
 * header's block, the 1-based sequence number, the byte count, the next
 * data block, the checksum); 488 bytes of data follow. The file header
 * holds the byte size, first_data and the table of data blocks.
 *
 *   - cached: a file of 1600 bytes (data blocks of 488, 488, 488 and
 *     136 bytes), then 2000 bytes written at 0: the short last block is
 *     covered whole and must then count 488 bytes;
 *   - evicted: a file of 2000 bytes, fsync, the block device's cache
 *     dropped (BLKFLSBUF), then 2000 other bytes written at 0: the blocks
 *     covered whole are no longer cached, their headers must survive;
 *   - extended after fsync: 1000 bytes, fsync, 1000 more at 1000 within
 *     the same second (the timestamps affs keeps have whole seconds, so
 *     the write does not change the mtime and does not dirty the inode by
 *     itself; the guest's clock is set back to the start of the first
 *     write's second before each write), fsync: the header on the disk
 *     must say 2000 bytes.
 *
 * Each step a case: mount read-write; each file written; the files read
 * back; umount; each file on the disk (header byte size, first_data and
 * block table, and each data block's checksum, type, key, sequence
 * number, byte count and next pointer along the chain); mount again, the
 * files read back, umount: they are left for the host's fsck.affs
 * (hostcheck= of the profile).
 */
#include <arpa/inet.h>
#include <sys/ioctl.h>
#include <linux/fs.h>

#include "affs/volume.h"

#define BSIZE 512
#define OFS_DATA 488
#define T_DATA 8
#define HT_SIZE 72
#define O_FIRST_DATA 16
#define O_TABLE 24
#define O_BYTE_SIZE (BSIZE - 188)

#define FINAL_SIZE 2000
#define SAME_SECOND_TRIES 5

enum how { CACHED, EVICTED, EXTENDED };

static const struct ofs_file {
	const char *name, *what;
	enum how how;
	unsigned int seed;	/* the final content */
} files[] = {
	{ "we-cached.bin", "cached: a short last block written over whole",
	  CACHED, 206 },
	{ "we-evicted.bin", "evicted: blocks no longer cached written over "
	  "whole", EVICTED, 207 },
	{ "we-extended.bin", "extended after fsync within the same second",
	  EXTENDED, 208 },
};

#define NFILES ((int)ARRAY_SIZE(files))

static int write_at(int fd, unsigned int seed, unsigned int off,
		    unsigned int len)
{
	static unsigned char buf[FINAL_SIZE];

	affs_tree_fill(buf, off, len, seed);
	if (pwrite(fd, buf, len, off) != (ssize_t)len)
		return ktap_perror("pwrite") + 1;
	return 1;
}

static int sync_fd(int fd)
{
	if (fsync(fd))
		return ktap_perror("fsync") + 1;
	return 1;
}

static int drop_device_cache(const char *node)
{
	int dev = open(node, O_RDONLY), ok = 1;

	if (dev < 0 || ioctl(dev, BLKFLSBUF, 0))
		ok = ktap_perror("BLKFLSBUF") + 1;
	if (dev >= 0)
		close(dev);
	return ok;
}

/*
 * Sets CLOCK_REALTIME to 100 ms into the second *sec (0: the current
 * second, stored in *sec): a write right after it has that second to
 * itself, however long the fsync before it took (a loaded TCG guest's USB
 * fsync can pass a second boundary, which made the earlier wait for a
 * fitting second fail in CI). The harness's alarm() runs on the
 * monotonic clock and does not move.
 */
static int pin_second(time_t *sec)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	if (*sec)
		t.tv_sec = *sec;
	t.tv_nsec = 100000000;
	if (clock_settime(CLOCK_REALTIME, &t))
		return ktap_perror("clock_settime") + 1;
	*sec = t.tv_sec;
	return 1;
}

/*
 * 1000 bytes, fsync, 1000 more, both writes in one second of
 * CLOCK_REALTIME, pinned before each. Returns the file descriptor, or -1
 * when no attempt kept its second (a write must take under 0.9 s).
 */
static int extend_in_one_second(const char *path, unsigned int seed)
{
	struct timespec t1, t2;
	time_t sec;
	int i, fd;

	for (i = 0; i < SAME_SECOND_TRIES; i++) {
		sec = 0;
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			return ktap_perror(path);
		if (!pin_second(&sec) || !write_at(fd, seed, 0, 1000) ||
		    clock_gettime(CLOCK_REALTIME, &t1) || !sync_fd(fd) ||
		    !pin_second(&sec) || !write_at(fd, seed, 1000, 1000) ||
		    clock_gettime(CLOCK_REALTIME, &t2)) {
			close(fd);
			return -1;
		}
		if (t1.tv_sec == sec && t2.tv_sec == sec)
			return fd;
		ktap_diag("%s: attempt %d: the writes ended at %lld.%09ld and "
			  "%lld.%09ld, not both in second %lld", path, i + 1,
			  (long long)t1.tv_sec, t1.tv_nsec, (long long)t2.tv_sec,
			  t2.tv_nsec, (long long)sec);
		close(fd);
	}
	ktap_diag("%s: no attempt of %d kept its second", path,
		  SAME_SECOND_TRIES);
	return -1;
}

static int write_file(const char *root, const char *node,
		      const struct ofs_file *o, unsigned long *ino)
{
	char path[PATH_MAX];
	struct stat st;
	int fd = -1, ok = 0;

	snprintf(path, sizeof(path), "%s/%s", root, o->name);
	if (o->how == EXTENDED) {
		fd = extend_in_one_second(path, o->seed);
		ok = fd >= 0;
	} else {
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			return ktap_perror(path) + 1;
	}
	if (o->how == CACHED)
		ok = write_at(fd, o->seed, 0, 1000) &&
		     write_at(fd, o->seed, 1000, 600) &&
		     write_at(fd, o->seed, 0, FINAL_SIZE);
	if (o->how == EVICTED)
		ok = write_at(fd, o->seed + 100, 0, FINAL_SIZE) &&
		     sync_fd(fd) && drop_device_cache(node) &&
		     write_at(fd, o->seed, 0, FINAL_SIZE);
	if (fd < 0)
		return 0;
	ok = ok && sync_fd(fd);
	if (fstat(fd, &st))
		ok = ktap_perror("fstat") + 1;
	else
		*ino = st.st_ino;
	close(fd);
	return ok;
}

static int content(const char *root)
{
	struct affs_model_entry e;
	char path[PATH_MAX];
	int i, ok = 1;

	for (i = 0; i < NFILES; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, files[i].name);
		memset(&e, 0, sizeof(e));
		e.type = AT_FILE;
		e.size = e.seeded = FINAL_SIZE;
		e.seed = files[i].seed;
		ok = affs_check_content(path, &e) && ok;
	}
	return ok;
}

static uint32_t word(const unsigned char *b, unsigned int off)
{
	uint32_t w;

	memcpy(&w, b + off, 4);
	return ntohl(w);
}

static int read_block(int dev, uint32_t n, unsigned char *b)
{
	if (pread(dev, b, BSIZE, (off_t)n * BSIZE) != BSIZE)
		return ktap_perror("pread of a block") + 1;
	return 1;
}

/* The on-disk header and data blocks of the file whose header is hdr. */
static int on_disk(int dev, const struct ofs_file *o, uint32_t hdr)
{
	unsigned char h[BSIZE], b[BSIZE];
	uint32_t n, k, blk, size, sum, want;
	unsigned int i;
	int ok = 1;

	if (!read_block(dev, hdr, h))
		return 0;
	size = word(h, O_BYTE_SIZE);
	if (size != FINAL_SIZE) {
		ktap_diag("%s: header byte size %u, expected %d", o->name,
			  size, FINAL_SIZE);
		ok = 0;
	}
	n = (FINAL_SIZE + OFS_DATA - 1) / OFS_DATA;
	blk = word(h, O_FIRST_DATA);
	for (k = 0; k < n; k++) {
		uint32_t table = word(h, O_TABLE + 4 * (HT_SIZE - 1 - k));

		if (!blk || blk != table) {
			ktap_diag("%s: data block %u is %u by the chain, %u by "
				  "the header's table", o->name, k + 1, blk,
				  table);
			return 0;
		}
		if (!read_block(dev, blk, b))
			return 0;
		for (i = 0, sum = 0; i < BSIZE; i += 4)
			sum += word(b, i);
		want = k + 1 < n ? OFS_DATA : FINAL_SIZE - k * OFS_DATA;
		if (sum || word(b, 0) != T_DATA || word(b, 4) != hdr ||
		    word(b, 8) != k + 1 || word(b, 12) != want ||
		    (k + 1 < n) != (word(b, 16) != 0)) {
			ktap_diag("%s: data block %u (block %u): checksum %s, "
				  "type %u, key %u, sequence %u, byte count "
				  "%u, next %u; expected type %d, key %u, "
				  "sequence %u, byte count %u, next %s",
				  o->name, k + 1, blk, sum ? "bad" : "good",
				  word(b, 0), word(b, 4), word(b, 8),
				  word(b, 12), word(b, 16), T_DATA, hdr, k + 1,
				  want, k + 1 < n ? "set" : "0");
			ok = 0;
		}
		blk = word(b, 16);
	}
	return ok;
}

static void run(void)
{
	char dev_node[PATH_MAX], root[64];
	const struct affs_volume *v;
	unsigned long ino[NFILES] = { 0 };
	int up, i, dev;

	up = affs_mount_named("ofs-intl", &v, dev_node, root, sizeof(root));
	for (i = 0; i < NFILES; i++)
		ktap_ok(up && write_file(root, dev_node, &files[i], &ino[i]),
			"ofs-intl: %s: written, fsync", files[i].what);
	ktap_ok(up && content(root), "ofs-intl: the files read back as "
		"written");
	ktap_ok(up && affs_umount(root), "ofs-intl: umount");

	dev = up ? open(dev_node, O_RDONLY) : -1;
	if (up && dev < 0)
		ktap_perror(dev_node);
	for (i = 0; i < NFILES; i++)
		ktap_ok(dev >= 0 && ino[i] &&
			on_disk(dev, &files[i], (uint32_t)ino[i]),
			"ofs-intl: %s: on the disk the header's byte size and "
			"every data block header are right", files[i].what);
	if (dev >= 0)
		close(dev);

	up = up && affs_mount(dev_node, v, 0, root, sizeof(root));
	ktap_ok(up && content(root), "ofs-intl: after remount the files "
		"read back as written");
	ktap_ok(up && affs_umount(root), "ofs-intl: umount, left for "
		"fsck.affs");
}

const struct ktap_test ktap_test = {
	.plan = 1 + 1 + NFILES + 2 + NFILES + 2,
	.kconfig = (const char *const[]){ "CONFIG_AFFS_FS", NULL },
	.timeout = 60,
	.upstream = "patches/drivers 0105 (headers of blocks written over "
		    "whole), 0106 (the inode dirtied when write_end extends "
		    "the file)",
	.run = run,
};
