/* SPDX-License-Identifier: GPL-2.0 */
/*
 * magic-close.h - the open watchdog of a watchdog test and its magic close,
 * also on the test's timeout, so that a test that stops early never leaves
 * the guest's watchdog armed. Shared by watchdog/i6300esb and pc/ib700.
 */
#ifndef BKLFREE_MAGIC_CLOSE_H
#define BKLFREE_MAGIC_CLOSE_H

#include "ktap.h"

static volatile int wdt_fd = -1;

/* Magic close; safe in a signal handler. */
static void disarm(void)
{
	int fd = wdt_fd;

	if (fd < 0)
		return;
	wdt_fd = -1;
	if (write(fd, "V", 1) != 1)
		ktap_diag("magic close: write 'V': %s", strerror(errno));
	close(fd);
}

/* The test's SIGALRM handler: disarm, then ktap.h's timeout report. */
static void on_alarm(int sig)
{
	disarm();
	ktap_on_alarm(sig);
}

#endif
