// SPDX-License-Identifier: GPL-2.0
/*
 * kmemleak - the kernel's leak detector over what the profile's earlier
 * tests did (plug, unplug, attach, detach, open files left behind): run
 * last, in profiles that boot with kmemleak=on (the lab kernels have
 * CONFIG_DEBUG_KMEMLEAK with DEFAULT_OFF, so other boots pay nothing).
 *
 * kmemleak reports an unreferenced object only once it is older than its
 * minimum age (5 s, MSECS_MIN_AGE in mm/kmemleak.c) and, like syzkaller's
 * leak check, the test scans twice with that age between the scans, so a
 * pointer held for a moment in a register or on a stack is not a leak.
 * Every reported object fails the test, its header and backtrace printed
 * as diagnostics: a leak is a finding like any splat, never filtered.
 */
#include <fcntl.h>

#include "ktap.h"

#define KMEMLEAK	"/sys/kernel/debug/kmemleak"
#define MIN_AGE_MS	5000

static int command(const char *cmd)
{
	int fd = open(KMEMLEAK, O_WRONLY | O_CLOEXEC);
	int ok = fd >= 0 && write(fd, cmd, strlen(cmd)) == (ssize_t)strlen(cmd);

	if (fd >= 0)
		close(fd);
	return ok;
}

/* The report: how many objects, each line a diagnostic. */
static int report(void)
{
	FILE *f = fopen(KMEMLEAK, "r");
	char line[512];
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		n += !strncmp(line, "unreferenced object", 19);
		ktap_diag("%s", line);
	}
	fclose(f);
	return n;
}

static void run(void)
{
	long long t0 = ktap_now_ms();
	int first, leaks;

	first = command("scan");
	ktap_ok(first, "kmemleak is on and scans");
	/* The objects of the last test must reach kmemleak's minimum age. */
	usleep(MIN_AGE_MS * 1000);
	ktap_ok(first && command("scan"), "a second scan %d ms later",
		MIN_AGE_MS);
	leaks = report();
	ktap_diag("two scans in %lld ms, %d unreferenced object(s) reported",
		  ktap_now_ms() - t0, leaks);
	/* The count is not in the name: findings name a case by its name. */
	ktap_ok(leaks == 0, "no unreferenced object");
}

const struct ktap_test ktap_test = {
	.plan = 3,
	.devices = (const char *const[]){ KMEMLEAK, NULL },
	.kconfig = (const char *const[]){ "CONFIG_DEBUG_KMEMLEAK", NULL },
	.timeout = 120,
	.run = run,
};
