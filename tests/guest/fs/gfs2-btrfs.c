// SPDX-License-Identifier: GPL-2.0
/*
 * gfs2-btrfs - two block filesystems on loop devices over tmpfs, their
 * images made in the guest by Debian's mkfs.gfs2 and mkfs.btrfs (the
 * profile's tool= lines, from the host's /usr).
 *
 * GFS2 (fs/gfs2/file.c) with lock_nolock, so no cluster is needed: a
 * 64 MiB image with one 8 MiB journal, mounted; then a file through the
 * file operations GFS2 gives it:
 *   - write, fsync and read back (gfs2_file_write_iter, gfs2_fsync,
 *     gfs2_file_read_iter), pread past the end is 0 bytes;
 *   - a sparse file (4 KiB at 0, 4 KiB at 1 MiB): SEEK_DATA and SEEK_HOLE
 *     (gfs2_llseek to gfs2_seek_data / gfs2_seek_hole), SEEK_END;
 *   - fallocate: KEEP_SIZE adds blocks and keeps the size, a plain one
 *     extends the size, PUNCH_HOLE frees the first block, after which
 *     SEEK_DATA from 0 lands on 1 MiB;
 *   - FS_IOC_GETFLAGS / FS_IOC_SETFLAGS (gfs2_fileattr_get/set): NOATIME
 *     set and read back; APPEND set, then an open for writing without
 *     O_APPEND is EPERM and an O_APPEND write lands at the end; cleared;
 *   - mmap of the file reads the written bytes and a hole (gfs2_mmap); a
 *     store into the hole page allocates its block (gfs2_page_mkwrite):
 *     SEEK_DATA finds it after msync;
 *   - the root lists exactly ".", "..", "rw" and "sparse" (gfs2_readdir);
 *     gfs2_ioctl: FS_IOC_GETFSLABEL is the lock table, empty without
 *     mkfs.gfs2 -t; FITRIM trims free blocks (the loop device passes
 *     discards to tmpfs as holes); an unknown ioctl is ENOTTY;
 *   - unmount, loop device cleared.
 *
 * Btrfs (fs/btrfs/super.c): /dev/btrfs-control ioctls first on devices
 * that are not btrfs: GET_SUPPORTED_FEATURES (no compat flags, the
 * free-space-tree bits among compat_ro, no-holes and skinny-metadata among
 * incompat), SCAN_DEV and DEVICES_READY of the GFS2 loop device (EINVAL:
 * no btrfs magic) and of a 128 MiB btrfs image's loop device (0: its one
 * device is all there is); FORGET_DEV of that scanned, unmounted device
 * (0, then ENOENT), scanned again; then mount (btrfs_mount, option
 * parsing with noatime and commit=45, both shown in /proc/self/mountinfo:
 * 45 s because the default 30 is not shown), statfs (BTRFS_SUPER_MAGIC,
 * 4 KiB blocks, free below total), a file written, syncfs, remount
 * read-only (a new file is EROFS), remount read-write (btrfs_remount),
 * unmount, after which FORGET_DEV is ENOENT (btrfs_close_devices frees a
 * one-device filesystem's list at unmount).
 */
#include <dirent.h>
#include <fcntl.h>
#include <linux/btrfs.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>

#include "block/loop.h"
#include "run.h"

#define MKFS_GFS2 "/usr/sbin/mkfs.gfs2"
#define MKFS_BTRFS "/usr/sbin/mkfs.btrfs"
#define GFS2_IMG "/tmp/gfs2.img"
#define BTRFS_IMG "/tmp/btrfs.img"
#define GFS2_MNT "/tmp/gfs2"
#define BTRFS_MNT "/tmp/btrfs"
#define TOOL_SECS 60
#define GFS2_MAGIC 0x01161970
#define BTRFS_SUPER_MAGIC 0x9123683E
#define MIB (1024 * 1024)
/* mkfs.btrfs refuses devices below 114294784 bytes. */
#define BTRFS_MIB 128
#define GFS2_MIB 64

static char gfs2_node[32], btrfs_node[32];
static int gfs2_loop = -1, btrfs_loop = -1;
static unsigned char buf[8192], back[8192];

static int fail(const char *what)
{
	ktap_perror(what);
	return 0;
}

/* A sparse image file of mib MiB on tmpfs. */
static int make_image(const char *path, int mib)
{
	int fd = open(path, O_CREAT | O_TRUNC | O_RDWR | O_CLOEXEC, 0644);

	if (fd < 0)
		return fail(path);
	if (ftruncate(fd, (off_t)mib * MIB)) {
		close(fd);
		return fail("ftruncate");
	}
	return !close(fd);
}

static int has_magic(const char *path, off_t off, const void *magic,
		     size_t len)
{
	unsigned char head[16];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return fail(path);
	n = pread(fd, head, len, off);
	close(fd);
	return n == (ssize_t)len && !memcmp(head, magic, len);
}

/* ---- GFS2 ---- */

static int gfs2_mkfs(void)
{
	/* The big-endian GFS2 magic at the superblock, block 16 of 4 KiB. */
	static const unsigned char magic[4] = { 0x01, 0x16, 0x19, 0x70 };
	char *argv[] = { MKFS_GFS2, "-O", "-p", "lock_nolock", "-j", "1",
			 "-J", "8", GFS2_IMG, NULL };
	int rc;

	if (!make_image(GFS2_IMG, GFS2_MIB))
		return 0;
	rc = run_diag(argv, TOOL_SECS);
	ktap_diag("mkfs.gfs2 exit %d", rc);
	return rc == 0 && has_magic(GFS2_IMG, 65536, magic, sizeof(magic));
}

static int gfs2_mount(void)
{
	struct statfs sf;

	gfs2_loop = loop_bind(GFS2_IMG, 0, gfs2_node, sizeof(gfs2_node));
	if (gfs2_loop < 0)
		return 0;
	if (mkdir(GFS2_MNT, 0755) && errno != EEXIST)
		return fail("mkdir " GFS2_MNT);
	if (mount(gfs2_node, GFS2_MNT, "gfs2", 0, NULL))
		return fail("mount -t gfs2");
	if (statfs(GFS2_MNT, &sf))
		return fail("statfs");
	ktap_diag("%s: f_type %#lx bsize %ld blocks %llu", gfs2_node,
		  (unsigned long)sf.f_type, (long)sf.f_bsize,
		  (unsigned long long)sf.f_blocks);
	return sf.f_type == GFS2_MAGIC && sf.f_bsize == 4096;
}

static void fill(unsigned char *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(i * 13 + seed);
}

/* A new file at path holding buf filled with seed: its fd, or -1. */
static int write_new(const char *path, unsigned int seed)
{
	int fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0644);

	if (fd < 0)
		return ktap_perror(path);
	fill(buf, sizeof(buf), seed);
	if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
		ktap_perror(path);
		close(fd);
		return -1;
	}
	return fd;
}

static int gfs2_rw(void)
{
	int fd = write_new(GFS2_MNT "/rw", 1);
	int ok;

	if (fd < 0)
		return 0;
	ok = !fsync(fd) && !fdatasync(fd) &&
	     pread(fd, back, sizeof(back), 0) == (ssize_t)sizeof(back) &&
	     !memcmp(buf, back, sizeof(buf)) &&
	     pread(fd, back, 16, sizeof(buf)) == 0 &&
	     lseek(fd, 0, SEEK_END) == (off_t)sizeof(buf) &&
	     lseek(fd, 100, SEEK_SET) == 100 &&
	     read(fd, back, 10) == 10 && !memcmp(back, buf + 100, 10) &&
	     lseek(fd, 0, SEEK_CUR) == 110;
	if (!ok)
		ktap_perror("gfs2 rw");
	close(fd);
	return ok;
}

static int sparse_fd = -1;

/* 4 KiB at 0 and at 1 MiB: data, hole, data. */
static int gfs2_seek(void)
{
	off_t d0, h0, d1, h1, end;

	sparse_fd = open(GFS2_MNT "/sparse", O_CREAT | O_RDWR | O_CLOEXEC,
			 0644);
	if (sparse_fd < 0)
		return fail("open " GFS2_MNT "/sparse");
	fill(buf, 4096, 2);
	if (pwrite(sparse_fd, buf, 4096, 0) != 4096 ||
	    pwrite(sparse_fd, buf, 4096, MIB) != 4096 || fsync(sparse_fd))
		return fail("pwrite sparse");
	d0 = lseek(sparse_fd, 0, SEEK_DATA);
	h0 = lseek(sparse_fd, 0, SEEK_HOLE);
	d1 = lseek(sparse_fd, 4096, SEEK_DATA);
	h1 = lseek(sparse_fd, MIB, SEEK_HOLE);
	end = lseek(sparse_fd, 0, SEEK_END);
	ktap_diag("SEEK_DATA 0 %lld, SEEK_HOLE 0 %lld, SEEK_DATA 4096 %lld, SEEK_HOLE 1M %lld, SEEK_END %lld",
		  (long long)d0, (long long)h0, (long long)d1, (long long)h1,
		  (long long)end);
	errno = 0;
	return d0 == 0 && h0 == 4096 && d1 == MIB && h1 == MIB + 4096 &&
	       end == MIB + 4096 &&
	       lseek(sparse_fd, MIB + 4096, SEEK_DATA) < 0 && errno == ENXIO;
}

static int gfs2_fallocate(void)
{
	struct stat before, kept, grown;
	off_t d;

	if (fstat(sparse_fd, &before) ||
	    fallocate(sparse_fd, FALLOC_FL_KEEP_SIZE, 2 * MIB, MIB) ||
	    fstat(sparse_fd, &kept) ||
	    fallocate(sparse_fd, 0, 4 * MIB, MIB) ||
	    fstat(sparse_fd, &grown))
		return fail("fallocate");
	if (fallocate(sparse_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      0, 4096))
		return fail("fallocate PUNCH_HOLE");
	d = lseek(sparse_fd, 0, SEEK_DATA);
	ktap_diag("blocks %lld, KEEP_SIZE %lld (size %lld), plain %lld (size %lld), SEEK_DATA 0 after punch %lld",
		  (long long)before.st_blocks, (long long)kept.st_blocks,
		  (long long)kept.st_size, (long long)grown.st_blocks,
		  (long long)grown.st_size, (long long)d);
	/* st_blocks counts 512-byte units: 1 MiB is 2048 of them. */
	return kept.st_size == before.st_size &&
	       kept.st_blocks >= before.st_blocks + 2048 &&
	       grown.st_size == 5 * MIB &&
	       grown.st_blocks >= kept.st_blocks + 2048 && d == MIB;
}

static int gfs2_flags(void)
{
	int fd = open(GFS2_MNT "/rw", O_RDONLY | O_CLOEXEC), w, flags = 0;
	int set, ok = 0;
	struct stat st;

	if (fd < 0)
		return fail("open " GFS2_MNT "/rw");
	set = FS_NOATIME_FL;
	if (ioctl(fd, FS_IOC_SETFLAGS, &set) ||
	    ioctl(fd, FS_IOC_GETFLAGS, &flags) || flags != FS_NOATIME_FL) {
		ktap_diag("NOATIME: flags %#x", flags);
		goto out;
	}
	set = FS_APPEND_FL;
	if (ioctl(fd, FS_IOC_SETFLAGS, &set) ||
	    ioctl(fd, FS_IOC_GETFLAGS, &flags) || flags != FS_APPEND_FL) {
		ktap_diag("APPEND: flags %#x", flags);
		goto out;
	}
	errno = 0;
	w = open(GFS2_MNT "/rw", O_WRONLY | O_CLOEXEC);
	if (w >= 0 || errno != EPERM) {
		ktap_diag("open for writing an append-only file: %s",
			  w >= 0 ? "opened" : strerror(errno));
		if (w >= 0)
			close(w);
		goto out;
	}
	w = open(GFS2_MNT "/rw", O_WRONLY | O_APPEND | O_CLOEXEC);
	if (w < 0 || write(w, "tail", 4) != 4 || close(w) || stat(GFS2_MNT "/rw", &st) ||
	    st.st_size != (off_t)sizeof(buf) + 4) {
		ktap_perror("append");
		goto out;
	}
	set = 0;
	ok = !ioctl(fd, FS_IOC_SETFLAGS, &set) &&
	     !ioctl(fd, FS_IOC_GETFLAGS, &flags) && flags == 0;
out:
	close(fd);
	return ok;
}

static int gfs2_mmap(void)
{
	unsigned char *p, b[4];
	int ok;
	off_t d;

	fill(buf, 4096, 2);
	p = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
		 sparse_fd, MIB - 4096);
	if (p == MAP_FAILED)
		return fail("mmap");
	/* The page before 1 MiB is a hole (zeros), the next is data. */
	ok = p[0] == 0 && p[4095] == 0 && !memcmp(p + 4096, buf, 4096);
	/* A store into the hole allocates its block (gfs2_page_mkwrite). */
	memcpy(p + 100, "mkwr", 4);
	ok = !msync(p, 2 * 4096, MS_SYNC) && ok;
	munmap(p, 2 * 4096);
	d = lseek(sparse_fd, MIB - 8192, SEEK_DATA);
	ktap_diag("after the store SEEK_DATA %d is %lld", MIB - 8192,
		  (long long)d);
	return ok && d == MIB - 4096 &&
	       pread(sparse_fd, b, 4, MIB - 4096 + 100) == 4 &&
	       !memcmp(b, "mkwr", 4);
}

/* The root's entries, its label ioctl, FITRIM and an unknown ioctl. */
static int gfs2_dir_ioctl(void)
{
	static const char *const names[] = { ".", "..", "rw", "sparse", NULL };
	char label[FSLABEL_MAX + 1] = "x";
	struct fstrim_range range = { .start = 0, .len = ~0ULL, .minlen = 0 };
	const char *const *n;
	struct dirent *e;
	unsigned int seen = 0, others = 0;
	int fd, ok, trim, unknown;
	DIR *d = opendir(GFS2_MNT);

	if (!d)
		return fail(GFS2_MNT);
	while ((e = readdir(d))) {
		unsigned int i, known = 0;

		for (i = 0, n = names; *n; n++, i++)
			if (!strcmp(e->d_name, *n)) {
				seen |= 1u << i;
				known = 1;
			}
		others += !known;
	}
	closedir(d);
	fd = open(GFS2_MNT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fail(GFS2_MNT);
	/* mkfs.gfs2 without -t: an empty lock table, the label. */
	ok = !ioctl(fd, FS_IOC_GETFSLABEL, label) && label[0] == '\0';
	trim = ioctl(fd, FITRIM, &range);
	if (trim)
		ktap_perror("FITRIM");
	errno = 0;
	unknown = ioctl(fd, _IO('x', 0x7f), 0);
	ok = ok && unknown == -1 && errno == ENOTTY;
	close(fd);
	ktap_diag("entries %#x (+%u others), label \"%s\", FITRIM %d (%llu bytes)",
		  seen, others, label, trim, (unsigned long long)range.len);
	return ok && seen == 0xf && !others && trim == 0 && range.len > 0;
}

static int gfs2_umount(void)
{
	if (sparse_fd >= 0)
		close(sparse_fd);
	sparse_fd = -1;
	if (umount(GFS2_MNT))
		return fail("umount " GFS2_MNT);
	return gfs2_loop >= 0 && loop_clear(gfs2_loop, gfs2_node);
}

/* ---- btrfs ---- */

static int btrfs_mkfs(void)
{
	char *argv[] = { MKFS_BTRFS, "-q", "-f", BTRFS_IMG, NULL };
	int rc;

	if (!make_image(BTRFS_IMG, BTRFS_MIB))
		return 0;
	rc = run_diag(argv, TOOL_SECS);
	ktap_diag("mkfs.btrfs exit %d", rc);
	/* "_BHRfS_M" at 64 KiB + 0x40. */
	return rc == 0 && has_magic(BTRFS_IMG, 65536 + 0x40, "_BHRfS_M", 8);
}

/* The control device's ioctls all copy a whole btrfs_ioctl_vol_args in. */
static union {
	struct btrfs_ioctl_vol_args vol;
	struct btrfs_ioctl_feature_flags features[3];
} ctl_arg;

static int control_ioctl(unsigned long cmd, const char *name)
{
	int fd = open("/dev/btrfs-control", O_RDWR | O_CLOEXEC), ret, err;

	if (fd < 0)
		return fail("/dev/btrfs-control");
	memset(&ctl_arg, 0, sizeof(ctl_arg));
	if (name)
		snprintf(ctl_arg.vol.name, sizeof(ctl_arg.vol.name), "%s", name);
	ret = ioctl(fd, cmd, &ctl_arg);
	err = errno;
	close(fd);
	errno = err;
	return ret;
}

static int btrfs_features(void)
{
	struct btrfs_ioctl_feature_flags *f = ctl_arg.features;
	const unsigned long long ro = BTRFS_FEATURE_COMPAT_RO_FREE_SPACE_TREE |
				      BTRFS_FEATURE_COMPAT_RO_FREE_SPACE_TREE_VALID;
	const unsigned long long in = BTRFS_FEATURE_INCOMPAT_NO_HOLES |
				      BTRFS_FEATURE_INCOMPAT_SKINNY_METADATA |
				      BTRFS_FEATURE_INCOMPAT_EXTENDED_IREF |
				      BTRFS_FEATURE_INCOMPAT_MIXED_BACKREF;

	if (control_ioctl(BTRFS_IOC_GET_SUPPORTED_FEATURES, NULL))
		return fail("BTRFS_IOC_GET_SUPPORTED_FEATURES");
	ktap_diag("supported: compat %#llx compat_ro %#llx incompat %#llx",
		  (unsigned long long)f[0].compat_flags,
		  (unsigned long long)f[0].compat_ro_flags,
		  (unsigned long long)f[0].incompat_flags);
	return f[0].compat_flags == 0 && (f[0].compat_ro_flags & ro) == ro &&
	       (f[0].incompat_flags & in) == in;
}

static int btrfs_not_btrfs(void)
{
	int scan, ready, scan_err, ready_err;

	/* The GFS2 image's loop device is still bound: no btrfs magic. */
	gfs2_loop = loop_bind(GFS2_IMG, 1, gfs2_node, sizeof(gfs2_node));
	if (gfs2_loop < 0)
		return 0;
	scan = control_ioctl(BTRFS_IOC_SCAN_DEV, gfs2_node);
	scan_err = errno;
	ready = control_ioctl(BTRFS_IOC_DEVICES_READY, gfs2_node);
	ready_err = errno;
	ktap_diag("%s (gfs2): SCAN_DEV %d (%s), DEVICES_READY %d (%s)",
		  gfs2_node, scan, strerror(scan_err), ready,
		  strerror(ready_err));
	if (!loop_clear(gfs2_loop, gfs2_node))
		return 0;
	return scan < 0 && scan_err == EINVAL && ready < 0 &&
	       ready_err == EINVAL;
}

static int btrfs_scan(void)
{
	int scan, ready;

	btrfs_loop = loop_bind(BTRFS_IMG, 0, btrfs_node, sizeof(btrfs_node));
	if (btrfs_loop < 0)
		return 0;
	scan = control_ioctl(BTRFS_IOC_SCAN_DEV, btrfs_node);
	if (scan)
		ktap_perror("BTRFS_IOC_SCAN_DEV");
	ready = control_ioctl(BTRFS_IOC_DEVICES_READY, btrfs_node);
	if (ready < 0)
		ktap_perror("BTRFS_IOC_DEVICES_READY");
	ktap_diag("%s: SCAN_DEV %d, DEVICES_READY %d", btrfs_node, scan,
		  ready);
	return scan == 0 && ready == 0;
}

/* A scanned device that no mount holds is forgotten once, then ENOENT. */
static int btrfs_forget(void)
{
	int first, again, again_err, rescan;

	first = control_ioctl(BTRFS_IOC_FORGET_DEV, btrfs_node);
	if (first)
		ktap_perror("BTRFS_IOC_FORGET_DEV");
	again = control_ioctl(BTRFS_IOC_FORGET_DEV, btrfs_node);
	again_err = errno;
	rescan = control_ioctl(BTRFS_IOC_SCAN_DEV, btrfs_node);
	ktap_diag("FORGET_DEV %d, again %d (%s), SCAN_DEV %d", first, again,
		  strerror(again_err), rescan);
	return first == 0 && again == -1 && again_err == ENOENT && rescan == 0;
}

/* The mount's line of /proc/self/mountinfo has every word of want. */
static int mountinfo_has(const char *mnt, const char *const *want)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[1024];
	int found = 0;

	if (!f)
		return fail("/proc/self/mountinfo");
	while (!found && fgets(line, sizeof(line), f)) {
		const char *const *w;
		char field[256];

		if (sscanf(line, "%*s %*s %*s %*s %255s", field) != 1 ||
		    strcmp(field, mnt))
			continue;
		found = 1;
		for (w = want; *w; w++)
			if (!strstr(line, *w)) {
				ktap_diag("no %s in %.*s", *w,
					  (int)strcspn(line, "\n"), line);
				found = 0;
			}
	}
	fclose(f);
	return found;
}

static int btrfs_mount(void)
{
	static const char *const want[] = { "noatime", "commit=45",
					    " - btrfs ", NULL };
	struct statfs sf;

	if (mkdir(BTRFS_MNT, 0755) && errno != EEXIST)
		return fail("mkdir " BTRFS_MNT);
	if (mount(btrfs_node, BTRFS_MNT, "btrfs", MS_NOATIME, "commit=45"))
		return fail("mount -t btrfs");
	if (statfs(BTRFS_MNT, &sf))
		return fail("statfs");
	ktap_diag("%s: f_type %#lx bsize %ld blocks %llu bfree %llu",
		  btrfs_node, (unsigned long)sf.f_type, (long)sf.f_bsize,
		  (unsigned long long)sf.f_blocks,
		  (unsigned long long)sf.f_bfree);
	return sf.f_type == BTRFS_SUPER_MAGIC && sf.f_bsize == 4096 &&
	       sf.f_bfree > 0 && sf.f_bfree < sf.f_blocks &&
	       mountinfo_has(BTRFS_MNT, want);
}

static int btrfs_write_sync(void)
{
	int fd = write_new(BTRFS_MNT "/f", 3);
	int ok;

	if (fd < 0)
		return 0;
	ok = !syncfs(fd) &&
	     pread(fd, back, sizeof(back), 0) == (ssize_t)sizeof(back) &&
	     !memcmp(buf, back, sizeof(buf));
	if (!ok)
		ktap_perror("btrfs write, syncfs, read");
	close(fd);
	return ok;
}

static int btrfs_remount(void)
{
	static const char *const ro[] = { " ro,", NULL };
	static const char *const rw[] = { " rw,", "commit=45", NULL };
	int fd;

	if (mount(NULL, BTRFS_MNT, NULL, MS_REMOUNT | MS_RDONLY | MS_NOATIME,
		  "commit=45"))
		return fail("remount ro");
	if (!mountinfo_has(BTRFS_MNT, ro))
		return 0;
	errno = 0;
	fd = open(BTRFS_MNT "/g", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd >= 0 || errno != EROFS) {
		ktap_diag("create on a read-only btrfs: %s",
			  fd >= 0 ? "created" : strerror(errno));
		if (fd >= 0)
			close(fd);
		return 0;
	}
	if (mount(NULL, BTRFS_MNT, NULL, MS_REMOUNT | MS_NOATIME, "commit=45"))
		return fail("remount rw");
	fd = open(BTRFS_MNT "/g", O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return fail("create after remount rw");
	close(fd);
	return mountinfo_has(BTRFS_MNT, rw);
}

static int btrfs_umount(void)
{
	if (umount(BTRFS_MNT))
		return fail("umount " BTRFS_MNT);
	/*
	 * The unmount frees a one-device filesystem's device list
	 * (btrfs_close_devices): nothing is left to forget.
	 */
	errno = 0;
	if (control_ioctl(BTRFS_IOC_FORGET_DEV, btrfs_node) != -1 ||
	    errno != ENOENT)
		return fail("BTRFS_IOC_FORGET_DEV after the unmount");
	return loop_clear(btrfs_loop, btrfs_node);
}

static const struct ktap_case cases[] = {
	{ "gfs2: mkfs.gfs2 -p lock_nolock makes a 64 MiB image", gfs2_mkfs },
	{ "gfs2: the loop device mounts (GFS2_MAGIC, 4 KiB blocks)", gfs2_mount },
	{ "gfs2: write, fsync, read back, lseek SET/CUR/END", gfs2_rw },
	{ "gfs2: SEEK_DATA and SEEK_HOLE of a sparse file", gfs2_seek },
	{ "gfs2: fallocate KEEP_SIZE, plain, PUNCH_HOLE", gfs2_fallocate },
	{ "gfs2: FS_IOC_SETFLAGS NOATIME and APPEND, GETFLAGS", gfs2_flags },
	{ "gfs2: mmap reads a hole and data, a store fills the hole", gfs2_mmap },
	{ "gfs2: readdir, FS_IOC_GETFSLABEL, FITRIM, unknown ioctl ENOTTY", gfs2_dir_ioctl },
	{ "gfs2: unmount, loop device cleared", gfs2_umount },
	{ "btrfs: mkfs.btrfs makes a 128 MiB image", btrfs_mkfs },
	{ "btrfs: btrfs-control GET_SUPPORTED_FEATURES", btrfs_features },
	{ "btrfs: SCAN_DEV and DEVICES_READY of a gfs2 device are EINVAL", btrfs_not_btrfs },
	{ "btrfs: SCAN_DEV and DEVICES_READY of the btrfs device", btrfs_scan },
	{ "btrfs: FORGET_DEV of the unmounted device, again ENOENT, rescan", btrfs_forget },
	{ "btrfs: mount noatime commit=45, statfs, mountinfo", btrfs_mount },
	{ "btrfs: write, syncfs, read back", btrfs_write_sync },
	{ "btrfs: remount read-only (EROFS) and read-write", btrfs_remount },
	{ "btrfs: unmount, FORGET_DEV ENOENT (freed at unmount), loop cleared", btrfs_umount },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ "/dev/loop-control",
					  "/dev/btrfs-control", NULL },
	.kconfig = (const char *const[]){ "CONFIG_GFS2_FS", "CONFIG_BTRFS_FS",
					  "CONFIG_BLK_DEV_LOOP", NULL },
	.timeout = 60,
	.cases = cases,
};
