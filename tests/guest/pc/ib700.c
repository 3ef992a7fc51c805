// SPDX-License-Identifier: GPL-2.0
/*
 * ib700 - the IB700 ISA watchdog (QEMU -device ib700, ports 0x441 stop
 * and 0x443 start) through ib700wdt's own /dev/watchdog. The driver
 * predates the watchdog core: it registers a misc device (minor 130)
 * with its own file_operations, so watchdog_dev.c is not involved and
 * there is no /dev/watchdog0.
 *
 * Both ports are write-only, so what the guest can check is the driver's
 * answers, pinned from 6.1's drivers/watchdog/ib700wdt.c:
 *   - open is exclusive (EBUSY) and arms the timer;
 *   - WDIOC_GETSUPPORT: "IB700 WDT", firmware 1, keepalive, settimeout
 *     and magic close; GETSTATUS and GETBOOTSTATUS are 0;
 *   - the timeout: the hardware has 16 levels, 0 to 30 s in steps of 2,
 *     and the driver writes level 15 - (t + 1) / 2, so an odd timeout
 *     runs as the next even one (7 s as 8 s). It keeps and reports the
 *     value asked for, though: WDIOC_SETTIMEOUT 7 answers 7 and
 *     GETTIMEOUT reads 7, not 8. 0 and 30 are taken; -1 and 31 are
 *     EINVAL and leave the timeout alone. The default is 30;
 *   - WDIOC_SETOPTIONS needs DISABLECARD or ENABLECARD (0 is EINVAL),
 *     KEEPALIVE and writes ping, an empty write returns 0, an unknown
 *     ioctl is ENOTTY;
 *   - lseek is ESPIPE (stream_open; patches/core 0046 drops .llseek =
 *     no_llseek, same answer);
 *   - the magic close: close after a write holding 'V' stops the timer
 *     silently, while a later write without 'V' cancels it ("in case it
 *     was set long ago") and close then logs "WDT device closed
 *     unexpectedly" (read back from /dev/kmsg) and leaves it running.
 *
 * Timeout 0 fires at once in QEMU; the profile's -action watchdog=none
 * makes that harmless. The timer is never left armed: the last case and
 * the timeout alarm both end with a magic close.
 */
#include <fcntl.h>
#include <linux/watchdog.h>
#include <sys/ioctl.h>

#include "ktap.h"
#include "../watchdog/magic-close.h"

#define WDT "/dev/watchdog"
#define IDENTITY "IB700 WDT"
#define OPTIONS (WDIOF_KEEPALIVEPING | WDIOF_SETTIMEOUT | WDIOF_MAGICCLOSE)
#define UNEXPECTED "WDT device closed unexpectedly"

static int kmsg_fd = -1;

static int fails(int r)
{
	return r < 0 ? errno : 0;
}

/* Skip what /dev/kmsg holds so far. */
static void kmsg_mark(void)
{
	if (kmsg_fd < 0)
		kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
}

/* Did the kernel log "closed unexpectedly" since kmsg_mark()? -1: no kmsg. */
static int kmsg_unexpected(void)
{
	char rec[1024];
	ssize_t n;
	int seen = 0;

	if (kmsg_fd < 0)
		return -1;
	while ((n = read(kmsg_fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;
		rec[n] = '\0';
		if (strstr(rec, UNEXPECTED))
			seen = 1;
	}
	errno = 0;
	return seen;
}

static int wdt_open(void)
{
	wdt_fd = open(WDT, O_WRONLY | O_CLOEXEC);
	return wdt_fd >= 0;
}

static int open_exclusive(void)
{
	int fd2, err;

	if (!wdt_open())
		return 0;
	fd2 = open(WDT, O_WRONLY | O_CLOEXEC);
	err = errno;
	if (fd2 >= 0) {
		if (write(fd2, "V", 1) != 1)
			ktap_perror("write V on the second fd");
		close(fd2);
	}
	errno = 0;
	return fd2 < 0 && err == EBUSY;
}

static int getsupport(void)
{
	struct watchdog_info info;
	int st = -1, bst = -1;

	memset(&info, 0, sizeof(info));
	if (ioctl(wdt_fd, WDIOC_GETSUPPORT, &info) ||
	    ioctl(wdt_fd, WDIOC_GETSTATUS, &st) ||
	    ioctl(wdt_fd, WDIOC_GETBOOTSTATUS, &bst))
		return 0;
	ktap_diag("identity '%.32s' options 0x%x firmware %u", (char *)info.identity,
		  info.options, info.firmware_version);
	return !strcmp((char *)info.identity, IDENTITY) &&
	       info.options == OPTIONS && info.firmware_version == 1 &&
	       st == 0 && bst == 0;
}

static int default_timeout(void)
{
	int t = -1;

	return !ioctl(wdt_fd, WDIOC_GETTIMEOUT, &t) && t == 30;
}

/* SETTIMEOUT in: its answer and GETTIMEOUT must be want (or EINVAL). */
static int set_timeout(int in, int want_err, int want)
{
	int v = in, got = -1, r, err;

	r = ioctl(wdt_fd, WDIOC_SETTIMEOUT, &v);
	err = r ? errno : 0;
	if (ioctl(wdt_fd, WDIOC_GETTIMEOUT, &got))
		return 0;
	ktap_diag("SETTIMEOUT %d: %s, answer %d, GETTIMEOUT %d", in,
		  r ? strerror(err) : "ok", v, got);
	errno = 0;
	if (want_err)
		return r == -1 && err == want_err && got == want;
	return !r && v == want && got == want;
}

static int timeout_odd(void)
{
	return set_timeout(7, 0, 7);
}

static int timeout_zero(void)
{
	return set_timeout(0, 0, 0);
}

static int timeout_max(void)
{
	return set_timeout(30, 0, 30);
}

static int timeout_over(void)
{
	return set_timeout(31, EINVAL, 30);
}

static int timeout_negative(void)
{
	return set_timeout(-1, EINVAL, 30);
}

static int setoptions(void)
{
	int none = 0, off = WDIOS_DISABLECARD, on = WDIOS_ENABLECARD;
	int bad = fails(ioctl(wdt_fd, WDIOC_SETOPTIONS, &none)) == EINVAL;

	errno = 0;
	return bad && !ioctl(wdt_fd, WDIOC_SETOPTIONS, &off) &&
	       !ioctl(wdt_fd, WDIOC_SETOPTIONS, &on);
}

static int keepalive(void)
{
	int unknown;
	int ok = !ioctl(wdt_fd, WDIOC_KEEPALIVE, 0) &&
		 write(wdt_fd, "k", 1) == 1 && write(wdt_fd, "", 0) == 0;
	int temp;

	unknown = fails(ioctl(wdt_fd, WDIOC_GETTEMP, &temp)) == ENOTTY;
	errno = 0;
	return ok && unknown;
}

static int lseek_espipe(void)
{
	return lseek(wdt_fd, 0, SEEK_SET) == -1 && errno == ESPIPE;
}

/* 'V' then close: stopped, nothing logged; reopen works. */
static int magic_close(void)
{
	int r;

	kmsg_mark();
	disarm();
	r = kmsg_unexpected();
	if (!wdt_open())
		return 0;
	return r == 0;
}

/* 'V', then a write without it, then close: logged, still running. */
static int cancelled_magic(void)
{
	int fd = wdt_fd, r;

	kmsg_mark();
	wdt_fd = -1;
	if (write(fd, "V", 1) != 1 || write(fd, "x", 1) != 1)
		return 0;
	close(fd);
	r = kmsg_unexpected();
	if (!wdt_open())
		return 0;
	return r == 1;
}

/* The last one: the timer is stopped and the device free again. */
static int final_close(void)
{
	int r, fd;

	kmsg_mark();
	disarm();
	r = kmsg_unexpected();
	fd = open(WDT, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		wdt_fd = fd;
		disarm();
	}
	return r == 0 && fd >= 0;
}

static const struct ktap_case cases[] = {
	{ "open " WDT ", a second open is EBUSY", open_exclusive },
	{ "WDIOC_GETSUPPORT " IDENTITY ", firmware 1, options 0x" "8180"
	  ", GETSTATUS and GETBOOTSTATUS 0", getsupport },
	{ "WDIOC_GETTIMEOUT default 30", default_timeout },
	{ "WDIOC_SETTIMEOUT 7 answers 7, GETTIMEOUT 7 (not rounded to 8)", timeout_odd },
	{ "WDIOC_SETTIMEOUT 0 is taken", timeout_zero },
	{ "WDIOC_SETTIMEOUT 30 is taken", timeout_max },
	{ "WDIOC_SETTIMEOUT 31 is EINVAL, timeout stays 30", timeout_over },
	{ "WDIOC_SETTIMEOUT -1 is EINVAL, timeout stays 30", timeout_negative },
	{ "WDIOC_SETOPTIONS 0 is EINVAL, DISABLECARD and ENABLECARD taken", setoptions },
	{ "WDIOC_KEEPALIVE, a ping write, an empty write, unknown ioctl ENOTTY", keepalive },
	{ "lseek " WDT " is ESPIPE", lseek_espipe },
	{ "magic close: 'V' then close logs nothing, reopen works", magic_close },
	{ "'V' then 'x' cancels the magic close: close logs " UNEXPECTED, cancelled_magic },
	{ "final magic close logs nothing, the device opens again", final_close },
};

static void run(void)
{
	signal(SIGALRM, on_alarm);
	ktap_run_cases(cases, ARRAY_SIZE(cases));
	disarm();
	if (kmsg_fd >= 0)
		close(kmsg_fd);
}

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ WDT, NULL },
	.kconfig = (const char *const[]){ "CONFIG_IB700_WDT", NULL },
	.timeout = 20,
	.upstream = "patches/core 0046 (drivers/watchdog: drop no_llseek)",
	.run = run,
};
