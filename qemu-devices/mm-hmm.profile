# HMM's test driver, lib/test_hmm.c (patches/core 0218 gives its
# /dev/hmm_dmirror devices noop_llseek), driven by the kernel's own HMM
# selftest (tools/testing/selftests/vm/hmm-tests.c, run by
# tests/guest/kselftest/hmm-tests): device-private pages migrated to and
# from the fake device, mirrored reads and writes, snapshots, exclusive
# access. test_hmm needs device-private memory (ZONE_DEVICE and what it
# depends on: memory hotplug and hot-remove, migration) and THP.
description=test_hmm's /dev/hmm_dmirror devices under the kernel's own HMM selftest
kconfig=CONFIG_MIGRATION=y
kconfig=CONFIG_MEMORY_HOTPLUG=y
kconfig=CONFIG_MEMORY_HOTREMOVE=y
kconfig=CONFIG_SPARSEMEM_VMEMMAP=y
kconfig=CONFIG_ZONE_DEVICE=y
kconfig=CONFIG_DEVICE_PRIVATE=y
# TEST_HMM sits in the Runtime Testing menu, which allnoconfig leaves off.
kconfig=CONFIG_RUNTIME_TESTING_MENU=y
kconfig=CONFIG_TEST_HMM=m
kconfig=CONFIG_TRANSPARENT_HUGEPAGE=y
# hmm-tests' get_user_pages cases go through debugfs gup_test.
kconfig=CONFIG_GUP_TEST=y
module=test_hmm
tests=kselftest/hmm-tests
timeout=400
