# Amiga FFS (fs/affs, drivers/staging/affs after the staging move) on real
# images made by tools/affs/affs-image (tools/affs/mkfs.affs filled with the content of
# tests/guest/affs/tree.h): a plain FFS volume and an FFS volume with
# directory cache on virtio-blk, an OFS international volume on usb-storage.
# affs/readback mounts each read-only and compares every entry with tree.h;
# affs/modify writes, renames, deletes, truncates, links, fsyncs and runs a
# verify job on the FFS and OFS volumes, remounts and checks the result, and
# sees the dircache volume mounted read-only (fs/affs never writes DOS\4 or
# DOS\5). affs/short-copy writes from buffers whose tail is a PROT_NONE page
# on the FFS and OFS volumes: each write must return the bytes it could
# copy and the file must hold exactly them. affs/ofs-write-end writes over
# whole data blocks an OFS file has (cached, and dropped from the block
# device's cache), extends a file right after an fsync, and reads each
# file's header and data block headers back from the disk.
# affs/ofs-stale-eof leaves a deleted file's bytes in free OFS blocks and
# checks that new files read zeros past their writes (a hole, ftruncate
# up, mmap of the last page), cached and after a remount. affs/ext-append
# appends to a file of more than 72 blocks after an fsync, on the FFS and
# OFS volumes, and reads it back after a remount.
# block/fio-verify then has Debian's fio write and verify files in a fresh
# directory of the FFS and the OFS volume, and deletes them. The host
# checks all three images with tools/affs/fsck.affs after the boot.
description=AFFS images on virtio-blk (FFS; FFS dircache) and usb-storage (OFS intl)
image=ffs.img 16 affs-image ffs
image=ffsdc.img 8 affs-image ffs,dircache
image=ofs.img 4 affs-image ofs,intl
qemu=-drive if=none,id=ffs,format=raw,file=ffs.img
qemu=-device virtio-blk-pci,drive=ffs,serial=bklfree-ffs
qemu=-drive if=none,id=ffsdc,format=raw,file=ffsdc.img
qemu=-device virtio-blk-pci,drive=ffsdc,serial=bklfree-ffsdc
qemu=-device qemu-xhci,id=xhci
qemu=-drive if=none,id=ofs,format=raw,file=ofs.img
qemu=-device usb-storage,bus=xhci.0,drive=ofs,serial=bklfree-ofs
cmdline=bklfree.disks=bklfree-ffs:16:vd,bklfree-ffsdc:8:vd,bklfree-ofs:4:sd
# block/fio-verify's targets (its header), after affs/modify: a file of
# 256 KiB per fio job in a fresh directory of the FFS volume (O_DIRECT:
# FFS has direct_IO) and of the OFS volume (buffered: OFS has none); the
# files and the directory are deleted and the volumes unmounted before the
# hostcheck= lines below check the images.
cmdline=bklfree.fio=affs:bklfree-ffs:direct:256,affs:bklfree-ofs:buffered:256
# fio keeps its job table in SysV shared memory.
kconfig=CONFIG_SYSVIPC=y
# block/fio-verify runs Debian's fio from the host's /usr.
tool=/usr/bin/fio
kconfig=CONFIG_STAGING=y
kconfig=CONFIG_MISC_FILESYSTEMS=y
kconfig=CONFIG_AFFS_FS=m
kconfig=CONFIG_BLK_DEV=y
kconfig=CONFIG_BLK_DEV_LOOP=m
kconfig=CONFIG_VIRTIO=y
kconfig=CONFIG_VIRTIO_BLK=m
kconfig=CONFIG_USB_SUPPORT=y
kconfig=CONFIG_USB=m
kconfig=CONFIG_USB_PCI=y
kconfig=CONFIG_USB_XHCI_HCD=m
kconfig=CONFIG_USB_XHCI_PCI=m
kconfig=CONFIG_SCSI=m
kconfig=CONFIG_BLK_DEV_SD=m
kconfig=CONFIG_USB_STORAGE=m
kconfig=CONFIG_INPUT_MOUSEDEV=m
module=virtio_blk
module=loop
module=affs
module=xhci-pci
module=usb-storage
module=sd_mod
# lseek/driver-lseek opens /dev/input/mice (finding 0112 needs it here).
module=mousedev
tests=affs/readback affs/modify affs/short-copy affs/ofs-write-end affs/ofs-stale-eof affs/ext-append lseek/driver-lseek block/fio-verify
hostcheck=fsck.affs ffs.img
hostcheck=fsck.affs ffsdc.img
hostcheck=fsck.affs ofs.img
timeout=300
