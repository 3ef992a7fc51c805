# A Roccat KonePure mouse, which QEMU has no model for, played by
# usb/roccat over raw_gadget on dummy_hcd (as usb-gadget's vendor devices
# are): usbhid binds its boot mouse interface, hid-roccat-konepure takes
# the HID device and the Roccat core (drivers/hid/hid-roccat.c) makes
# /dev/roccatkonepure0, whose special events come from interrupt-IN
# reports. A profile of its own, not a test in usb-gadget: the Roccat core
# takes mutexes in roccat_report_event(), which usbhid calls from the URB's
# completion, and its release after an unplug finds another device by
# minor: what this boot shows of that must not turn usb-gadget red.
description=dummy_hcd + raw_gadget: a Roccat KonePure mouse, the Roccat special-event node /dev/roccatkonepure0
kconfig=CONFIG_USB_SUPPORT=y
kconfig=CONFIG_USB=m
kconfig=CONFIG_USB_GADGET=m
kconfig=CONFIG_USB_DUMMY_HCD=m
kconfig=CONFIG_USB_RAW_GADGET=m
kconfig=CONFIG_HID=m
kconfig=CONFIG_USB_HID=m
kconfig=CONFIG_HID_ROCCAT=m
module=dummy_hcd
module=raw_gadget
module=usbhid
module=hid-roccat-konepure
# No kmemleak here: the baseline leaks the old file's roccat_device
# (drivers 0407), and kmemleak reports a leak only when no stale copy of
# its pointer survives in what it scans, so the baseline's verdict would
# change from run to run (CI once saw no leak). usb/roccat counts the
# devices' kmalloc and kfree with the tracer instead: exact on both.
tests=usb/roccat
# the test bounds itself at 60 s; boot and the lseek walk take about 20 s
timeout=100
