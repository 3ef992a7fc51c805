# The exporting guest of usbip-remote (qemu-devices/usbip-remote.profile),
# never booted alone: scripts/lab/boot.sh boots it beside that profile on
# the same kernel, its results in results/KERNEL/usbip-remote/peer/, and
# adds the virtio-net NIC that joins the two. QEMU's usb-storage disk (an
# 8 MiB lab pattern image) on xHCI goes to usbip-host; Debian's usbipd
# exports it from 10.0.9.1 until the other guest has imported and
# detached it. Its kernel options are usbip-remote's kconfig= lines.
description=usbip exporter of usbip-remote: QEMU usb-storage through usbip-host and usbipd on 10.0.9.1
image=remote.img 8
qemu=-device qemu-xhci,id=xhci
qemu=-drive if=none,id=ud,format=raw,file=remote.img
qemu=-device usb-storage,bus=xhci.0,drive=ud,serial=bklfree-remote
tool=/usr/sbin/usbip
tool=/usr/sbin/usbipd
module=virtio_net
module=xhci-pci
module=usb-storage delay_use=0
module=sd_mod
module=usbip-host
tests=usb/usbip-export
# It waits up to 150 s for the import and 60 s for the detach, and ends
# itself after 240 s.
timeout=330
