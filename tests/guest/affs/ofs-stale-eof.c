// SPDX-License-Identifier: GPL-2.0
/*
 * ofs-stale-eof - an OFS file's bytes past its end read as zeros, never
 * as what a deleted file left in the blocks, on the affs profile's OFS
 * volume (volume.h: OFS international on usb-storage), after
 * affs/ofs-write-end.
 *
 * fs/affs's OFS write_begin fills a page the page cache does not hold by
 * reading the whole page with create set: every block the page covers
 * past the end of the file is allocated and read from the disk, so the
 * page gets the old bytes of free blocks past i_size, and write_end marks
 * it uptodate. The page then shows them: through mmap (bytes past i_size
 * in the last page must read zero), and as file content once the file
 * grows over them without a write there (a hole, ftruncate up), while
 * affs_extent_file_ofs() zeroes only the blocks on the disk. ftruncate up
 * to a page boundary also reads the next page so and counts its blocks as
 * written: the next extension leaves their old bytes in the file on the
 * disk, where a remount reads them back.
 *
 * Each step a case:
 *   - mount read-write;
 *   - the marker: a file of MARKER_BLOCKS data blocks of MARKER bytes in
 *     a fresh directory, fsync, unlink, sync, drop_caches; the device must
 *     then hold MARKER_BLOCKS more blocks of the marker than before: free
 *     blocks with old bytes, the next ones a file there allocates after
 *     those the sync freed (the directory's and the root's preallocated
 *     blocks, with the bytes of files earlier tests deleted);
 *   - hole: 100 bytes at 0 (write_begin reads a fresh page), 1 byte at
 *     4000: bytes 100 to 3999 read zero;
 *   - truncate: 100 bytes at 0, ftruncate to 4096: bytes 100 to 4095 read
 *     zero; ftruncate to 8192: bytes 4096 to 8191 read zero;
 *   - mmap: 100 bytes at 0, the page mapped: bytes 100 to 4095 read zero;
 *   - umount, mount again (the page cache is gone), each file read from
 *     the disk, the mmap one mapped again; umount: the files are left for
 *     the host's fsck.affs (hostcheck= of the profile).
 * A failing case prints how many of the bytes are the marker.
 */
#include <sys/mman.h>

#include "affs/volume.h"

#define BSIZE 512
#define OFS_HEAD 24
#define OFS_DATA (BSIZE - OFS_HEAD)
#define PAGE 4096

#define MARKER 0xa5
#define MARKER_BLOCKS 128
#define DIR_NAME "stale-eof"
#define HEAD 100
#define HOLE_BYTE 4000
#define HOLE_VALUE 0x5a
#define SEED 209

static unsigned char buf[2 * PAGE], want[2 * PAGE];

/* Blocks of the device whose OFS data area is all MARKER bytes. */
static long marker_blocks(const char *node)
{
	unsigned char b[BSIZE];
	long n = 0;
	int dev = open(node, O_RDONLY), i;
	ssize_t r;

	if (dev < 0)
		return ktap_perror(node);
	while ((r = read(dev, b, BSIZE)) == BSIZE) {
		for (i = OFS_HEAD; i < BSIZE && b[i] == MARKER; i++)
			;
		n += i == BSIZE;
	}
	if (r)
		n = ktap_perror("read of the device");
	close(dev);
	return n;
}

static int drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY), ok = 1;

	if (fd < 0 || write(fd, "3", 1) != 1)
		ok = ktap_perror("/proc/sys/vm/drop_caches") + 1;
	if (fd >= 0)
		close(fd);
	return ok;
}

/*
 * The marker file in dir: written, fsync, unlink, sync, caches dropped;
 * the device must hold MARKER_BLOCKS more marker blocks than before.
 */
static int leave_marker(const char *dir, const char *node)
{
	static unsigned char m[MARKER_BLOCKS * OFS_DATA];
	char path[PATH_MAX];
	long before, after;
	int fd, ok;

	before = marker_blocks(node);
	snprintf(path, sizeof(path), "%.200s/marker.bin", dir);
	memset(m, MARKER, sizeof(m));
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return ktap_perror(path) + 1;
	ok = pwrite(fd, m, sizeof(m), 0) == (ssize_t)sizeof(m);
	if (!ok)
		ktap_perror("pwrite of the marker");
	if (ok && fsync(fd))
		ok = ktap_perror("fsync of the marker") + 1;
	close(fd);
	if (ok && unlink(path))
		ok = ktap_perror("unlink of the marker") + 1;
	sync();
	after = marker_blocks(node);
	if (ok && (before < 0 || after < before + MARKER_BLOCKS)) {
		ktap_diag("%ld marker blocks on the device before, %ld after; "
			  "expected %d more", before, after, MARKER_BLOCKS);
		ok = 0;
	}
	return drop_caches() && ok;
}

/* 1 when got[from, to) equals want[from, to); else says what differs. */
static int same(const char *what, const unsigned char *got,
		unsigned int from, unsigned int to)
{
	unsigned int i, bad = 0, marker = 0, first = 0;

	for (i = from; i < to; i++)
		if (got[i] != want[i]) {
			if (!bad++)
				first = i;
			marker += got[i] == MARKER;
		}
	if (bad)
		ktap_diag("%s: %u of bytes %u..%u wrong, first at %u (0x%02x, "
			  "expected 0x%02x); %u of them the deleted file's "
			  "marker 0x%02x", what, bad, from, to - 1, first,
			  got[first], want[first], marker, MARKER);
	return !bad;
}

/* want[]: the seeded head, zeros, with hole the byte at HOLE_BYTE. */
static void expect(int hole)
{
	memset(want, 0, sizeof(want));
	affs_tree_fill(want, 0, HEAD, SEED);
	if (hole)
		want[HOLE_BYTE] = HOLE_VALUE;
}

/* read(2) of the whole file: its size must be size, [from, to) as want. */
static int read_back(const char *path, unsigned int size, unsigned int from,
		     unsigned int to)
{
	struct stat st = { 0 };
	ssize_t n;
	int fd = open(path, O_RDONLY), ok;

	if (fd < 0)
		return ktap_perror(path) + 1;
	memset(buf, 0xff, sizeof(buf));
	n = pread(fd, buf, sizeof(buf), 0);
	ok = !fstat(fd, &st) && n == (ssize_t)size && st.st_size == size;
	if (!ok)
		ktap_diag("%s: read %zd bytes, size %lld, expected %u", path,
			  n, (long long)st.st_size, size);
	close(fd);
	return ok && same(path, buf, from, to);
}

/* The file's first page mapped: [from, to) as want, past EOF included. */
static int map_back(int fd, const char *what, unsigned int from,
		    unsigned int to)
{
	unsigned char *m = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	int ok;

	if (m == MAP_FAILED)
		return ktap_perror("mmap") + 1;
	ok = same(what, m, from, to);
	munmap(m, PAGE);
	return ok;
}

/* A new file of HEAD seeded bytes; its descriptor, or -1. */
static int create_head(const char *path)
{
	unsigned char head[HEAD];
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	if (fd < 0)
		return ktap_perror(path);
	affs_tree_fill(head, 0, HEAD, SEED);
	if (pwrite(fd, head, HEAD, 0) != HEAD) {
		ktap_perror("pwrite of the head");
		close(fd);
		return -1;
	}
	return fd;
}

static int finish(int fd, int ok)
{
	if (fd < 0)
		return 0;
	if (fsync(fd))
		ok = ktap_perror("fsync") + 1;
	if (close(fd))
		ok = ktap_perror("close") + 1;
	return ok;
}

static int hole(const char *dir)
{
	char path[PATH_MAX];
	unsigned char c = HOLE_VALUE;
	int fd, ok;

	snprintf(path, sizeof(path), "%.200s/hole.bin", dir);
	fd = create_head(path);
	if (fd < 0)
		return 0;
	ok = pwrite(fd, &c, 1, HOLE_BYTE) == 1;
	if (!ok)
		ktap_perror("pwrite at 4000");
	expect(1);
	ok = ok && read_back(path, HOLE_BYTE + 1, 0, HOLE_BYTE + 1);
	return finish(fd, ok);
}

static int trunc_fd = -1;

static int truncate_page(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%.200s/truncate.bin", dir);
	trunc_fd = create_head(path);
	if (trunc_fd < 0)
		return 0;
	if (ftruncate(trunc_fd, PAGE))
		return ktap_perror("ftruncate to 4096") + 1;
	expect(0);
	return read_back(path, PAGE, 0, PAGE);
}

/* The same file further: ftruncate reads the page after the first one. */
static int truncate_again(const char *dir)
{
	char path[PATH_MAX];
	int ok;

	if (trunc_fd < 0)
		return 0;
	snprintf(path, sizeof(path), "%.200s/truncate.bin", dir);
	ok = !ftruncate(trunc_fd, 2 * PAGE);
	if (!ok)
		ktap_perror("ftruncate to 8192");
	expect(0);
	ok = ok && read_back(path, 2 * PAGE, PAGE, 2 * PAGE);
	ok = finish(trunc_fd, ok);
	trunc_fd = -1;
	return ok;
}

static int mapped(const char *dir)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%.200s/mmap.bin", dir);
	fd = create_head(path);
	if (fd < 0)
		return 0;
	expect(0);
	return finish(fd, map_back(fd, path, 0, PAGE));
}

/* After the remount, from the disk: hole.bin by read(2). */
static int hole_from_disk(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%.200s/hole.bin", dir);
	expect(1);
	return read_back(path, HOLE_BYTE + 1, 0, HOLE_BYTE + 1);
}

static int truncate_from_disk(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%.200s/truncate.bin", dir);
	expect(0);
	return read_back(path, 2 * PAGE, 0, 2 * PAGE);
}

/* mmap.bin by read(2), then its page mapped (read_folio this time). */
static int mapped_from_disk(const char *dir)
{
	char path[PATH_MAX];
	int ok, fd;

	snprintf(path, sizeof(path), "%.200s/mmap.bin", dir);
	expect(0);
	ok = read_back(path, HEAD, 0, HEAD);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return ktap_perror(path) + 1;
	ok = map_back(fd, path, 0, PAGE) && ok;
	close(fd);
	return ok;
}

static void run(void)
{
	char dev_node[PATH_MAX], root[64], dir[PATH_MAX];
	const struct affs_volume *v;
	int up;

	up = affs_mount_named("ofs-intl", &v, dev_node, root, sizeof(root));
	snprintf(dir, sizeof(dir), "%.64s/%s", root, DIR_NAME);
	if (up && mkdir(dir, 0755))
		up = ktap_perror(dir) + 1;
	ktap_ok(up && leave_marker(dir, dev_node), "ofs-intl: a deleted "
		"file's %d data blocks keep its marker bytes on the device",
		MARKER_BLOCKS);
	ktap_ok(up && hole(dir), "ofs-intl: hole: 100 bytes at 0, 1 at 4000: "
		"bytes 100..3999 read zero");
	ktap_ok(up && truncate_page(dir), "ofs-intl: truncate: 100 bytes at "
		"0, ftruncate to 4096: bytes 100..4095 read zero");
	ktap_ok(up && truncate_again(dir), "ofs-intl: truncate: then "
		"ftruncate to 8192: bytes 4096..8191 read zero");
	ktap_ok(up && mapped(dir), "ofs-intl: mmap: 100 bytes at 0: bytes "
		"100..4095 of the mapped page read zero");
	ktap_ok(up && affs_umount(root), "ofs-intl: umount");
	up = up && affs_mount(dev_node, v, 0, root, sizeof(root));
	ktap_ok(up, "ofs-intl: mount again");
	ktap_ok(up && hole_from_disk(dir), "ofs-intl: after remount: hole: "
		"bytes 100..3999 read zero");
	ktap_ok(up && truncate_from_disk(dir), "ofs-intl: after remount: "
		"truncate: bytes 100..8191 read zero");
	ktap_ok(up && mapped_from_disk(dir), "ofs-intl: after remount: mmap: "
		"bytes 100..4095 of the mapped page read zero");
	ktap_ok(up && affs_umount(root), "ofs-intl: umount, left for "
		"fsck.affs");
}

const struct ktap_test ktap_test = {
	.plan = 1 + 1 + 1 + 4 + 1 + 1 + 3 + 1,
	.kconfig = (const char *const[]){ "CONFIG_AFFS_FS", NULL },
	.timeout = 60,
	.upstream = "patches/drivers 0102 (no blocks allocated and read "
		    "past the end of the file in OFS write_begin)",
	.run = run,
};
