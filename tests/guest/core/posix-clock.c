// SPDX-License-Identifier: GPL-2.0
/*
 * posix-clock - the dynamic POSIX clocks of kernel/time/posix-clock.c, the
 * clock ids made from a file descriptor (FD_TO_CLOCKID). The only posix
 * clock character devices 6.1 registers are PTP clocks (/dev/ptpN,
 * drivers/ptp, CONFIG_PTP_1588_CLOCK), which the lab kernel does not
 * build; but clock_gettime, clock_getres, clock_adjtime and clock_settime
 * on an fd clock id always go through posix-clock.c, whose
 * get_clock_desc refuses a file that is not a posix clock, and a closed
 * descriptor too, with EINVAL (never EBADF). The raw system calls are
 * used: the vDSO would not be asked about a negative clock id anyway.
 */
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/timex.h>

#include "ktap.h"

/* include/linux/posix-timers.h: CLOCKFD is CPUCLOCK_MAX, 3. */
#define CLOCKFD 3
#define FD_TO_CLOCKID(fd) ((~(clockid_t)(fd) << 3) | CLOCKFD)

static int einval(long ret)
{
	return ret < 0 && errno == EINVAL;
}

/* Every fd clock call on descriptor fd is EINVAL. */
static int refused(int fd)
{
	struct timespec ts = { 0, 0 };
	struct timex tx = { .modes = 0 };
	clockid_t id = FD_TO_CLOCKID(fd);

	return einval(syscall(SYS_clock_gettime, id, &ts)) &&
	       einval(syscall(SYS_clock_getres, id, &ts)) &&
	       einval(syscall(SYS_clock_adjtime, id, &tx)) &&
	       einval(syscall(SYS_clock_settime, id, &ts));
}

static int not_a_clock(void)
{
	int fd = open("/dev/null", O_RDWR);
	int ok = fd >= 0 && refused(fd);

	close(fd);
	return ok;
}

static int closed_fd(void)
{
	int fd = open("/dev/null", O_RDONLY);

	close(fd);
	return fd >= 0 && refused(fd);
}

/* The fd clock table has no timers: timer_create is EOPNOTSUPP. */
static int no_timer(void)
{
	int fd = open("/dev/null", O_RDONLY);
	struct sigevent ev = { .sigev_notify = SIGEV_NONE };
	int timer;
	int ok = fd >= 0 &&
		 syscall(SYS_timer_create, FD_TO_CLOCKID(fd), &ev, &timer) < 0 &&
		 errno == EOPNOTSUPP;

	close(fd);
	return ok;
}

/* A valid clock id still answers: the fd path is only for negative ids. */
static int realtime(void)
{
	struct timespec ts = { 0, 0 };

	return !syscall(SYS_clock_gettime, CLOCK_REALTIME, &ts) && ts.tv_sec > 0;
}

static const struct ktap_case tcases[] = {
	{ "fd clock of /dev/null: gettime getres adjtime settime EINVAL", not_a_clock },
	{ "fd clock of a closed descriptor: EINVAL, not EBADF", closed_fd },
	{ "timer_create on an fd clock is EOPNOTSUPP", no_timer },
	{ "CLOCK_REALTIME still answers", realtime },
};

const struct ktap_test ktap_test = {
	.plan = ARRAY_SIZE(tcases),
	.timeout = 10,
	.cases = tcases,
};
