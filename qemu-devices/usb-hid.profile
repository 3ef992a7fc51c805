# USB keyboard, mouse and tablet on an xHCI controller. The guest opens the
# input, hidraw and hiddev nodes, asks for input with a "# bklfree-inject:"
# line, and the runner types and moves the pointer through the QEMU monitor.
description=qemu-xhci with usb-kbd, usb-mouse and usb-tablet: evdev, hidraw, hiddev
qemu=-device qemu-xhci,id=xhci
qemu=-device usb-kbd,bus=xhci.0
qemu=-device usb-mouse,bus=xhci.0
qemu=-device usb-tablet,bus=xhci.0
kconfig=CONFIG_USB_SUPPORT=y
kconfig=CONFIG_USB=y
kconfig=CONFIG_USB_PCI=y
kconfig=CONFIG_USB_XHCI_HCD=y
kconfig=CONFIG_USB_XHCI_PCI=y
kconfig=CONFIG_INPUT=y
kconfig=CONFIG_INPUT_EVDEV=y
kconfig=CONFIG_HID=y
kconfig=CONFIG_HIDRAW=y
kconfig=CONFIG_HID_GENERIC=y
kconfig=CONFIG_USB_HID=y
kconfig=CONFIG_USB_HIDDEV=y
tests=usb/hid-evdev usb/hidraw usb/hiddev
# Each tag is a "# bklfree-inject: TAG" line a guest test prints once its
# device node is open; the runner sends the commands for that tag.
inject=keyboard sendkey a
inject=keyboard sendkey shift-b
inject=mouse mouse_move 7 -5
inject=mouse mouse_button 1
inject=mouse mouse_button 0
# Enumerating three USB devices under TCG adds about 2 s to the boot.
timeout=60
