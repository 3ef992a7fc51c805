# QEMU's usb-serial is an FTDI FT232 adapter. Its chardev is a unix socket
# the same QEMU connects back to from a 16550 UART (ttyS1), so bytes written
# to ttyUSB0 come out of ttyS1 and the other way round, without the host.
# The server chardev must come first: the client connects when it is
# created. QEMU attaches usb-serial to the bus only once its chardev is
# connected, so without the loop ttyUSB0 never appears.
description=usb-serial (FTDI) looped back to a 16550 UART through a socket
qemu=-device qemu-xhci,id=xhci
qemu=-chardev socket,id=usbser,path=usb-serial.sock,server=on,wait=off
qemu=-device usb-serial,bus=xhci.0,chardev=usbser
qemu=-chardev socket,id=uart,path=usb-serial.sock
qemu=-device isa-serial,chardev=uart,index=1
kconfig=CONFIG_USB_SUPPORT=y
kconfig=CONFIG_USB=m
kconfig=CONFIG_USB_PCI=y
kconfig=CONFIG_USB_XHCI_HCD=m
kconfig=CONFIG_USB_XHCI_PCI=m
kconfig=CONFIG_USB_SERIAL=m
kconfig=CONFIG_USB_SERIAL_FTDI_SIO=m
module=xhci-pci
module=ftdi_sio
tests=usb/serial-loop
timeout=60
