// SPDX-License-Identifier: GPL-2.0
/*
 * hmm-tests - the kernel's own HMM selftest
 * (tools/testing/selftests/vm/hmm-tests.c) against lib/test_hmm.c's
 * /dev/hmm_dmirror devices, on both kernels: device-private migration,
 * mirroring reads and writes, snapshots, exclusive access, huge pages.
 * patches/core 0218 gives the dmirror files noop_llseek; the selftest
 * never seeks, so it must pass the same before and after.
 */
#include "kselftest.h"

const struct ktap_test ktap_test = {
	.devices = (const char *const[]){ "/dev/hmm_dmirror0", NULL },
	.kconfig = (const char *const[]){ "CONFIG_TEST_HMM", NULL },
	.timeout = 300,
	KSFT_TEST,
};
