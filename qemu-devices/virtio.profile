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
# block/fio-verify's targets (its header): fio's three jobs of 1 MiB each
# on the virtio-blk and on the virtio-scsi disk, with O_DIRECT.
cmdline=bklfree.fio=blk:bklfree-vblk:direct:1024,blk:bklfree-vscsi:direct:1024
# fio keeps its job table in SysV shared memory.
kconfig=CONFIG_SYSVIPC=y
# block/fio-verify runs Debian's fio from the host's /usr.
tool=/usr/bin/fio
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
tests=virtio/hwrng virtio/vport block/pattern scsi/sg-inquiry scsi/bsg-inquiry block/fio-verify
# A boot takes 3-5 s under TCG, and block/fio-verify 3-7 s more (mostly
# fio's start: its libraries are read over 9p; a fio run is killed after
# 30 s). A disk that never shows up costs each of the four disk tests its
# 10 s wait (tests/guest/disks.h): 60 s still ends such a boot with a
# failure, not a hang.
timeout=60
