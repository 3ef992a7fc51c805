// SPDX-License-Identifier: GPL-2.0
/*
 * procfs - the /proc files tools read every second (fs/proc): the pid in
 * /proc/self/stat, the name in /proc/self/status, an open descriptor in
 * /proc/self/fd, the stack in /proc/self/maps, MemTotal in /proc/meminfo,
 * the test list in /proc/cmdline, the pseudo filesystems in
 * /proc/filesystems and a POSIX lock in /proc/locks. Most are seq_file
 * files: their reads are position based, so the llseek series must keep
 * seq_lseek on them; reading twice from offset 0 checks that here.
 */
#include <fcntl.h>

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

static const struct ktap_case tcases[] = {
	{ "/proc/self/stat names our pid", self_stat },
	{ "/proc/self/status names our command", self_status },
	{ "/proc/self/fd links to an open file", self_fd },
	{ "/proc/self/maps shows the stack", self_maps },
	{ "/proc/meminfo MemTotal is plausible", meminfo },
	{ "/proc/cmdline carries the test list", cmdline },
	{ "/proc/filesystems lists proc debugfs tracefs", filesystems },
	{ "/proc/locks shows a POSIX lock until close", locks },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.timeout = 20,
	.cases = tcases,
};
