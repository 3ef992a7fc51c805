# A crafted AFFS image whose first hard link of small.txt is missing from
# its directory's hash chain (tests/data/affs-crash/recipes-link-leak):
# affs/loop-walks unlinks small.txt (ENOENT) and unmounts. Pristine 6.1
# keeps the directory inode affs_remove_link() got: "VFS: Busy inodes
# after unmount" WARNING, and the test's busy inode case fails. Apart
# from affs-loops, whose first image soft-locks the baseline boot before
# the console shows what came before it.
description=AFFS link leak image: a hard link off its directory's hash chain, its real entry unlinked
image=crash.img 0 affs-fuzz --recipes tests/data/affs-crash/recipes-link-leak
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
