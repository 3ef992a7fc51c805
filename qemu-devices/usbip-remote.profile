# usbip between two guests on this machine, the importing side: the
# exporting guest is the peer profile (qemu-devices/peers/usbip-export),
# booted by scripts/lab/boot.sh beside this one on the same kernel. Each
# gets a virtio-net NIC on a QEMU datagram netdev over two unix sockets
# in the boot's folder, so the two eth0 see each other and nothing else. The peer's usbipd exports QEMU's usb-storage
# disk from 10.0.9.1; usb/usbip-remote imports it through vhci-hcd,
# reads and writes it, and detaches it. The peer's verdict is part of
# this boot's (a failed or hung peer fails it, as a host check).
description=usbip between two guests: a disk the peer guest's usbipd exports, imported over a QEMU datagram netdev through vhci-hcd
peer=usbip-export
tool=/usr/sbin/usbip
# The peer's kernel options too: a peer has no kconfig= lines of its own
# (the union config reads only the profiles of qemu-devices/).
kconfig=CONFIG_VIRTIO_NET=m
kconfig=CONFIG_USB_SUPPORT=y
kconfig=CONFIG_USB=m
kconfig=CONFIG_USB_PCI=y
kconfig=CONFIG_USB_XHCI_HCD=m
kconfig=CONFIG_USB_XHCI_PCI=m
kconfig=CONFIG_USBIP_CORE=m
kconfig=CONFIG_USBIP_HOST=m
kconfig=CONFIG_USBIP_VHCI_HCD=m
kconfig=CONFIG_SCSI=m
kconfig=CONFIG_BLK_DEV_SD=m
kconfig=CONFIG_USB_STORAGE=m
module=virtio_net
module=vhci-hcd
module=usb-storage delay_use=0
module=sd_mod
tests=usb/usbip-remote
# A boot takes about 20 s here under TCG, the peer beside it; the test
# waits up to 120 s for the peer's export and ends itself after 200 s.
timeout=300
