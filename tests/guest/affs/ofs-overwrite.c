// SPDX-License-Identifier: GPL-2.0
/*
 * ofs-overwrite - writes that cover whole data blocks a file already has,
 * on the affs profile's OFS volume (volume.h: OFS international on
 * usb-storage), after affs/short-copy; then every data block header of
 * the files read from the disk itself.
 *
 * An OFS data block starts with a 24-byte header (type T_DATA, the file
 * header's block, the 1-based sequence number, the byte count, the next
 * data block, the checksum); 488 bytes of data follow. fs/affs's
 * write_end sets the header only for blocks it allocates: a block the
 * file already has and that a write covers whole keeps its byte count
 * (a short last block stays short), and when the block device's cache no
 * longer holds it, its header is whatever the fresh buffer held, as the
 * block is never read.
 *
 * Each step a case:
 *
 *   - mount read-write;
 *   - cached: a file of 1600 bytes (data blocks of 488, 488, 488, 136),
 *     then 2000 bytes written at 0: the last block is covered whole;
 *   - evicted: the same, but the file is fsynced and the block device's
 *     cache dropped (BLKFLSBUF) before the 2000-byte write;
 *   - the files read back as written; umount;
 *   - on the disk, for each file: the header's byte size, first_data and
 *     block table, and each data block's checksum, type, key, sequence
 *     number, byte count and next pointer along the chain;
 *   - mount again, the files read back, umount: they are left for the
 *     host's fsck.affs (hostcheck= of the profile).
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

#define HEAD_SIZE 1600
#define FINAL_SIZE 2000

static const struct overwrite {
	const char *name, *what;
	unsigned int seed;
	int evict;
} files[] = {
	{ "overwrite-cached.bin", "cached", 206, 0 },
	{ "overwrite-evicted.bin", "evicted from the device cache", 207, 1 },
};

#define NFILES ((int)ARRAY_SIZE(files))

static const struct affs_volume *ofs_volume(void)
{
	size_t v;

	for (v = 0; v < AFFS_NR_VOLUMES; v++)
		if (!strcmp(affs_volumes[v].name, "ofs-intl"))
			return &affs_volumes[v];
	return NULL;
}

static int write_at(int fd, unsigned int seed, unsigned int off,
		    unsigned int len)
{
	static unsigned char buf[FINAL_SIZE];

	affs_tree_fill(buf, off, len, seed);
	if (pwrite(fd, buf, len, off) != (ssize_t)len)
		return ktap_perror("pwrite") + 1;
	return 1;
}

static int overwrite(const char *root, const char *node,
		     const struct overwrite *o, unsigned long *ino)
{
	char path[PATH_MAX];
	struct stat st;
	int fd, dev, ok;

	snprintf(path, sizeof(path), "%s/%s", root, o->name);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return ktap_perror(path) + 1;
	ok = write_at(fd, o->seed, 0, 1000) &&
	     write_at(fd, o->seed, 1000, HEAD_SIZE - 1000);
	if (ok && o->evict) {
		/* The blocks on the disk, then none of them in the cache. */
		if (fsync(fd))
			ok = ktap_perror("fsync") + 1;
		dev = open(node, O_RDONLY);
		if (dev < 0 || ioctl(dev, BLKFLSBUF, 0))
			ok = ktap_perror("BLKFLSBUF") + 1;
		if (dev >= 0)
			close(dev);
	}
	ok = ok && write_at(fd, o->seed, 0, FINAL_SIZE);
	if (ok && fsync(fd))
		ok = ktap_perror("fsync") + 1;
	if (fstat(fd, &st))
		ok = ktap_perror("fstat") + 1;
	else
		*ino = st.st_ino;
	close(fd);
	return ok;
}

static int content(const char *root, const struct overwrite *o)
{
	struct affs_model_entry e;
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, o->name);
	memset(&e, 0, sizeof(e));
	e.type = AT_FILE;
	e.size = e.seeded = FINAL_SIZE;
	e.seed = o->seed;
	return affs_check_content(path, &e);
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

/* The on-disk data blocks of the file whose header is block hdr. */
static int disk_blocks(int dev, const struct overwrite *o, uint32_t hdr)
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
		return 0;
	}
	n = (size + OFS_DATA - 1) / OFS_DATA;
	blk = word(h, O_FIRST_DATA);
	for (k = 0; k < n && ok; k++) {
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
		want = k + 1 < n ? OFS_DATA : size - k * OFS_DATA;
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
	char node[AFFS_NR_VOLUMES][PATH_MAX], root[64];
	const struct affs_volume *v = ofs_volume();
	unsigned long ino[NFILES] = { 0 };
	const char *dev_node = "";
	int up, ok, i, dev;

	affs_find(node);
	if (v)
		dev_node = node[v - affs_volumes];
	up = v && dev_node[0] && affs_mount(dev_node, v, 0, root,
					    sizeof(root));
	ktap_ok(up, "ofs-intl: mount %s read-write", dev_node);
	for (i = 0; i < NFILES; i++)
		ktap_ok(up && overwrite(root, dev_node, &files[i], &ino[i]),
			"ofs-intl: %s: 2000 bytes written over a file of %d",
			files[i].what, HEAD_SIZE);
	ok = up;
	for (i = 0; i < NFILES; i++)
		ok = ok && content(root, &files[i]);
	ktap_ok(ok, "ofs-intl: the files read back as written");
	ktap_ok(up && affs_umount(root), "ofs-intl: umount");

	dev = up ? open(dev_node, O_RDONLY) : -1;
	if (up && dev < 0)
		ktap_perror(dev_node);
	for (i = 0; i < NFILES; i++)
		ktap_ok(dev >= 0 && ino[i] &&
			disk_blocks(dev, &files[i], (uint32_t)ino[i]),
			"ofs-intl: %s: on the disk every data block header "
			"is right (type, key, sequence, byte count, next)",
			files[i].what);
	if (dev >= 0)
		close(dev);

	up = up && affs_mount(dev_node, v, 0, root, sizeof(root));
	ok = up;
	for (i = 0; i < NFILES; i++)
		ok = ok && content(root, &files[i]);
	ktap_ok(ok, "ofs-intl: after remount the files read back as written");
	ktap_ok(up && affs_umount(root), "ofs-intl: umount, left for "
		"fsck.affs");
}

const struct ktap_test ktap_test = {
	.plan = 1 + 1 + NFILES + 2 + NFILES + 2,
	.kconfig = (const char *const[]){ "CONFIG_AFFS_FS", NULL },
	.timeout = 60,
	.upstream = "patches/drivers 0105 (OFS write_end keeps the headers "
		    "of blocks it covers whole)",
	.run = run,
};
