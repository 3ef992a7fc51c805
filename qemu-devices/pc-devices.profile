# Devices of a PC that the other profiles leave out: the CMOS real-time
# clock of -M pc (rtc-cmos, /dev/rtc0, drivers/rtc/dev.c) and an ib700 ISA
# watchdog (-device ib700, ib700wdt, /dev/watchdog). ib700wdt is a misc
# device of its own, not a watchdog-core driver; pc/ib700 sets timeout 0,
# which QEMU's ib700 fires at once: -action watchdog=none keeps the guest.
description=CMOS RTC (/dev/rtc0) and the ib700 ISA watchdog
qemu=-device ib700
qemu=-action watchdog=none
kconfig=CONFIG_RTC_CLASS=y
kconfig=CONFIG_RTC_INTF_DEV=y
kconfig=CONFIG_RTC_DRV_CMOS=m
kconfig=CONFIG_WATCHDOG=y
kconfig=CONFIG_WATCHDOG_CORE=m
kconfig=CONFIG_IB700_WDT=m
module=rtc-cmos
module=ib700wdt
tests=pc/rtc-cmos pc/ib700
timeout=60
