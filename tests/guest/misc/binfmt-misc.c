// SPDX-License-Identifier: GPL-2.0
/*
 * binfmt-misc - the binfmt_misc filesystem (fs/binfmt_misc.c, touched by
 * the llseek series): mounted, its status file says enabled, a rule
 * written to register appears as a file that reads back what was
 * registered, writing -1 to it removes it, and the filesystem unmounts.
 */
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "ktap.h"
#include "slurp.h"

#define DIR "/proc/sys/fs/binfmt_misc"
#define RULE ":bklfree:E::bkltest::/bin/sh:"

static int get(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, len - 1) : -1;

	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n > 0;
}

static int do_mount(void)
{
	return !mount("binfmt_misc", DIR, "binfmt_misc", 0, NULL);
}

static int status(void)
{
	char buf[64];

	return get(DIR "/status", buf, sizeof(buf)) && !strcmp(buf, "enabled\n");
}

static int do_register(void)
{
	struct stat st;

	return !put_text(DIR "/register", RULE) && !stat(DIR "/bklfree", &st);
}

static int entry(void)
{
	char buf[512];

	return get(DIR "/bklfree", buf, sizeof(buf)) && strstr(buf, "enabled\n") &&
	       strstr(buf, "interpreter /bin/sh\n") && strstr(buf, "extension .bkltest\n");
}

static int do_remove(void)
{
	struct stat st;

	return !put_text(DIR "/bklfree", "-1") && stat(DIR "/bklfree", &st) && errno == ENOENT;
}

static int do_umount(void)
{
	return !umount(DIR);
}

static const struct ktap_case cases[] = {
	{ "binfmt_misc mounts on " DIR, do_mount },
	{ "status reads enabled", status },
	{ "register " RULE " makes the entry bklfree", do_register },
	{ "the entry reads back enabled, interpreter and extension", entry },
	{ "writing -1 to the entry removes it", do_remove },
	{ "binfmt_misc unmounts", do_umount },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.kconfig = (const char *const[]){ "CONFIG_BINFMT_MISC", NULL },
	.timeout = 30,
	.upstream = "patches/core llseek series (fs/binfmt_misc.c)",
	.cases = cases,
};
