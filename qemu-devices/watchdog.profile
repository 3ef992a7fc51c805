# Intel 6300ESB watchdog. The test pings and re-times the watchdog and always
# disarms it with the magic close; the action is "none" so that a test bug
# cannot reset the guest behind the runner's back.
description=i6300esb watchdog: info, timeout, keepalive, magic close
qemu=-device i6300esb
qemu=-action watchdog=none
kconfig=CONFIG_WATCHDOG=y
kconfig=CONFIG_WATCHDOG_CORE=m
kconfig=CONFIG_I6300ESB_WDT=m
module=i6300esb
tests=watchdog/i6300esb
timeout=60
