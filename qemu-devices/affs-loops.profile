# Crafted AFFS images whose chains loop (tests/data/affs-crash/recipes-loops,
# written by tools/affs/affs-fuzz's crafted recipes): affs/loop-walks mounts
# each read-write and does the one unlink (and create) that walks the
# corrupted chain. Pristine 6.1 loops for ever in affs_insert_hash() on the
# first image: softlockup_panic ends the boot. The patched kernel fails
# those operations with EIO, leaks nothing and prints a bounded number of
# lines for the extension chain that 0005 caps. The image pristine 6.1
# fails without a lockup is in affs-link-leak.
description=AFFS loop images: crafted hash, link and extension chain loops, unlinked and created in
image=crash.img 0 affs-fuzz --recipes tests/data/affs-crash/recipes-loops
qemu=-drive if=none,id=fuzz,format=raw,file=crash.img
qemu=-device virtio-blk-pci,drive=fuzz,serial=bklfree-fuzz
kconfig=CONFIG_STAGING=y
kconfig=CONFIG_MISC_FILESYSTEMS=y
kconfig=CONFIG_AFFS_FS=m
kconfig=CONFIG_BLK_DEV=y
kconfig=CONFIG_BLK_DEV_LOOP=m
kconfig=CONFIG_VIRTIO=y
kconfig=CONFIG_VIRTIO_BLK=m
module=virtio_blk
module=loop
module=affs
cmdline=softlockup_panic=1
# A soft lockup is reported after twice watchdog_thresh: 10 s.
cmdline=watchdog_thresh=5
cmdline=hung_task_panic=1
tests=affs/loop-walks
timeout=90
