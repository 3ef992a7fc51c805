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
# block/fio-verify's targets (its header): fio's three jobs of 1 MiB each
# on the BOT and on the UAS disk, with O_DIRECT.
cmdline=bklfree.fio=blk:bklfree-bot:direct:1024,blk:bklfree-uas:direct:1024
# fio keeps its job table in SysV shared memory.
kconfig=CONFIG_SYSVIPC=y
# block/fio-verify runs Debian's fio from the host's /usr.
tool=/usr/bin/fio
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
tests=block/pattern scsi/sg-inquiry scsi/bsg-inquiry block/fio-verify
# A boot takes 3-5 s under TCG, and block/fio-verify 3-7 s more (mostly
# fio's start: its libraries are read over 9p; a fio run is killed after
# 30 s). A disk that never shows up costs each of the four disk tests its
# 10 s wait (tests/guest/disks.h): 60 s still ends such a boot with a
# failure, not a hang.
timeout=60
