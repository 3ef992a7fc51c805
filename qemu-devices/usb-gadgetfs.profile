# Legacy gadgetfs (drivers/usb/gadget/legacy/inode.c) on dummy_hcd, for
# the one case that breaks the UDC on pristine 6.1: usb/gadgetfs-unbind
# acks SET_CONFIGURATION only after the host gave up on it, then closes
# the ep0 file with the status stage still queued. Pristine 6.1 frees the
# queued request in gadgetfs_unbind() (WARNING in dummy_free_request())
# and oopses in ep0_complete() called from dummy_udc_stop(); the killed
# test holds the UDC core's locks, so the poweroff's device_shutdown()
# would hang on them: oops=panic ends the baseline boot at that oops. A
# profile of its own so that the panic does not cut short another boot
# (its later tests and its function profile); the patched kernel
# (drivers 0306) closes cleanly and enumerates gadgetfs once more.
# gadgetfs's ordinary enumeration is also in usb-gadget-configfs
# (usb/gadget-classes). The kconfig lines are a subset of that profile's.
description=gadgetfs on dummy_hcd: ep0 closed with a late SET_CONFIGURATION ack still queued
kconfig=CONFIG_USB_SUPPORT=y
kconfig=CONFIG_USB=m
kconfig=CONFIG_USB_GADGET=m
kconfig=CONFIG_USB_DUMMY_HCD=m
kconfig=CONFIG_USB_GADGETFS=m
module=dummy_hcd
module=gadgetfs
cmdline=oops=panic
# Leaks of what the test plugged, unplugged and left open: kmemleak (in
# every lab kernel, off by default) scans last, in debug/kmemleak.
cmdline=kmemleak=on
tests=usb/gadgetfs-unbind debug/kmemleak
timeout=90
