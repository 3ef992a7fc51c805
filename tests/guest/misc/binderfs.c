// SPDX-License-Identifier: GPL-2.0
/*
 * binderfs - Android's binder IPC through binderfs (drivers/android):
 * a binderfs mount with stats=global, its binder-control node, a binder
 * device made with BINDER_CTL_ADD, the binder character device's ioctls
 * and mmap, the features/ and binder_logs/ files, unlinking a device and
 * unmounting. binder-control is touched by patches/core 0102 (its dead
 * .llseek dropped): lseek on it stays ESPIPE.
 *
 * The profile loads binder_linux with devices=binder, so a mount makes
 * binder-control (the first minor of the boot, 0) and "binder" (1), and
 * the first device this test adds gets minor 2.
 */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/android/binder.h>
#include <linux/android/binderfs.h>

#include "ktap.h"

#define MNT	"/dev/binderfs"
#define CTL	MNT "/binder-control"
#define DEV	MNT "/bklfree"
#define MAP_SIZE (128 * 1024)

static int mounted;
static struct binderfs_device added;
static int bfd = -1;
static void *map = MAP_FAILED;

static int do_mount(void)
{
	struct stat st;

	if (mkdir(MNT, 0755) && errno != EEXIST)
		return ktap_perror("mkdir " MNT);
	if (mount("binder", MNT, "binder", 0, "stats=global"))
		return ktap_perror("mount binder");
	mounted = 1;
	/* an unknown stats mode is refused by the parameter parser */
	if (!mount("binder", MNT, "binder", MS_REMOUNT, "stats=bogus")) {
		ktap_diag("remount stats=bogus succeeded");
		return 0;
	}
	if (errno != EINVAL)
		return ktap_perror("remount stats=bogus");
	return !stat(MNT, &st) && S_ISDIR(st.st_mode);
}

/* binder-control and the profile's one default device. */
static int control_node(void)
{
	struct stat ctl, dflt, hw;

	if (stat(CTL, &ctl) || stat(MNT "/binder", &dflt))
		return ktap_perror("stat");
	ktap_diag("binder-control %u:%u, binder %u:%u", major(ctl.st_rdev),
		  minor(ctl.st_rdev), major(dflt.st_rdev), minor(dflt.st_rdev));
	return S_ISCHR(ctl.st_mode) && S_ISCHR(dflt.st_mode) &&
	       major(ctl.st_rdev) == major(dflt.st_rdev) &&
	       minor(ctl.st_rdev) == 0 && minor(dflt.st_rdev) == 1 &&
	       stat(MNT "/hwbinder", &hw) && errno == ENOENT;
}

static int ctl_open(void)
{
	int fd = open(CTL, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		ktap_perror("open " CTL);
	return fd;
}

/* BINDER_CTL_ADD: major and minor come back, the node appears. */
static int ctl_add(void)
{
	int fd = ctl_open();
	struct stat st;
	int ok;

	snprintf(added.name, sizeof(added.name), "bklfree");
	ok = fd >= 0 && !ioctl(fd, BINDER_CTL_ADD, &added);
	close(fd);
	if (!ok)
		return 0;
	ktap_diag("bklfree: %u:%u", added.major, added.minor);
	return !stat(DEV, &st) && S_ISCHR(st.st_mode) &&
	       major(st.st_rdev) == added.major &&
	       minor(st.st_rdev) == added.minor && added.minor == 2;
}

/* The same name again: EEXIST; an unknown ioctl: EINVAL; lseek ESPIPE. */
static int ctl_errors(void)
{
	struct binderfs_device again = { .name = "bklfree" };
	int fd = ctl_open();
	int eexist, einval, espipe;

	if (fd < 0)
		return 0;
	eexist = ioctl(fd, BINDER_CTL_ADD, &again) < 0 && errno == EEXIST;
	einval = ioctl(fd, _IO('b', 2)) < 0 && errno == EINVAL;
	espipe = lseek(fd, 0, SEEK_SET) < 0 && errno == ESPIPE;
	close(fd);
	if (!(eexist && einval && espipe))
		ktap_diag("EEXIST %d, EINVAL %d, ESPIPE %d", eexist, einval, espipe);
	return eexist && einval && espipe;
}

static int dev_version(void)
{
	struct binder_version v = { 0 };

	bfd = open(DEV, O_RDWR | O_CLOEXEC);
	if (bfd < 0)
		return ktap_perror("open " DEV) + 1;
	return !ioctl(bfd, BINDER_VERSION, &v) &&
	       v.protocol_version == BINDER_CURRENT_PROTOCOL_VERSION;
}

/*
 * binder_mmap(): a writable mapping is EPERM (FORBIDDEN_MMAP_FLAGS); a
 * read-only one works; a second one is EBUSY ("already mapped").
 */
static int dev_mmap(void)
{
	void *w, *again;
	int eperm, ebusy;

	if (bfd < 0)
		return 0;
	w = mmap(NULL, MAP_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, bfd, 0);
	eperm = w == MAP_FAILED && errno == EPERM;
	if (w != MAP_FAILED)
		munmap(w, MAP_SIZE);
	map = mmap(NULL, MAP_SIZE, PROT_READ, MAP_PRIVATE, bfd, 0);
	if (map == MAP_FAILED)
		return ktap_perror("mmap read-only") + 1;
	again = mmap(NULL, MAP_SIZE, PROT_READ, MAP_PRIVATE, bfd, 0);
	ebusy = again == MAP_FAILED && errno == EBUSY;
	if (again != MAP_FAILED)
		munmap(again, MAP_SIZE);
	return eperm && ebusy;
}

/* SET_MAX_THREADS, an empty WRITE_READ, GET_EXTENDED_ERROR is BR_OK. */
static int dev_ioctls(void)
{
	uint32_t max = 4;
	struct binder_write_read bwr = { 0 };
	struct binder_extended_error ee = { .command = ~0u, .param = -1 };

	if (bfd < 0)
		return 0;
	if (ioctl(bfd, BINDER_SET_MAX_THREADS, &max))
		return ktap_perror("BINDER_SET_MAX_THREADS");
	if (ioctl(bfd, BINDER_WRITE_READ, &bwr))
		return ktap_perror("BINDER_WRITE_READ");
	if (ioctl(bfd, BINDER_GET_EXTENDED_ERROR, &ee))
		return ktap_perror("BINDER_GET_EXTENDED_ERROR");
	return bwr.write_consumed == 0 && bwr.read_consumed == 0 &&
	       ee.id == 0 && ee.command == BR_OK && ee.param == 0;
}

/* Nothing queued: poll not readable; lseek ESPIPE (no .llseek). */
static int dev_poll_lseek(void)
{
	struct pollfd p = { .fd = bfd, .events = POLLIN };

	return bfd >= 0 && poll(&p, 1, 0) == 0 &&
	       lseek(bfd, 0, SEEK_SET) < 0 && errno == ESPIPE;
}

static ssize_t slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, size - 1) : -1;

	close(fd);
	if (n < 0)
		ktap_perror(path);
	else
		buf[n] = '\0';
	return n;
}

static int features(void)
{
	char a[16], b[16];

	return slurp(MNT "/features/oneway_spam_detection", a, sizeof(a)) > 0 &&
	       slurp(MNT "/features/extended_error", b, sizeof(b)) > 0 &&
	       !strcmp(a, "1\n") && !strcmp(b, "1\n");
}

/*
 * stats=global: binder_logs/ with state, stats and the others, and a
 * proc/<pid> file made when this process opened the device.
 */
static int logs(void)
{
	static char buf[16384];
	char path[64];
	ssize_t n;
	int ok;

	n = slurp(MNT "/binder_logs/stats", buf, sizeof(buf));
	ok = n > 0 && !strncmp(buf, "binder stats:\n", 14);
	n = slurp(MNT "/binder_logs/state", buf, sizeof(buf));
	ok = ok && n > 0 && !strncmp(buf, "binder state:\n", 14);
	if (n > 0 && !strstr(buf, "context bklfree"))
		ktap_diag("state does not name context bklfree");
	ok = ok && n > 0 && strstr(buf, "context bklfree");
	n = slurp(MNT "/binder_logs/transactions", buf, sizeof(buf));
	ok = ok && n > 0 && !strncmp(buf, "binder transactions:\n", 21);
	snprintf(path, sizeof(path), MNT "/binder_logs/proc/%d", (int)getpid());
	n = slurp(path, buf, sizeof(buf));
	ok = ok && n > 0 && !strncmp(buf, "binder proc state:\n", 19);
	return ok;
}

/* binder-control cannot be unlinked (EPERM); a device node can. */
static int unlink_nodes(void)
{
	struct stat st;
	int eperm = unlink(CTL) < 0 && errno == EPERM;

	if (unlink(DEV))
		return ktap_perror("unlink " DEV);
	return eperm && stat(DEV, &st) && errno == ENOENT && !stat(CTL, &st);
}

/*
 * The open device still works after its node is gone; closing it and
 * unmapping lets the mount go (an open file would make it EBUSY).
 */
static int do_umount(void)
{
	struct binder_version v = { 0 };
	int ok = bfd >= 0 && !ioctl(bfd, BINDER_VERSION, &v) &&
		 v.protocol_version == BINDER_CURRENT_PROTOCOL_VERSION;
	int busy = umount(MNT) < 0 && errno == EBUSY;

	if (map != MAP_FAILED)
		munmap(map, MAP_SIZE);
	close(bfd);
	bfd = -1;
	if (!busy)
		ktap_diag("umount with the device open: %s", strerror(errno));
	if (umount(MNT))
		return ktap_perror("umount " MNT);
	mounted = 0;
	return ok && busy && rmdir(MNT) == 0;
}

static const struct ktap_case cases[] = {
	{ "mount -t binder -o stats=global, bad stats mode EINVAL", do_mount },
	{ "binder-control is minor 0, the default binder device minor 1", control_node },
	{ "BINDER_CTL_ADD bklfree: minor 2, the node appears", ctl_add },
	{ "binder-control: same name EEXIST, unknown ioctl EINVAL, lseek ESPIPE", ctl_errors },
	{ "bklfree: BINDER_VERSION is the current protocol", dev_version },
	{ "bklfree: mmap writable EPERM, read-only 128 KiB ok, again EBUSY", dev_mmap },
	{ "bklfree: SET_MAX_THREADS, empty WRITE_READ, extended error BR_OK", dev_ioctls },
	{ "bklfree: poll not readable, lseek ESPIPE", dev_poll_lseek },
	{ "features: oneway_spam_detection and extended_error are 1", features },
	{ "binder_logs: stats, state, transactions, proc/PID", logs },
	{ "unlink: binder-control EPERM, bklfree removed", unlink_nodes },
	{ "umount: EBUSY while open, then unmounted", do_umount },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.kconfig = (const char *const[]){ "CONFIG_ANDROID_BINDER_IPC",
					  "CONFIG_ANDROID_BINDERFS", NULL },
	.timeout = 30,
	.upstream = "patches/core 0102 (binderfs: drop the dead .llseek of binder-control)",
	.cases = cases,
};
