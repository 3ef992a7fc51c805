// SPDX-License-Identifier: GPL-2.0
/*
 * romfs-squashfs - two read-only filesystems (fs/romfs, fs/squashfs) on
 * images made in the guest by Debian's genromfs and mksquashfs (the
 * profile's tool= lines, run from the host's /usr), each on a loop device.
 *
 * A small tree is made in /tmp: files of known content (empty, a few
 * bytes, 10000 bytes, 300000 bytes: more than two squashfs blocks of
 * 128 KiB and a fragment), a subdirectory and a symbolic link into it.
 * Then, for each filesystem:
 *
 *   - the tool makes an image of the tree (bounded, its output shown when
 *     it fails) that starts with the filesystem's magic ("-rom1fs-",
 *     "hsqs");
 *   - the image is bound read-only to a free loop device with
 *     LOOP_CONFIGURE (block/loop.h), whose size is then the image's (BLKGETSIZE64);
 *   - the device mounts read-only (statfs: ROMFS_MAGIC, SQUASHFS_MAGIC);
 *   - every file reads back with its content, and stat gives its size;
 *   - getdents64 of the root and of the subdirectory gives exactly the
 *     tree's names, "." and ".." included;
 *   - a directory keeps generic_file_llseek (romfs_dir_operations,
 *     squashfs_dir_ops), which the llseek series must not change: after
 *     SEEK_SET 0 the same entries come again in the same order, and after
 *     SEEK_SET to the first entry's d_off the listing goes on from the
 *     second;
 *   - readlink gives the link's target and a read through the link the
 *     target's content;
 *   - writing is EROFS (an open for writing, a mkdir);
 *   - the filesystem unmounts and the loop device is cleared
 *     (LOOP_CLR_FD; LOOP_GET_STATUS64 is ENXIO after it).
 *
 * mksquashfs compresses with gzip, which the kernel reads only with
 * CONFIG_SQUASHFS_ZLIB; without it the compressor is the first other one
 * the kernel has (zstd, xz, lzo, lz4), and with none the image cannot be
 * mounted at all: that case fails naming the options.
 */
#include <dirent.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/vfs.h>

#include "block/loop.h"
#include "run.h"

#define TREE "/tmp/rs-tree"
#define GENROMFS "/usr/bin/genromfs"
#define MKSQUASHFS "/usr/bin/mksquashfs"
#define TOOL_SECS 30
#define ROMFS_MAGIC 0x7275
#define SQUASHFS_MAGIC 0x73717368

static const struct tfile {
	const char *path;
	size_t size;
	unsigned int seed;
} files[] = {
	{ "hello.txt", 26, 1 },
	{ "big.bin", 300000, 2 },
	{ "sub/data.bin", 10000, 3 },
	{ "sub/empty", 0, 4 },
};

#define LINK "link"
#define LINK_TARGET "sub/data.bin"

static const char *const root_names[] = {
	".", "..", "big.bin", "hello.txt", "link", "sub", NULL,
};
static const char *const sub_names[] = { ".", "..", "data.bin", "empty", NULL };

static unsigned char content(const struct tfile *f, size_t i)
{
	return (unsigned char)(i * 31 + f->seed * 7 + (i >> 9));
}

static const struct fs {
	const char *name;	/* the filesystem type */
	const char *image;
	const char *magic;	/* at offset 0 of the image */
	unsigned long statfs_magic;
} fss[] = {
	{ "romfs", "/tmp/r.img", "-rom1fs-", ROMFS_MAGIC },
	{ "squashfs", "/tmp/s.img", "hsqs", SQUASHFS_MAGIC },
};

/* What one filesystem's cases share. */
struct state {
	const struct fs *fs;
	char node[32];		/* /dev/loopN */
	char mnt[64];
	int loop_fd;
	int mounted;
};

static unsigned char buf[1 << 19];

static int fail(const char *what)
{
	ktap_perror(what);
	return 0;
}

static int write_file(const struct tfile *f)
{
	char path[256];
	size_t i;
	int fd;

	snprintf(path, sizeof(path), TREE "/%s", f->path);
	for (i = 0; i < f->size; i++)
		buf[i] = content(f, i);
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return fail(path);
	if (write(fd, buf, f->size) != (ssize_t)f->size) {
		close(fd);
		return fail(path);
	}
	return !close(fd);
}

static int make_tree(void)
{
	size_t i;

	if ((mkdir(TREE, 0755) && errno != EEXIST) ||
	    (mkdir(TREE "/sub", 0755) && errno != EEXIST))
		return fail("mkdir " TREE);
	for (i = 0; i < ARRAY_SIZE(files); i++)
		if (!write_file(&files[i]))
			return 0;
	unlink(TREE "/" LINK);
	if (symlink(LINK_TARGET, TREE "/" LINK))
		return fail("symlink");
	return 1;
}

/* The -comp argument of mksquashfs the kernel can read, or NULL. */
static const char *squashfs_comp(void)
{
	static const struct {
		const char *option, *comp;
	} comps[] = {
		{ "CONFIG_SQUASHFS_ZLIB", "gzip" },
		{ "CONFIG_SQUASHFS_ZSTD", "zstd" },
		{ "CONFIG_SQUASHFS_XZ", "xz" },
		{ "CONFIG_SQUASHFS_LZO", "lzo" },
		{ "CONFIG_SQUASHFS_LZ4", "lz4" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(comps); i++)
		if (ktap_kconfig_set(comps[i].option))
			return comps[i].comp;
	return NULL;
}

static int make_image(struct state *s)
{
	char head[16];
	const char *comp = "gzip";
	int fd, rc;
	ssize_t n;

	unlink(s->fs->image);
	if (!strcmp(s->fs->name, "romfs")) {
		char *argv[] = { GENROMFS, "-f", (char *)s->fs->image, "-d",
				 TREE, "-V", "bklfree", NULL };

		rc = run_diag(argv, TOOL_SECS);
	} else {
		char *argv[] = { MKSQUASHFS, TREE, (char *)s->fs->image,
				 "-noappend", "-no-progress", "-processors",
				 "1", "-comp", NULL, NULL };

		comp = squashfs_comp();
		if (!comp) {
			ktap_diag("no CONFIG_SQUASHFS_{ZLIB,ZSTD,XZ,LZO,LZ4}: squashfs reads no image");
			return 0;
		}
		argv[8] = (char *)comp;
		rc = run_diag(argv, TOOL_SECS);
	}
	fd = open(s->fs->image, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return fail(s->fs->image);
	n = read(fd, head, sizeof(head));
	close(fd);
	ktap_diag("%s: %s exit %d%s%s", s->fs->image, s->fs->name, rc,
		  strcmp(s->fs->name, "squashfs") ? "" : ", -comp ",
		  strcmp(s->fs->name, "squashfs") ? "" : comp);
	return rc == 0 && n == sizeof(head) &&
	       !memcmp(head, s->fs->magic, strlen(s->fs->magic));
}

static int attach(struct state *s)
{
	unsigned long long bytes = 0;
	struct stat st;

	if (stat(s->fs->image, &st))
		return fail(s->fs->image);
	s->loop_fd = loop_bind(s->fs->image, 1, s->node, sizeof(s->node));
	if (s->loop_fd < 0)
		return 0;
	ioctl(s->loop_fd, BLKGETSIZE64, &bytes);
	ktap_diag("%s over %s, %lld bytes, device %llu bytes", s->node,
		  s->fs->image, (long long)st.st_size, bytes);
	return bytes == ((unsigned long long)st.st_size & ~511ULL);
}

static int do_mount(struct state *s)
{
	struct statfs sf;

	snprintf(s->mnt, sizeof(s->mnt), "/tmp/mnt-%s", s->fs->name);
	if (mkdir(s->mnt, 0755) && errno != EEXIST)
		return fail(s->mnt);
	if (s->loop_fd < 0)
		return 0;
	if (mount(s->node, s->mnt, s->fs->name, MS_RDONLY, NULL))
		return fail("mount");
	s->mounted = 1;
	if (statfs(s->mnt, &sf))
		return fail("statfs");
	return (unsigned long)sf.f_type == s->fs->statfs_magic &&
	       (sf.f_flags & ST_RDONLY);
}

/* Reads f on mount s: its content and its size. */
static int check_file(const char *mnt, const struct tfile *f,
		      const char *via)
{
	char path[256];
	struct stat st;
	size_t done = 0, i;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", mnt, via ? via : f->path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		if (fd >= 0)
			close(fd);
		return fail(path);
	}
	while ((n = read(fd, buf + done, sizeof(buf) - done)) > 0)
		done += n;
	close(fd);
	if (n < 0)
		return fail(path);
	if (done != f->size || (size_t)st.st_size != f->size) {
		ktap_diag("%s: read %zu bytes, stat %lld, want %zu", path,
			  done, (long long)st.st_size, f->size);
		return 0;
	}
	for (i = 0; i < done; i++)
		if (buf[i] != content(f, i)) {
			ktap_diag("%s: byte %zu is %#x, not %#x", path, i,
				  buf[i], content(f, i));
			return 0;
		}
	return 1;
}

static int read_files(struct state *s)
{
	size_t i;

	if (!s->mounted)
		return 0;
	for (i = 0; i < ARRAY_SIZE(files); i++)
		if (!check_file(s->mnt, &files[i], NULL))
			return 0;
	return 1;
}

/* One directory listing: names in order, and each entry's d_off. */
struct listing {
	unsigned int n;
	char names[16][64];
	long long offs[16];
};

static int list_fd(int fd, struct listing *l)
{
	char dbuf[4096] __attribute__((aligned(8)));
	long n;

	l->n = 0;
	while ((n = syscall(SYS_getdents64, fd, dbuf, sizeof(dbuf))) > 0) {
		long pos = 0;

		while (pos < n) {
			struct dirent64 *d = (void *)(dbuf + pos);

			if (l->n == ARRAY_SIZE(l->names))
				return 0;
			snprintf(l->names[l->n], sizeof(l->names[0]), "%.63s",
				 d->d_name);
			l->offs[l->n++] = d->d_off;
			pos += d->d_reclen;
		}
	}
	return n == 0;
}

/* The listing holds exactly the names of want, in any order. */
static int same_names(const struct listing *l, const char *const *want,
		      const char *dir)
{
	unsigned int i, count = 0, found;
	char all[512] = "";

	for (i = 0; i < l->n; i++)
		snprintf(all + strlen(all), sizeof(all) - strlen(all), " %s",
			 l->names[i]);
	for (; want[count]; count++) {
		found = 0;
		for (i = 0; i < l->n; i++)
			found += !strcmp(l->names[i], want[count]);
		if (found != 1) {
			ktap_diag("%s:%s", dir, all);
			return 0;
		}
	}
	if (count != l->n)
		ktap_diag("%s:%s", dir, all);
	return count == l->n;
}

static int readdir_names(struct state *s)
{
	struct listing l;
	char path[128];
	int fd, ok;

	if (!s->mounted)
		return 0;
	fd = open(s->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ok = fd >= 0 && list_fd(fd, &l) && same_names(&l, root_names, "/");
	if (fd >= 0)
		close(fd);
	snprintf(path, sizeof(path), "%s/sub", s->mnt);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ok = ok && fd >= 0 && list_fd(fd, &l) &&
	     same_names(&l, sub_names, "/sub");
	if (fd >= 0)
		close(fd);
	return ok;
}

static int same_listing(const struct listing *a, const struct listing *b,
			unsigned int from)
{
	unsigned int i;

	if (a->n != b->n + from)
		return 0;
	for (i = 0; i < b->n; i++)
		if (strcmp(a->names[i + from], b->names[i]))
			return 0;
	return 1;
}

static int dir_seek(struct state *s)
{
	struct listing first, again, rest;
	off_t r0, r1 = -1;
	int fd, ok;

	if (!s->mounted)
		return 0;
	fd = open(s->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return fail(s->mnt);
	ok = list_fd(fd, &first) && first.n > 2;
	r0 = lseek(fd, 0, SEEK_SET);
	ok = ok && r0 == 0 && list_fd(fd, &again) &&
	     same_listing(&first, &again, 0);
	if (ok) {
		r1 = lseek(fd, first.offs[0], SEEK_SET);
		ok = r1 == first.offs[0] && list_fd(fd, &rest) &&
		     same_listing(&first, &rest, 1);
	}
	ktap_diag("%u entries; SEEK_SET 0 -> %lld, SEEK_SET %lld -> %lld",
		  first.n, (long long)r0, first.n ? first.offs[0] : -1LL,
		  (long long)r1);
	close(fd);
	return ok;
}

static int symlink_read(struct state *s)
{
	char path[128], target[128];
	struct stat st;
	ssize_t n;

	if (!s->mounted)
		return 0;
	snprintf(path, sizeof(path), "%s/" LINK, s->mnt);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return fail(path);
	target[n] = '\0';
	return !lstat(path, &st) && S_ISLNK(st.st_mode) &&
	       !strcmp(target, LINK_TARGET) &&
	       check_file(s->mnt, &files[2], LINK);
}

static int read_only(struct state *s)
{
	char path[128];
	int fd, file, dir;

	if (!s->mounted)
		return 0;
	snprintf(path, sizeof(path), "%s/hello.txt", s->mnt);
	errno = 0;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	file = fd < 0 && errno == EROFS;
	if (fd >= 0)
		close(fd);
	snprintf(path, sizeof(path), "%s/newdir", s->mnt);
	errno = 0;
	dir = mkdir(path, 0755) < 0 && errno == EROFS;
	return file && dir;
}

static int detach(struct state *s)
{
	int ok = s->mounted;

	if (s->mounted) {
		s->mounted = 0;
		if (umount(s->mnt))
			ok = fail("umount");
	}
	rmdir(s->mnt);
	if (s->loop_fd < 0)
		return 0;
	ok = loop_clear(s->loop_fd, s->node) && ok;
	s->loop_fd = -1;
	unlink(s->fs->image);
	return ok;
}

static const struct {
	const char *desc;
	int (*fn)(struct state *s);
} steps[] = {
	{ "image made, magic at offset 0", make_image },
	{ "bound read-only to a loop device, size of the image", attach },
	{ "mounted read-only, statfs magic", do_mount },
	{ "every file reads back, stat sizes", read_files },
	{ "getdents of the root and of sub: the tree's names", readdir_names },
	{ "directory lseek: rewind lists the same, seek to d_off the rest", dir_seek },
	{ "readlink and a read through the link", symlink_read },
	{ "open for writing and mkdir are EROFS", read_only },
	{ "unmounted, loop device cleared", detach },
};

static void run(void)
{
	size_t i, j;

	if (!ktap_ok(make_tree(), "source tree made in " TREE))
		ktap_diag("the images will be of a partial tree");
	for (i = 0; i < ARRAY_SIZE(fss); i++) {
		struct state s = { .fs = &fss[i], .loop_fd = -1 };

		for (j = 0; j < ARRAY_SIZE(steps); j++) {
			errno = 0;
			ktap_ok(steps[j].fn(&s), "%s: %s", fss[i].name,
				steps[j].desc);
		}
	}
}

const struct ktap_test ktap_test = {
	.plan = 1 + ARRAY_SIZE(fss) * ARRAY_SIZE(steps),
	.devices = (const char *const[]){ GENROMFS, MKSQUASHFS,
					  "/dev/loop-control", NULL },
	.kconfig = (const char *const[]){ "CONFIG_BLK_DEV_LOOP",
					  "CONFIG_ROMFS_FS", "CONFIG_SQUASHFS",
					  NULL },
	.timeout = 60,
	.run = run,
};
