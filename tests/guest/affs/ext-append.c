// SPDX-License-Identifier: GPL-2.0
/*
 * ext-append - appends that add data blocks to an extension block already
 * on the disk, on the affs profile's read-write volumes (volume.h: FFS on
 * virtio-blk, OFS international on usb-storage), after affs/ofs-stale-eof.
 *
 * A file header lists its first 72 data blocks; each extension block
 * lists the next 72. fs/affs adds a new block to the table of the header
 * or extension block in the cache (affs_get_block()); the header is
 * written with the inode, an extension block when it is dirty.
 *
 * On each volume, each step a case:
 *
 *   - mount read-write;
 *   - a file of 80 data blocks (one extension block listing 8), fsync,
 *     then 20 blocks more appended, fsync: the extension block's table
 *     grows after it was written;
 *   - it reads back as written; umount;
 *   - mount again: it reads back as written (its blocks found through the
 *     tables on the disk); umount, left for the host's fsck.affs
 *     (hostcheck= of the profile).
 */
#include "affs/volume.h"

#define FILE_NAME "ext-append.bin"
#define FILE_SEED 209
#define FIRST_BLOCKS 80
#define MORE_BLOCKS 20
#define CASES_PER_VOLUME 6

static int write_at(int fd, unsigned int seed, unsigned int off,
		    unsigned int len)
{
	static unsigned char buf[65536];

	affs_tree_fill(buf, off, len, seed);
	if (pwrite(fd, buf, len, off) != (ssize_t)len)
		return ktap_perror("pwrite") + 1;
	return 1;
}

static int check(const char *path, unsigned int size)
{
	struct affs_model_entry e;

	memset(&e, 0, sizeof(e));
	e.type = AT_FILE;
	e.size = e.seeded = size;
	e.seed = FILE_SEED;
	return affs_check_content(path, &e);
}

static void volume(const struct affs_volume *v, const char *node)
{
	/* OFS data blocks hold 488 bytes, FFS ones 512. */
	unsigned int bsize = strstr(v->name, "ofs") ? 488 : 512;
	unsigned int first = FIRST_BLOCKS * bsize;
	unsigned int size = (FIRST_BLOCKS + MORE_BLOCKS) * bsize;
	char root[64], path[PATH_MAX];
	int up, fd, ok = 0;

	up = affs_mount_case(v, node, 0, root, sizeof(root),
			     CASES_PER_VOLUME);
	if (up < 0)
		return;
	snprintf(path, sizeof(path), "%s/%s", root, FILE_NAME);
	if (up) {
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) {
			ktap_perror(path);
		} else {
			ok = write_at(fd, FILE_SEED, 0, first);
			if (ok && fsync(fd))
				ok = ktap_perror("fsync") + 1;
			ok = ok && write_at(fd, FILE_SEED, first, size - first);
			if (ok && fsync(fd))
				ok = ktap_perror("fsync") + 1;
			close(fd);
		}
	}
	ktap_ok(ok, "%s: %d data blocks, fsync, %d more appended, fsync",
		v->name, FIRST_BLOCKS, MORE_BLOCKS);
	ktap_ok(up && check(path, size), "%s: the file reads back as written",
		v->name);
	ktap_ok(up && affs_umount(root), "%s: umount", v->name);
	up = up && affs_mount(node, v, 0, root, sizeof(root));
	ktap_ok(up && check(path, size), "%s: after remount the file reads "
		"back as written", v->name);
	ktap_ok(up && affs_umount(root), "%s: umount, left for fsck.affs",
		v->name);
}

static void run(void)
{
	char node[AFFS_NR_VOLUMES][PATH_MAX];

	affs_each_writable(node, volume);
}

const struct ktap_test ktap_test = {
	.plan = 1 + 2 * CASES_PER_VOLUME,
	.kconfig = (const char *const[]){ "CONFIG_AFFS_FS", NULL },
	.timeout = 60,
	.upstream = "patches/drivers 0107 (the block table a new data block "
		    "is added to is written back)",
	.run = run,
};
