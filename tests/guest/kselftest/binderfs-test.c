// SPDX-License-Identifier: GPL-2.0
/*
 * binderfs-test - the kernel's own binderfs selftest
 * (tools/testing/selftests/filesystems/binderfs/binderfs_test.c), run in
 * the binderfs profile on both kernels beside misc/binderfs: it mounts
 * binderfs instances, makes devices through binder-control up to the
 * limit, stresses that from several processes, and checks what an
 * unprivileged user namespace may do. Our core series changes binderfs's
 * binder-control llseek (patches/core 0102 drops a dead .llseek); the
 * selftest must not notice.
 */
#include "kselftest.h"

const struct ktap_test ktap_test = {
	.kconfig = (const char *const[]){ "CONFIG_ANDROID_BINDERFS", "CONFIG_UNIX",
					  "CONFIG_USER_NS", NULL },
	.timeout = 240,
	KSFT_TEST,
};
