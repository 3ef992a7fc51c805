description=DRAFT test_hmm
kconfig=CONFIG_MIGRATION=y
kconfig=CONFIG_MEMORY_HOTPLUG=y
kconfig=CONFIG_MEMORY_HOTREMOVE=y
kconfig=CONFIG_ZONE_DEVICE=y
kconfig=CONFIG_DEVICE_PRIVATE=y
kconfig=CONFIG_TEST_HMM=m
tests=core/chardev
timeout=90
