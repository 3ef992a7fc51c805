# USB devices QEMU has no model for, made inside the guest the way
# syzkaller reaches USB drivers: dummy_hcd is a virtual host controller
# wired to a virtual device controller (dummy_udc), and raw_gadget lets a
# guest program be a vendor device (the VID:PID and descriptors a
# driver's id table asks for) and play its side of the protocol for
# chaoskey, ldusb, legousbtower, iowarrior, adutux, yurex, idmouse,
# usblcd, pcwd_usb, mdc800, cdc-wdm, usbtmc, ftdi-elan and gnss-usb (a
# Sierra Wireless XM1210 GNSS receiver: the GNSS core's /dev/gnss0 over a
# bulk pair). The configfs gadgets of the class drivers and the EHCI and
# OHCI debugfs files are in usb-gadget-configfs: two shorter boots, so a
# change to one of these drivers reruns this one alone.
description=dummy_hcd with raw_gadget vendor devices (GNSS receiver included)
# Guest time from instructions executed (8 ns each), not the host's clock:
# pcwd_usb waits 250 ms for the emulated card's answer, which a guest
# starved by a loaded host missed (the matrix's second guest, a build):
# the probe's disable went unanswered and later cases read its report or
# a default heartbeat. With -icount the emulator's answer costs the same
# guest time on any host; three boots at once all passed.
qemu=-icount shift=3
kconfig=CONFIG_USB_SUPPORT=y
kconfig=CONFIG_USB=m
kconfig=CONFIG_USB_GADGET=m
kconfig=CONFIG_USB_DUMMY_HCD=m
kconfig=CONFIG_USB_RAW_GADGET=m
kconfig=CONFIG_USB_WDM=m
kconfig=CONFIG_USB_TMC=m
kconfig=CONFIG_HW_RANDOM=m
kconfig=CONFIG_USB_CHAOSKEY=m
kconfig=CONFIG_USB_LD=m
kconfig=CONFIG_USB_LEGOTOWER=m
kconfig=CONFIG_USB_FTDI_ELAN=m
kconfig=CONFIG_USB_IOWARRIOR=m
kconfig=CONFIG_USB_ADUTUX=m
kconfig=CONFIG_USB_IDMOUSE=m
kconfig=CONFIG_USB_LCD=m
kconfig=CONFIG_USB_YUREX=m
kconfig=CONFIG_USB_MDC800=m
kconfig=CONFIG_WATCHDOG=y
kconfig=CONFIG_WATCHDOG_CORE=m
kconfig=CONFIG_USBPCWATCHDOG=m
kconfig=CONFIG_GNSS=m
kconfig=CONFIG_GNSS_USB=m
module=dummy_hcd
module=raw_gadget
module=cdc-wdm
module=usbtmc
module=chaoskey
module=ldusb
module=legousbtower
module=ftdi-elan
module=iowarrior
module=adutux
module=idmouse
module=usblcd
module=yurex
module=mdc800
module=pcwd_usb
module=gnss-usb
# Leaks of what the test plugged, unplugged and left open: kmemleak
# scans last, in debug/kmemleak. It used to make the drivers' own time
# limits (pcwd_usb's 250 ms) and the tests' 5 s unplug waits fail at
# random; with -icount above they no longer depend on the host's load
# (trials: both kernels, then two patched and one baseline boot at once:
# patched pass with 0 leaks, baseline fails exactly as recorded).
cmdline=kmemleak=on
tests=usb/raw-vendor debug/kmemleak
# About 40 s with kmemleak on the baseline (its hung readers wait 5 s each).
timeout=150
