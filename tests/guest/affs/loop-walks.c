// SPDX-License-Identifier: GPL-2.0
/*
 * affs/loop-walks: the crafted images of tests/data/affs-crash/recipes-loops
 * (tools/affs/affs-fuzz "NAME crafted FLAVOUR MUTATION" recipes), each
 * with the one operation that makes fs/affs walk its corrupted chain.
 *
 * Every image's description line ends in "(NAME: crafted)" and holds the
 * words "unlink=PATH" and, for the hash chain images, "create=PATH". For
 * each image the test prints "# image N ..." first (so an oops or a hang
 * names it), binds a loop device to it and, in a child process, mounts it
 * read-write, unlinks PATH, creates the create= file (O_CREAT | O_EXCL)
 * and unmounts. /dev/kmsg is read from before the mount to after the
 * unmount. Cases per image, by recipe name:
 *
 *   link-off-chain    the first link of a hard-linked file is missing from
 *                     its directory's hash chain: the unlink of the real
 *                     entry fails (ENOENT), and the unmount leaves no busy
 *                     inode (no "Busy inodes after unmount" line)
 *   hash-insert-loop  the first link chains to itself: the unlink of the
 *                     real entry fails with EIO (affs_insert_hash() walks
 *                     the link's chain), the create in that chain fails
 *                     with EIO, and the unmount leaves no busy inode
 *   hash-remove-loop  the link's slot leads to a header chained to itself:
 *                     the same with affs_remove_hash()
 *   ext-self          a file's extension block is its own extension: the
 *                     unlink succeeds and the kernel prints at most
 *                     MAX_LINES lines for it (the truncate of the evicted
 *                     inode walks the chain up to the volume's block count
 *                     and finds the extension block already free each time)
 *
 * Every operation must end within IMAGE_SECS; a loop that never sleeps
 * starves this timer on the one-CPU PREEMPT_NONE lab kernel and the soft
 * lockup detector reports it instead (softlockup_panic ends the boot).
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "fuzz-disk.h"

#define IMAGE_SECS 15		/* below the hung-task and soft-lockup 20 s */
#define MAX_LINES 40		/* kernel lines one image may print */
#define MNT "/tmp/affs-loops"

struct outcome {
	int mount_errno;	/* 0 mounted read-write */
	int unlink_errno;	/* 0 when the unlink succeeded */
	int create_errno;	/* 0 when the create succeeded, -1 not tried */
	int umount_errno;
};

/* The value of the word KEY= in desc, or "". */
static void word(const char *desc, const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key);
	const char *p = desc;

	buf[0] = 0;
	while ((p = strstr(p, key))) {
		if ((p == desc || p[-1] == ' ') && p[klen] == '=') {
			p += klen + 1;
			snprintf(buf, size, "%.*s", (int)strcspn(p, " "), p);
			return;
		}
		p += klen;
	}
}

/* The recipe name of "... (NAME: crafted)", or "". */
static void recipe_name(const char *desc, char *buf, size_t size)
{
	const char *p = strrchr(desc, '(');

	buf[0] = 0;
	if (p && strstr(p, ": crafted)"))
		snprintf(buf, size, "%.*s", (int)strcspn(p + 1, ":"), p + 1);
}

static void child(const char *loop, const char *unlink_path,
		  const char *create_path, int fd)
{
	struct outcome o = { .create_errno = -1 };
	char path[PATH_MAX];
	int cfd;

	if (mount(loop, MNT, "affs", 0, NULL)) {
		o.mount_errno = errno;
		goto out;
	}
	snprintf(path, sizeof(path), MNT "/%s", unlink_path);
	o.unlink_errno = unlink(path) ? errno : 0;
	if (create_path[0]) {
		snprintf(path, sizeof(path), MNT "/%s", create_path);
		cfd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644);
		o.create_errno = cfd < 0 ? errno : 0;
		if (cfd >= 0)
			close(cfd);
	}
	o.umount_errno = umount(MNT) ? errno : 0;
out:
	if (write(fd, &o, sizeof(o)) != (ssize_t)sizeof(o))
		_exit(3);
	_exit(0);
}

/*
 * Kernel lines from kfd (opened before the image) to now: how many, and
 * whether one holds "Busy inodes". The first 5 are printed as
 * diagnostics. Records the ring overwrote before they were read (EPIPE)
 * count as MAX_LINES more: there were too many to read.
 */
static unsigned int kmsg_lines(int kfd, int *busy)
{
	char rec[2048];
	unsigned int n = 0;
	ssize_t r;

	*busy = 0;
	for (;;) {
		r = read(kfd, rec, sizeof(rec) - 1);
		if (r < 0 && errno == EPIPE) {
			ktap_diag("kmsg: records overwritten before they "
				  "were read");
			n += MAX_LINES;
			continue;
		}
		if (r <= 0)
			break;
		rec[r] = 0;
		if (strstr(rec, "Busy inodes"))
			*busy = 1;
		if (n++ < 5) {
			/* "LEVEL,SEQ,USEC,FLAGS;TEXT\n": the text. */
			const char *t = strchr(rec, ';');

			t = t ? t + 1 : rec;
			ktap_diag("kmsg: %.*s", (int)strcspn(t, "\n"), t);
		}
	}
	return n;
}

static const char *err_name(int e)
{
	return e ? strerror(e) : "success";
}

/* Runs image n; -1 when it hung or the harness failed, else 0. */
static int run_image(int ctl, int disk, const struct header *h, unsigned int n)
{
	char node[64], desc[256], name[64], unl[200], cre[200];
	struct pollfd p = { .events = POLLIN };
	struct outcome o;
	int pfd[2], lfd, kfd, status, busy, got;
	unsigned int lines;
	long long start;
	pid_t pid;

	describe(h, n, desc, sizeof(desc));
	ktap_diag("image %u %s", n, desc);
	recipe_name(desc, name, sizeof(name));
	word(desc, "unlink", unl, sizeof(unl));
	word(desc, "create", cre, sizeof(cre));
	if (!name[0] || !unl[0]) {
		ktap_ok(0, "image %u is a crafted recipe with an unlink= word",
			n);
		return 0;
	}
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kfd < 0 || lseek(kfd, 0, SEEK_END) < 0) {
		ktap_perror("/dev/kmsg");
		return -1;
	}
	lfd = loop_attach(ctl, disk, h, n, node, sizeof(node));
	if (lfd < 0 || pipe(pfd)) {
		close(kfd);
		return -1;
	}
	fflush(stdout);
	start = ktap_now_ms();
	pid = fork();
	if (pid < 0)
		return ktap_perror("fork");
	if (!pid) {
		close(pfd[0]);
		child(node, unl, cre, pfd[1]);
	}
	close(pfd[1]);
	p.fd = pfd[0];
	if (poll(&p, 1, IMAGE_SECS * 1000) <= 0) {
		ktap_ok(0, "%s: mount, unlink, create and unmount end within "
			"%d s", name, IMAGE_SECS);
		return -1;
	}
	got = read(pfd[0], &o, sizeof(o)) == (ssize_t)sizeof(o);
	close(pfd[0]);
	waitpid(pid, &status, 0);
	if (ioctl(lfd, LOOP_CLR_FD, 0))
		ktap_perror("LOOP_CLR_FD");
	close(lfd);
	lines = kmsg_lines(kfd, &busy);
	close(kfd);
	if (!got) {
		ktap_ok(0, "%s: the walker reported", name);
		return 0;
	}
	ktap_diag("%s: mount %s, unlink %s, create %s, umount %s, %u kernel "
		  "lines, %lld ms", name, err_name(o.mount_errno),
		  err_name(o.unlink_errno), o.create_errno < 0 ? "not tried" :
		  err_name(o.create_errno), err_name(o.umount_errno), lines,
		  ktap_now_ms() - start);
	ktap_ok(!o.mount_errno, "%s: mounts read-write", name);
	if (!strcmp(name, "ext-self")) {
		ktap_ok(!o.unlink_errno, "%s: unlink of %s succeeds", name, unl);
		ktap_ok(lines <= MAX_LINES, "%s: the kernel prints at most %d "
			"lines for it", name, MAX_LINES);
	} else if (!strcmp(name, "link-off-chain")) {
		ktap_ok(o.unlink_errno == ENOENT, "%s: unlink of %s, whose "
			"first link is missing from its directory, fails with "
			"ENOENT", name, unl);
	} else {
		ktap_ok(o.unlink_errno == EIO, "%s: unlink of %s, whose first "
			"link's hash chain loops, fails with EIO", name, unl);
		ktap_ok(o.create_errno == EIO, "%s: create of %s in the "
			"looping chain fails with EIO", name, cre);
	}
	ktap_ok(!o.umount_errno && !busy, "%s: the unmount succeeds and "
		"leaves no busy inode", name);
	return 0;
}

/* The cases image n of h adds to the plan, by its recipe name. */
static unsigned int image_cases(const struct header *h, unsigned int n)
{
	char desc[256], name[64];

	recipe_name(describe(h, n, desc, sizeof(desc)), name, sizeof(name));
	if (!strcmp(name, "link-off-chain"))
		return 3;
	return 4;
}

static struct header h;
static int disk = -1, ctl = -1, disk_ok;

/* Finds the disk and reads its header: the plan depends on its images. */
static unsigned int plan(void)
{
	struct disk d = { .serial = "bklfree-fuzz", .kind = "vd" };
	unsigned int n, cases = 1;

	disk_ok = disks_wait(&d, 1, &where) == 1;
	if (disk_ok) {
		disk = open(d.node, O_RDWR | O_CLOEXEC);
		if (disk < 0)
			disk_ok = ktap_perror(d.node) + 1;
	}
	disk_ok = disk_ok && !read_header(disk, &h);
	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0)
		ktap_perror("/dev/loop-control");
	if (disk_ok)
		for (n = 0; n < h.count; n++)
			cases += image_cases(&h, n);
	return cases;
}

static void run(void)
{
	unsigned int n;

	ktap_ok(disk_ok && ctl >= 0 && mkdir(MNT, 0755) == 0,
		"fuzz disk bklfree-fuzz found with a BKLFUZZ1 header, loop "
		"control open");
	if (!disk_ok || ctl < 0)
		return;
	for (n = 0; n < h.count; n++)
		if (run_image(ctl, disk, &h, n) < 0)
			break;
}

const struct ktap_test ktap_test = {
	.plan_fn = plan,
	.kconfig = (const char *const[]){ "CONFIG_AFFS_FS",
					  "CONFIG_BLK_DEV_LOOP", NULL },
	.timeout = 600,
	.run = run,
};
