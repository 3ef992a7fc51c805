# usbip loopback in one guest (issue 12, part 2): Debian's usbip userland,
# run from the host's /usr, exports QEMU's usb-storage disk and usb-kbd
# keyboard through usbip-host (usbipd on 127.0.0.1) and imports them again
# through vhci-hcd, where usb-storage and usbhid bind a second time. The
# imported disk gets fio's verified jobs and usbmon watches one write on
# both sides of the loopback; then attach/detach cycles with I/O in
# flight, and usbipd killed while a device is imported.
description=usbip loopback: QEMU usb-storage and usb-kbd exported by usbipd, imported through vhci-hcd; usbmon capture
image=usbip.img 8
qemu=-device qemu-xhci,id=xhci
qemu=-drive if=none,id=ud,format=raw,file=usbip.img
qemu=-device usb-storage,bus=xhci.0,drive=ud,serial=bklfree-usbip
qemu=-device usb-kbd,bus=xhci.0
# The imported disk, found by its serial (tests/guest/disks.h) once
# usb/usbip-import attached it: the local one is gone by then.
cmdline=bklfree.disks=bklfree-usbip:8:sd
cmdline=bklfree.fio=blk:bklfree-usbip:direct:1024
# usb/usbip-import asks for a key once the keyboard is imported, held 1 s
# rather than sendkey's 100 ms: behind usbip each interrupt poll is a TCP
# round trip through four kernel threads, and in one matrix run (two
# guests at once) a 100 ms key never reached evdev; why is not settled.
inject=usbip-key sendkey a 1000
timing=the injected key must reach evdev through usbip's TCP round trips while it is held
tool=/usr/sbin/usbip
tool=/usr/sbin/usbipd
tool=/usr/bin/fio
kconfig=CONFIG_SYSVIPC=y
kconfig=CONFIG_USB_SUPPORT=y
kconfig=CONFIG_USB=m
kconfig=CONFIG_USB_PCI=y
kconfig=CONFIG_USB_XHCI_HCD=m
kconfig=CONFIG_USB_XHCI_PCI=m
kconfig=CONFIG_USB_MON=m
kconfig=CONFIG_USBIP_CORE=m
kconfig=CONFIG_USBIP_HOST=m
kconfig=CONFIG_USBIP_VHCI_HCD=m
kconfig=CONFIG_SCSI=m
kconfig=CONFIG_BLK_DEV_SD=m
kconfig=CONFIG_USB_STORAGE=m
kconfig=CONFIG_HID=m
kconfig=CONFIG_USB_HID=m
kconfig=CONFIG_HID_GENERIC=m
kconfig=CONFIG_INPUT=y
kconfig=CONFIG_INPUT_EVDEV=m
module=xhci-pci
# Without the 1 s settle delay every imported disk costs a second more.
module=usb-storage delay_use=0
module=sd_mod
module=usbhid
module=hid-generic
module=evdev
module=usbmon
module=usbip-host
module=vhci-hcd
# Leaks of what the tests plugged, unplugged and left open: kmemleak (in
# every lab kernel, off by default) scans last, in debug/kmemleak.
cmdline=kmemleak=on
tests=usb/usbip-import block/fio-verify usb/usbmon-capture usb/usbip-cycles debug/kmemleak
timeout=300
