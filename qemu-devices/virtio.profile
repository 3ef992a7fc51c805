# The virtio devices a cloud guest meets: entropy, a serial port pair looped
# back inside QEMU, a block disk and a SCSI disk, each with a known pattern.
description=virtio rng, serial port pair, blk and scsi: hwrng, vport, block, sg, bsg
image=vblk.img 8
image=vscsi.img 8
qemu=-device virtio-rng-pci
qemu=-device virtio-serial-pci,id=vser
qemu=-chardev socket,id=porta,path=vport.sock,server=on,wait=off
qemu=-device virtserialport,bus=vser.0,chardev=porta,name=org.bklfree.a
qemu=-chardev socket,id=portb,path=vport.sock
qemu=-device virtserialport,bus=vser.0,chardev=portb,name=org.bklfree.b
qemu=-drive if=none,id=vblk,format=raw,file=vblk.img
qemu=-device virtio-blk-pci,drive=vblk,serial=bklfree-vblk
qemu=-device virtio-scsi-pci,id=vscsi
qemu=-drive if=none,id=vscsi,format=raw,file=vscsi.img
qemu=-device scsi-hd,bus=vscsi.0,drive=vscsi,serial=bklfree-vscsi
# The disks the guest must find, SERIAL:MIB:KIND (tests/guest/disks.h): the
# serial= and image= above, vd for virtio-blk, sd for the SCSI disk.
cmdline=bklfree.disks=bklfree-vblk:8:vd,bklfree-vscsi:8:sd
kconfig=CONFIG_VIRTIO=y
kconfig=CONFIG_HW_RANDOM=m
kconfig=CONFIG_HW_RANDOM_VIRTIO=m
kconfig=CONFIG_VIRTIO_CONSOLE=m
kconfig=CONFIG_BLK_DEV=y
kconfig=CONFIG_VIRTIO_BLK=m
kconfig=CONFIG_SCSI=m
kconfig=CONFIG_SCSI_LOWLEVEL=y
kconfig=CONFIG_SCSI_VIRTIO=m
kconfig=CONFIG_BLK_DEV_SD=m
kconfig=CONFIG_CHR_DEV_SG=m
kconfig=CONFIG_BLK_DEV_BSG=y
module=virtio-rng
module=virtio_console
module=virtio_blk
module=virtio_scsi
module=sd_mod
module=sg
tests=virtio/hwrng virtio/vport block/pattern scsi/sg-inquiry scsi/bsg-inquiry
# A boot takes 3-5 s under TCG. A disk that never shows up costs each of
# the three disk tests its 10 s wait (tests/guest/disks.h): 60 s still
# ends such a boot with a failure, not a hang.
timeout=60
