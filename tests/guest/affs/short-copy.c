// SPDX-License-Identifier: GPL-2.0
/*
 * short-copy - write(2) from a buffer whose tail is not readable, on the
 * affs profile's read-write volumes (volume.h: FFS on virtio-blk, OFS
 * international on usb-storage), after affs/modify.
 *
 * The source of each write ends in a PROT_NONE page: the first N bytes
 * sit at the end of a readable page, the rest in the unreadable page
 * after it. generic_perform_write() faults the source in first, which
 * succeeds for the readable part, and copy_page_from_iter_atomic() then
 * stops at the unreadable page: a short copy. The filesystem's
 * write_end() gets copied < len and must write and account only the
 * copied bytes, the write returns N, and the next chunk (all unreadable)
 * ends the loop. fs/affs's OFS write_end ignored copied and returned len:
 * the write returned more than it copied, i_size grew by len, the bytes
 * that never came from the buffer (zeros) became file content, and
 * generic_perform_write()'s iov_iter_revert() by copied - len is a
 * WARNING (the boot's splat).
 *
 * On each volume, each step a case:
 *
 *   - mount read-write, create short-copy.bin with 1000 bytes;
 *   - at 1000, 600 bytes of which 300 readable: inside one data block
 *     (OFS blocks hold 488 bytes, FFS 512);
 *   - at 1300, 2000 bytes of which 1200 readable: across whole blocks;
 *   - at 2500, 2000 bytes of which 1700 readable: the first page is
 *     copied whole, the short copy is in the second page;
 *   - at 4200, 100 bytes none of them readable: EFAULT, size unchanged;
 *   - fsync, size 4200 and every byte as its seed makes it (tree.h);
 *   - umount, mount again: the same from the disk; umount, the file is
 *     left for the host's fsck.affs (hostcheck= of the profile).
 *
 * Each write's return is checked whatever the earlier ones returned, at
 * the offset the correct kernel reaches.
 */
#include <sys/mman.h>

#include "affs/volume.h"

#define FILE_SEED 205
#define FILE_NAME "short-copy.bin"
#define HEAD 1000

static const struct short_write {
	unsigned int off, len, readable;
	const char *what;
} writes[] = {
	{ 1000, 600, 300, "inside a data block" },
	{ 1300, 2000, 1200, "across whole data blocks" },
	{ 2500, 2000, 1700, "short in the write's second page" },
};

#define FINAL_SIZE 4200
/*
 * mount, create, the writes, EFAULT, content, umount, mount again,
 * content, umount
 */
#define CASES_PER_VOLUME (2 + (int)ARRAY_SIZE(writes) + 6)

static unsigned char *src_page;	/* readable, then an unreadable page */
static long page;

static int make_source(void)
{
	unsigned char *m;

	page = sysconf(_SC_PAGESIZE);
	m = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return ktap_perror("mmap") + 1;
	if (mprotect(m + page, page, PROT_NONE))
		return ktap_perror("mprotect PROT_NONE") + 1;
	src_page = m;
	return 1;
}

/* The source of a write whose first readable bytes are file offset off. */
static const unsigned char *source(unsigned int off, unsigned int readable)
{
	unsigned char *s = src_page + page - readable;

	affs_tree_fill(s, off, readable, FILE_SEED);
	return s;
}

static int check_file(const char *path, const char *when)
{
	struct affs_model_entry e;
	struct stat st;

	memset(&e, 0, sizeof(e));
	e.type = AT_FILE;
	e.size = e.seeded = FINAL_SIZE;
	e.seed = FILE_SEED;
	if (stat(path, &st))
		return ktap_perror(path) + 1;
	if (st.st_size != FINAL_SIZE) {
		ktap_diag("%s: %s: size %lld, expected %d (the readable bytes)",
			  path, when, (long long)st.st_size, FINAL_SIZE);
		return 0;
	}
	return affs_check_content(path, &e);
}

static void volume(const struct affs_volume *v, const char *node)
{
	char root[64], path[PATH_MAX];
	struct stat st;
	unsigned int i;
	ssize_t r;
	int up, fd = -1, ok;

	up = affs_mount_case(v, node, 0, root, sizeof(root),
			     CASES_PER_VOLUME);
	if (up < 0)
		return;
	snprintf(path, sizeof(path), "%s/%s", root, FILE_NAME);

	ok = 0;
	if (up) {
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			ktap_perror(path);
		else if (pwrite(fd, source(0, HEAD), HEAD, 0) != HEAD)
			ktap_perror("pwrite of the first 1000 bytes");
		else
			ok = 1;
	}
	ktap_ok(ok, "%s: create a file of %d bytes", v->name, HEAD);

	for (i = 0; i < ARRAY_SIZE(writes); i++) {
		const struct short_write *w = &writes[i];

		ok = 0;
		if (fd >= 0) {
			errno = 0;
			r = pwrite(fd, source(w->off, w->readable), w->len,
				   w->off);
			ok = r == (ssize_t)w->readable;
			if (!ok)
				ktap_diag("%s: pwrite of %u bytes at %u, %u of "
					  "them readable, returned %zd (%s)",
					  v->name, w->len, w->off, w->readable,
					  r, r < 0 ? strerror(errno) : "bytes");
		}
		ktap_ok(ok, "%s: short copy %s: write returns the %u readable "
			"of %u bytes", v->name, w->what, w->readable, w->len);
	}

	ok = 0;
	if (fd >= 0) {
		errno = 0;
		r = pwrite(fd, src_page + page, 100, FINAL_SIZE);
		ok = r < 0 && errno == EFAULT;
		if (!ok)
			ktap_diag("%s: pwrite from an unreadable page returned "
				  "%zd (%s)", v->name, r, strerror(errno));
		if (fstat(fd, &st)) {
			ktap_perror("fstat");
			ok = 0;
		} else if (st.st_size != FINAL_SIZE) {
			ktap_diag("%s: size %lld after the writes, expected %d",
				  v->name, (long long)st.st_size, FINAL_SIZE);
			ok = 0;
		}
	}
	ktap_ok(ok, "%s: write from an unreadable source fails with EFAULT, "
		"the size is the readable bytes' end", v->name);

	ok = 0;
	if (fd >= 0) {
		ok = 1;
		if (fsync(fd))
			ok = ktap_perror("fsync") + 1;
		if (close(fd))
			ok = ktap_perror("close") + 1;
		ok = check_file(path, "after fsync") && ok;
	}
	ktap_ok(ok, "%s: the file holds exactly the bytes written", v->name);
	ktap_ok(up && affs_umount(root), "%s: umount", v->name);

	up = affs_mount(node, v, 0, root, sizeof(root));
	ktap_ok(up, "%s: mount again", v->name);
	ktap_ok(up && check_file(path, "after remount"),
		"%s: after remount the file holds exactly the bytes written",
		v->name);
	ktap_ok(up && affs_umount(root), "%s: umount, left for fsck.affs",
		v->name);
}

static void run(void)
{
	char node[AFFS_NR_VOLUMES][PATH_MAX];

	if (!make_source())
		ktap_bail("no source buffer with an unreadable page");
	affs_each_writable(node, volume);
}

const struct ktap_test ktap_test = {
	.plan = 1 + 2 * CASES_PER_VOLUME,
	.kconfig = (const char *const[]){ "CONFIG_AFFS_FS", NULL },
	.timeout = 60,
	.upstream = "patches/drivers 0104 (OFS write_end honours copied)",
	.run = run,
};
