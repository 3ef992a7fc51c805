// SPDX-License-Identifier: GPL-2.0
/*
 * procfs - the /proc files tools read every second (fs/proc): the pid in
 * /proc/self/stat, the name in /proc/self/status, an open descriptor in
 * /proc/self/fd, the stack in /proc/self/maps, MemTotal in /proc/meminfo,
 * the test list in /proc/cmdline, the pseudo filesystems in
 * /proc/filesystems and a POSIX lock in /proc/locks. Most are seq_file
 * files: their reads are position based, so the llseek series must keep
 * seq_lseek on them; reading twice from offset 0 checks that here.
 *
 * /proc/self/ns/mnt is a file of nsfs (fs/nsfs.c), the only namespace
 * file the lab kernel has (no CONFIG_{NET,UTS,IPC,PID,USER}_NS,
 * CGROUPS or TIME_NS: fs/proc/namespaces.c lists only mnt then): its
 * link names the inode, its ioctls answer with 6.1's values and errnos,
 * and setns takes it back.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <linux/nsfs.h>

#include "ktap.h"

static char buf[65536];

/*
 * Read a file into buf twice through lseek 0; both reads must agree. An
 * empty file is a success with an empty buf.
 */
static int slurp(const char *path)
{
	static char again[sizeof(buf)];
	ssize_t n, m;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	m = lseek(fd, 0, SEEK_SET) == 0 ? read(fd, again, sizeof(again) - 1) : -1;
	close(fd);
	if (n < 0 || m != n)
		return 0;
	buf[n] = '\0';
	return 1;
}

static int self_stat(void)
{
	return slurp("/proc/self/stat") && atoi(buf) == getpid();
}

static int self_status(void)
{
	return slurp("/proc/self/status") && strstr(buf, "Name:\tprocfs\n");
}

static int self_fd(void)
{
	char path[64], target[64];
	int fd = open("/dev/null", O_RDONLY);
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	close(fd);
	if (n < 0)
		return 0;
	target[n] = '\0';
	return !strcmp(target, "/dev/null");
}

static int self_maps(void)
{
	return slurp("/proc/self/maps") && strstr(buf, "[stack]");
}

static int meminfo(void)
{
	const char *p;

	return slurp("/proc/meminfo") && (p = strstr(buf, "MemTotal:")) &&
	       atol(p + 9) > 64 * 1024;
}

static int cmdline(void)
{
	return slurp("/proc/cmdline") && strstr(buf, "bklfree.tests=");
}

static int filesystems(void)
{
	return slurp("/proc/filesystems") && strstr(buf, "\tdebugfs\n") &&
	       strstr(buf, "\ttracefs\n") && strstr(buf, "\tproc\n");
}

static int locks(void)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET, .l_len = 10 };
	char want[64];
	int fd = open("/tmp/core-locks", O_CREAT | O_RDWR, 0600);
	int ok = fd >= 0 && !fcntl(fd, F_SETLK, &fl);

	snprintf(want, sizeof(want), "POSIX  ADVISORY  WRITE %d ", getpid());
	ok = ok && slurp("/proc/locks") && strstr(buf, want);
	close(fd);
	unlink("/tmp/core-locks");
	/* Closing the file released the lock. */
	return ok && slurp("/proc/locks") && !strstr(buf, want);
}

#define NSFS_MAGIC 0x6e736673

/* readlink gives "mnt:[N]" (ns_get_name), and the open file is inode N of nsfs. */
static int ns_mnt_link(void)
{
	char link[64], want[64];
	struct stat st;
	struct statfs sf;
	int fd = open("/proc/self/ns/mnt", O_RDONLY);
	ssize_t n = readlink("/proc/self/ns/mnt", link, sizeof(link) - 1);
	int ok = fd >= 0 && n > 0 && !fstat(fd, &st) && !fstatfs(fd, &sf) &&
		 sf.f_type == NSFS_MAGIC;

	link[n > 0 ? n : 0] = '\0';
	snprintf(want, sizeof(want), "mnt:[%lu]", (unsigned long)st.st_ino);
	ktap_diag("/proc/self/ns/mnt -> %s", link);
	close(fd);
	return ok && !strcmp(link, want);
}

/*
 * NS_GET_NSTYPE is CLONE_NEWNS; NS_GET_PARENT is EINVAL (a mount namespace
 * has no parent), NS_GET_OWNER_UID EINVAL (not a user namespace), another
 * nsfs ioctl number ENOTTY (FIONREAD would not do: nsfs inodes are
 * S_IFREG, so the VFS answers it: 0 bytes); NS_GET_USERNS opens the
 * owner, or is EPERM without CONFIG_USER_NS (ns_get_owner in
 * include/linux/user_namespace.h).
 */
static int ns_ioctls(void)
{
	unsigned int uid;
	int has_userns = !access("/proc/self/ns/user", F_OK);
	int fd = open("/proc/self/ns/mnt", O_RDONLY);
	int owner = fd < 0 ? -1 : ioctl(fd, NS_GET_USERNS);
	int owner_errno = errno;
	int ok = fd >= 0 && ioctl(fd, NS_GET_NSTYPE) == CLONE_NEWNS &&
		 (has_userns ? owner >= 0 : owner < 0 && owner_errno == EPERM) &&
		 ioctl(fd, NS_GET_PARENT) < 0 && errno == EINVAL &&
		 ioctl(fd, NS_GET_OWNER_UID, &uid) < 0 && errno == EINVAL &&
		 ioctl(fd, _IO(NSIO, 0x3f)) < 0 && errno == ENOTTY &&
		 !ioctl(fd, FIONREAD, &uid) && uid == 0;

	if (owner >= 0)
		close(owner);
	close(fd);
	return ok;
}

/*
 * setns into our own mount namespace succeeds; the wrong type, or a file
 * that is not a namespace (proc_ns_file), is EINVAL.
 */
static int ns_setns(void)
{
	int fd = open("/proc/self/ns/mnt", O_RDONLY);
	int null = open("/dev/null", O_RDONLY);
	int ok = fd >= 0 && null >= 0 && !setns(fd, CLONE_NEWNS) &&
		 !setns(fd, 0) &&
		 setns(fd, CLONE_NEWUTS) < 0 && errno == EINVAL &&
		 setns(null, CLONE_NEWNS) < 0 && errno == EINVAL;

	close(null);
	close(fd);
	return ok;
}

static const struct ktap_case tcases[] = {
	{ "/proc/self/stat names our pid", self_stat },
	{ "/proc/self/status names our command", self_status },
	{ "/proc/self/fd links to an open file", self_fd },
	{ "/proc/self/maps shows the stack", self_maps },
	{ "/proc/meminfo MemTotal is plausible", meminfo },
	{ "/proc/cmdline carries the test list", cmdline },
	{ "/proc/filesystems lists proc debugfs tracefs", filesystems },
	{ "/proc/locks shows a POSIX lock until close", locks },
	{ "/proc/self/ns/mnt links to mnt:[its nsfs inode]", ns_mnt_link },
	{ "ns ioctls: NSTYPE CLONE_NEWNS, PARENT and OWNER_UID EINVAL, USERNS", ns_ioctls },
	{ "setns into our own mount namespace, wrong type or file EINVAL", ns_setns },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.timeout = 20,
	.cases = tcases,
};
