// SPDX-License-Identifier: GPL-2.0
/*
 * clock-rate - the guest's CLOCK_MONOTONIC keeps the host's pace, measured
 * against the CMOS RTC (drivers/rtc/rtc-cmos.c), which QEMU drives from
 * the host's clock (-rtc clock=host, its default).
 *
 * Under TCG the kernel's TSC calibration against the PIT mostly fails, and
 * the clocksource is refined-jiffies; now and then, under load, it
 * succeeds with a rate far off. The TSC (the host's, at the host's rate)
 * then becomes the clocksource at that wrong rate: forty times low, once
 * in a make check, so the guest's clock ran forty times fast and a test's
 * 60 s alarm fired in a 9.8 s boot. The watchdog, which should catch it,
 * skipped its check ("Long readout interval") for a minute of guest time.
 * The lab boots with tsc=unstable (LAB_APPEND, scripts/lab/lib.sh), and
 * tests/host/t3005 boots this test with a TSC rate forced forty times low
 * (tsc_early_khz), with and without it.
 *
 * Only a fast clock fails: a loaded guest loses timer ticks, so its
 * jiffies clock may run slow, and a slow clock only makes a hung test's
 * alarm late (the host's timeout still ends the boot).
 */
#include <fcntl.h>
#include <linux/rtc.h>
#include <sys/ioctl.h>

#include "ktap.h"

/* At most this much CLOCK_MONOTONIC per second of the RTC. */
#define MAX_NS_PER_RTC_SECOND 1500000000LL
/* Give up waiting for an RTC second after this much CLOCK_MONOTONIC. */
#define GIVE_UP_NS 5000000000LL

static int rtc = -1;

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int rtc_second(int *sec)
{
	struct rtc_time tm;

	if (ioctl(rtc, RTC_RD_TIME, &tm) < 0)
		return -1;
	*sec = tm.tm_sec;
	return 0;
}

/*
 * The CLOCK_MONOTONIC time at which the RTC's second next changes, polled
 * every millisecond; -1 when it does not change within GIVE_UP_NS or the
 * RTC cannot be read.
 */
static long long next_rtc_second(void)
{
	const struct timespec ms = { 0, 1000000 };
	long long start = mono_ns();
	int first, sec;

	if (rtc_second(&first) < 0)
		return -1;
	do {
		nanosleep(&ms, NULL);
		if (rtc_second(&sec) < 0)
			return -1;
		if (sec != first)
			return mono_ns();
	} while (mono_ns() - start < GIVE_UP_NS);
	return -1;
}

static void run(void)
{
	long long t0, t1;
	int sec;

	rtc = open("/dev/rtc0", O_RDONLY);
	ktap_ok(rtc >= 0 && rtc_second(&sec) == 0, "the RTC reads");
	t0 = next_rtc_second();
	t1 = t0 < 0 ? -1 : next_rtc_second();
	if (t1 < 0)
		ktap_diag("no RTC second within %lld s of CLOCK_MONOTONIC",
			  GIVE_UP_NS / 1000000000LL);
	else
		ktap_diag("one RTC second: %lld ms of CLOCK_MONOTONIC",
			  (t1 - t0) / 1000000);
	ktap_ok(t1 > t0 && t0 >= 0 && t1 - t0 <= MAX_NS_PER_RTC_SECOND,
		"one RTC second is at most %lld ms of CLOCK_MONOTONIC",
		MAX_NS_PER_RTC_SECOND / 1000000);
	close(rtc);
}

const struct ktap_test ktap_test = {
	.plan = 2,
	.devices = (const char *const[]){ "/dev/rtc0", NULL },
	.kconfig = (const char *const[]){ "CONFIG_RTC_DRV_CMOS", NULL },
	.timeout = 30,
	.run = run,
};
