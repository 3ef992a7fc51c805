// SPDX-License-Identifier: GPL-2.0
/*
 * affs/fuzz-walk: mount and walk every corrupted AFFS volume of the fuzz
 * disk (serial bklfree-fuzz, written by tools/affs/affs-fuzz: a header region,
 * "BKLFUZZ1 count=C stride=S size=Z offset=O seed=E" and one description
 * line per image, then the images at O + N * S).
 *
 * For each image N the test prints "# image N FLAVOUR MUTATIONS" first, so
 * an oops or a hang names the image, then binds a loop device to the disk
 * at the image's offset (LOOP_CONFIGURE, lo_offset and lo_sizelimit) and,
 * in a child process, mounts it -t affs read-write (read-only when that is
 * refused), walks it (readdir recursively, bounded in depth and entries,
 * lstat of every entry, every file read to its end or 1 MiB, readlink),
 * and on a read-write mount writes a little: creates, writes, fsyncs,
 * renames and unlinks a new file, makes and removes a directory, appends
 * to and truncates two files of the volume, renames one and unlinks
 * another. Then it unmounts and the parent clears the loop device. One
 * line "# image N: ..." gives the outcome.
 *
 * Errors from the kernel (EIO, EINVAL, ENOENT, EUCLEAN, ENOSPC...) are the
 * expected answer to a corrupted volume. A case fails only for what the
 * kernel must never do: a mount or walk that does not finish within
 * IMAGE_SECS (the test stops there: the stuck task cannot be killed; a
 * loop that never sleeps starves this timer on the one-CPU PREEMPT_NONE
 * lab kernel, and the soft lockup detector reports it instead),
 * a name from readdir that is empty or holds a '/', a negative size, a
 * readlink longer than asked, an unmount that fails, or a loop device that
 * cannot be cleared. Oopses, BUGs, WARNINGs and lockups are the verdict
 * scanner's to see on the console.
 */
#include <dirent.h>
#include <fcntl.h>
#include <linux/loop.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>

#include "fuzz-disk.h"

#define IMAGE_SECS 15		/* below the hung-task and soft-lockup 20 s */
#define MAX_DEPTH 8
#define MAX_ENTRIES 600		/* per image */
#define MAX_DIR_ENTRIES 300	/* per directory */
#define MAX_FILE_BYTES (1 << 20)
#define MAX_IMAGE_BYTES (4 << 20)
#define MNT "/tmp/affs-fuzz"

/* What the child found, sent to the parent through a pipe. */
struct outcome {
	int mounted;		/* 0 refused, 1 read-write, 2 read-only,
				 * 3 read-only by the kernel's choice */
	int mount_errno;	/* of the last refused mount */
	unsigned int dirs, files, links, entries;
	unsigned long long bytes;
	unsigned int errors;	/* failed calls: fine */
	int first_errno;
	unsigned int writes;	/* write calls that succeeded */
	int umount_errno;
	char bad[160];		/* what the kernel must never do, or "" */
};

static struct outcome out;
static char wpaths[3][PATH_MAX];	/* files to modify on a rw mount */
static unsigned int nwpaths;

static void err_seen(void)
{
	if (!out.errors++)
		out.first_errno = errno;
}

static void bad(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void bad(const char *fmt, ...)
{
	va_list ap;

	if (out.bad[0])
		return;
	va_start(ap, fmt);
	vsnprintf(out.bad, sizeof(out.bad), fmt, ap);
	va_end(ap);
}

static void read_file(int dfd, const char *name)
{
	static char buf[65536];
	unsigned long long got = 0;
	ssize_t n;
	int fd;

	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		err_seen();
		return;
	}
	while (got < MAX_FILE_BYTES && out.bytes < MAX_IMAGE_BYTES) {
		n = read(fd, buf, sizeof(buf));
		if (n < 0)
			err_seen();
		if (n <= 0)
			break;
		if ((size_t)n > sizeof(buf))
			bad("read returned %zd for %zu bytes", n, sizeof(buf));
		got += (unsigned long long)n;
		out.bytes += (unsigned long long)n;
	}
	close(fd);
}

static void walk(int dfd, const char *path, int depth)
{
	struct dirent *de;
	unsigned int seen = 0;
	DIR *d;

	d = fdopendir(dfd);
	if (!d) {
		err_seen();
		close(dfd);
		return;
	}
	out.dirs++;
	for (;;) {
		char sub[PATH_MAX];
		struct stat st;
		size_t len;

		errno = 0;
		de = readdir(d);
		if (!de) {
			if (errno)
				err_seen();
			break;
		}
		len = strnlen(de->d_name, sizeof(de->d_name));
		if (!len || len >= sizeof(de->d_name) ||
		    memchr(de->d_name, '/', len)) {
			bad("readdir of %s gave a name of %zu bytes with '/'"
			    " or none", path, len);
			break;
		}
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (++seen > MAX_DIR_ENTRIES || ++out.entries > MAX_ENTRIES)
			break;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			err_seen();
			continue;
		}
		if (st.st_size < 0)
			bad("%s has size %lld", sub, (long long)st.st_size);
		if (S_ISDIR(st.st_mode)) {
			int fd;

			if (depth >= MAX_DEPTH)
				continue;
			fd = openat(dirfd(d), de->d_name,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				    O_CLOEXEC);
			if (fd < 0)
				err_seen();
			else
				walk(fd, sub, depth + 1);
		} else if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t n;

			out.links++;
			n = readlinkat(dirfd(d), de->d_name, target,
				       sizeof(target));
			if (n < 0)
				err_seen();
			else if ((size_t)n > sizeof(target))
				bad("readlink of %s gave %zd bytes", sub, n);
		} else {
			out.files++;
			if (S_ISREG(st.st_mode)) {
				if (nwpaths < 3)
					snprintf(wpaths[nwpaths++], PATH_MAX,
						 "%s", sub);
				read_file(dirfd(d), de->d_name);
			}
		}
	}
	closedir(d);
}

/* A call on the mounted volume: success counts, failure is fine. */
static void try(int ok)
{
	if (ok)
		out.writes++;
	else
		err_seen();
}

static void write_some(void)
{
	static char buf[3000];
	struct stat st;
	unsigned int i;
	int fd;

	memset(buf, 'w', sizeof(buf));
	fd = open(MNT "/fz-new", O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC,
		  0644);
	try(fd >= 0);
	if (fd >= 0) {
		try(write(fd, buf, sizeof(buf)) == (ssize_t)sizeof(buf));
		try(!fsync(fd));
		close(fd);
		try(!rename(MNT "/fz-new", MNT "/fz-renamed"));
		try(!unlink(MNT "/fz-renamed"));
	}
	try(!mkdir(MNT "/fz-dir", 0755));
	try(!rmdir(MNT "/fz-dir"));
	for (i = 0; i < nwpaths && i < 2; i++) {
		fd = open(wpaths[i], O_WRONLY | O_APPEND | O_CLOEXEC);
		try(fd >= 0);
		if (fd < 0)
			continue;
		try(write(fd, buf, 1000) == 1000);
		try(!fstat(fd, &st));
		try(!ftruncate(fd, st.st_size / 2));
		try(!fsync(fd));
		close(fd);
	}
	if (nwpaths > 1)
		try(!rename(wpaths[1], MNT "/fz-moved"));
	if (nwpaths > 2)
		try(!unlink(wpaths[2]));
	sync();
}

/* The child: mount, walk, write, unmount; the outcome goes to fd. */
static void child(const char *loop, int fd)
{
	struct statvfs sv;
	int dfd;

	out.mounted = 1;
	if (mount(loop, MNT, "affs", 0, NULL)) {
		out.mount_errno = errno;
		out.mounted = 2;
		if (mount(loop, MNT, "affs", MS_RDONLY, NULL)) {
			out.mount_errno = errno;
			out.mounted = 0;
		}
	}
	if (out.mounted) {
		dfd = open(MNT, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			err_seen();
		else
			walk(dfd, MNT, 0);
		/* The kernel makes some volumes read-only itself. */
		if (out.mounted == 1 && !statvfs(MNT, &sv) &&
		    (sv.f_flag & ST_RDONLY))
			out.mounted = 3;
		if (out.mounted == 1)
			write_some();
		if (umount(MNT)) {
			out.umount_errno = errno;
			bad("umount: %s", strerror(errno));
		}
	}
	if (write(fd, &out, sizeof(out)) != (ssize_t)sizeof(out))
		_exit(3);
	_exit(0);
}

/* Runs image n; 0 done, 1 misbehaved, -1 hung or harness trouble. */
static int run_image(int ctl, int disk, const struct header *h,
		     unsigned int n, int *hung)
{
	char node[64], desc[256];
	struct pollfd p = { .events = POLLIN };
	long long start = ktap_now_ms();
	int pfd[2], lfd, status, r, ret = 0;
	const char *how;
	pid_t pid;

	ktap_diag("image %u %s", n, describe(h, n, desc, sizeof(desc)));
	lfd = loop_attach(ctl, disk, h, n, node, sizeof(node));
	if (lfd < 0)
		return -1;
	if (pipe(pfd)) {
		close(lfd);
		return ktap_perror("pipe");
	}
	memset(&out, 0, sizeof(out));
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		close(lfd);
		return ktap_perror("fork");
	}
	if (!pid) {
		close(pfd[0]);
		child(node, pfd[1]);
	}
	close(pfd[1]);
	p.fd = pfd[0];
	r = poll(&p, 1, IMAGE_SECS * 1000);
	if (r <= 0) {
		ktap_diag("image %u: mount or walk of %s still running after "
			  "%d s", n, node, IMAGE_SECS);
		*hung = 1;
		close(pfd[0]);
		return -1;
	}
	if (read(pfd[0], &out, sizeof(out)) != (ssize_t)sizeof(out))
		snprintf(out.bad, sizeof(out.bad), "walker died");
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		snprintf(out.bad, sizeof(out.bad), "walker killed by signal %d",
			 WTERMSIG(status));
	if (ioctl(lfd, LOOP_CLR_FD, 0))
		snprintf(out.bad, sizeof(out.bad), "LOOP_CLR_FD: %s",
			 strerror(errno));
	close(lfd);
	how = out.mounted == 1 ? "rw" : out.mounted == 2 ? "ro" :
		out.mounted == 3 ? "ro (kernel's choice)" : "refused";
	if (out.mounted)
		ktap_diag("image %u: %s, %u dirs %u files %u links %llu bytes, "
			  "%u writes, %u errors (first: %s), %lld ms%s%s", n, how,
			  out.dirs, out.files, out.links, out.bytes, out.writes,
			  out.errors, out.errors ? strerror(out.first_errno) :
			  "none", ktap_now_ms() - start,
			  out.bad[0] ? "; MISBEHAVED: " : "", out.bad);
	else
		ktap_diag("image %u: mount refused (%s), %lld ms%s%s", n,
			  strerror(out.mount_errno), ktap_now_ms() - start,
			  out.bad[0] ? "; MISBEHAVED: " : "", out.bad);
	if (out.bad[0])
		ret = 1;
	return ret;
}

static void run(void)
{
	struct disk d = { .serial = "bklfree-fuzz", .kind = "vd" };
	unsigned int n, done = 0, misbehaved = 0, first_bad = 0;
	unsigned int mounted_rw = 0, mounted_ro = 0;
	struct header h = { 0 };
	long long start;
	int disk = -1, ctl, r = 0, ok, hung = 0;

	ok = disks_wait(&d, 1, &where) == 1;
	if (ok) {
		disk = open(d.node, O_RDWR | O_CLOEXEC);
		if (disk < 0)
			ok = ktap_perror(d.node) + 1;
	}
	ok = ok && !read_header(disk, &h);
	if (ok)
		ktap_diag("%u images of %u bytes at %llu + N * %u, seed %llu",
			  h.count, h.size, h.offset, h.stride, h.seed);
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		ktap_perror("/dev/loop-control");
	ktap_ok(ok && ctl >= 0 && mkdir(MNT, 0755) == 0,
		"fuzz disk %s found with a BKLFUZZ1 header, loop control open",
		d.serial);
	if (!ok || ctl < 0) {
		ktap_skip("no fuzz disk", "every image mounted and walked");
		ktap_skip("no fuzz disk", "no mount or walk hung");
		return;
	}
	start = ktap_now_ms();
	for (n = 0; n < h.count; n++) {
		r = run_image(ctl, disk, &h, n, &hung);
		if (r < 0)
			break;
		if (r > 0 && !misbehaved++)
			first_bad = n;
		done++;
		mounted_rw += out.mounted == 1;
		mounted_ro += out.mounted >= 2;
	}
	ktap_diag("%u of %u images in %lld ms: %u mounted read-write, %u "
		  "read-only, %u refused", done, h.count, ktap_now_ms() - start,
		  mounted_rw, mounted_ro, done - mounted_rw - mounted_ro);
	if (misbehaved)
		ktap_diag("%u images misbehaved, the first: image %u",
			  misbehaved, first_bad);
	ktap_ok(done == h.count && !misbehaved,
		"every image mounted and walked without a kernel misbehaviour");
	ktap_ok(!hung, "no mount or walk hung");
	if (hung)
		ktap_diag("image %u did not finish within %d s", n, IMAGE_SECS);
}

const struct ktap_test ktap_test = {
	.plan = 3,
	.kconfig = (const char *const[]){ "CONFIG_AFFS_FS",
					  "CONFIG_BLK_DEV_LOOP", NULL },
	.timeout = 3000,
	.run = run,
};
