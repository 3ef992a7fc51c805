// SPDX-License-Identifier: GPL-2.0
/*
 * gcov-reset - kernel/gcov/fs.c, the debugfs side of gcov-based kernel
 * profiling, in a kernel with CONFIG_GCOV_KERNEL and nothing profiled
 * (no GCOV_PROFILE_ALL: the lab compiles no object with -fprofile-arcs),
 * so debugfs gcov/ holds only its control file, gcov/reset (0600,
 * gcov_reset_fops: reset_read, reset_write, noop_llseek).
 *
 * reset_read always reads end of file; reset_write resets every profiled
 * object's counters and answers the whole count, whatever was written
 * (here: the empty list, which still walks it under node_lock). noop_llseek
 * moves nothing: any SEEK_SET answers the current position, 0.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "ktap.h"

#define GCOV "/sys/kernel/debug/gcov"
#define RESET GCOV "/reset"

static int mode_0600(void)
{
	struct stat st;

	if (stat(RESET, &st))
		return 0;
	if ((st.st_mode & 07777) != 0600 || !S_ISREG(st.st_mode)) {
		ktap_diag("mode %o", (unsigned int)st.st_mode);
		return 0;
	}
	return 1;
}

/* gcov/ holds reset and nothing else: no object is profiled. */
static int only_reset(void)
{
	DIR *d = opendir(GCOV);
	struct dirent *e;
	int reset = 0, other = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!strcmp(e->d_name, "reset")) {
			reset = 1;
		} else {
			other = 1;
			ktap_diag("unexpected entry %s", e->d_name);
		}
	}
	closedir(d);
	return reset && !other;
}

static int read_eof(void)
{
	char buf[16];
	int fd = open(RESET, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n)
		ktap_diag("read gave %zd", n);
	return n == 0;
}

/* Any text resets; the whole count is taken. */
static int write_all(void)
{
	static const char *const words[] = { "1\n", "0", "anything at all\n" };
	int fd = open(RESET, O_WRONLY | O_CLOEXEC), ok = fd >= 0;
	size_t i;

	for (i = 0; ok && i < ARRAY_SIZE(words); i++) {
		ssize_t n = write(fd, words[i], strlen(words[i]));

		if (n != (ssize_t)strlen(words[i])) {
			ktap_diag("write '%s' gave %zd (%s)", words[i], n,
				  strerror(errno));
			ok = 0;
		}
	}
	if (fd >= 0)
		close(fd);
	return ok;
}

/* noop_llseek: the position stays 0 whatever is asked. */
static int seek_stays(void)
{
	int fd = open(RESET, O_RDWR | O_CLOEXEC), ok = fd >= 0;
	off_t a, b;

	if (!ok)
		return 0;
	a = lseek(fd, 5, SEEK_SET);
	b = lseek(fd, 0, SEEK_END);
	close(fd);
	if (a || b)
		ktap_diag("SEEK_SET 5 gave %lld, SEEK_END 0 gave %lld",
			  (long long)a, (long long)b);
	return !a && !b;
}

static const struct ktap_case tcases[] = {
	{ "gcov/reset is a regular file of mode 0600", mode_0600 },
	{ "gcov/ holds reset only: no object is profiled", only_reset },
	{ "reading gcov/reset gives end of file", read_eof },
	{ "every write to gcov/reset takes the whole count", write_all },
	{ "lseek on gcov/reset stays at 0 (noop_llseek)", seek_stays },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.devices = (const char *const[]){ RESET, NULL },
	.kconfig = (const char *const[]){ "CONFIG_GCOV_KERNEL", NULL },
	.cases = tcases,
};
