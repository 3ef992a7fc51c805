// SPDX-License-Identifier: GPL-2.0
/*
 * hpet - /dev/hpet (drivers/char/hpet.c) on the HPET of QEMU's -M pc,
 * which the kernel finds through the ACPI HPET table (the acpi-pc profile
 * boots with ACPI).
 *
 * QEMU's HPET has three comparators; the kernel keeps timer 0 (the tick,
 * legacy replacement route) and timer 1 (its RTC emulation) for itself
 * (hpet_reserve_platform_timers), so /dev/hpet hands out timer 2 and a
 * second open is EBUSY. On -M pc QEMU lets a comparator route only to IRQ
 * 2, which hpet.c never takes in IO-APIC mode; the profile widens the
 * routing to q35's (-global hpet.hpet-intcap=0xff0104: GSI 16-23), so
 * timer 2 gets a GSI of its own at open and HPET_IE_ON has an interrupt.
 *
 * Each case pins what 6.1 does:
 *   - open for writing is EINVAL; HPET_INFO names HPET 0, timer 2, the
 *     periodic capability and no frequency yet; a second open is EBUSY;
 *   - before HPET_IRQFREQ: read is EIO, poll reports nothing, HPET_IE_ON
 *     is EIO; HPET_IRQFREQ 0 is EINVAL, an unknown command EINVAL;
 *   - HPET_IRQFREQ 64, HPET_EPI, HPET_IE_ON: poll is readable within 1 s,
 *     a read shorter than an unsigned long is EINVAL and one of an
 *     unsigned long gives a count >= 1; 1 s of
 *     blocking reads counts 64 Hz within a factor of two; a second
 *     HPET_IE_ON is EBUSY; after HPET_IE_OFF nothing comes for 300 ms and
 *     a non-blocking read is EAGAIN;
 *   - HPET_DPI then HPET_IE_ON: the one-shot comparator is re-armed by the
 *     interrupt handler, so interrupts keep coming;
 *   - O_ASYNC with F_SETOWN and F_SETSIG: SIGIO naming the fd and
 *     POLL_IN within 1 s (hpet_fasync, kill_fasync from the interrupt);
 *   - mmap of the register page: without CONFIG_HPET_MMAP (the lab
 *     kernels today) ENOSYS; with it (and hpet_mmap=1, which the profile
 *     boots with) QEMU's capabilities register (vendor 0x8086, 10 ns
 *     period, three timers) and a main counter that moves;
 *   - /proc/sys/dev/hpet/max-user-freq is 64 (HPET_USER_FREQ);
 *   - lseek is ESPIPE: 6.1 has .llseek = no_llseek, the patched kernel
 *     drops it (patches/core 0011) and a NULL .llseek clears FMODE_LSEEK
 *     at open, so both kernels answer the same;
 *   - close frees the timer: it opens again.
 */
#include <fcntl.h>
#include <linux/hpet.h>
#include <signal.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "ktap.h"

#define HPET "/dev/hpet"
#define FREQ 64
#define IRQ_WAIT_MS 1000
#define COUNT_MS 1000
#define QUIET_MS 300

static int fd = -1;

/* errno of a failed call, 0 when it succeeded. */
static int fails(int r)
{
	return r < 0 ? errno : 0;
}

static int open_ro(void)
{
	int w = open(HPET, O_RDWR | O_CLOEXEC);
	int err = errno;

	if (w >= 0)
		close(w);
	fd = open(HPET, O_RDONLY | O_CLOEXEC);
	return w < 0 && err == EINVAL && fd >= 0;
}

static int info(struct hpet_info *hi)
{
	memset(hi, 0xff, sizeof(*hi));
	if (ioctl(fd, HPET_INFO, hi))
		return 0;
	ktap_diag("HPET_INFO freq %lu flags 0x%lx hpet %u timer %u",
		  hi->hi_ireqfreq, hi->hi_flags, hi->hi_hpet, hi->hi_timer);
	return 1;
}

static int info_timer2(void)
{
	struct hpet_info hi;

	return info(&hi) && hi.hi_hpet == 0 && hi.hi_timer == 2 &&
	       (hi.hi_flags & HPET_INFO_PERIODIC) && hi.hi_ireqfreq == 0;
}

static int second_open_busy(void)
{
	int fd2 = open(HPET, O_RDONLY | O_CLOEXEC);
	int err = errno;

	if (fd2 >= 0) {
		close(fd2);
		return 0;
	}
	errno = 0;
	return err == EBUSY;
}

static int before_freq(void)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	unsigned long v;
	int rd = fails(read(fd, &v, sizeof(v)));
	int pr = poll(&p, 1, 0);
	int ie = fails(ioctl(fd, HPET_IE_ON, 0));

	ktap_diag("read errno %d, poll %d revents 0x%x, IE_ON errno %d", rd,
		  pr, p.revents, ie);
	errno = 0;
	return rd == EIO && pr == 0 && ie == EIO;
}

static int bad_ioctls(void)
{
	int zero = fails(ioctl(fd, HPET_IRQFREQ, 0UL));
	int unknown = fails(ioctl(fd, _IO('h', 0x7f), 0));

	errno = 0;
	return zero == EINVAL && unknown == EINVAL;
}

static int periodic_on(void)
{
	struct hpet_info hi;

	if (ioctl(fd, HPET_IRQFREQ, (unsigned long)FREQ) ||
	    ioctl(fd, HPET_EPI, 0) || ioctl(fd, HPET_IE_ON, 0))
		return 0;
	return info(&hi) && hi.hi_ireqfreq == FREQ;
}

/* Readable within ms? A diagnostic when it is not, or when verbose. */
static int readable(int ms, int verbose)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	long long t0 = ktap_now_ms();
	int r = poll(&p, 1, ms), ok = r == 1 && (p.revents & POLLIN);

	if (verbose || !ok)
		ktap_diag("poll %d revents 0x%x after %lld ms", r, p.revents,
			  ktap_now_ms() - t0);
	return ok;
}

/* The interrupt line of timer 2, for the record: "hpet2" in /proc/interrupts. */
static void show_irq(void)
{
	FILE *f = fopen("/proc/interrupts", "r");
	char line[256];

	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, "hpet2")) {
			line[strcspn(line, "\n")] = '\0';
			ktap_diag("%s", line);
		}
	if (f)
		fclose(f);
}

static int first_interrupt(void)
{
	unsigned long v = 0;
	int short_read;

	if (!readable(IRQ_WAIT_MS, 1))
		return 0;
	/* A count is an unsigned long (compat_ulong_t from a 32-bit program). */
	short_read = fails(read(fd, &v, sizeof(v) - 1)) == EINVAL;
	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	ktap_diag("read count %lu", v);
	show_irq();
	return short_read && v >= 1;
}

static int rate(void)
{
	long long t0 = ktap_now_ms(), t;
	unsigned long v, sum = 0;

	/* Each read returns the interrupts since the last; poll bounds it. */
	while ((t = ktap_now_ms() - t0) < COUNT_MS) {
		if (!readable(IRQ_WAIT_MS, 0) ||
		    read(fd, &v, sizeof(v)) != sizeof(v))
			return 0;
		sum += v;
	}
	ktap_diag("%lu interrupts in %lld ms", sum, t);
	return sum * 1000 >= (unsigned long)t * FREQ / 2 &&
	       sum * 1000 <= (unsigned long)t * FREQ * 2;
}

static int ie_on_busy(void)
{
	return fails(ioctl(fd, HPET_IE_ON, 0)) == EBUSY;
}

static int ie_off_quiet(void)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	unsigned long v;
	int fl, r, again;

	if (ioctl(fd, HPET_IE_OFF, 0))
		return 0;
	fl = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	/* An interrupt may have landed between the last read and IE_OFF. */
	if (read(fd, &v, sizeof(v)) > 0)
		ktap_diag("drained %lu", v);
	r = poll(&p, 1, QUIET_MS);
	again = fails(read(fd, &v, sizeof(v))) == EAGAIN;
	fcntl(fd, F_SETFL, fl);
	errno = 0;
	return r == 0 && again;
}

static int oneshot(void)
{
	unsigned long v, sum = 0;
	int i;

	if (ioctl(fd, HPET_DPI, 0) || ioctl(fd, HPET_IE_ON, 0))
		return 0;
	for (i = 0; i < 3; i++) {
		if (!readable(IRQ_WAIT_MS, 0) ||
		    read(fd, &v, sizeof(v)) != sizeof(v))
			break;
		sum += v;
	}
	ktap_diag("%d reads, %lu interrupts", i, sum);
	return !ioctl(fd, HPET_IE_OFF, 0) && i == 3 && sum >= 3;
}

static int sigio(void)
{
	struct timespec to = { .tv_sec = IRQ_WAIT_MS / 1000 };
	sigset_t set, old;
	siginfo_t si;
	int fl = fcntl(fd, F_GETFL), sig;

	sigemptyset(&set);
	sigaddset(&set, SIGIO);
	sigprocmask(SIG_BLOCK, &set, &old);
	/* F_SETSIG: a queued siginfo naming the fd and POLL_IN. */
	if (fcntl(fd, F_SETOWN, getpid()) || fcntl(fd, F_SETSIG, SIGIO) ||
	    fcntl(fd, F_SETFL, fl | O_ASYNC) ||
	    ioctl(fd, HPET_EPI, 0) || ioctl(fd, HPET_IE_ON, 0)) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return 0;
	}
	sig = sigtimedwait(&set, &si, &to);
	if (sig > 0)
		ktap_diag("sigtimedwait %d, si_code %d, si_fd %d", sig,
			  si.si_code, si.si_fd);
	ioctl(fd, HPET_IE_OFF, 0);
	fcntl(fd, F_SETFL, fl);
	fcntl(fd, F_SETSIG, 0);
	/* A SIGIO that came after the wait is dropped with the mask. */
	while (sigtimedwait(&set, &si, &(struct timespec){ 0 }) > 0)
		;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = 0;
	return sig == SIGIO && si.si_code == POLL_IN && si.si_fd == fd;
}

/*
 * With CONFIG_HPET_MMAP (and hpet_mmap=1 on the command line) the page of
 * registers maps: QEMU's capabilities register and a main counter that
 * moves; without it hpet_mmap is ENOSYS. Which one is read from the
 * kernel's config, so each kernel's answer is checked.
 */
static int registers(void)
{
	volatile uint64_t *r;
	uint64_t cap, c0, c1;
	long long t0;

	r = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (!ktap_kconfig_set("CONFIG_HPET_MMAP")) {
		ktap_diag("no CONFIG_HPET_MMAP: mmap %s",
			  r == MAP_FAILED ? strerror(errno) : "mapped");
		if (r != MAP_FAILED)
			munmap((void *)r, 4096);
		return r == MAP_FAILED && errno == ENOSYS;
	}
	if (r == MAP_FAILED)
		return 0;
	cap = r[0];
	c0 = r[0xf0 / 8];
	/* 10 ns a tick: 2 ms is 200000 ticks. */
	t0 = ktap_now_ms();
	while (ktap_now_ms() - t0 < 2)
		;
	c1 = r[0xf0 / 8];
	munmap((void *)r, 4096);
	ktap_diag("GCAP_ID 0x%016llx counter %llu then %llu",
		  (unsigned long long)cap, (unsigned long long)c0,
		  (unsigned long long)c1);
	return (cap >> 32) == 10000000 && ((cap >> 16) & 0xffff) == 0x8086 &&
	       ((cap >> 8) & 0x1f) == 2 && c1 > c0;
}

static int max_user_freq(void)
{
	FILE *f = fopen("/proc/sys/dev/hpet/max-user-freq", "r");
	int v = -1;

	if (!f)
		return 0;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	ktap_diag("max-user-freq %d", v);
	return v == 64;
}

static int lseek_espipe(void)
{
	return lseek(fd, 0, SEEK_SET) == -1 && errno == ESPIPE;
}

static int close_reopen(void)
{
	int ok = !close(fd);

	fd = open(HPET, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	return ok && info_timer2() && !close(fd);
}

static const struct ktap_case cases[] = {
	{ "open " HPET " for writing is EINVAL, read-only opens", open_ro },
	{ "HPET_INFO: hpet 0, timer 2, periodic-capable, no frequency", info_timer2 },
	{ "a second open is EBUSY (one timer free)", second_open_busy },
	{ "without HPET_IRQFREQ: read EIO, poll nothing, HPET_IE_ON EIO", before_freq },
	{ "HPET_IRQFREQ 0 and an unknown command are EINVAL", bad_ioctls },
	{ "HPET_IRQFREQ 64, HPET_EPI, HPET_IE_ON; HPET_INFO gives 64 Hz", periodic_on },
	{ "readable within 1 s; a read short of a long EINVAL, a long a count >= 1", first_interrupt },
	{ "1 s of blocking reads counts 64 Hz within a factor of 2", rate },
	{ "a second HPET_IE_ON is EBUSY", ie_on_busy },
	{ "HPET_IE_OFF: nothing for 300 ms, non-blocking read EAGAIN", ie_off_quiet },
	{ "HPET_DPI, HPET_IE_ON: the one-shot timer is re-armed, 3 reads", oneshot },
	{ "O_ASYNC: SIGIO with POLL_IN and the fd within 1 s", sigio },
	{ "mmap: ENOSYS without CONFIG_HPET_MMAP, else GCAP_ID and the counter", registers },
	{ "/proc/sys/dev/hpet/max-user-freq is 64", max_user_freq },
	{ "lseek " HPET " is ESPIPE", lseek_espipe },
	{ "close frees timer 2: it opens again", close_reopen },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(cases),
	.devices = (const char *const[]){ HPET, NULL },
	.kconfig = (const char *const[]){ "CONFIG_HPET", NULL },
	.timeout = 20,
	.upstream = "patches/core 0011 (drivers/char: drop no_llseek)",
	.cases = cases,
};
