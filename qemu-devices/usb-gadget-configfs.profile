# USB class devices QEMU has no model for, made inside the guest:
# dummy_hcd is a virtual host controller wired to a virtual device
# controller (dummy_udc). A configfs gadget (libcomposite) with printer,
# ACM, HID and FunctionFS functions enumerates on it and the host side's
# class drivers bind (usblp, cdc-acm, usbhid); gadgetfs takes the UDC
# after the configfs gadget leaves it. hid-generic binds the HID
# function's keyboard on the host side (hidraw0, and evdev's event node).
# The raw_gadget vendor devices are in usb-gadget.
# QEMU's EHCI and OHCI controllers are here for their debugfs files;
# ehci-dbg.c builds them only with CONFIG_DYNAMIC_DEBUG (the whole file is
# under that #ifdef), ohci-dbg.c always: the kernel has DYNAMIC_DEBUG, as
# Debian's does (no pr_debug prints unless switched on in its control
# file).
description=dummy_hcd configfs gadgets: printer, ACM, HID, FunctionFS; legacy gadgetfs; EHCI and OHCI debugfs
qemu=-device usb-ehci
qemu=-device pci-ohci
# Guest time from instructions executed (8 ns each), not the host's
# clock: the test's 5 s unplug waits then cost the same guest time on any
# host (usb-gadget has the same line for pcwd_usb's 250 ms).
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
kconfig=CONFIG_USB_GADGETFS=m
kconfig=CONFIG_USB_PRINTER=m
kconfig=CONFIG_USB_ACM=m
kconfig=CONFIG_HID=m
kconfig=CONFIG_USB_HID=m
kconfig=CONFIG_HIDRAW=y
kconfig=CONFIG_HID_GENERIC=m
kconfig=CONFIG_INPUT=y
kconfig=CONFIG_INPUT_EVDEV=m
module=ehci-pci
module=ohci-pci
module=dummy_hcd
module=libcomposite
module=usb_f_printer
module=usb_f_acm
module=usb_f_hid
module=usb_f_fs
module=gadgetfs
module=usblp
module=cdc-acm
module=usbhid
module=hid-generic
module=evdev
# Leaks of what the tests plugged, unplugged and left open: kmemleak
# scans last, in debug/kmemleak.
cmdline=kmemleak=on
tests=usb/hcd-debugfs usb/gadget-classes debug/kmemleak
timeout=120
