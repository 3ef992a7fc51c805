# The affs crash recipes as a regression test: tools/affs/affs-fuzz writes the
# images of tests/data/affs-crash/recipes (the bugs the affs-fuzz profile
# found, patches/drivers/0003-0007) and affs/fuzz-walk walks them as in
# affs-fuzz. Pristine 6.1 shows a lockdep report, a WARNING and an oops,
# then the hash chain loop soft-locks and softlockup_panic ends the boot
# (about 30 s under TCG); the patched kernel walks all of them (5 s).
description=AFFS crash recipes: the images of the affs-fuzz findings, walked as in affs-fuzz
image=crash.img 0 affs-fuzz --recipes tests/data/affs-crash/recipes
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
# A soft lockup is reported after twice watchdog_thresh: 10 s instead of the
# default 20 s, which ended the baseline boot at about 29 s; no image of the
# patched walk keeps the CPU for more than a fraction of a second.
cmdline=watchdog_thresh=5
cmdline=hung_task_panic=1
tests=affs/fuzz-walk
timeout=90
