# A disk behind the Bulk-Only usb-storage driver and another behind UAS. The
# images hold a known pattern (one tag per 512-byte sector) that the guest
# reads back through the block device, sg and bsg.
description=usb-storage and usb-uas disks on xHCI: block, sg, bsg
image=bot.img 8
image=uas.img 8
qemu=-device qemu-xhci,id=xhci
qemu=-drive if=none,id=bot,format=raw,file=bot.img
qemu=-device usb-storage,bus=xhci.0,drive=bot,serial=bklfree-bot
qemu=-drive if=none,id=uas,format=raw,file=uas.img
qemu=-device usb-uas,bus=xhci.0,id=uas
qemu=-device scsi-hd,bus=uas.0,scsi-id=0,lun=0,drive=uas,serial=bklfree-uas
# The disks the guest must find, SERIAL:MIB:KIND (tests/guest/disks.h): the
# serial= and image= above, both SCSI disks.
cmdline=bklfree.disks=bklfree-bot:8:sd,bklfree-uas:8:sd
kconfig=CONFIG_USB_SUPPORT=y
kconfig=CONFIG_USB=m
kconfig=CONFIG_USB_PCI=y
kconfig=CONFIG_USB_XHCI_HCD=m
kconfig=CONFIG_USB_XHCI_PCI=m
kconfig=CONFIG_SCSI=m
kconfig=CONFIG_BLK_DEV_SD=m
kconfig=CONFIG_CHR_DEV_SG=m
kconfig=CONFIG_BLK_DEV_BSG=y
kconfig=CONFIG_USB_STORAGE=m
kconfig=CONFIG_USB_UAS=m
module=xhci-pci
module=usb-storage
module=uas
module=sd_mod
module=sg
tests=block/pattern scsi/sg-inquiry scsi/bsg-inquiry
# A boot takes 3-5 s under TCG. A disk that never shows up costs each of
# the three disk tests its 10 s wait (tests/guest/disks.h): 60 s still
# ends such a boot with a failure, not a hang.
timeout=60
