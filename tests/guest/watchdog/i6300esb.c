// SPDX-License-Identifier: GPL-2.0
/*
 * i6300esb - drive the Intel 6300ESB watchdog through /dev/watchdog0 and
 * read back what the driver did to the hardware.
 *
 * The timer's on/off state is the WDT_ENABLE bit (0x02) of the lock
 * register at 0x68 in the device's PCI configuration space; QEMU reports
 * its real state there, so each step is checked against the hardware
 * rather than against the driver's own bookkeeping:
 *
 *   - the timer is off before the first open and on after it;
 *   - WDIOC_GETSUPPORT names "i6300ESB timer" with exactly the settimeout,
 *     keepalive and magic close options;
 *   - WDIOC_SETTIMEOUT returns the value taken, WDIOC_GETTIMEOUT reads it
 *     back, and 0 and 2047 (outside 1..2046) are refused with EINVAL
 *     without changing the timeout;
 *   - WDIOC_KEEPALIVE and a one-byte write are accepted;
 *   - WDIOC_SETOPTIONS DISABLECARD turns the timer off, ENABLECARD on;
 *   - lseek on the open node fails with ESPIPE (the core opens it with
 *     stream_open; the lseek ABI walk never opens a watchdog, so this is
 *     the only record of it);
 *   - a magic close ('V', then close) turns the timer off, and so does a
 *     second one after a reopen.
 *
 * The watchdog is never left armed: every path out of the test, including
 * the timeout alarm, writes 'V' and closes. The profile also runs QEMU
 * with -action watchdog=none.
 *
 * This guards the watchdog core's character device (drivers/watchdog/
 * watchdog_dev.c): its open, write, ioctl and release paths and its
 * stream semantics (stream_open, upstream 10dce8af3422), which any
 * rework of file_operations locking or llseek must keep.
 */
#include <dirent.h>
#include <fcntl.h>
#include <linux/watchdog.h>
#include <sys/ioctl.h>

#include "ktap.h"
#include "magic-close.h"

#define WDT "/dev/watchdog0"
/* The driver leaves watchdog0 without a parent: find the PCI device here. */
#define ESB_DRIVER "/sys/bus/pci/drivers/i6300ESB timer"
#define ESB_LOCK_REG 0x68
#define ESB_WDT_ENABLE 0x02
#define ESB_IDENTITY "i6300ESB timer"
#define ESB_OPTIONS (WDIOF_SETTIMEOUT | WDIOF_KEEPALIVEPING | WDIOF_MAGICCLOSE)
#define FINAL_TIMEOUT 60

static const struct tcase {
	int timeout;
	int err;	/* 0: taken; else the errno of the refusal */
} tcases[] = {
	{ 5, 0 },
	{ 2046, 0 },
	{ 0, EINVAL },
	{ 2047, EINVAL },
	{ FINAL_TIMEOUT, 0 },
};

/* Cases outside the table: see run(). */
#define OTHER_CASES 13

static char esb_config[512];

/* The config space file of the one PCI device bound to the driver. */
static int find_config(void)
{
	DIR *d = opendir(ESB_DRIVER);
	struct dirent *de;
	int found = 0;

	if (!d)
		return ktap_perror(ESB_DRIVER);
	while ((de = readdir(d)))
		if (strchr(de->d_name, ':') && !found++)
			snprintf(esb_config, sizeof(esb_config), "%s/%s/config",
				 ESB_DRIVER, de->d_name);
	closedir(d);
	if (found != 1) {
		ktap_diag("%d devices bound to %s", found, ESB_DRIVER);
		return -1;
	}
	ktap_diag("config space %s", esb_config);
	return 0;
}

/* The lock register's enable bit: 1 on, 0 off, -1 unreadable. */
static int timer_enabled(void)
{
	unsigned char lock;
	int fd = open(esb_config, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return ktap_perror(esb_config);
	n = pread(fd, &lock, 1, ESB_LOCK_REG);
	close(fd);
	if (n != 1)
		return ktap_perror("pread lock register");
	ktap_diag("lock register 0x%02x", lock);
	return !!(lock & ESB_WDT_ENABLE);
}

static void timeout_case(const struct tcase *tc, int *now)
{
	int val = tc->timeout, got = -1, r, err;

	r = ioctl(wdt_fd, WDIOC_SETTIMEOUT, &val);
	err = r ? errno : 0;
	if (ioctl(wdt_fd, WDIOC_GETTIMEOUT, &got))
		ktap_perror("WDIOC_GETTIMEOUT");
	if (tc->err) {
		ktap_ok(r == -1 && err == tc->err && got == *now,
			"WDIOC_SETTIMEOUT %d refused with %s, timeout stays %d",
			tc->timeout, strerrorname_np(tc->err), *now);
		return;
	}
	ktap_ok(!r && val == tc->timeout && got == tc->timeout,
		"WDIOC_SETTIMEOUT %d then WDIOC_GETTIMEOUT reads %d",
		tc->timeout, tc->timeout);
	if (r || got != tc->timeout)
		ktap_diag("set: %s, returned %d, get %d",
			  r ? strerror(err) : "ok", val, got);
	*now = got;
}

static void run(void)
{
	struct watchdog_info info;
	int now = -1, opt, r;
	size_t i;

	signal(SIGALRM, on_alarm);
	if (find_config())
		ktap_bail("no i6300ESB PCI device bound to its driver");
	ktap_ok(timer_enabled() == 0, "timer off before the first open");

	wdt_fd = open(WDT, O_WRONLY | O_CLOEXEC);
	if (wdt_fd < 0)
		ktap_bail("open %s: %s", WDT, strerror(errno));
	ktap_ok(timer_enabled() == 1, "open %s turns the timer on", WDT);

	memset(&info, 0, sizeof(info));
	r = ioctl(wdt_fd, WDIOC_GETSUPPORT, &info);
	ktap_diag("identity '%.32s' options 0x%x", (char *)info.identity,
		  info.options);
	ktap_ok(!r && !strcmp((char *)info.identity, ESB_IDENTITY),
		"WDIOC_GETSUPPORT identity %s", ESB_IDENTITY);
	ktap_ok(!r && info.options == ESB_OPTIONS,
		"WDIOC_GETSUPPORT options 0x%x", ESB_OPTIONS);

	if (ioctl(wdt_fd, WDIOC_GETTIMEOUT, &now))
		ktap_perror("WDIOC_GETTIMEOUT");
	for (i = 0; i < ARRAY_SIZE(tcases); i++)
		timeout_case(&tcases[i], &now);

	ktap_ok(!ioctl(wdt_fd, WDIOC_KEEPALIVE, 0), "WDIOC_KEEPALIVE");
	ktap_ok(write(wdt_fd, "k", 1) == 1, "write of a keepalive byte");

	errno = 0;
	ktap_ok(lseek(wdt_fd, 0, SEEK_SET) == -1 && errno == ESPIPE,
		"lseek %s fails with ESPIPE", WDT);

	opt = WDIOS_DISABLECARD;
	r = ioctl(wdt_fd, WDIOC_SETOPTIONS, &opt);
	ktap_ok(!r && timer_enabled() == 0,
		"WDIOC_SETOPTIONS DISABLECARD turns the timer off");
	opt = WDIOS_ENABLECARD;
	r = ioctl(wdt_fd, WDIOC_SETOPTIONS, &opt);
	ktap_ok(!r && timer_enabled() == 1,
		"WDIOC_SETOPTIONS ENABLECARD turns the timer on");
	ktap_ok(!ioctl(wdt_fd, WDIOC_GETTIMEOUT, &now) &&
		now == FINAL_TIMEOUT,
		"timeout still %d after re-enabling", FINAL_TIMEOUT);

	disarm();
	ktap_ok(timer_enabled() == 0, "magic close turns the timer off");

	/* A second open arms it again; a second magic close disarms. */
	wdt_fd = open(WDT, O_WRONLY | O_CLOEXEC);
	if (wdt_fd < 0)
		ktap_bail("reopen %s: %s", WDT, strerror(errno));
	ktap_ok(timer_enabled() == 1, "reopen turns the timer on");
	disarm();
	ktap_ok(timer_enabled() == 0, "second magic close turns the timer off");
}

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases) + OTHER_CASES,
	.devices = (const char *const[]){ WDT, ESB_DRIVER, NULL },
	.kconfig = (const char *const[]){ "CONFIG_WATCHDOG_CORE",
		"CONFIG_I6300ESB_WDT", NULL },
	.timeout = 20,
	.upstream = "10dce8af3422",
	.run = run,
};
