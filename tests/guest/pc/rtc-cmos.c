// SPDX-License-Identifier: GPL-2.0
/*
 * rtc-cmos - the RTC character device (drivers/rtc/dev.c) on the CMOS
 * clock of QEMU's -M pc, driven by rtc-cmos (the boot has acpi=off,
 * so the platform device of arch/x86/kernel/rtc.c with IRQ 8, delivered
 * through the HPET's RTC emulation: "alarms up to one day, hpet irqs").
 *
 * Each case pins what 6.1 does:
 *   - open is exclusive: a second open is EBUSY (RTC_DEV_BUSY);
 *   - RTC_RD_TIME gives a valid date close to the system time (x86 set
 *     the system time from this clock at boot);
 *   - RTC_SET_TIME of 2010-09-20 12:00:00 reads back within 2 s, an
 *     invalid month (12) is EINVAL (rtc_valid_tm);
 *   - read needs 4 or 8 bytes (EINVAL otherwise) and, with nothing
 *     pending, is EAGAIN without blocking;
 *   - RTC_UIE_ON: the core's update timer (the CMOS alarm, re-armed every
 *     second) makes the node readable within 2 s and read gives
 *     RTC_IRQF | RTC_UF with a count of at least 1 in the upper bits
 *     (rtc_handle_legacy_irq); after RTC_UIE_OFF nothing comes for 1.2 s;
 *   - RTC_IRQP_READ is 1024 (rtc-cmos forces the CMOS reset rate),
 *     RTC_IRQP_SET 64 reads back, 0 and 8193 (> RTC_MAX_FREQ) are EINVAL;
 *   - RTC_ALM_SET takes hh:mm:ss and dev.c fills in the date: today when
 *     later than now, tomorrow when earlier; RTC_ALM_READ gives that full
 *     time back (the alarm stays disabled: RTC_WKALM_RD enabled 0), an
 *     hour of 24 is EINVAL;
 *   - RTC_PARAM_GET RTC_PARAM_FEATURES has the alarm and update
 *     interrupt bits, an unknown ioctl is ENOTTY;
 *   - lseek is ESPIPE: 6.1 has .llseek = no_llseek, the patched kernel
 *     drops it (patches/core 0036) and a NULL .llseek clears FMODE_LSEEK
 *     at open, so both kernels answer the same.
 * The clock is set back to the system time at the end.
 */
#include <fcntl.h>
#include <linux/rtc.h>
#include <sys/ioctl.h>

#include "ktap.h"

#define RTC "/dev/rtc0"
#define UIE_WAIT_MS 2000
#define QUIET_MS 1200

static int rtc_fd = -1;

/* 2010-09-20 hh:mm:ss as struct rtc_time. */
static struct rtc_time day(int hour, int min, int sec)
{
	struct rtc_time tm = {
		.tm_sec = sec, .tm_min = min, .tm_hour = hour,
		.tm_mday = 20, .tm_mon = 8, .tm_year = 110,
	};

	return tm;
}

static long long secs(const struct rtc_time *tm)
{
	struct tm t = {
		.tm_sec = tm->tm_sec, .tm_min = tm->tm_min,
		.tm_hour = tm->tm_hour, .tm_mday = tm->tm_mday,
		.tm_mon = tm->tm_mon, .tm_year = tm->tm_year,
	};

	return (long long)timegm(&t);
}

static void show(const char *what, const struct rtc_time *tm)
{
	ktap_diag("%s %04d-%02d-%02d %02d:%02d:%02d", what,
		  tm->tm_year + 1900, tm->tm_mon + 1, tm->tm_mday,
		  tm->tm_hour, tm->tm_min, tm->tm_sec);
}

static int read_time(struct rtc_time *tm)
{
	memset(tm, 0, sizeof(*tm));
	return !ioctl(rtc_fd, RTC_RD_TIME, tm);
}

/* errno of a failed call, 0 when it succeeded. */
static int fails(int r)
{
	return r < 0 ? errno : 0;
}

static int open_exclusive(void)
{
	int fd2, err;

	rtc_fd = open(RTC, O_RDONLY | O_CLOEXEC);
	if (rtc_fd < 0)
		return 0;
	fd2 = open(RTC, O_RDONLY | O_CLOEXEC);
	err = errno;
	if (fd2 >= 0)
		close(fd2);
	errno = 0;
	return fd2 < 0 && err == EBUSY;
}

static int rd_time_sane(void)
{
	struct rtc_time tm;
	long long diff;

	if (!read_time(&tm))
		return 0;
	show("RTC_RD_TIME", &tm);
	diff = secs(&tm) - (long long)time(NULL);
	ktap_diag("RTC minus system time: %lld s", diff);
	return tm.tm_year + 1900 >= 2020 && tm.tm_year + 1900 < 2100 &&
	       tm.tm_mon >= 0 && tm.tm_mon < 12 && tm.tm_mday >= 1 &&
	       tm.tm_mday <= 31 && tm.tm_hour < 24 && tm.tm_min < 60 &&
	       tm.tm_sec < 60 && diff > -120 && diff < 120;
}

static int set_time_reads_back(void)
{
	struct rtc_time set = day(12, 0, 0), got;
	long long d;

	if (ioctl(rtc_fd, RTC_SET_TIME, &set) || !read_time(&got))
		return 0;
	show("read back", &got);
	d = secs(&got) - secs(&set);
	return d >= 0 && d <= 2;
}

static int set_time_invalid(void)
{
	struct rtc_time bad = day(12, 0, 0);

	bad.tm_mon = 12;
	return fails(ioctl(rtc_fd, RTC_SET_TIME, &bad)) == EINVAL;
}

static void nonblock(int on)
{
	int fl = fcntl(rtc_fd, F_GETFL);

	fcntl(rtc_fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK);
}

static int read_sizes(void)
{
	unsigned long data;
	char two[2];
	int short_read, idle;

	nonblock(1);
	short_read = fails(read(rtc_fd, two, sizeof(two))) == EINVAL;
	idle = fails(read(rtc_fd, &data, sizeof(data))) == EAGAIN;
	nonblock(0);
	return short_read && idle;
}

static int uie_interrupt(void)
{
	struct pollfd p = { .fd = rtc_fd, .events = POLLIN };
	unsigned long data = 0;
	long long t0;
	int r;

	if (ioctl(rtc_fd, RTC_UIE_ON, 0))
		return 0;
	t0 = ktap_now_ms();
	r = poll(&p, 1, UIE_WAIT_MS);
	ktap_diag("poll %d revents 0x%x after %lld ms", r, p.revents,
		  ktap_now_ms() - t0);
	if (r != 1 || !(p.revents & POLLIN))
		return 0;
	if (read(rtc_fd, &data, sizeof(data)) != sizeof(data))
		return 0;
	ktap_diag("read 0x%lx", data);
	return (data & 0xff) == (RTC_IRQF | RTC_UF) && (data >> 8) >= 1;
}

static int uie_off_quiet(void)
{
	struct pollfd p = { .fd = rtc_fd, .events = POLLIN };
	unsigned long data;
	int r;

	if (ioctl(rtc_fd, RTC_UIE_OFF, 0))
		return 0;
	/* An update may have landed between the read and UIE_OFF. */
	nonblock(1);
	r = read(rtc_fd, &data, sizeof(data));
	nonblock(0);
	if (r > 0)
		ktap_diag("drained 0x%lx", data);
	r = poll(&p, 1, QUIET_MS);
	errno = 0;
	return r == 0;
}

static int irqp(void)
{
	unsigned long f0 = 0, f1 = 0, f2 = 0;
	int zero, high;

	if (ioctl(rtc_fd, RTC_IRQP_READ, &f0) || ioctl(rtc_fd, RTC_IRQP_SET, 64) ||
	    ioctl(rtc_fd, RTC_IRQP_READ, &f1))
		return 0;
	zero = fails(ioctl(rtc_fd, RTC_IRQP_SET, 0)) == EINVAL;
	high = fails(ioctl(rtc_fd, RTC_IRQP_SET, 8193)) == EINVAL;
	ioctl(rtc_fd, RTC_IRQP_READ, &f2);
	ktap_diag("irq_freq %lu, then %lu, after refusals %lu", f0, f1, f2);
	errno = 0;
	return f0 == 1024 && f1 == 64 && zero && high && f2 == 64;
}

/* RTC_ALM_SET hh:mm:ss, then RTC_ALM_READ must give the date mday. */
static int alarm_date(int hour, int mday)
{
	struct rtc_time a = { .tm_hour = hour }, got;

	if (ioctl(rtc_fd, RTC_ALM_SET, &a))
		return 0;
	memset(&got, 0, sizeof(got));
	if (ioctl(rtc_fd, RTC_ALM_READ, &got))
		return 0;
	show("RTC_ALM_READ", &got);
	return got.tm_year == 110 && got.tm_mon == 8 && got.tm_mday == mday &&
	       got.tm_hour == hour && !got.tm_min && !got.tm_sec;
}

static int alarm_today(void)
{
	return alarm_date(13, 20);
}

static int alarm_tomorrow(void)
{
	return alarm_date(11, 21);
}

static int alarm_invalid_disabled(void)
{
	struct rtc_time a = { .tm_hour = 24 };
	struct rtc_wkalrm w;
	int bad = fails(ioctl(rtc_fd, RTC_ALM_SET, &a)) == EINVAL;

	memset(&w, 0xff, sizeof(w));
	errno = 0;
	return bad && !ioctl(rtc_fd, RTC_WKALM_RD, &w) && w.enabled == 0;
}

static int features(void)
{
	struct rtc_param p = { .param = RTC_PARAM_FEATURES };
	int ok = !ioctl(rtc_fd, RTC_PARAM_GET, &p);
	int unknown;

	ktap_diag("features 0x%llx", (unsigned long long)p.uvalue);
	unknown = fails(ioctl(rtc_fd, _IO('p', 0x7f), 0)) == ENOTTY;
	errno = 0;
	return ok && unknown && (p.uvalue & (1ULL << RTC_FEATURE_ALARM)) &&
	       (p.uvalue & (1ULL << RTC_FEATURE_UPDATE_INTERRUPT));
}

static int lseek_espipe(void)
{
	return lseek(rtc_fd, 0, SEEK_SET) == -1 && errno == ESPIPE;
}

static int restore_time(void)
{
	struct rtc_time tm, got;
	time_t now = time(NULL);
	struct tm t;
	long long d;

	gmtime_r(&now, &t);
	memset(&tm, 0, sizeof(tm));
	tm.tm_sec = t.tm_sec;
	tm.tm_min = t.tm_min;
	tm.tm_hour = t.tm_hour;
	tm.tm_mday = t.tm_mday;
	tm.tm_mon = t.tm_mon;
	tm.tm_year = t.tm_year;
	if (ioctl(rtc_fd, RTC_SET_TIME, &tm) || !read_time(&got))
		return 0;
	d = secs(&got) - (long long)now;
	return d >= 0 && d <= 2 && !close(rtc_fd);
}

static const struct ktap_case cases[] = {
	{ "open " RTC ", a second open is EBUSY", open_exclusive },
	{ "RTC_RD_TIME: a valid date within 2 min of the system time", rd_time_sane },
	{ "RTC_SET_TIME 2010-09-20 12:00:00 reads back within 2 s", set_time_reads_back },
	{ "RTC_SET_TIME with month 12 is EINVAL", set_time_invalid },
	{ "read of 2 bytes is EINVAL, non-blocking read with nothing pending EAGAIN", read_sizes },
	{ "RTC_UIE_ON: an update interrupt within 2 s, read gives RTC_IRQF|RTC_UF", uie_interrupt },
	{ "RTC_UIE_OFF: no interrupt for 1.2 s", uie_off_quiet },
	{ "RTC_IRQP_READ 1024, RTC_IRQP_SET 64 reads back, 0 and 8193 EINVAL", irqp },
	{ "RTC_ALM_SET 13:00:00 at 12:00 reads back as today, 2010-09-20", alarm_today },
	{ "RTC_ALM_SET 11:00:00 at 12:00 reads back as tomorrow, 2010-09-21", alarm_tomorrow },
	{ "RTC_ALM_SET hour 24 is EINVAL, RTC_WKALM_RD alarm disabled", alarm_invalid_disabled },
	{ "RTC_PARAM_GET features: alarm and update interrupt, unknown ioctl ENOTTY", features },
	{ "lseek " RTC " is ESPIPE", lseek_espipe },
	{ "RTC_SET_TIME back to the system time, close", restore_time },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ RTC, NULL },
	.kconfig = (const char *const[]){ "CONFIG_RTC_INTF_DEV",
		"CONFIG_RTC_DRV_CMOS", NULL },
	.timeout = 20,
	.upstream = "patches/core 0036 (drivers/rtc: drop no_llseek)",
	.cases = cases,
};
