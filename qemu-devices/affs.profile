# Amiga FFS (fs/affs, drivers/staging/affs after the staging move) on real
# images made by tools/affs/affs-image (tools/affs/mkfs.affs filled with the content of
# tests/guest/affs/tree.h): a plain FFS volume and an FFS volume with
# directory cache on virtio-blk, an OFS international volume on usb-storage.
# affs/readback mounts each read-only and compares every entry with tree.h;
# affs/modify writes, renames, deletes, truncates, links, fsyncs and runs a
# verify job on the FFS and OFS volumes, remounts and checks the result, and
# sees the dircache volume mounted read-only (fs/affs never writes DOS\4 or
# DOS\5). The host checks all three images with tools/affs/fsck.affs after the
# boot.
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
kconfig=CONFIG_STAGING=y
kconfig=CONFIG_MISC_FILESYSTEMS=y
kconfig=CONFIG_AFFS_FS=y
kconfig=CONFIG_BLK_DEV=y
kconfig=CONFIG_BLK_DEV_LOOP=y
kconfig=CONFIG_VIRTIO=y
kconfig=CONFIG_VIRTIO_BLK=y
kconfig=CONFIG_USB_SUPPORT=y
kconfig=CONFIG_USB=y
kconfig=CONFIG_USB_PCI=y
kconfig=CONFIG_USB_XHCI_HCD=y
kconfig=CONFIG_USB_XHCI_PCI=y
kconfig=CONFIG_SCSI=y
kconfig=CONFIG_BLK_DEV_SD=y
kconfig=CONFIG_USB_STORAGE=y
tests=affs/readback affs/modify lseek/driver-lseek
hostcheck=fsck.affs ffs.img
hostcheck=fsck.affs ffsdc.img
hostcheck=fsck.affs ofs.img
timeout=300
