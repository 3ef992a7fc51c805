# USB keyboard, mouse and tablet on an xHCI controller. The guest opens the
# input, hidraw and hiddev nodes, asks for input with a "# bklfree-inject:"
# line, and the runner types and moves the pointer through the QEMU monitor.
description=qemu-xhci with usb-kbd, usb-mouse and usb-tablet: evdev, hidraw, hiddev
qemu=-device qemu-xhci,id=xhci
qemu=-device usb-kbd,bus=xhci.0
qemu=-device usb-mouse,bus=xhci.0
qemu=-device usb-tablet,bus=xhci.0
kconfig=CONFIG_USB_SUPPORT=y
kconfig=CONFIG_USB=m
kconfig=CONFIG_USB_PCI=y
kconfig=CONFIG_USB_XHCI_HCD=m
kconfig=CONFIG_USB_XHCI_PCI=m
kconfig=CONFIG_INPUT=y
kconfig=CONFIG_INPUT_EVDEV=m
kconfig=CONFIG_INPUT_MOUSEDEV=m
kconfig=CONFIG_HID=m
kconfig=CONFIG_HIDRAW=y
kconfig=CONFIG_HID_GENERIC=m
kconfig=CONFIG_USB_HID=m
kconfig=CONFIG_USB_HIDDEV=y
kconfig=CONFIG_USB_MON=m
kconfig=CONFIG_BLK_DEV=y
kconfig=CONFIG_BLK_DEV_LOOP=m
module=xhci-pci
# hiddev only takes HID interfaces with a non-input application collection;
# QEMU's keyboard, mouse and tablet (all 0627:0001) get it through the
# HIDDEV_FORCE quirk (0x10, include/linux/hid.h).
module=usbhid quirks=0x0627:0x0001:0x10
module=hid-generic
module=evdev
module=mousedev
# lseek/driver-lseek opens /dev/loop-control too.
module=loop
# The USB monitor watches the same bus (usb/usbmon).
module=usbmon
tests=usb/hid-evdev usb/hidraw usb/hiddev usb/usbmon lseek/driver-lseek
# Each tag is a "# bklfree-inject: TAG" line a guest test prints once its
# device nodes are open; the runner sends that tag's monitor commands. Every
# test has its own tags, so its events never reach another test. mouse_set
# picks the device that gets mouse_move and mouse_button: QEMU numbers its
# input handlers in creation order, PS/2 keyboard 1 and mouse 2 (machine pc
# always has them), then usb-kbd 3, usb-mouse 4 and usb-tablet 5. The
# monitor only sends relative motion, so the tablet gets clicks only.
# mouse_button takes QEMU's button bits: 1 left, 2 right, 4 middle (its
# help text swaps the last two). sendkey holds each key 100 ms.
inject=evdev-keys sendkey a
inject=evdev-keys sendkey shift-b
inject=evdev-mouse mouse_set 4
inject=evdev-mouse mouse_move 7 -5
inject=evdev-mouse mouse_button 1
inject=evdev-mouse mouse_button 0
inject=evdev-mouse mouse_move 0 0 1
inject=evdev-tablet mouse_set 5
inject=evdev-tablet mouse_button 1
inject=evdev-tablet mouse_button 0
inject=hidraw-keys sendkey a
inject=hidraw-keys sendkey shift-b
inject=hidraw-mouse mouse_set 4
inject=hidraw-mouse mouse_move -3 9
inject=hidraw-mouse mouse_button 2
inject=hidraw-mouse mouse_button 0
inject=hidraw-tablet mouse_set 5
inject=hidraw-tablet mouse_button 1
inject=hidraw-tablet mouse_button 0
inject=hiddev-keys sendkey a
inject=hiddev-keys sendkey shift-b
inject=hiddev-mouse mouse_set 4
inject=hiddev-mouse mouse_move 5 -2
# Enumerating three USB devices under TCG adds about 2 s to the boot; the
# three tests take 2-3 s more (5-7 s a boot, 13 s on a loaded host).
timeout=60
