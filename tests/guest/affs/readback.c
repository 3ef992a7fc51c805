// SPDX-License-Identifier: GPL-2.0
/*
 * readback - mount the affs profile's volumes (tools/affs/affs-image, content
 * from tree.h) read-only and compare every entry with the table.
 *
 * The disks are found by serial (bklfree.disks=, disks.h): an FFS volume on
 * virtio-blk, an FFS volume with directory cache on virtio-blk and an OFS
 * international volume on usb-storage (volume.h). Each is mounted with
 * mount(2), type "affs", on /tmp/affs-NAME, and then:
 *
 *   - every file, directory and link of tree.h is there by lstat with its
 *     type and size (nested directories, a 30-character name, the Latin-1
 *     "caf\351", the empty file, 100 files in one directory);
 *   - every file reads back byte for byte as its seed makes it (files of
 *     one block, exactly 72 FFS blocks, 73 OFS blocks, and 100000 bytes:
 *     header and extension block tables, OFS data block chains);
 *   - each soft link reads as the Unix form of its Amiga target: "x"
 *     stays "x", "//x" (two levels up) is "../../x", "LABEL:x" is
 *     "/LABEL/x" (fs/affs/symlink.c);
 *   - the hard link is the same inode as its real entry;
 *   - readdir lists exactly the tree: nothing missing, extra or twice;
 *   - lookups fold case, and Latin-1 letters only on international
 *     volumes ("CAF\311" finds "caf\351");
 *   - umount succeeds.
 *
 * A missing disk fails its volume's cases. The volumes stay as made:
 * affs/modify runs next and changes them.
 */
#include "affs/volume.h"

#define CASES_PER_VOLUME 8

static struct affs_model model;

static void volume(const struct affs_volume *v, const char *node)
{
	char dir[PATH_MAX], p[PATH_MAX];
	struct affs_diff d;
	struct stat st;
	int up, folded;

	up = affs_mount_case(v, node, MS_RDONLY, dir, sizeof(dir),
			     CASES_PER_VOLUME);
	if (up < 0)
		return;
	if (!up) {
		int i;

		for (i = 1; i < CASES_PER_VOLUME; i++)
			ktap_ok(0, "%s: not mounted (case %d)", v->name, i + 1);
		return;
	}
	affs_model_init(&model);
	affs_compare(dir, &model, &d);
	ktap_ok(!d.missing && !d.type && !d.size,
		"%s: every entry has its name, type and size", v->name);
	ktap_ok(!d.content, "%s: every file reads back as its seed",
		v->name);
	ktap_ok(!d.link, "%s: soft links read as their Unix targets",
		v->name);
	ktap_ok(!d.hard, "%s: the hard link is the same file", v->name);
	if (d.entries != AFFS_TREE_COUNT)
		ktap_diag("%s: readdir found %u entries, expected %u",
			  v->name, d.entries, (unsigned int)AFFS_TREE_COUNT);
	ktap_ok(!d.extra && !d.errors && d.entries == AFFS_TREE_COUNT,
		"%s: readdir lists exactly the tree", v->name);

	snprintf(p, sizeof(p), "%.200s/HELLO.TXT", dir);
	folded = !stat(p, &st);
	snprintf(p, sizeof(p), "%.200s/CAF\311", dir);
	if (!folded)
		ktap_diag("%s: HELLO.TXT not found", v->name);
	if ((stat(p, &st) == 0) != v->intl) {
		ktap_diag("%s: CAF\\311 %s", v->name,
			  v->intl ? "not found on an international volume" :
			  "found on a non-international volume");
		folded = 0;
	}
	ktap_ok(folded, "%s: lookup folds case (Latin-1 %s)", v->name,
		v->intl ? "too" : "not");
	ktap_ok(affs_umount(dir), "%s: umount", v->name);
}

static void run(void)
{
	char node[AFFS_NR_VOLUMES][PATH_MAX];
	size_t v;

	affs_find(node);
	for (v = 0; v < AFFS_NR_VOLUMES; v++)
		volume(&affs_volumes[v], node[v]);
}

const struct ktap_test ktap_test = {
	.plan = 1 + AFFS_NR_VOLUMES * CASES_PER_VOLUME,
	.kconfig = (const char *const[]){ "CONFIG_AFFS_FS", NULL },
	.timeout = 90,
	.run = run,
};
