# USB devices QEMU has no model for, made inside the guest the way
# syzkaller reaches USB drivers: dummy_hcd is a virtual host controller
# wired to a virtual device controller (dummy_udc). A configfs gadget
# (libcomposite) with printer, ACM, HID and FunctionFS functions enumerates
# on it and the host side's class drivers bind (usblp, cdc-acm, usbhid);
# raw_gadget lets a guest program be a vendor device (the VID:PID and
# descriptors a driver's id table asks for) and play its side of the
# protocol for chaoskey, ldusb, legousbtower, iowarrior, adutux, yurex,
# idmouse, usblcd, pcwd_usb, mdc800, cdc-wdm, usbtmc, ftdi-elan and
# gnss-usb (a Sierra Wireless XM1210 GNSS receiver: the GNSS core's
# /dev/gnss0 over a bulk pair).
# QEMU's EHCI and OHCI controllers are here for their debugfs files;
# ehci-dbg.c builds them only with CONFIG_DYNAMIC_DEBUG (the whole file is
# under that #ifdef), ohci-dbg.c always: the kernel has DYNAMIC_DEBUG, as
# Debian's does (no pr_debug prints unless switched on in its control
# file). hid-generic binds the HID function's keyboard on the host side
# (hidraw0, and evdev's event node); gadgetfs takes the UDC after the
# configfs gadget leaves it.
description=dummy_hcd gadgets: configfs printer/ACM/HID/FunctionFS, raw_gadget vendor devices (GNSS receiver included); EHCI and OHCI debugfs
qemu=-device usb-ehci
qemu=-device pci-ohci
# Guest time from instructions executed (8 ns each), not the host's clock:
# pcwd_usb waits 250 ms for the emulated card's answer, which a guest
# starved by a loaded host missed (the matrix's second guest, a build):
# the probe's disable went unanswered and later cases read its report or
# a default heartbeat. With -icount the emulator's answer costs the same
# guest time on any host; three boots at once all passed.
qemu=-icount shift=3
kconfig=CONFIG_USB_SUPPORT=y
kconfig=CONFIG_DYNAMIC_DEBUG=y
kconfig=CONFIG_USB=m
kconfig=CONFIG_USB_PCI=y
kconfig=CONFIG_USB_EHCI_HCD=m
kconfig=CONFIG_USB_EHCI_PCI=m
kconfig=CONFIG_USB_OHCI_HCD=m
kconfig=CONFIG_USB_OHCI_HCD_PCI=m
kconfig=CONFIG_USB_GADGET=m
kconfig=CONFIG_USB_DUMMY_HCD=m
kconfig=CONFIG_USB_LIBCOMPOSITE=m
kconfig=CONFIG_CONFIGFS_FS=m
kconfig=CONFIG_USB_CONFIGFS=m
kconfig=CONFIG_USB_CONFIGFS_F_PRINTER=y
kconfig=CONFIG_USB_CONFIGFS_ACM=y
kconfig=CONFIG_USB_CONFIGFS_F_HID=y
kconfig=CONFIG_USB_CONFIGFS_F_FS=y
kconfig=CONFIG_USB_RAW_GADGET=m
kconfig=CONFIG_USB_GADGETFS=m
kconfig=CONFIG_USB_PRINTER=m
kconfig=CONFIG_USB_ACM=m
kconfig=CONFIG_USB_WDM=m
kconfig=CONFIG_USB_TMC=m
kconfig=CONFIG_HID=m
kconfig=CONFIG_USB_HID=m
kconfig=CONFIG_HIDRAW=y
kconfig=CONFIG_HID_GENERIC=m
kconfig=CONFIG_INPUT=y
kconfig=CONFIG_INPUT_EVDEV=m
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
module=ehci-pci
module=ohci-pci
module=dummy_hcd
module=libcomposite
module=usb_f_printer
module=usb_f_acm
module=usb_f_hid
module=usb_f_fs
module=raw_gadget
module=gadgetfs
module=usblp
module=cdc-acm
module=usbhid
module=hid-generic
module=evdev
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
# Leaks of what the tests plugged, unplugged and left open: kmemleak
# scans last, in debug/kmemleak. It used to make the drivers' own time
# limits (pcwd_usb's 250 ms) and the tests' 5 s unplug waits fail at
# random; with -icount above they no longer depend on the host's load
# (trials: both kernels, then two patched and one baseline boot at once:
# patched pass with 0 leaks, baseline fails exactly as recorded).
cmdline=kmemleak=on
tests=usb/hcd-debugfs usb/gadget-classes usb/raw-vendor debug/kmemleak
# About 60 s with kmemleak on the baseline (its hung readers wait 5 s each).
timeout=150
