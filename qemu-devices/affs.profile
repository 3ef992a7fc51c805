# Amiga FFS (fs/affs, drivers/staging/affs after the staging move) on real
# images made by tools/mkfs.affs from tests/data/affs-tree: an FFS volume with
# dircache on virtio-blk, an OFS international volume on usb-storage. The
# guest reads every file back against the manifest mkfs.affs wrote into the
# image's sidecar, then writes, renames, deletes, fsyncs and remounts; the
# host checks both images with tools/fsck.affs after the boot.
description=AFFS images on virtio-blk (FFS, dircache) and usb-storage (OFS, intl)
image=ffs.img 16 affs-image ffs,dircache
image=ofs.img 4 affs-image ofs,intl
qemu=-drive if=none,id=ffs,format=raw,file=ffs.img
qemu=-device virtio-blk-pci,drive=ffs,serial=bklfree-ffs
qemu=-device qemu-xhci,id=xhci
qemu=-drive if=none,id=ofs,format=raw,file=ofs.img
qemu=-device usb-storage,bus=xhci.0,drive=ofs,serial=bklfree-ofs
cmdline=bklfree.disks=bklfree-ffs:16:vd,bklfree-ofs:4:sd
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
tests=affs/readback affs/modify
hostcheck=fsck.affs ffs.img
hostcheck=fsck.affs ofs.img
timeout=120
