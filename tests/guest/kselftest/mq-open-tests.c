// SPDX-License-Identifier: GPL-2.0
/*
 * mq-open-tests - the kernel's own POSIX message queue selftest
 * (tools/testing/selftests/mqueue/mq_open_tests.c) in the
 * kernel-facilities profile, beside core/mqueue: mq_open() against the
 * /proc/sys/fs/mqueue limits (defaults, maximums, over-limit attributes,
 * what root may exceed), which it raises and puts back. ipc/mqueue.c is
 * touched by our core series (its mqueue filesystem file's llseek).
 */
#include "kselftest.h"

const struct ktap_test ktap_test = {
	.kconfig = (const char *const[]){ "CONFIG_POSIX_MQUEUE", NULL },
	.timeout = 60,
	KSFT_TEST,
};
