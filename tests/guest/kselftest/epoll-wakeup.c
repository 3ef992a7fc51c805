// SPDX-License-Identifier: GPL-2.0
/*
 * epoll-wakeup - the kernel's own epoll selftest
 * (tools/testing/selftests/filesystems/epoll/epoll_wakeup_test.c) in the
 * core profile, beside core/event-fds: level- and edge-triggered wakeups
 * of epoll_wait, poll and select on nested epoll sets over socket pairs,
 * from one and from several threads. fs/eventpoll.c is touched by our
 * core series (the epoll file's llseek); its behaviour must not change.
 */
#include "kselftest.h"

const struct ktap_test ktap_test = {
	.kconfig = (const char *const[]){ "CONFIG_EPOLL", "CONFIG_UNIX", NULL },
	.timeout = 120,
	KSFT_TEST,
};
